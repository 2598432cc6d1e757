"""One bot process of the ``scale`` benchmark: ``python -m bench.scale_worker DB GAMES SECONDS``.

Opens the game service on DB (a file or a ``postgresql://`` URL), says ``READY``, waits
for a line on stdin (all workers start together), then for SECONDS plays random legal
moves in its own games (GAMES: a JSON list of game ids, no other worker's), one command
at a time round the list, as players would. Prints one JSON line: moves, errors (with
samples), each move command's latency (s), and the ids of the notices its notifier got.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time


class CountingNotifier:
    def __init__(self):
        self.ids: list[int] = []

    async def notify(self, event) -> None:
        self.ids.append(event.event_id)


async def main(db: str, games_path: str, seconds: float) -> dict:
    import rules
    from bot.config import Settings
    from bot.operations.service import GameService

    game_ids = json.loads(open(games_path).read())
    notifier = CountingNotifier()
    svc = await GameService.open(Settings(db_path=db, command_rate_per_minute=0), notifier=notifier)
    rng = random.Random(sum(game_ids))
    latencies, errors = [], []
    try:
        print("READY", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        end = time.perf_counter() + seconds
        live = list(game_ids)
        while live and time.perf_counter() < end:
            for gid in list(live):
                if time.perf_counter() >= end:
                    break
                view = await svc.game(gid)
                if view.status != "active" or view.to_move is None:
                    live.remove(gid)
                    continue
                moves = sorted(rules.from_fen(view.game, view.fen).legal_moves(), key=lambda m: m.lan)
                t = time.perf_counter()
                try:
                    await svc.move(gid, view.to_move.id, rng.choice(moves).lan, expected_ply=view.ply)
                except Exception as e:  # noqa: BLE001 - counted and reported
                    errors.append(f"#{gid}: {type(e).__name__}: {e}")
                latencies.append(time.perf_counter() - t)
        await svc.outbox.drain()
    finally:
        await svc.close()
    return {"moves": len(latencies) - len(errors), "errors": len(errors), "error_samples": errors[:5],
            "latencies": latencies, "notices": notifier.ids}


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(sys.argv[1], sys.argv[2], float(sys.argv[3])))), flush=True)
