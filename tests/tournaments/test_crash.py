"""A tournament's start and a round's start are one transaction each: a process killed
(SIGKILL) in the middle of making the games leaves none of them, and the event as it was;
the next try (the command again, or a restarted bot's sweep) makes every game exactly once.
Real processes on a real SQLite file (crash_driver.py)."""
from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

DRIVER = Path(__file__).with_name("crash_driver.py")


def run(db: Path, *args: str | int) -> str:
    done = subprocess.run([sys.executable, str(DRIVER), str(db), *map(str, args)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def run_and_kill(db: Path, *args: str | int) -> None:
    """Run until the driver says HANG (inside the transaction), then SIGKILL it."""
    proc = subprocess.Popen([sys.executable, str(DRIVER), str(db), *map(str, args)],
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


def state(db: Path, tid: int) -> tuple[str, int, list[tuple[int, int]], int]:
    """(status, round, [(round, games)] of its pairings, games in the database)."""
    con = sqlite3.connect(db)
    try:
        status, rnd = con.execute("SELECT status, round FROM tournaments WHERE id = ?", (tid,)).fetchone()
        rounds = con.execute("SELECT round, COUNT(game_id) FROM tournament_pairings WHERE tournament_id = ? "
                             "GROUP BY round ORDER BY round", (tid,)).fetchall()
        games = con.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        con.close()
    return status, rnd, rounds, games


def test_a_start_killed_half_way_leaves_nothing_and_the_next_makes_every_game_once(tmp_path):
    db = tmp_path / "games.db"
    tid = int(run(db, "setup", 6, "round-robin"))  # 15 games, all at once
    before = state(db, tid)
    run_and_kill(db, "start", tid, 8)  # killed with 8 of the 15 games made
    assert state(db, tid) == before and before[0] == "open" and before[3] == 0
    assert run(db, "start", tid) == "STARTED 15"
    status, _rnd, rounds, games = state(db, tid)
    assert status == "running" and games == 15 and sum(n for _r, n in rounds) == 15
    con = sqlite3.connect(db)
    pairs = con.execute("SELECT white_id, black_id FROM games").fetchall()
    con.close()
    assert len({frozenset(p) for p in pairs}) == 15  # every pair once


def test_a_swiss_round_killed_half_way_is_made_once_by_the_sweep(tmp_path):
    db = tmp_path / "games.db"
    tid = int(run(db, "setup", 8, "swiss"))
    assert run(db, "start", tid) == "STARTED 4"
    run_and_kill(db, "end-round", tid, 2)  # round 1's last game ended; round 2 killed at its 2nd game
    status, rnd, rounds, games = state(db, tid)
    assert (status, rnd, rounds, games) == ("running", 1, [(1, 4)], 4)  # the results stay, round 2 does not
    assert run(db, "sweep") == "SWEPT 1"  # a restarted bot's sweep starts it
    assert run(db, "sweep") == "SWEPT 0"  # and only once
    assert state(db, tid) == ("running", 2, [(1, 4), (2, 4)], 8)
