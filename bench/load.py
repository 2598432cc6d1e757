"""Load: 1,000 and 10,000 active games in one database.

For each size, a database seeded through bot/store.py (see bench/seed.py) is opened by
the game service with a manual clock at the seed's time, and measured through the
service:

* the reminder sweep (``GameService.sweep``) with nothing due, and with K games whose
  turn has a reminder due (re-armed between repetitions as ``_start_turn`` does: a new
  turn begun 60% of its time ago, so its "your move" and its 50% warning are due), and
  ``next_wake`` (what the scheduler runs after every sweep and every change). Goal: the
  sweep's cost grows with the reminders due, not with the games held;
* a burst of concurrent move commands: C commands on C different games by C different
  players (flood control, on as configured, is per player), all started at
  once (``asyncio.gather``), each a legal move of the player to move with
  ``expected_ply``; commands per second, each command's latency from the burst's start
  (median, p95), and errors (must be zero). Once with the service alone, once with the
  reminder scheduler attached as the bot runs it (every commit pokes it to recompute
  the next wake); then also the time until the scheduler has done the recomputations
  the burst asked for, and the commands per second over that whole busy time.

Beside the sweep, its parts are timed on their own (with nothing due), with the rows
each of the store's scans reads: what the sweep's cost is made of.

The first sweep after opening (catch-up: the digests of the day) is reported on its own.
"""

from __future__ import annotations

import asyncio
import random

from .common import Context, Series, games, goal, row, time_figure
from .seed import seeded, working_copy

NAME = "load"
TITLE = "Many active games: a burst of moves, the reminder sweep"


async def _rearm(service, game_ids: list[int], now: int) -> None:
    """A new turn for each game, 60% of its time gone: "your move" and 50% are due."""
    from bot.timekeeping.clock import DAY
    from bot.timekeeping.reminders import turn_plan
    async with service.store.write() as tx:
        for gid in game_ids:
            g = await tx.game(gid)
            total = g.days * DAY
            started = now - int(total * 0.6)
            await tx.cancel_reminders(gid, now)
            await tx.update_game(gid, turn_no=g.turn_no + 1, turn_started_at=started,
                                 deadline=started + total)
            for kind, before in turn_plan(g.days):
                due_at = started if before is None else started + total - before
                await tx.insert_reminder(gid, g.turn_no + 1, g.to_move_id, kind, before, due_at)


def _move_for(entry, rng: random.Random) -> str:
    import rules
    _gid, variant, start, lans, _pid, _days = entry
    pos = rules.from_fen(variant, start)
    for lan in lans:
        pos = pos.play(lan)
    moves = sorted(pos.legal_moves(), key=lambda m: m.lan)
    return pos.san(rng.choice(moves))


async def _parts(service, now: int, reps: int) -> dict:
    """Where a sweep with nothing due spends its time, and the size of what it reads.
    Uses the service's own steps (private names: skipped if they change)."""
    loop = asyncio.get_running_loop()
    steps = {
        "end due vacations": getattr(service, "_end_due_vacations", None),
        "expire due games": getattr(service, "_expire_due_games", None),
        "reminders.collect": getattr(service.reminders, "collect", None),
        "reminders.digests": getattr(service.reminders, "digests", None),
        "outbox.dispatch": getattr(service.outbox, "dispatch", None),
    }
    out = {}
    for name, fn in steps.items():
        if fn is None:
            continue
        s = Series()
        for _ in range(reps):
            t = loop.time()
            await fn(now)
            s.add(loop.time() - t)
        out[name] = (s, None)
    queries = {
        "query pending_reminders()": lambda tx: tx.pending_reminders(),
        "query clocked_games()": lambda tx: tx.clocked_games(),
        "query players_digest_due(now)": lambda tx: tx.players_digest_due(now),
    }
    for name, q in queries.items():
        s, rows = Series(), None
        for _ in range(reps):
            t = loop.time()
            async with service.store.read() as tx:
                rows = len(await q(tx))
            s.add(loop.time() - t)
        out[name] = (s, rows)
    return out


