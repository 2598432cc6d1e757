"""Crash safety on PostgreSQL with two processes writing (issue #22): two bot processes
(``driver.py play --who A`` and ``--who B``) play their own games on one database, each
printing ``ACK`` after every commit, and both are SIGKILLed at seeded random moments,
``PG_KILLS`` rounds (3; 20 with ``FAIRYPOST_LONG=1``). Each delivers any notice (their
notifier takes every platform), into one shared log. After every round: each acknowledged
move is stored at its ply, each game's moves are a prefix of its plan with no gap, and each
run committed its acknowledged moves plus at most one. Then both play everything out: every
game is its plan, no notice is left undelivered (each event sent, or obsolete), and a
notice was delivered twice only in the documented window (delivered, then killed before
it was marked sent): at most once per kill.

Defined only when ``FAIRYPOST_TEST_POSTGRES`` names a server (tests/bot/backends.py); the
SQLite crash tests are test_crash.py."""
from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import time
from collections import Counter

from tests.bot.backends import POSTGRES_URL, drop_database, make_database

from .common import LONG
from .test_crash import kill, read_line, spawn

PG_KILLS = int(os.environ.get("FAIRYPOST_PG_KILLS", "20" if LONG else "3"))
WHO = ("A", "B")


def _fetch(url: str, sql: str, *args) -> list:
    import asyncpg

    async def run():
        conn = await asyncpg.connect(url)
        try:
            return await conn.fetch(sql, *args)
        finally:
            await conn.close()
    return asyncio.run(run())


def stored(url: str, who: str) -> list[list[str]]:
    """The moves of each game ``who``'s players play, in game order (ply count checked)."""
    games = _fetch(url, "SELECT g.id, g.ply FROM games g JOIN players p ON p.id = g.white_id "
                        "WHERE p.user_id = $1 ORDER BY g.id", f"w{who}")
    out = []
    for g in games:
        moves = _fetch(url, "SELECT ply, lan FROM moves WHERE game_id = $1 ORDER BY ply", g["id"])
        assert [m["ply"] for m in moves] == list(range(1, g["ply"] + 1)), f"game #{g['id']}: a gap"
        out.append([m["lan"] for m in moves])
    return out


def _dead_clients_done(url: str, timeout: float = 30) -> None:
    """Until the killed processes' server sessions have ended. A COMMIT sent just before the
    kill is still carried out by the server, a moment later; counting the stored moves before
    that would put the move in the next round's count."""
    deadline = time.monotonic() + timeout
    while True:
        left = _fetch(url, "SELECT count(*) AS n FROM pg_stat_activity WHERE backend_type = "
                           "'client backend' AND datname = current_database() "
                           "AND pid <> pg_backend_pid()")[0]["n"]
        if left == 0:
            return
        assert time.monotonic() < deadline, f"{left} sessions of killed processes still open"
        time.sleep(0.05)


def plan_of(seed: int) -> list:
    from tests.rules.randgames import random_game
    plan = []
    for k, game in enumerate(("chess", "grandducal")):
        plan.append([game, [mv.lan for _p, mv in random_game(game, seed * 10 + k, 40) if mv is not None]])
    return plan


if POSTGRES_URL:
    def test_two_processes_killed_lose_no_acknowledged_move_and_no_notice(tmp_path):
        database, url = asyncio.run(make_database())
        try:
            _two_processes(url, tmp_path)
        finally:
            asyncio.run(drop_database(database))


def _two_processes(url: str, tmp_path) -> None:
    rng = random.Random(22)
    plans, files = {}, {}
    for i, who in enumerate(WHO):
        plans[who] = plan_of(i + 1)
        files[who] = tmp_path / f"plan-{who}.json"
        files[who].write_text(json.dumps(plans[who]))
    log = tmp_path / "log"
    log.mkdir()
    acked: dict[str, dict] = {who: {} for who in WHO}
    totals = {who: 0 for who in WHO}
    for _round in range(PG_KILLS):
        procs = {who: spawn(url, "play", files[who], "--who", who, "--log", log) for who in WHO}
        for proc in procs.values():  # both started (or already gone)
            line = read_line(proc)
            assert line.strip() == "READY" or proc.poll() is not None, line
        time.sleep(rng.uniform(0.1, 0.6))
        outputs = {}
        for who in rng.sample(WHO, 2):  # one after the other: the second writes on meanwhile
            outputs[who] = kill(procs[who])
            time.sleep(rng.uniform(0.0, 0.2))
        _dead_clients_done(url)
        for who, (out, err) in outputs.items():
            assert procs[who].returncode in (-signal.SIGKILL, 0), err
            run_acks = [line.split()[1:] for line in out.splitlines() if line.startswith("ACK ")]
            for ply, lan, k in run_acks:
                acked[who][(int(k), int(ply))] = lan
            games = stored(url, who)
            for k, lans in enumerate(games):
                assert lans == plans[who][k][1][:len(lans)], f"{who} game {k}: not the plan"
            for (k, ply), lan in acked[who].items():
                assert k < len(games) and ply <= len(games[k]) and games[k][ply - 1] == lan, \
                    f"{who}: acknowledged move {ply} of game {k} lost"
            total = sum(len(g) for g in games)
            assert len(run_acks) <= total - totals[who] <= len(run_acks) + 1
            totals[who] = total
    # both play everything out, without a kill
    procs = {who: spawn(url, "play", files[who], "--who", who, "--log", log) for who in WHO}
    for who, proc in procs.items():
        out, err = proc.communicate(timeout=600)
        assert proc.returncode == 0 and out.splitlines()[-1] == "DONE", err
        assert stored(url, who) == [lans for _game, lans in plans[who]]
    events = _fetch(url, "SELECT id, status FROM events ORDER BY id")
    left = [(e["id"], e["status"]) for e in events if e["status"] not in ("sent", "obsolete")]
    assert left == [], f"notices not delivered: {left}"
    delivered = Counter(int(line.split()[0]) for line in (log / "delivered.log").read_text().splitlines())
    sent = {e["id"] for e in events if e["status"] == "sent"}
    assert sent <= set(delivered), f"sent but never delivered: {sorted(sent - set(delivered))[:5]}"
    repeats = sum(n - 1 for n in delivered.values())
    assert repeats <= 2 * PG_KILLS, repeats
    print(f"{PG_KILLS} rounds of 2 SIGKILLs, {sum(totals.values())} moves, {len(sent)} notices, "
          f"{repeats} repeats")
