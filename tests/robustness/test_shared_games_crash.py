"""Crash safety with several processes on the SAME games (issue #32): no acknowledged move
lost or doubled.

Processes (``shared_driver.py play``) play random legal moves in the same few games of one
database, each as whichever side is to move, and print ``ACK <game> <ply> <lan> <who>``
only after ``GameService.move`` returned. They are SIGKILLed one at a time at seeded random
moments (at start-up, inside a transaction, between a commit and its ACK, in a checkpoint:
SQLite is made to checkpoint every few pages) and started again at once, so that the others
play on meanwhile. Their output is read from the pipes' descriptors as it comes (never a
buffered ``readline``, which may keep ACK lines where nothing reads them). Then every
acknowledged move is checked at its ply: stored there, and acknowledged once (two ACKs at
one ply, whatever the moves, is a move doubled); each game's moves are numbered without a
gap and replay as legal moves to the stored position; SQLite's file passes its integrity
check.

Half the moves are sent with ``expected_ply``, half without (then the ACK's ply is the one
the service answered, ``MoveResult.ply``); the driver also checks that the answer's game is
the one the move left (its ply, its move at that ply).

In the suite: 3 processes, 2 seeds x 6 kills on SQLite (about 10 s of CPU), and 3 processes
x 6 kills on PostgreSQL when ``FAIRYPOST_TEST_POSTGRES`` names a server. Before the fix (the
answer read after the commit) each such run found plies acknowledged twice and moves
"lost". With ``FAIRYPOST_LONG=1``: 2 and 3 processes, 10 seeds x 30 kills each
(``FAIRYPOST_SHARED_SEEDS``, ``FAIRYPOST_SHARED_KILLS`` set them apart).
"""
from __future__ import annotations

import asyncio
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import rules
from tests.bot.backends import POSTGRES_URL, drop_database, make_database

from .common import LONG, integrity

DRIVER = Path(__file__).with_name("shared_driver.py")
ROOT = Path(__file__).resolve().parents[2]
GAMES = ("chess", "grandducal")
SEEDS = range(int(os.environ.get("FAIRYPOST_SHARED_SEEDS", "10" if LONG else "2")))
KILLS = int(os.environ.get("FAIRYPOST_SHARED_KILLS", "30" if LONG else "6"))


class Child:
    """A driver process, its output read off the pipe's descriptor by a thread as it comes."""

    def __init__(self, *args: object, env: dict | None = None):
        self.proc = subprocess.Popen([sys.executable, str(DRIVER), *map(str, args)], cwd=ROOT,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     env={**os.environ, **(env or {})})
        self._out, self._err = bytearray(), bytearray()
        self._threads = [threading.Thread(target=self._drain, args=(pipe, buf), daemon=True)
                         for pipe, buf in ((self.proc.stdout, self._out), (self.proc.stderr, self._err))]
        for t in self._threads:
            t.start()

    @staticmethod
    def _drain(pipe, buf: bytearray) -> None:
        while chunk := os.read(pipe.fileno(), 65536):
            buf += chunk

    def lines(self) -> list[str]:
        return bytes(self._out).decode().splitlines()

    def ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while not any(line.startswith("READY") for line in self.lines()):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                break
            time.sleep(0.01)

    def end(self, kill: bool = True) -> tuple[list[str], str]:
        """SIGKILL it (if it still runs), and all it wrote."""
        if kill and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=60)
        for t in self._threads:
            t.join(timeout=60)
        self.proc.stdout.close()
        self.proc.stderr.close()
        return self.lines(), bytes(self._err).decode()


@dataclass
class Outcome:
    acks: list[tuple[int, int, str, str]] = field(default_factory=list)  # game, ply, lan, who
    kills: int = 0
    lost: list[str] = field(default_factory=list)
    doubled: list[str] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)


def _take(out: Outcome, lines: list[str], err: str, returncode: int) -> bool:
    """The ACKs of one process life; whether it finished (every game over)."""
    assert returncode in (0, -signal.SIGKILL), err[-3000:]
    for line in lines:
        parts = line.split()
        if parts and parts[0] == "ACK":
            out.acks.append((int(parts[1]), int(parts[2]), parts[3], " ".join(parts[4:])))
        elif parts and parts[0] == "WRONG-PLY":
            out.wrong.append(line)
    return "DONE" in lines


