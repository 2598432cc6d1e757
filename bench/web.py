"""Web: the game page of a 300-ply Gigachess II game over HTTP on 127.0.0.1 (issue 20).

A seeded random Gigachess II game of 300 plies (bench/replay.py's) is played through the
game service into a real SQLite file; the web adapter (bot/web/) serves it on a free port
of 127.0.0.1 and an aiohttp client measures what a browser waits for: the page's time to
first byte, and the full load, everything the page fetches before it can be used (the
HTML, its script and style, the board picture once, the position JSON: squares, pieces,
placements), each request after the previous as a page's critical path is; and the bytes
of a replay step (a step back: its picture and position; a step already seen again: the
position alone, the picture being kept by its versioned address). The anchor, in the same run and
interleaved: the same server's static style sheet (the cost of a request that does no
work). The goal: the full load under a second.
"""

from __future__ import annotations

import random
import time

from .common import Context, Series, goal, row, run_async, service_settings, settle, time_figure
from .replay import long_game

NAME = "web"
TITLE = "The web page of a 300-ply Gigachess II game on 127.0.0.1"
LIMIT_SECONDS = 1.0


async def _seed(settings, lans: list[str]) -> int:
    from bot.operations.service import GameService
    svc = await GameService.open(settings, rng=random.Random(1))
    try:
        a = await svc.player("bench", "a", "Alice")
        b = await svc.player("bench", "b", "Bob")
        ch = await svc.challenge(a.id, "gigachess2", opponent_id=b.id, days=None, colour="white")
        view = await svc.accept_challenge(ch.id, b.id)
        for i, lan in enumerate(lans):
            await svc.move(view.id, (a if i % 2 == 0 else b).id, lan)
        return view.id
    finally:
        await svc.close()


async def _measure(settings, game_id: int, plies: int, reps: int):
    import aiohttp
    from aiohttp import web

    from bot.identity import page_tokens as tokens
    from bot.operations.service import GameService
    from bot.web.server import RUNNER_OPTIONS, make_app
    svc = await GameService.open(settings)
    secret = b"bench"
    runner = web.AppRunner(make_app(svc, secret), **RUNNER_OPTIONS)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    page = f"{base}/g/{game_id}/{tokens.sign(secret, game_id)}"
    ttfb, full, anchor = Series(), Series(), Series()
    sizes: dict[str, int] = {}
    try:
        async with aiohttp.ClientSession() as http:
            async def get(url: str) -> bytes:
                async with http.get(url) as r:
                    assert r.status == 200, (url, r.status)
                    return await r.read()

            async def first_byte(url: str) -> float:
                t = time.perf_counter()
                async with http.get(url) as r:
                    await r.content.readany()
                    wall = time.perf_counter() - t
                    await r.read()
                return wall

            # warm-up: the first replay of the game, the imports, the worker processes
            await get(page)
            version = (await (await http.get(page + "/state.json")).json())["version"]
            await get(page + f"/position.json?ply={plies}&flip=0")
            step = len(await get(page + f"/board.png?v={version}&ply={plies - 1}&flip=0")) + \
                len(await get(page + f"/position.json?ply={plies - 1}&flip=0"))
            seen_step = len(await get(page + f"/position.json?ply={plies}&flip=0"))
            sizes_step = {"replay step (new ply)": step, "replay step (seen ply)": seen_step}
            for _ in range(reps):
                settle()
                c = time.process_time()
                ttfb.add(await first_byte(page), time.process_time() - c)
                t, c = time.perf_counter(), time.process_time()
                html = (await get(page)).decode()
                sizes["page"] = len(html)
                for static in ("game.js", "game.css"):
                    url = base + html.split(f'/static/{static}')[0].rsplit('"', 1)[1] + \
                        f"/static/{static}" + html.split(f"/static/{static}")[1].split('"')[0]
                    sizes[static] = len(await get(url))
                for path in (f"/board.png?v={version}&ply={plies}&flip=0",
                             f"/position.json?ply={plies}&flip=0"):
                    sizes[path.split("?")[0]] = len(await get(page + path))
                full.add(time.perf_counter() - t, time.process_time() - c)
                t, c = time.perf_counter(), time.process_time()
                await get(base + "/static/game.css")
                anchor.add(time.perf_counter() - t, time.process_time() - c)
    finally:
        await runner.cleanup()
        await svc.close()
    return ttfb, full, anchor, sizes, sizes_step


def run(ctx: Context) -> dict:
    plies, reps = ctx.size((300, 7), (20, 2))
    ctx.progress(f"a {plies}-ply game played through the service")
    lans = long_game(plies, ctx.rng("replay"))
    settings = service_settings(ctx.tmp / "web.db", command_rate_per_minute=0)
    game_id = run_async(_seed(settings, lans))
    ctx.progress(f"{reps} page loads")
    ttfb, full, anchor, sizes, steps = run_async(_measure(settings, game_id, len(lans), reps))
    load = full.summary()["median"]
    rows = [
        row(f"{len(lans)} plies: page, first byte", "ms", time_figure(ttfb), time_figure(anchor),
            anchor_name="the same server's style sheet"),
        row(f"{len(lans)} plies: full load (5 requests)", "ms", time_figure(full),
            time_figure(anchor), anchor_name="the same server's style sheet",
            bytes=sum(sizes.values())),
    ]
    goals = [goal("web-load", "the page of a 300-ply Gigachess II game loads in under 1 s",
                  load, LIMIT_SECONDS, load < LIMIT_SECONDS if plies >= 300 else None,
                  f"{load * 1000:.0f} ms")]
    notes = ["bytes: " + ", ".join(f"{k} {v / 1000:.1f} KB" for k, v in sizes.items()),
             "bytes: " + ", ".join(f"{k} {v / 1000:.1f} KB" for k, v in steps.items())]
    return {"rows": rows, "goals": goals, "skipped": [], "notes": notes,
            "params": {"plies": len(lans), "repetitions": reps}}
