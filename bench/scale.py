"""Outgrowing one machine: many games held, the sweep, and moves per second over several
processes, on SQLite and (when ``FAIRYPOST_TEST_POSTGRES`` names a server) PostgreSQL, in
the same run.

For each database: ``held`` games (100,000; 1,000 with --quick) of which ``active`` are
going on (10,000; 100), the active ones seeded as bench/seed.py does (moves, the current
turn's reminders) and the rest finished games with no moves (the sweep must not read
them). Then, through the game service:

* the sweep and ``next_wake`` with nothing due, and with K games whose turn has reminders
  due (K = 10, 100, 1,000): their cost must follow K, not the games held;
* sustained moves: P worker processes (bench/scale_worker.py; P = 1 on SQLite, 1, 2 and 4
  on PostgreSQL), each playing random legal moves in its own share of the active games, one
  command at a time, for a fixed time: moves per second in all, each command's latency
  (median, p95), errors (must be 0), and the notices: every event the moves made is
  delivered (none left pending or claimed) and none twice.

On PostgreSQL each database is a fresh schema on that server, dropped afterwards.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
import time
import uuid
from collections import Counter
from pathlib import Path

from .common import Context, Series, games, goal, row, time_figure
from .load import _rearm
from .seed import seed

NAME = "scale"
TITLE = "Games held, sweeps and moves/s over processes: SQLite and PostgreSQL"
POSTGRES = os.environ.get("FAIRYPOST_TEST_POSTGRES", "")
ROOT = Path(__file__).resolve().parents[1]


async def _schema(url: str, drop: str | None = None) -> str:
    """A new empty schema on the server (its name), or drop one."""
    import asyncpg
    conn = await asyncpg.connect(url)
    try:
        if drop:
            await conn.execute(f"DROP SCHEMA {drop} CASCADE")
            return drop
        name = f"bench_{uuid.uuid4().hex[:10]}"
        await conn.execute(f"CREATE SCHEMA {name}")
        return name
    finally:
        await conn.close()


def _in_schema(url: str, schema: str) -> str:
    return url + ("&" if "?" in url else "?") + f"search_path={schema}"


async def _finished_games(target: str, n: int, n_players: int, now: int, rng: random.Random) -> None:
    """``n`` finished games with no moves: held, never due."""
    import rules
    from bot.schemas import open_store
    start = rules.start("chess")
    store = await open_store(target)
    try:
        for first in range(0, n, 1000):
            async with store.write() as tx:
                for _ in range(first, min(n, first + 1000)):
                    white, black = rng.sample(range(1, n_players + 1), 2)
                    gid = await tx.insert_game(game="chess", challenge_id=None, white_id=white,
                                               black_id=black, start_vfen=start.fen(), to_move="w",
                                               to_move_id=white, days=3, now=now - 90 * 86400,
                                               deadline=None)
                    await tx.update_game(gid, status="finished", result="0-1", reason="resigned",
                                         to_move=None, to_move_id=None, ended_at=now - 80 * 86400)
    finally:
        await store.close()


async def _sweeps(ctx: Context, target: str, seeded, held: int) -> dict:
    from bot.config import Settings
    from bot.operations.service import GameService
    from bot.timekeeping.clock import ManualClock, from_ts
    service = await GameService.open(Settings(db_path=target), clock=ManualClock(from_ts(seeded.now)),
                                     rng=random.Random(ctx.seed))
    loop = asyncio.get_running_loop()
    out = {}
    try:
        await service.sweep()  # the catch-up: the day's digests
        sweep0, wake = Series(), Series()
        for _ in range(ctx.size(5, 2)):
            t = loop.time()
            await service.sweep()
            sweep0.add(loop.time() - t)
            t = loop.time()
            await service.next_wake()
            wake.add(loop.time() - t)
        out[0] = (sweep0, wake, 0)
        pool = [e[0] for e in seeded.games if e[5] is not None]
        ctx.rng("scale-due").shuffle(pool)
        for k in ctx.size((10, 100, 1000), (10, 50)):
            s, w, sent = Series(), Series(), 0
            for _ in range(ctx.size(3, 1)):
                chosen, pool = pool[:k], pool[k:] + pool[:k]
                await _rearm(service, chosen, seeded.now)
                t, c = loop.time(), time.process_time()
                r = await service.sweep()
                s.add(loop.time() - t, time.process_time() - c)
                sent += r.reminders
                await _rearm(service, chosen, seeded.now)
                t = loop.time()
                await service.next_wake()
                w.add(loop.time() - t)
                await service.sweep()
            out[k] = (s, w, sent)
            ctx.progress(f"{held:,} held: sweep with {k} due {s.summary(False)['median'] * 1000:.1f} ms")
        # a player's moves while the largest burst is swept, in other games, in the same
        # process (the worst case: its transactions take turns with the sweep's batches),
        # delivering in the background as the bot does (a command never waits for delivery)
        chosen, movers = pool[:k], pool[k:] or pool
        await _rearm(service, chosen, seeded.now)
        service.outbox.start()
        try:
            out["moves"] = await _moves_during_sweep(service, movers, ctx.rng("scale-moves"))
        finally:
            await service.outbox.stop()
        ctx.progress(f"{held:,} held: moves during a {k}-due sweep: p95 "
                     f"{out['moves'][0].summary(False)['p95'] * 1000:.1f} ms ({len(out['moves'][0])} moves)")
    finally:
        await service.close()
    return out


async def _moves_during_sweep(service, game_ids: list[int], rng: random.Random) -> tuple[Series, float]:
    """Random legal moves, one command at a time round ``game_ids``, for as long as one sweep
    runs: each command's latency, and the sweep's time."""
    import rules
    loop = asyncio.get_running_loop()
    lat = Series()
    t0 = loop.time()
    sweep = asyncio.create_task(service.sweep())
    turn = 0
    while not sweep.done() or not len(lat):
        gid = game_ids[turn % len(game_ids)]
        turn += 1
        view = await service.game(gid)
        if view.status != "active" or view.to_move is None:
            continue
        moves = sorted(rules.from_fen(view.game, view.fen).legal_moves(), key=lambda m: m.lan)
        t = loop.time()
        await service.move(gid, view.to_move.id, rng.choice(moves).lan, expected_ply=view.ply)
        lat.add(loop.time() - t)
    await sweep
    return lat, loop.time() - t0


def _processes(ctx: Context, target: str, game_ids: list[int], n: int, seconds: float) -> dict:
    """``n`` worker processes, each on its own share of ``game_ids``, started together."""
    shares = [game_ids[i::n] for i in range(n)]
    procs = []
    for i, share in enumerate(shares):
        path = ctx.tmp / f"scale-share-{uuid.uuid4().hex[:6]}-{i}.json"
        path.write_text(json.dumps(share))
        procs.append(subprocess.Popen([sys.executable, "-m", "bench.scale_worker", target, str(path),
                                       str(seconds)], cwd=ROOT, stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    for p in procs:
        line = p.stdout.readline()
        if line.strip() != "READY":
            raise RuntimeError(f"a worker did not start: {line} {p.stderr.read()[-2000:]}")
    t0 = time.perf_counter()
    for p in procs:
        p.stdin.write("go\n")
        p.stdin.flush()
    results = []
    for p in procs:
        out, err = p.communicate(timeout=seconds + 300)
        if p.returncode != 0:
            raise RuntimeError(f"a worker failed: {err[-2000:]}")
        results.append(json.loads(out.strip().splitlines()[-1]))
    wall = time.perf_counter() - t0
    lat = Series()
    for r in results:
        for x in r["latencies"]:
            lat.add(x)
    notices = Counter(i for r in results for i in r["notices"])
    return {"moves": sum(r["moves"] for r in results), "errors": sum(r["errors"] for r in results),
            "error_samples": [s for r in results for s in r["error_samples"]][:5], "wall": wall,
            "latency": lat, "notices": notices}


async def _undelivered(target: str) -> int:
    from bot.schemas import open_store
    store = await open_store(target)
    try:
        async with store.read() as tx:
            return sum(1 for e in await tx.events() if e.status in ("pending", "claimed"))
    finally:
        await store.close()


def _one_database(ctx: Context, label: str, target: str, ids: list[str], rows: list, goals: list,
                  worker_counts: tuple[int, ...]) -> None:
    held, active = ctx.size(100_000, 1_000), ctx.size(10_000, 100)
    now = int(time.time())
    rng = ctx.rng(f"scale-{label}")
    t = time.perf_counter()
    seeded = asyncio.run(seed(target, active, ids, now, rng, ctx.progress))
    asyncio.run(_finished_games(target, held - active, seeded.n_players, now, rng))
    ctx.progress(f"{label}: seeded {held:,} games ({active:,} active) in {time.perf_counter() - t:.0f} s")
    sweeps = asyncio.run(_sweeps(ctx, target, seeded, held))
    moves, during = sweeps.pop("moves")
    for k, (s, w, sent) in sweeps.items():
        rows.append(row(f"{label}: {held:,} held, {active:,} active: sweep, {k} games due", "ms",
                        time_figure(s), database=label, due_games=k, reminders_sent=sent))
        if k:
            per_game = Series()
            for wall, cpu in zip(s.wall, s.cpu, strict=True):
                per_game.add(wall / k, cpu / k)
            rows.append(row(f"{label}: {held:,} held: sweep per due game, {k} due", "ms",
                            time_figure(per_game), database=label, due_games=k))
        rows.append(row(f"{label}: {held:,} held, {active:,} active: next_wake, {k} games due", "ms",
                        time_figure(w), database=label, due_games=k))
    ks = sorted(sweeps)
    low, high = sweeps[ks[0]][0].summary(False)["median"], sweeps[ks[-1]][0].summary(False)["median"]
    goals.append(goal(f"{label}-sweep", f"{label}: the sweep's cost follows the games due, not the "
                      f"{held:,} held: with nothing due it is under 50 ms", low * 1000, 50,
                      low * 1000 < 50, f"nothing due {low * 1000:.1f} ms; {ks[-1]} due {high * 1000:.1f} ms"))
    per_due = high * 1000 / ks[-1]
    goals.append(goal(f"{label}-per-due", f"{label}: a burst of {ks[-1]:,} due games costs at most "
                      "2 ms a game (batches, not a transaction a game)", per_due, 2, per_due <= 2,
                      f"{ks[-1]:,} due in {high * 1000:.0f} ms"))
    rows.append(row(f"{label}: move command during a {ks[-1]:,}-due sweep", "ms", time_figure(moves),
                    database=label, due_games=ks[-1], sweep_seconds=round(during, 3)))
    p95 = moves.summary(False)["p95"] * 1000
    goals.append(goal(f"{label}-moves-in-sweep", f"{label}: a move made during a {ks[-1]:,}-due sweep "
                      "answers within 100 ms (p95)", p95, 100, p95 < 100,
                      f"p95 {p95:.1f} ms over {len(moves)} moves while the sweep took {during:.2f} s"))
    game_ids = [e[0] for e in seeded.games]
    seconds = ctx.size(20.0, 2.0)
    for n in worker_counts:
        r = _processes(ctx, target, game_ids, n, seconds)
        rate = r["moves"] / r["wall"]
        twice = sum(1 for c in r["notices"].values() if c > 1)
        left = asyncio.run(_undelivered(target))
        ctx.progress(f"{label}: {n} process(es): {rate:.0f} moves/s, p95 "
                     f"{r['latency'].summary(False)['p95'] * 1000:.0f} ms, {r['errors']} errors, "
                     f"{left} notices left, {twice} twice")
        rows.append(row(f"{label}: {n} process(es): sustained moves", "moves/s",
                        {"n": 1, "median": rate, "p95": rate}, better="higher", database=label,
                        processes=n, moves=r["moves"], errors=r["errors"],
                        error_samples=r["error_samples"], notices=sum(r["notices"].values()),
                        notices_twice=twice, notices_left=left))
        rows.append(row(f"{label}: {n} process(es): move command latency", "ms",
                        time_figure(r["latency"]), database=label, processes=n))
        goals.append(goal(f"{label}-{n}p", f"{label}, {n} process(es): errors, notices left "
                          "undelivered or delivered twice", float(r["errors"] + left + twice), 0,
                          r["errors"] + left + twice == 0,
                          f"{r['errors']} errors, {left} left, {twice} twice"))


def run(ctx: Context) -> dict:
    ids, skipped = games(ctx)
    ids = [g for g in ids if g in ("chess", "grandducal", "kingqueen")] or ids
    rows, goals = [], []
    _one_database(ctx, "SQLite", str(ctx.tmp / "scale.sqlite3"), ids, rows, goals, (1,))
    if POSTGRES:
        schema = asyncio.run(_schema(POSTGRES))
        try:
            _one_database(ctx, "PostgreSQL", _in_schema(POSTGRES, schema), ids, rows, goals,
                          ctx.size((1, 2, 4), (1, 2)))
        finally:
            asyncio.run(_schema(POSTGRES, drop=schema))
    else:
        why = ("FAIRYPOST_TEST_POSTGRES is not set: the PostgreSQL figures need a server "
               "(tools/pg_throwaway.sh start makes one)")
        ctx.progress(f"PostgreSQL part not run: {why}")
        skipped.append({"case": "PostgreSQL", "why": why})
    return {"rows": rows, "goals": goals, "skipped": skipped,
            "params": {"postgres": bool(POSTGRES)}}
