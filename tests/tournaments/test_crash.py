"""A tournament's start and a round's start are one transaction each: a process killed
(SIGKILL) in the middle of making the games leaves none of them, and the event as it was;
the next try (the command again, or a restarted bot's sweep) makes every game exactly once.
Real processes (crash_driver.py) on a SQLite file, and on PostgreSQL when
FAIRYPOST_TEST_POSTGRES names a server."""
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
async def test_a_start_killed_half_way_leaves_nothing_and_the_next_makes_every_game_once(backend, tmp_path):
    async with fresh_database(backend, tmp_path) as db:
        await asyncio.to_thread(_start_killed_half_way, db)


def _start_killed_half_way(db: str) -> None:
    tid = int(run(db, "setup", 6, "round-robin"))  # 15 games, all at once
    before = state(db, tid)
    run_and_kill(db, "start", tid, 8)  # killed with 8 of the 15 games made
    assert state(db, tid) == before and before["status"] == "open" and before["games"] == 0
    assert run(db, "start", tid) == "STARTED 15"
    after = state(db, tid)
    assert after["status"] == "running" and after["rounds"] == [[r, 3] for r in range(1, 6)]  # 5 rounds of 3
    assert after["games"] == after["pairs"] == 15  # every pair once


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_swiss_round_killed_half_way_is_made_once_by_the_sweep(backend, tmp_path):
    async with fresh_database(backend, tmp_path) as db:
        await asyncio.to_thread(_swiss_round_killed_half_way, db)


def _swiss_round_killed_half_way(db: str) -> None:
    tid = int(run(db, "setup", 8, "swiss"))
    assert run(db, "start", tid) == "STARTED 4"
    run_and_kill(db, "end-round", tid, 2)  # round 1's last game ended; round 2 killed at its 2nd game
    got = state(db, tid)
    assert (got["status"], got["round"], got["rounds"], got["games"]) == ("running", 1, [[1, 4]], 4)
    assert run(db, "sweep") == "SWEPT 1"  # a restarted bot's sweep starts it
    assert run(db, "sweep") == "SWEPT 0"  # and only once
    got = state(db, tid)
    assert (got["round"], got["rounds"], got["games"], got["pairs"]) == (2, [[1, 4], [2, 4]], 8, 8)
