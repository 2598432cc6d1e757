"""A bot process playing the SAME games as other processes, for the shared-games crash test
(issue #32): run with ``sys.executable shared_driver.py DB MODE ...``; DB is a file or a
``postgresql://`` URL.

``setup GAMES``
    Two players and one game between them per name in GAMES (comma separated), no clock.
    Prints ``READY <game id> ...``.

``play --who X --seed N``
    Plays random legal moves in those games (a random game each time, as whichever side
    is to move) until every game is over, then prints ``DONE``. Each move is read from the
    game as it stands (``GameService.game``), sent with ``expected_ply`` (the ply it was
    chosen at) or without it (then the ply is the one the service says it played it at,
    ``MoveResult.ply``), and printed as ``ACK <game id> <ply> <lan> <X>`` only after
    ``GameService.move`` returned. Refusals (the game changed, not that side's turn any
    more, the move not legal in the position found) are the race lost: the next move is
    chosen afresh. ``--checkpoint-pages P`` makes SQLite checkpoint its log every P pages
    (a kill then often lands in one).
"""
from __future__ import annotations

import argparse
import asyncio
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import rules  # noqa: E402
from bot.domain.errors import GameChanged, GameOver, IllegalMove, NotYourTurn  # noqa: E402
from bot.operations.service import GameService  # noqa: E402
from bot.timekeeping.clock import SystemClock  # noqa: E402
from tests.robustness.driver import say, settings  # noqa: E402

RACE_LOST = (GameChanged, GameOver, IllegalMove, NotYourTurn)


async def setup(db: str, games: list[str]) -> None:
    svc = await GameService.open(settings(db), clock=SystemClock())
    try:
        white = await svc.player("crash", "w", "White")
        black = await svc.player("crash", "b", "Black")
        ids = []
        for game in games:
            c = await svc.challenge(white.id, game, opponent_id=black.id, days=None, colour="white")
            ids.append((await svc.accept_challenge(c.id, black.id)).id)
        say("READY " + " ".join(map(str, ids)))
    finally:
        await svc.close()


async def play(db: str, who: str, seed: int, checkpoint_pages: int | None, free: float) -> None:
    rng = random.Random(seed)
    svc = await GameService.open(settings(db), clock=SystemClock())
    try:
        if checkpoint_pages and svc.store.dialect == "sqlite":
            await svc.store._conn.execute(f"PRAGMA wal_autocheckpoint = {int(checkpoint_pages)}")
        white = await svc.player("crash", "w", "White")
        active = [g.id for g in await svc.list_games(white.id)]
        say("READY")
        while active:
            gid = rng.choice(active)
            view = await svc.game(gid)
            if view.to_move is None:  # over
                active.remove(gid)
                continue
            pos = rules.from_fen(view.game, view.fen)
            lan = rng.choice(sorted(m.lan for m in pos.legal_moves()))
            expected = view.ply if rng.random() >= free else None
            try:
                r = await svc.move(gid, view.to_move.id, lan, expected_ply=expected)
            except RACE_LOST:
                continue
            how = "free" if expected is None else "expected"
            say(f"ACK {gid} {r.ply} {r.lan} {who} {how}")
            if ((expected is not None and r.ply != expected + 1) or r.game.moves[r.ply - 1].lan != r.lan
                    or r.game.ply != r.ply + (r.answer is not None)):  # the answer: the game it left
                say(f"WRONG-PLY {gid} {r.ply} {expected} {r.game.ply}")
        say("DONE")
    finally:
        await svc.close()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("db")
    ap.add_argument("mode", choices=["setup", "play"])
    ap.add_argument("games", nargs="?", default="")
    ap.add_argument("--who", default="A")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--checkpoint-pages", type=int, default=None)
    ap.add_argument("--free", type=float, default=0.5)
    a = ap.parse_args(argv)
    if a.mode == "setup":
        asyncio.run(setup(a.db, a.games.split(",")))
    else:
        asyncio.run(play(a.db, a.who, a.seed, a.checkpoint_pages, a.free))
    return 0


if __name__ == "__main__":
    sys.exit(main())
