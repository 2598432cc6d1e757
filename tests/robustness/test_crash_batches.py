"""Crash safety of the sweep's batches (issue #34): a burst of due reminders is written many
games to a transaction and delivered many notices to a claim; a SIGKILL inside a batch
sends nothing twice and loses nothing.

Seven games, each between players of their own, with 3 days a move; at 1.6 days each
"50% of your time" warning is due. The bot runs with batches of three
(``FAIRYPOST_DRIVER_BATCH``: three games to a sweep transaction, three notices to a claim,
and the outbox marks what it sent only at a batch's end, the most a kill can catch
unmarked) and is killed:

* ``in_batch``: inside the sweep's first transaction, its three turns written and not
  committed: nothing of it stays, and the restart writes all seven;
* ``before_send`` at the fourth notice: the first delivery batch sent and marked, the
  second claimed and the notifier called, nothing of it sent: the restart sends it, once;
* ``after_send`` at the fifth notice: two notices of the second batch delivered and not
  yet marked: the restart hands them to the notifier again with the same ``event_id``,
  which drops them (the outbox's documented way to never show a repeat).

After two restarts every warning is sent, every event marked sent, and the user saw each
warning exactly once.
"""
from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from .common import integrity
from .test_crash import T0, T1, lines, run_and_kill_at, run_to_end

GAMES = 7
BATCH = {"FAIRYPOST_DRIVER_BATCH": "3"}
SIGNAL = {"in_batch": "IN_BATCH", "before_send": "CLAIMED", "after_send": "DELIVERED"}


def run_and_kill(hang: str, at: int, *args) -> str:
    return run_and_kill_at(hang, *args, env={**BATCH, "FAIRYPOST_DRIVER_HANG_AT": str(at)}, signals=SIGNAL)


def state(db: Path) -> tuple[list, list]:
    con = sqlite3.connect(db)
    try:
        reminders = con.execute("SELECT game_id, status, event_id FROM reminders WHERE kind = '50%' "
                                "ORDER BY game_id").fetchall()
        events = con.execute("SELECT id, status FROM events WHERE kind = 'time_warning' ORDER BY id").fetchall()
    finally:
        con.close()
    return reminders, events


@pytest.mark.parametrize("hang,at", [("in_batch", 1), ("before_send", 4), ("after_send", 5)])
def test_a_kill_inside_a_batch_sends_nothing_twice_and_loses_nothing(tmp_path, hang, at):
    db, logs = tmp_path / "games.db", tmp_path
    ready = run_to_end(db, "setup-remind", logs, "--now", T0.isoformat(), "--games", GAMES, env=BATCH)
    assert len(ready.split()) == GAMES + 1

    run_and_kill(hang, at, db, "remind", logs, "--now", T1.isoformat())
    assert integrity(db) == ("ok", [])
    reminders, events = state(db)
    delivered = [line for line in lines(logs / "delivered.log") if "time_warning" in line]
    if hang == "in_batch":   # the first transaction died whole: nothing of the burst written
        assert [r[1] for r in reminders] == ["pending"] * GAMES and events == [] and delivered == []
    elif hang == "before_send":   # one batch delivered and marked; the next claimed, none sent
        assert [s for _, s in events].count("sent") == 3 and len(delivered) == 3
        assert [s for _, s in events].count("claimed") == 3
    else:   # the second batch's first two delivered, not yet marked
        assert [s for _, s in events].count("sent") == 3 and len(delivered) == 5
        assert [s for _, s in events].count("claimed") == 3

    for _ in range(2):   # the restart, and one more
        assert run_to_end(db, "remind", logs, "--now", T1.isoformat(), env=BATCH).strip().endswith("EXIT")
    reminders, events = state(db)
    assert len(reminders) == GAMES and all(status == "sent" for _, status, _ in reminders)
    assert events == [(eid, "sent") for _, _, eid in reminders]
    delivered = [line.split() for line in lines(logs / "delivered.log")]
    warned = sorted(int(eid) for eid, kind, _who in delivered if kind == "time_warning")
    assert warned == sorted(eid for eid, _ in events), "a warning lost or seen twice"
    assert len({eid for eid, *_ in delivered}) == len(delivered), "a notice seen twice"
    dups = [line for line in lines(logs / "attempts.log") if line.startswith("DUP")]
    # a kill after a delivery and before its batch's mark hands those notices over again,
    # with their ids, and the notifier drops them: the user still sees each once
    assert len(dups) == (2 if hang == "after_send" else 0), dups
    assert integrity(db) == ("ok", [])
