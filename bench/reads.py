"""Reads: what a board or a record costs when the game is not cached, and what 20 players
spamming reads do to the event loop (issue 21).

A seeded random Gigachess II game of 300 plies (as in ``replay``) is played through the
game service onto an SQLite file, so that every move stores its checkpoint. Then:

* a cold read (``GameService.game`` with nothing cached: the database read and the
  position loaded from its checkpoints), interleaved with the anchor of the same run:
  the same read as it was before checkpoints, the position replayed from move 1;
* the event loop's longest stall while 20 simulated players read the game as fast as
  they can, cold every time (the cache is turned off: a player cycling through more
  games than it holds): a ticker sleeps 10 ms again and again and records how late it
  wakes. Ours loads off the event loop; the anchor replays on it, as before. Then the
  same spam with the per-player read budget (``GameService.budget_read``) as the
  Discord adapter applies it: how many reads it lets through.

Goal: the longest stall under 100 ms (heartbeats and other players' commands go on).
"""

from __future__ import annotations

import asyncio
import random
import time

from .common import Context, Series, atimed, goal, row, service_settings, settle, time_figure
from .replay import long_game

NAME = "reads"
TITLE = "A cold read of a 300-ply Gigachess II game; the event loop while 20 players spam reads"
USERS = 20
TICK = 0.010
STALL_GOAL_MS = 100


async def _stored_game(ctx: Context, plies: int):
    from bot.operations.service import GameService
    settings = service_settings(ctx.tmp / "reads.db", command_rate_per_minute=0)
    service = await GameService.open(settings, rng=random.Random(ctx.seed))
    white = await service.player("bench", "w", "White")
    black = await service.player("bench", "b", "Black")
    c = await service.challenge(white.id, "gigachess2", opponent_id=black.id, colour="white")
    view = await service.accept_challenge(c.id, black.id)
    for n, lan in enumerate(long_game(plies, ctx.rng("reads"))):
        if n % 50 == 0:
            ctx.progress(f"storing the game: ply {n} of {plies}")
        await service.move(view.id, (white, black)[n % 2].id, lan)
    return service, view.id, (white, black)


def _replaying(service) -> None:
    """The service as it read before checkpoints: the position replayed from move 1, on
    the event loop."""
    async def position_at(g, moves, n):
        lans = tuple(m.lan for m in moves[:n])
        pos = service._cached(g, lans)
        if pos is None:
            pos = service._replay(g, lans)
            service._remember(g.id, g.start_vfen, lans, pos)
        return pos
    service._position_at = position_at


async def _cold_reads(service, anchor, game_id: int, reps: int) -> tuple[Series, Series]:
    ours, before = Series(), Series()
    for _ in range(reps):
        for svc, series in ((service, ours), (anchor, before)):
            svc._positions.clear()
            settle()
            _, wall, cpu = await atimed(lambda s=svc: s.game(game_id))
            series.add(wall, cpu)
    return ours, before


async def _spam(service, game_id: int, players, seconds: float, budget: bool) -> dict:
    """USERS readers for ``seconds``; the ticker's lateness and the reads served."""
    from bot.domain.errors import RateLimited
    stop = time.perf_counter() + seconds
    lateness: list[float] = []
    served = refused = 0

    async def ticker():
        while time.perf_counter() < stop:
            t0 = time.perf_counter()
            await asyncio.sleep(TICK)
            lateness.append(time.perf_counter() - t0 - TICK)

    async def reader(n: int):
        nonlocal served, refused
        who = 1_000_000 + n  # each reader its own budget
        while time.perf_counter() < stop:
            if budget:
                try:
                    service.budget_read(who)
                except RateLimited:
                    refused += 1
                    await asyncio.sleep(0.05)  # the refusal is answered; the player presses again
                    continue
            await service.game(game_id)
            served += 1
            await asyncio.sleep(0)

    await asyncio.gather(ticker(), *(reader(n) for n in range(USERS)))
    worst = max(lateness) * 1000 if lateness else None
    lateness.sort()
    p95 = lateness[int(0.95 * (len(lateness) - 1))] * 1000 if lateness else None
    return {"max_ms": worst, "p95_ms": p95, "ticks": len(lateness), "served": served,
            "refused": refused, "seconds": seconds}


async def _run(ctx: Context) -> dict:
    from bot.operations.service import GameService
    plies, reps, seconds = ctx.size((300, 9, 4.0), (40, 3, 1.0))
    service, game_id, players = await _stored_game(ctx, plies)
    anchor = await GameService.open(service.settings, rng=random.Random(ctx.seed))
    _replaying(anchor)
    try:
        await service.game(game_id)
        await anchor.game(game_id)  # warm-up: imports, the engine's tables
        ctx.progress(f"cold reads, {reps} of each")
        ours, before = await _cold_reads(service, anchor, game_id, reps)
        spams = {}
        for name, svc, budget in (("ours", service, False), ("before", anchor, False),
                                  ("ours, with the read budget", service, True)):
            ctx.progress(f"{USERS} players spamming reads for {seconds:.0f} s: {name}")
            svc.CACHE_SIZE = 0  # every read cold
            svc._positions.clear()
            settle()
            spams[name] = await _spam(svc, game_id, players, seconds, budget)
    finally:
        await anchor.close()
        await service.close()
    n = plies + 1

    def stall(s: dict) -> dict:
        return {"n": s["ticks"], "median": s["max_ms"], "p95": s["max_ms"], "unit": "ms",
                "tick_p95_ms": s["p95_ms"]}

    rows = [row(f"{plies} plies: a cold read", "ms", time_figure(ours), time_figure(before),
                anchor_name="the same read replaying from move 1", positions=n)]
    for name in ("ours", "ours, with the read budget"):
        s = spams[name]
        rows.append(row(f"{USERS} players spamming cold reads ({name}): the loop's longest stall",
                        "ms", stall(s), stall(spams["before"]),
                        anchor_name="replaying on the event loop, as before",
                        served=s["served"], refused=s["refused"], seconds=s["seconds"],
                        anchor_served=spams["before"]["served"]))
    worst = spams["ours"]["max_ms"]
    goals = [goal("reads-stall", f"the event loop's longest stall under {STALL_GOAL_MS} ms while "
                  f"{USERS} players spam cold reads", worst, STALL_GOAL_MS,
                  worst is not None and worst < STALL_GOAL_MS if plies >= 300 else None,
                  f"{worst:.0f} ms (before: {spams['before']['max_ms']:.0f} ms)")]
    o, b = ours.summary()["median"] * 1000, before.summary()["median"] * 1000
    notes = [f"a cold read of {plies} plies: {o:.1f} ms, against {b:.1f} ms replaying ({b / o:.0f}x)",
             "spam: " + "; ".join(f"{k}: longest stall {v['max_ms']:.0f} ms, p95 tick lateness "
                                  f"{v['p95_ms']:.1f} ms, {v['served']} reads served"
                                  + (f", {v['refused']} refused" if v["refused"] else "")
                                  for k, v in spams.items())]
    return {"rows": rows, "goals": goals, "skipped": [], "notes": notes,
            "params": {"plies": plies, "repetitions": reps, "users": USERS, "seconds": seconds}}


def run(ctx: Context) -> dict:
    return asyncio.run(_run(ctx))
