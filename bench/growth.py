"""Growth: the database's bytes per 1,000 moves, with and without pruning (issue 17).

Every move writes about six rows that no game's record needs once they are old: the
outbox events (your move, time warnings, the digest) and the turn's reminders. A seeded
simulation through the game service plays G chess games at once with random legal moves,
one ply per game every 12 hours of a ManualClock (every player takes a daily digest), and
sweeps after each round (reminders, digests, delivery, pruning); a game that ends, or
reaches 200 plies, is replaced by a new one. The same run is made twice: with
``retention_days = 0`` (everything kept, as before pruning) and with the default 30.

Figures, per 1,000 moves (after the players are made): the database file's growth
(checkpointed; SQLite reuses freed pages but never shrinks the file), the growth of the
bytes in use (pages not on the free list), and the events and reminders rows left.
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

from .common import Context, Series, atimed, row, service_settings, time_figure

NAME = "growth"
TITLE = "Database bytes per 1,000 moves, with and without pruning"

MAX_PLIES = 200


def _sizes(path: Path) -> dict:
    """File bytes and bytes in use, after folding the WAL into the file."""
    con = sqlite3.connect(path)
    try:
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page = con.execute("PRAGMA page_size").fetchone()[0]
        pages = con.execute("PRAGMA page_count").fetchone()[0]
        free = con.execute("PRAGMA freelist_count").fetchone()[0]
        rows = {t: con.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
                for t in ("events", "reminders", "digests", "moves", "games")}
    finally:
        con.close()
    return {"file": path.stat().st_size, "used": (pages - free) * page, **rows}


async def _simulate(path: Path, games: int, rounds: int, retention: int, seed: int) -> dict:
    from bot.delivery.events import MemoryNotifier
    from bot.operations.service import GameService
    from bot.timekeeping.clock import ManualClock

    clock = ManualClock(datetime(2025, 1, 6, 12, tzinfo=UTC))
    settings = service_settings(path, retention_days=retention, command_rate_per_minute=0,
                                vacation_days_per_year=0)
    rng = random.Random(seed)
    svc = await GameService.open(settings, clock=clock, notifier=MemoryNotifier(), rng=rng)
    try:
        pairs = []
        for i in range(games):
            a = await svc.player("bench", f"w{i}", f"White {i}")
            b = await svc.player("bench", f"b{i}", f"Black {i}")
            for p in (a, b):
                await svc.update_settings(p.id, digest_time="08:00")
            pairs.append((a, b))
    finally:
        await svc.close()
    start = _sizes(path)
    # MemoryNotifier keeps every notice: a fresh one per round keeps the bench's memory flat
    svc = await GameService.open(settings, clock=clock, notifier=MemoryNotifier(), rng=rng)
    moves, mid = 0, None
    try:
        live = {}
        for n_round in range(rounds):
            if n_round == rounds // 2:
                mid = (moves, _sizes(path))
            for i, (a, b) in enumerate(pairs):
                if i not in live:
                    c = await svc.challenge(a.id, "chess", opponent_id=b.id, days=3, colour="white")
                    live[i] = (await svc.accept_challenge(c.id, b.id)).id
                gid = live[i]
                view = await svc.game(gid)
                mover = a if view.to_move.id == a.id else b
                legal = await svc.legal_moves(gid)
                result = await svc.move(gid, mover.id, rng.choice(legal))
                moves += 1
                if result.outcome is not None:
                    del live[i]
                elif result.game.ply >= MAX_PLIES:
                    await svc.resign(gid, mover.id)
                    del live[i]
            clock.advance(timedelta(hours=12))
            svc.notifier.events.clear()
            await svc.sweep()
    finally:
        await svc.close()
    end = _sizes(path)
    half_moves, half = moves - mid[0], mid[1]
    return {"moves": moves, "start": start, "mid": half, "end": end, "days": rounds / 2,
            "now": clock.now(),
            "per_1000": {k: (end[k] - start[k]) * 1000 / moves
                         for k in ("file", "used", "events", "reminders")},
            # the second half only: with pruning, what keeps growing once retention is reached
            "late_per_1000": {k: (end[k] - half[k]) * 1000 / half_moves
                              for k in ("file", "used", "events", "reminders")}}


async def _first_prune(path: Path, now: datetime) -> tuple[int, Series]:
    """Turn pruning on for a database that kept everything: the first prune's time."""
    from bot.operations.service import GameService
    from bot.timekeeping.clock import ManualClock

    svc = await GameService.open(service_settings(path, retention_days=30), clock=ManualClock(now))
    try:
        series = Series()
        deleted, wall, cpu = await atimed(svc.prune)
        series.add(wall, cpu)
        return deleted, series
    finally:
        await svc.close()


def _figure(value: float) -> dict:
    return {"n": 1, "median": value, "p95": value}


def run(ctx: Context) -> dict:
    games, rounds = ctx.size((20, 240), (3, 70))
    rows, params = [], {"games": games, "rounds": rounds, "hours_per_round": 12}
    results = {}
    for retention in (0, 30):
        path = ctx.tmp / f"growth-{retention}.db"
        for suffix in ("", "-wal", "-shm"):
            Path(str(path) + suffix).unlink(missing_ok=True)
        ctx.progress(f"retention_days={retention}: {games} games x {rounds} rounds")
        res = asyncio.run(_simulate(path, games, rounds, retention, ctx.seed))
        results[retention] = res
        label = "kept for ever (retention 0)" if retention == 0 else f"pruned after {retention} days"
        per = res["per_1000"]
        extra = {"moves": res["moves"], "simulated_days": res["days"], "end": res["end"],
                 "start": res["start"]}
        rows.append(row(f"{label}: file bytes per 1,000 moves", "bytes", _figure(per["file"]), **extra))
        rows.append(row(f"{label}: bytes in use per 1,000 moves", "bytes", _figure(per["used"]),
                        moves=res["moves"]))
        rows.append(row(f"{label}: events rows left per 1,000 moves", "rows",
                        _figure(per["events"]), moves=res["moves"]))
        rows.append(row(f"{label}: reminder rows left per 1,000 moves", "rows",
                        _figure(per["reminders"]), moves=res["moves"]))
        rows.append(row(f"{label}: file bytes per 1,000 moves, second half", "bytes",
                        _figure(res["late_per_1000"]["file"]), moves=res["moves"],
                        late=res["late_per_1000"]))
    kept_db = ctx.tmp / "growth-0.db"
    deleted, series = asyncio.run(_first_prune(kept_db, results[0]["now"]))
    rows.append(row(f"pruning turned on: the first prune ({deleted:,} rows of "
                    f"{results[0]['moves']:,} moves)", "ms", time_figure(series), deleted=deleted))
    kept, pruned = results[0]["per_1000"], results[30]["per_1000"]
    notes = [f"{results[0]['moves']:,} moves over {results[0]['days']:.0f} simulated days: the file "
             f"grows {kept['file'] / 1024:.0f} KiB per 1,000 moves with everything kept, "
             f"{pruned['file'] / 1024:.0f} KiB with pruning after 30 days; over the second half "
             f"(past the retention) {results[0]['late_per_1000']['file'] / 1024:.0f} KiB and "
             f"{results[30]['late_per_1000']['file'] / 1024:.0f} KiB"]
    return {"rows": rows, "goals": [], "skipped": [], "notes": notes, "params": params}


if __name__ == "__main__":  # pragma: no cover
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        print(run(Context(quick=True, tmp=Path(tmp)))["notes"])
