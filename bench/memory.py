"""Memory: peak RSS of a bot process holding 10,000 games.

A fresh Python process (``python -m bench.memory --child DB N``) does what the bot does
with a database of N active games (seeded as in bench/seed.py): imports the engine,
the pictures, the service and, if it imports, the Discord adapter (discord.py); opens
the service, starts the reminder scheduler (a catch-up sweep and the next wake); looks
at many games (``GameService.game``: each replayed from its moves; the service keeps
the last 256 positions); draws boards of some of them (with no games, as many start
positions); then reports its peak resident set (VmHWM from /proc/self/status) and its
RSS after each step. The same with no games at all is the baseline: the difference is
what holding the games costs. The games are short (0-12 plies) but for one case of long
ones (100-150 plies, more games than the service caches): a cached position keeps its
whole history (its parents, each with its legal moves), so long games cost much more.
Each ``GameService.game`` of an uncached game is timed too: the replay a cold command pays.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

from .common import REPO, Context, Series, games, row, time_figure
from .seed import PLIES, seeded, working_copy

NAME = "memory"
TITLE = "Peak RSS of a bot process holding many games"


def _status() -> dict:
    out = {}
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            key = line.split(":")[0]
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(line.split()[1])
    except OSError:  # not Linux: ru_maxrss only
        import resource
        out["VmHWM"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return out


async def _child(db: str, n_games: int, touch: int, draw: int) -> dict:
    steps = {"python": _status()}
    import render  # noqa: F401
    import rules
    from bot.config import Settings
    from bot.operations.service import GameService
    from bot.timekeeping.reminders import ReminderScheduler

    from .common import board_png_function
    adapter = None
    try:
        import bot.discord_bot  # noqa: F401
        adapter = "bot.discord_bot"
    except Exception as e:  # noqa: BLE001 - being written by others right now
        adapter = f"not imported: {type(e).__name__}: {e}"
    steps["imports"] = _status()
    service = await GameService.open(Settings(db_path=db))
    scheduler = ReminderScheduler(service)
    await scheduler.start(catch_up=True)
    steps["open + scheduler"] = _status()
    viewed, view_s = 0, []
    loop = asyncio.get_running_loop()
    for gid in range(1, min(n_games, touch) + 1):
        t = loop.time()
        await service.game(gid)  # not in the service's cache: replayed from its moves
        view_s.append(loop.time() - t)
        viewed += 1
    steps["games viewed"] = _status()
    png, _ = board_png_function()
    variants = rules.variants()
    for i in range(draw):  # with no games (the baseline), the same number of start positions
        if n_games:
            view = await service.game(i % n_games + 1)
            pos = rules.from_fen(view.game, view.start_vfen)
            for m in view.moves:
                pos = pos.play(m.lan)
        else:
            pos = rules.start(variants[i % len(variants)])
        png(pos)
    steps["boards drawn"] = _status()
    scheduler.shutdown()
    await service.close()
    return {"steps": steps, "peak_kib": max(s.get("VmHWM", 0) for s in steps.values()),
            "games": n_games, "viewed": viewed, "view_s": view_s, "drawn": draw,
            "adapter": adapter}


def _run_child(ctx: Context, db: Path, n: int) -> dict:
    touch, draw = ctx.size(2000, 50), ctx.size(30, 3)
    touch = max(touch, min(n, 300))  # long games: more than the service's 256 cached
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run([sys.executable, "-m", "bench.memory", "--child", str(db), str(n),
                           str(touch), str(draw)], check=False, cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=1800)
    if proc.returncode != 0:
        raise RuntimeError(f"child failed ({proc.returncode}): {proc.stderr.strip()[-2000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def run(ctx: Context) -> dict:
    ids, skipped = games(ctx)
    long = ctx.size((100, 150), (20, 30))
    cases = ctx.size(((0, PLIES), (1000, PLIES), (10000, PLIES), (300, long)),
                     ((0, PLIES), (200, PLIES), (12, long)))
    rows, out = [], {}
    for n, plies in cases:
        label = f"{n:,} games" + (f" of {plies[0]}-{plies[1]} plies" if plies != PLIES else "")
        s = seeded(ctx, n, ids, plies)
        db = working_copy(s, ctx.tmp / f"memory-{n}-{plies[1]}.db")
        ctx.progress(f"{label}: bot process")
        res = _run_child(ctx, db, n)
        out[(n, plies)] = res
        mib = res["peak_kib"] / 1024
        ctx.progress(f"{label}: peak RSS {mib:.1f} MiB")
        rows.append(row(f"{label}: peak RSS" + (" (baseline)" if n == 0 else ""), "MiB",
                        {"n": 1, "median": mib, "p95": mib}, games=n, plies=list(plies),
                        db_mib=db.stat().st_size / 2**20, viewed=res["viewed"],
                        drawn=res["drawn"], adapter=res["adapter"],
                        steps_mib={k: round(v.get("VmRSS", 0) / 1024, 1)
                                   for k, v in res["steps"].items()}))
        if res["view_s"]:
            views = Series()
            for x in res["view_s"]:
                views.add(x)
            rows.append(row(f"{label}: GameService.game, not cached", "ms", time_figure(views),
                            games=n, plies=list(plies), part="view"))
    base = out.get((0, PLIES))
    if base is not None:
        for (n, plies), res in out.items():
            if n:
                d = (res["peak_kib"] - base["peak_kib"]) / 1024
                label = f"{n:,} games" + (f" of {plies[0]}-{plies[1]} plies" if plies != PLIES else "")
                rows.append(row(f"{label}: peak RSS over baseline", "MiB",
                                {"n": 1, "median": d, "p95": d}, games=n, plies=list(plies),
                                per_game_kib=d * 1024 / n))
    return {"rows": rows, "goals": [], "skipped": skipped,
            "params": {"cases": [[n, list(p)] for n, p in cases], "viewed": ctx.size(2000, 50),
                       "drawn": ctx.size(30, 3), "service_cache": 256}}


if __name__ == "__main__":
    if len(sys.argv) == 6 and sys.argv[1] == "--child":
        _, _, db, n, touch, draw = sys.argv
        print(json.dumps(asyncio.run(_child(db, int(n), int(touch), int(draw)))))
    else:
        print("usage: python -m bench.memory --child DB N_GAMES TOUCH DRAW "
              "(run by python -m bench memory)", file=sys.stderr)
        sys.exit(2)
