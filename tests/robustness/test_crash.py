"""Crash safety (issue #12, parts 3 and 4): SIGKILL at any moment, then a restart.

Moves: ``driver.py play`` plays a stream of games (every game, random legal moves)
through the service on one database file and prints ``ACK <ply> <lan> <game#>`` after
each commit. It is killed with SIGKILL at seeded random moments -- a quarter of the kills
at any time from its spawn (start-up, migrations and outbox recovery included), the rest
while it plays -- ``KILLS`` times (20; 200 with ``FAIRYPOST_LONG=1``). After every kill:
``PRAGMA integrity_check`` is ok and ``foreign_key_check`` empty; every acknowledged move
is in the database at its ply; each game's moves are exactly a prefix of its plan, with no
gap; and the moves committed by the run are its acknowledged ones plus at most one (a
kill between a commit and its ACK). Then a run without a kill plays everything out, and
every game's stored position is the engine's replay of its moves.

Reminders: a game with 3 days a move; at 1.6 days its "50% of your time" warning is due.
The bot is started (``driver.py remind``: open, reminder scheduler's catch-up sweep) and
killed at each moment between the warning's due time and its being marked sent, then
started again (twice). The user sees the warning exactly once:

* ``before_sweep`` (due, nothing done), ``after_collect`` (an outbox event, pending),
  ``before_send`` (claimed, not delivered): the restart sends it, once;
* ``after_sweep`` (delivered and marked sent): the restart does not send it again;
* ``after_send`` (delivered, not yet marked sent -- the one window of one UPDATE): the
  restart does hand it to the notifier a second time, with the same ``event_id``; the
  notifier drops the id it has already delivered, so the user still sees it once. The test
  shows both: two notifier calls, one delivery.
"""
from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest

import rules
from tests.rules.randgames import random_game

from .common import KILLS, LONG, T0, integrity

DRIVER = Path(__file__).with_name("driver.py")
ROOT = Path(__file__).resolve().parents[2]
PLAN_GAMES = ["chess", "kingqueen", "grandducal", "superchess", "ganymede", "gigachess2"]


def make_plan(seed: int) -> list:
    plies = 300 if LONG else 50
    rounds = 2 if LONG else 1
    plan = []
    for k, game in enumerate(PLAN_GAMES * rounds):
        if game not in rules.variants():
            continue
        lans = [mv.lan for _pos, mv in random_game(game, seed * 100 + k, plies) if mv is not None]
        plan.append([game, lans])
    return plan


def spawn(*args, env=None) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, str(DRIVER), *map(str, args)], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, **(env or {})})


def read_line(proc: subprocess.Popen) -> str:
    """One line of the child's output, read a byte at a time from the pipe itself: a
    buffered ``readline`` could take the ACK lines after it into a buffer that
    ``communicate`` (reading the pipe's descriptor) never sees."""
    got = bytearray()
    while not got.endswith(b"\n"):
        byte = os.read(proc.stdout.fileno(), 1)
        if not byte:
            break
        got += byte
    return got.decode()


def kill(proc: subprocess.Popen) -> tuple[str, str]:
    if proc.poll() is None:
        os.kill(proc.pid, signal.SIGKILL)
    out, err = proc.communicate(timeout=60)
    return out, err


def db_moves(db: Path) -> list[list[tuple[int, str]]]:
    con = sqlite3.connect(db)
    try:
        games = con.execute("SELECT id, ply FROM games ORDER BY id").fetchall()
        out = []
        for gid, ply in games:
            moves = con.execute("SELECT ply, lan FROM moves WHERE game_id = ? ORDER BY ply", (gid,)).fetchall()
            assert len(moves) == ply, f"game #{gid}: ply {ply} but {len(moves)} moves stored"
            out.append(moves)
        return out
    finally:
        con.close()


def check_after_kill(db: Path, plan: list, acked: dict, run_acks: list, before_total: int) -> int:
    if not db.exists():
        assert not acked, "moves were acknowledged but the database is gone"
        return 0
    status, fks = integrity(db)
    assert status == "ok", status
    assert fks == [], fks
    games = db_moves(db)
    assert len(games) <= len(plan)
    for k, moves in enumerate(games):
        assert [p for p, _ in moves] == list(range(1, len(moves) + 1)), f"game {k}: a gap"
        assert [lan for _, lan in moves] == plan[k][1][:len(moves)], f"game {k}: not the plan"
    for (k, ply), lan in acked.items():
        assert k < len(games) and ply <= len(games[k]), f"acknowledged move {ply} of game {k} lost"
        assert games[k][ply - 1][1] == lan
    total = sum(len(m) for m in games)
    new = total - before_total
    assert len(run_acks) <= new <= len(run_acks) + 1, (len(run_acks), new)
    return total