async def _burst(service, entries: list, texts: list[str]) -> dict:
    loop = asyncio.get_running_loop()
    latencies: list[float] = []
    errors: list[str] = []
    t0 = loop.time()

    async def one(entry, text):
        gid, _v, _s, lans, pid, _d = entry
        try:
            await service.move(gid, pid, text, expected_ply=len(lans))
        except Exception as e:  # noqa: BLE001 - counted
            errors.append(f"#{gid} {text}: {type(e).__name__}: {e}")
        latencies.append(loop.time() - t0)

    await asyncio.gather(*(one(e, t) for e, t in zip(entries, texts, strict=True)))
    wall = loop.time() - t0
    return {"wall": wall, "latencies": latencies, "errors": errors}


async def _measure(ctx: Context, n: int, seed, path) -> dict:
    from bot.config import Settings
    from bot.operations.service import GameService
    from bot.timekeeping.clock import ManualClock, from_ts
    from bot.timekeeping.reminders import ReminderScheduler

    rng = ctx.rng(f"load{n}")
    clock = ManualClock(from_ts(seed.now))
    service = await GameService.open(Settings(db_path=str(path)), clock=clock,
                                     rng=random.Random(ctx.seed))
    loop = asyncio.get_running_loop()
    out: dict = {}
    try:
        t = loop.time()
        report = await service.sweep()
        out["first_sweep"] = (loop.time() - t, report)
        await service.next_wake()

        reps = ctx.size(7, 3)
        sweep0, wake = Series(), Series()
        for _ in range(reps):
            t = loop.time()
            r = await service.sweep()
            sweep0.add(loop.time() - t)
            t = loop.time()
            await service.next_wake()
            wake.add(loop.time() - t)
        out["sweep0"], out["wake"] = sweep0, wake
        out["parts"] = await _parts(service, seed.now, ctx.size(5, 2))
        ctx.progress(f"{n:,} games: sweep with nothing due {sweep0.summary(False)['median'] * 1000:.0f}"
                     f" ms, next_wake {wake.summary(False)['median'] * 1000:.0f} ms")

        pool = [e for e in seed.games if e[5] is not None]
        rng.shuffle(pool)
        burst_n = min(ctx.size(100, 10), len(seed.games) // 4)
        used = set()
        out["sweepk"] = {}
        for k in ctx.size((10, 100), (2, 5)):
            s, due = Series(), []
            for _ in range(ctx.size(3, 2)):
                chosen = [e[0] for e in pool if e[0] not in used][:k]
                used.update(chosen)
                await _rearm(service, chosen, seed.now)
                t = loop.time()
                r = await service.sweep()
                s.add(loop.time() - t)
                due.append(r.reminders)
            out["sweepk"][k] = (s, due)
            ctx.progress(f"{n:,} games: sweep with {k} games due "
                         f"{s.summary(False)['median'] * 1000:.0f} ms ({due} reminders sent)")

        free = [e for e in seed.games if e[0] not in used]
        rng.shuffle(free)
        for label, attach in (("service", False), ("with scheduler", True)):
            entries, players = [], set()  # different players: flood control is per player
            for e in free:
                if len(entries) < burst_n and e[4] not in players:
                    entries.append(e)
                    players.add(e[4])
            free = [e for e in free if e not in entries]
            texts = [_move_for(e, rng) for e in entries]
            scheduler = None
            if attach:
                scheduler = ReminderScheduler(service)
                await scheduler.start(catch_up=False)
            res = await _burst(service, entries, texts)
            if scheduler is not None:
                t = loop.time()
                while scheduler._tasks:  # the reschedules the burst's commits asked for
                    await asyncio.gather(*list(scheduler._tasks), return_exceptions=True)
                res["drain"] = loop.time() - t
                scheduler.shutdown()
            out[f"burst {label}"] = res
            ctx.progress(f"{n:,} games: burst of {len(entries)} moves ({label}): "
                         f"{len(entries) / res['wall']:.1f} cmd/s, {len(res['errors'])} errors")
    finally:
        await service.close()
    return out


def run(ctx: Context) -> dict:
    ids, skipped = games(ctx)
    sizes = ctx.size((1000, 10000), (50, 200))
    rows, params, errors_total, sweeps0, wakes = [], {"sizes": list(sizes)}, 0, {}, {}
    for n in sizes:
        s = seeded(ctx, n, ids)
        params[f"seed_{n}"] = {"seconds": round(s.seconds, 1), "players": s.n_players,
                               "moves": sum(len(e[3]) for e in s.games)}
        path = working_copy(s, ctx.tmp / f"load-{n}.db")
        out = asyncio.run(_measure(ctx, n, s, path))
        first, report = out["first_sweep"]
        fs = Series()
        fs.add(first)
        rows.append(row(f"{n:,} games: first sweep (catch-up)", "ms", time_figure(fs), games=n,
                        report=report.__dict__))
        rows.append(row(f"{n:,} games: sweep, nothing due", "ms", time_figure(out["sweep0"]),
                        games=n, due=0))
        rows.append(row(f"{n:,} games: next_wake", "ms", time_figure(out["wake"]), games=n))
        sweeps0[n] = out["sweep0"].summary(False)["median"]
        wakes[n] = out["wake"].summary(False)["median"]
        for part, (series, n_rows) in out["parts"].items():
            rows.append(row(f"{n:,} games:   sweep part: {part}"
                            + (f" ({n_rows:,} rows)" if n_rows is not None else ""), "ms",
                            time_figure(series), games=n, part=part, rows_read=n_rows))
        for k, (series, due) in out["sweepk"].items():
            rows.append(row(f"{n:,} games: sweep, {k} games due", "ms", time_figure(series),
                            games=n, due_games=k, reminders_sent=due))
        for label in ("service", "with scheduler"):
            res = out[f"burst {label}"]
            lat = Series()
            for x in res["latencies"]:
                lat.add(x)
            c = len(res["latencies"])
            errors_total += len(res["errors"])
            rows.append(row(f"{n:,} games: burst {c} moves ({label}) latency", "ms",
                            time_figure(lat), games=n, commands=c, errors=len(res["errors"]),
                            error_samples=res["errors"][:5], wall_s=res["wall"],
                            commands_per_s=c / res["wall"], drain_s=res.get("drain")))
            rows.append(row(f"{n:,} games: burst {c} moves ({label}) throughput", "cmd/s",
                            {"n": 1, "median": c / res["wall"], "p95": c / res["wall"]},
                            games=n, errors=len(res["errors"]), drain_s=res.get("drain")))
            if res.get("drain") is not None:
                busy = res["wall"] + res["drain"]
                rows.append(row(f"{n:,} games: burst {c} moves ({label}) until the scheduler "
                                f"caught up", "cmd/s", {"n": 1, "median": c / busy, "p95": c / busy},
                                games=n, busy_s=busy, drain_s=res["drain"]))
    goals = [goal("6a", "concurrent move commands: errors", float(errors_total), 0,
                  errors_total == 0, f"{errors_total} error(s) over every burst")]
    lo, hi = min(sizes), max(sizes)
    growth = sweeps0[hi] / sweeps0[lo] if sweeps0[lo] else None
    wake_growth = wakes[hi] / wakes[lo] if wakes[lo] else None
    goals.append(goal("6b", f"sweep cost grows with the reminders due, not the games held: "
                      f"sweep with nothing due at {hi:,} / at {lo:,} games (x{hi // lo} games)",
                      growth, 2.0, growth is not None and growth < 2.0,
                      f"{sweeps0[lo] * 1000:.1f} -> {sweeps0[hi] * 1000:.1f} ms; next_wake "
                      f"{wakes[lo] * 1000:.1f} -> {wakes[hi] * 1000:.1f} ms (x{wake_growth:.1f})"))
    return {"rows": rows, "goals": goals, "skipped": skipped, "params": params}
