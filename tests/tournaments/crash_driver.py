"""A process that works on one tournament in a SQLite file, for test_crash.py to kill.

    crash_driver.py DB setup N FORMAT        N players, an event of theirs: prints its id
    crash_driver.py DB start ID [K]          starts it (or finishes a start cut short); with K,
                                             stops dead (says HANG) once K games are made,
                                             inside a batch (batches.py; 5 games a batch here)
    crash_driver.py DB end-round ID [K]      ends every game of the running round (the last
                                             one's end starts the next round); with K, stops
                                             dead inside a batch of that round's games
    crash_driver.py DB sweep                 the sweep's share for tournaments (what a
                                             restarted bot does), then prints how many it moved
    crash_driver.py DB state ID              the event as stored, as JSON: status, round,
                                             [round, games] of its pairings, games, pairs

DB: a SQLite file, or a PostgreSQL URL.
"""
from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.config import Settings  # noqa: E402
from bot.operations.service import GameService  # noqa: E402
from bot.tournaments import batches  # noqa: E402

# batches of exactly five games (no time limit), so that a kill at the k-th game falls
# after the batches of the games before it have committed
batches.BATCH_GAMES = 5
batches.BATCH_SECONDS = 60
batches.LAST_BATCH = 1


def say(line: str) -> None:
    print(line, flush=True)


def stop_dead_at(k: int) -> None:
    """The k-th game made (inside the round's one transaction): say so, then wait for the kill."""
    made = GameService._create_game
    count = 0

    async def create_then_maybe_hang(self, *a, **kw):
        nonlocal count
        out = await made(self, *a, **kw)
        count += 1
        if count == k:
            say("HANG")
            while True:  # the test kills this process here
                await asyncio.sleep(3600)
        return out
    GameService._create_game = create_then_maybe_hang


async def main(db: str, mode: str, args: list[str]) -> None:
    if mode in ("start", "end-round") and len(args) > 1:
        stop_dead_at(int(args[1]))
    svc = await GameService.open(Settings(db_path=db))
    try:
        if mode == "setup":
            n, fmt = int(args[0]), args[1]
            people = [await svc.player("test", f"p{i}", f"Player {i}") for i in range(1, n + 1)]
            t = await svc.create_tournament("chess", name="Crash cup", format=fmt, creator_id=people[0].id,
                                            rounds=3 if fmt == "swiss" else None)
            for p in people:
                await svc.join_tournament(t.id, p.id)
            say(str(t.id))
        elif mode == "start":
            t = await svc.start_tournament(int(args[0]))
            say(f"STARTED {sum(p.game_id is not None for p in t.pairings)}")
        elif mode == "end-round":
            t = await svc.tournament(int(args[0]))
            going = [p for p in t.pairings if p.round == t.round and p.black is not None and p.result is None]
            for p in going:  # the last resignation ends the round: the next one starts
                await svc.resign(p.game_id, p.black.id)
            say(f"ENDED {len(going)}")
        elif mode == "sweep":
            say(f"SWEPT {await svc.sweep_tournaments(svc._now())}")
        elif mode == "state":
            tid = int(args[0])
            async with svc.store.read() as tx:
                status, rnd = await tx.fetch_one("SELECT status, round FROM tournaments WHERE id = ?", (tid,))
                rounds = await tx.fetch_all("SELECT round, COUNT(game_id) FROM tournament_pairings "
                                            "WHERE tournament_id = ? GROUP BY round ORDER BY round", (tid,))
                pairs = await tx.fetch_all("SELECT white_id, black_id FROM games ORDER BY id")
            starting = (await svc.tournament(tid)).starting
            say(json.dumps({"status": status, "round": rnd, "rounds": [list(r) for r in rounds],
                            "games": len(pairs), "pairs": len({frozenset(p) for p in pairs}),
                            "starting": starting}))
    finally:
        await svc.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3:]))
    os._exit(0)