def test_sigkill_while_playing_loses_no_acknowledged_move(tmp_path):
    rng = random.Random(2025)
    plan = make_plan(7)
    plan_file = tmp_path / "plan.json"
    plan_file.write_text(json.dumps(plan))
    db = tmp_path / "games.db"
    acked: dict[tuple[int, int], str] = {}
    total, kills, done = 0, 0, False
    while kills < KILLS and not done:
        proc = spawn(db, "play", plan_file)
        if rng.random() < 0.25:
            time.sleep(rng.uniform(0.0, 1.0))       # any moment: start-up included
        else:
            line = read_line(proc)
            assert line.strip() == "READY" or proc.poll() is not None, line
            time.sleep(rng.uniform(0.0, 0.3))
        out, err = kill(proc)
        kills += 1
        assert proc.returncode in (-signal.SIGKILL, 0), err
        run_acks = []
        for line in out.splitlines():
            if line.startswith("ACK "):
                _, ply, lan, k = line.split()
                run_acks.append(((int(k), int(ply)), lan))
            done = done or line == "DONE"
        acked.update(run_acks)
        total = check_after_kill(db, plan, acked, run_acks, total)
    # play goes on: a run without a kill plays everything out
    proc = spawn(db, "play", plan_file)
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err
    assert out.splitlines()[-1] == "DONE"
    for line in out.splitlines():
        if line.startswith("ACK "):
            _, ply, lan, k = line.split()
            acked[(int(k), int(ply))] = lan
    games = db_moves(db)
    assert [[lan for _, lan in g] for g in games] == [lans for _game, lans in plan]
    assert len(acked) >= sum(len(lans) for _game, lans in plan) - kills   # a kill loses at most an ACK
    assert integrity(db) == ("ok", [])
    # every stored position is the replay of its moves
    con = sqlite3.connect(db)
    rows = con.execute("SELECT game, start_vfen, current_vfen, status, id FROM games ORDER BY id").fetchall()
    con.close()
    for (game, start, current, status, gid), (_g, lans) in zip(rows, plan, strict=True):
        pos = rules.from_fen(game, start)
        for lan in lans:
            pos = pos.play(lan)
        assert current == pos.fen(), f"game #{gid}"
        assert (status == "finished") == (pos.outcome() is not None)
    print(f"{kills} SIGKILLs, {sum(len(g) for g in games)} moves, {len(plan)} games")


# --- reminders ---------------------------------------------------------------------------------

T1 = T0 + timedelta(days=1, hours=14, minutes=24)   # 1.6 days: the 50% warning is due (at 1.5)
SIGNALS = {"before_sweep": "DUE", "after_collect": "COLLECTED", "before_send": "CLAIMED",
           "after_send": "DELIVERED", "after_sweep": "SWEPT"}


def run_to_end(*args, env=None) -> str:
    proc = spawn(*args, env=env)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    return out


def run_and_kill_at(hang: str, *args, env=None, signals=SIGNALS) -> str:
    """Run the driver until it says it reached ``hang`` (its line in ``signals``), then
    SIGKILL it; the line it said."""
    proc = spawn(*args, env={**(env or {}), "FAIRYPOST_DRIVER_HANG": hang})
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        line = read_line(proc)
        if not line:
            break
        if line.split()[0] == signals[hang]:
            kill(proc)
            return line.strip()
    out, err = kill(proc)
    pytest.fail(f"the driver never reached {hang}: {out} {err}")


def warning_state(db: Path) -> tuple:
    con = sqlite3.connect(db)
    try:
        r = con.execute("SELECT status, event_id FROM reminders WHERE kind = '50%'").fetchone()
        e = con.execute("SELECT id, status FROM events WHERE kind = 'time_warning'").fetchall()
    finally:
        con.close()
    return r, e


def lines(path: Path) -> list[str]:
    return path.read_text().splitlines() if path.exists() else []


@pytest.mark.parametrize("hang", list(SIGNALS))
def test_a_due_reminder_survives_a_kill_and_is_seen_once(tmp_path, hang):
    db, logs = tmp_path / "games.db", tmp_path
    assert run_to_end(db, "setup-remind", logs, "--now", T0.isoformat()).startswith("READY")
    seen = lines(logs / "delivered.log")
    # (the first mover's game_started says it is their move: no your_move after it)
    assert [line.split()[1] for line in seen] == ["challenge_received", "offer_settled", "game_started",
                                                  "game_started"]

    signal_line = run_and_kill_at(hang, db, "remind", logs, "--now", T1.isoformat())
    reminder, events = warning_state(db)
    assert integrity(db) == ("ok", [])
    delivered = [line for line in lines(logs / "delivered.log") if "time_warning" in line]
    if hang == "before_sweep":
        assert reminder == ("pending", None) and events == [] and delivered == []
    elif hang == "after_collect":
        assert reminder[0] == "sent" and events == [(reminder[1], "pending")] and delivered == []
    elif hang == "before_send":
        assert events == [(reminder[1], "claimed")] and delivered == []
        assert signal_line == f"CLAIMED {reminder[1]}"
    elif hang == "after_send":
        assert events == [(reminder[1], "claimed")] and len(delivered) == 1   # the user has it
    else:
        assert events == [(reminder[1], "sent")] and len(delivered) == 1

    for _ in range(2):   # the restart, and one more
        assert run_to_end(db, "remind", logs, "--now", T1.isoformat()).strip().endswith("EXIT")
    reminder, events = warning_state(db)
    eid = reminder[1]
    assert reminder[0] == "sent" and events == [(eid, "sent")]
    delivered = lines(logs / "delivered.log")
    assert [line for line in delivered if "time_warning" in line] == [f"{eid} time_warning White"]
    assert len({line.split()[0] for line in delivered}) == len(delivered), "a notice seen twice"
    calls = [line for line in lines(logs / "attempts.log") if line.split()[-1] == "time_warning"
             or line == f"DUP {eid}"]
    if hang == "after_send":   # the window: delivered, killed before marked sent
        assert calls == [f"{eid} time_warning", f"{eid} time_warning", f"DUP {eid}"]
    elif hang == "before_send":   # the notifier was called, then killed before it sent anything
        assert calls == [f"{eid} time_warning", f"{eid} time_warning"]
    else:
        assert calls == [f"{eid} time_warning"], calls
    assert integrity(db) == ("ok", [])