def play_and_kill(db: str, seed: int, processes: int, kills: int, extra: tuple = (),
                  play: tuple[float, float] = (0.1, 1.0)) -> Outcome:
    """``kills`` SIGKILLs, each of a random process: mostly after it has played for a
    random time in ``play`` (seconds), else at a random moment of its start-up."""
    rng = random.Random(seed)
    setup = Child(db, "setup", ",".join(GAMES))
    lines, err = setup.end(kill=False)
    assert setup.proc.returncode == 0 and lines and lines[0].startswith("READY"), err
    out, lives = Outcome(), 0

    def start(who: str) -> Child:
        nonlocal lives
        lives += 1
        return Child(db, "play", "--who", who, "--seed", seed * 1000 + lives, *extra)

    children = {chr(ord("A") + i): start(chr(ord("A") + i)) for i in range(processes)}
    finished = False
    while out.kills < kills and not finished:
        who = rng.choice(sorted(children))
        if rng.random() < 0.8:  # mostly while playing; else at any moment of its start-up
            children[who].ready()
            time.sleep(rng.uniform(*play))
        else:
            time.sleep(rng.uniform(0.0, 0.5))
        child = children[who]
        lines, err = child.end()
        out.kills += 1
        finished = _take(out, lines, err, child.proc.returncode)
        children[who] = start(who)
    for child in children.values():
        _take(out, *child.end(), child.proc.returncode)
    return out


def stored_moves(db: str) -> dict[int, tuple[str, str, list[tuple[int, str]], str]]:
    """Each game: (its kind, start VFEN, its moves (ply, lan), its stored VFEN)."""
    if db.startswith("postgresql://"):
        import asyncpg

        async def fetch():
            conn = await asyncpg.connect(db)
            try:
                return (await conn.fetch("SELECT id, game, start_vfen, current_vfen, ply FROM games"),
                        await conn.fetch("SELECT game_id, ply, lan FROM moves ORDER BY game_id, ply"))
            finally:
                await conn.close()
        games, moves = asyncio.run(fetch())
    else:
        con = sqlite3.connect(db)
        try:
            games = con.execute("SELECT id, game, start_vfen, current_vfen, ply FROM games").fetchall()
            moves = con.execute("SELECT game_id, ply, lan FROM moves ORDER BY game_id, ply").fetchall()
        finally:
            con.close()
    by_game = defaultdict(list)
    for gid, ply, lan in moves:
        by_game[gid].append((ply, lan))
    out = {}
    for gid, game, start, current, ply in games:
        assert [p for p, _ in by_game[gid]] == list(range(1, ply + 1)), f"game #{gid}: a gap"
        out[gid] = (game, start, by_game[gid], current)
    return out


def check(db: str, out: Outcome) -> None:
    games = stored_moves(db)
    at_ply = defaultdict(list)
    for gid, ply, lan, who in out.acks:
        at_ply[gid, ply].append((lan, who))
    for (gid, ply), acks in sorted(at_ply.items()):
        if len(acks) > 1:
            out.doubled.append(f"game {gid} ply {ply} acknowledged {len(acks)} times: {acks}")
        moves = dict(games[gid][2]) if gid in games else {}
        for lan, who in acks:
            if moves.get(ply) != lan:
                out.lost.append(f"game {gid} ply {ply} {lan} (by {who}); stored {moves.get(ply)!r}")
    for gid, (game, start, moves, current) in games.items():
        pos = rules.from_fen(game, start)
        for _ply, lan in moves:
            pos = pos.play(lan)  # every stored move legal in its place
        assert pos.fen() == current, f"game #{gid}: its stored position is not its moves'"
    if not db.startswith("postgresql://"):
        assert integrity(db) == ("ok", [])


def report(label: str, outs: list[Outcome]) -> str:
    acks = sum(len(o.acks) for o in outs)
    kills = sum(o.kills for o in outs)
    lost = sum(len(o.lost) for o in outs)
    doubled = sum(len(o.doubled) for o in outs)
    return f"{label}: {len(outs)} seeds, {kills} SIGKILLs, {acks} moves acknowledged, {lost} lost, {doubled} doubled"


def assert_none_lost(label: str, outs: list[Outcome]) -> None:
    print(report(label, outs))
    problems = [p for o in outs for p in o.lost + o.doubled + o.wrong]
    assert not problems, report(label, outs) + "\n" + "\n".join(problems[:20])
    assert all(o.acks for o in outs), "no move was ever acknowledged: nothing was tested"


@pytest.mark.parametrize("processes", [2, 3] if LONG else [3])
def test_processes_sharing_games_killed_lose_and_double_no_acknowledged_move(tmp_path, processes):
    outs = []
    for seed in SEEDS:
        db = str(tmp_path / f"games-{seed}.db")
        out = play_and_kill(db, seed, processes, KILLS, ("--checkpoint-pages", "4"))
        check(db, out)
        outs.append(out)
    assert_none_lost(f"SQLite, {processes} processes", outs)


if POSTGRES_URL:
    @pytest.mark.parametrize("processes", [2, 3] if LONG else [3])
    def test_processes_sharing_games_killed_lose_and_double_no_acknowledged_move_postgres(processes):
        outs = []
        for seed in SEEDS if LONG else range(1):
            database, url = asyncio.run(make_database())
            try:
                out = play_and_kill(url, seed, processes, KILLS, play=(0.5, 2.0))  # (slower to start)
                check(url, out)
                outs.append(out)
            finally:
                asyncio.run(drop_database(database))
        assert_none_lost(f"PostgreSQL, {processes} processes", outs)
