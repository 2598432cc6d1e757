"""A tournament's start and a round's start write their pairings in one conditional
transaction, then make the games in batches, a transaction each (bot/tournaments/batches.py):
a process killed (SIGKILL) in the middle keeps the batches committed, the event shows
"starting", and the next try (the command again, or a restarted bot's sweep) makes the rest,
every game exactly once. Real processes (crash_driver.py, 5 games a batch) on a SQLite file,
and on PostgreSQL when FAIRYPOST_TEST_POSTGRES names a server."""
from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.bot.backends import BACKENDS, fresh_database

DRIVER = Path(__file__).with_name("crash_driver.py")


def run(db: str, *args: str | int) -> str:
    done = subprocess.run([sys.executable, str(DRIVER), db, *map(str, args)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def run_and_kill(db: str, *args: str | int) -> None:
    """Run until the driver says HANG (inside the transaction), then SIGKILL it."""
    proc = subprocess.Popen([sys.executable, str(DRIVER), db, *map(str, args)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline().strip()
        assert line == "HANG", (line, proc.stderr.read() if proc.poll() is not None else "")
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def state(db: str, tid: int) -> dict:
    got = json.loads(run(db, "state", tid))
    if not db.startswith("postgres"):
        con = sqlite3.connect(db)
        try:
            assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        finally:
            con.close()
    return got


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_start_killed_half_way_keeps_its_batches_and_the_next_makes_every_game_once(backend, tmp_path):
    async with fresh_database(backend, tmp_path) as db:
        await asyncio.to_thread(_start_killed_half_way, db)


def _start_killed_half_way(db: str) -> None:
    tid = int(run(db, "setup", 6, "round-robin"))  # 15 games
    before = state(db, tid)
    assert before["status"] == "open" and before["games"] == 0
    run_and_kill(db, "start", tid, 8)  # killed with the 8th game made, in the second batch of 5
    cut = state(db, tid)
    assert cut["status"] == "running" and cut["starting"]  # begun, shown "starting"
    assert cut["games"] == cut["pairs"] == 5  # the first batch stands, the second is undone
    assert sum(n for _, n in cut["rounds"]) == cut["games"]  # each game made is its pairing's
    assert run(db, "start", tid) == "STARTED 15"  # the command again finishes it
    after = state(db, tid)
    assert after["status"] == "running" and not after["starting"]
    assert after["rounds"] == [[r, 3] for r in range(1, 6)]  # 5 rounds of 3
    assert after["games"] == after["pairs"] == 15  # every pair once


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_start_killed_half_way_is_finished_by_the_sweep(backend, tmp_path):
    async with fresh_database(backend, tmp_path) as db:
        await asyncio.to_thread(_start_finished_by_the_sweep, db)


def _start_finished_by_the_sweep(db: str) -> None:
    tid = int(run(db, "setup", 7, "round-robin"))  # 21 games
    run_and_kill(db, "start", tid, 12)
    assert state(db, tid)["starting"]
    assert run(db, "sweep") == "SWEPT 1"  # a restarted bot's sweep makes the rest
    assert run(db, "sweep") == "SWEPT 0"  # and only once
    after = state(db, tid)
    assert not after["starting"] and after["games"] == after["pairs"] == 21


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_swiss_round_killed_half_way_is_made_once_by_the_sweep(backend, tmp_path):
    async with fresh_database(backend, tmp_path) as db:
        await asyncio.to_thread(_swiss_round_killed_half_way, db)


def _swiss_round_killed_half_way(db: str) -> None:
    tid = int(run(db, "setup", 8, "swiss"))
    assert run(db, "start", tid) == "STARTED 4"
    run_and_kill(db, "end-round", tid, 2)  # round 1's last game ended; round 2 killed at its 2nd game
    got = state(db, tid)
    # round 2 is paired (its one conditional step), its games' batch undone
    assert (got["status"], got["round"], got["rounds"], got["games"]) == ("running", 2, [[1, 4], [2, 0]], 4)
    assert got["starting"]
    assert run(db, "sweep") == "SWEPT 1"  # a restarted bot's sweep makes them
    assert run(db, "sweep") == "SWEPT 0"  # and only once
    got = state(db, tid)
    assert (got["round"], got["rounds"], got["games"], got["pairs"]) == (2, [[1, 4], [2, 4]], 8, 8)
    assert not got["starting"]
