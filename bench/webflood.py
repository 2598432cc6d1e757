"""Web under a flood: one game's pages flooded, another game's page beside it (issue 33).

Two Gigachess II games (a seeded random game of 300 plies, and a short one) are played
through the game service into a real SQLite file and served on 127.0.0.1 by a process of
its own (as ``fairypost web`` is: the flood's clients must not share its loop). A link holder
of the first game floods it with what a page may ask: 1,000 open event streams, board
pictures (300 requests for one board, then one per ply), 400-move side lines, the
computer's evaluations, and the game's HTML page itself (``PAGE_FLOOD`` requests at once),
from 32 client addresses (127.0.1.x) so that the per-client caps do not simply refuse it.
Meanwhile another game's page, another client (the HTML page, then its state and its
position JSON, what a page does after each move), is timed, one request after the other: that latency's
p95 under the flood, beside the same requests with nothing else going on (the anchor,
same run). The goal: p95 under 200 ms. Then a move by another process (this one) on the
flooded game: how soon each of its 1,000 open pages has it (goal: all within 1 s).

The server times its own event loop throughout (bench/loopwatch.py): how late a 10 ms sleep
wakes (the lag: the longest anything held the loop, plus on a loaded machine the wait for a
CPU; goal: at most 50 ms), the loop thread's own CPU time beside it (the smaller of the two
in a window: the lag the loop's own work explains), the longest pass of the loop and what
ran in it, the callbacks and the garbage collections that ran on the CPU 25 ms or more, and
where the loop was when late.
Also counted: renders for the 300 requests of one board (goal: 1).
"""

from __future__ import annotations

import asyncio
import os
import random
import time

from .common import Context, Series, goal, percentile, row, run_async, service_settings, time_figure
from .loopwatch import LoopWatch
from .replay import long_game

NAME = "webflood"
TITLE = "Another game's page while one game's pages are flooded"
GOAL_P95 = 0.2
GOAL_HOLD_MS = 50.0
AFTER_FLOOD = 8.0  # seconds of quiet after the flood: a quiet loop's full collection comes
FLOODERS = 32  # client addresses the flood comes from (the caps are per client)
PAGE_FLOOD = 600  # requests for the flooded game's HTML page, at once (issue 40)


async def _seed(settings, games: list[list[str]]) -> list[int]:
    from bot.operations.service import GameService
    svc = await GameService.open(settings, rng=random.Random(1))
    try:
        a = await svc.player("bench", "a", "Alice")
        b = await svc.player("bench", "b", "Bob")
        ids = []
        for lans in games:
            ch = await svc.challenge(a.id, "gigachess2", opponent_id=b.id, days=None, colour="white")
            view = await svc.accept_challenge(ch.id, b.id)
            for i, lan in enumerate(lans):
                await svc.move(view.id, (a if i % 2 == 0 else b).id, lan)
            ids.append(view.id)
        return ids
    finally:
        await svc.close()


def _serve(db_path: str, conn) -> None:
    """The server process: the pages on a free port (sent back), until told to stop; then
    its counts (pictures rendered, games read for the streams)."""
    asyncio.run(_serving(db_path, conn))


async def _serving(db_path: str, conn) -> None:
    from aiohttp import web

    from bot.operations.service import GameService
    from bot.web.server import HUB, PICTURES, STREAMS, make_app, serving_runner, settle_for_serving
    svc = await GameService.open(service_settings(db_path, command_rate_per_minute=0))
    app = make_app(svc, b"bench")
    runner = await serving_runner(app)  # as bot.web.server.start serves it
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    full = settle_for_serving(runner=runner)  # as bot.web.server.start does
    watch = LoopWatch()
    watch.start()
    conn.send(site._server.sockets[0].getsockname()[1])
    while True:  # "stats" (as many times as asked; "thaw" first: one), then "stop"
        said = await asyncio.get_running_loop().run_in_executor(None, conn.recv)
        thaw = full.thaw_now() if said == "thaw" else None
        lags, busy, process, where, slowest, gcs, longest = watch.take()
        conn.send({"renders": app[PICTURES].renders, "reads": app[HUB].reads, "lag": lags,
                   "busy": busy, "process": process, "where": where, "slowest": slowest,
                   "gc": gcs, "longest_pass": longest, "rss": _rss_mb(),
                   "full_collections": (full.done, full.forced),
                   "open_streams": app[STREAMS].open, "thaw": thaw})
        if said == "stop":
            break
    watch.stop()
    full.stop()
    await runner.cleanup()
    await svc.close()


def _rss_mb() -> float:
    """This process's resident memory (MB), from /proc (0 where there is none)."""
    import os
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2 ** 20
    except OSError:
        return 0.0


async def _measure(settings, flooded: int, quiet: int, line: list[str], plies: int,
                   streams: int, samples: int, rounds: int, pages: int):
    import multiprocessing

    import aiohttp

    from bot.identity import page_tokens as tokens
    ours, theirs = multiprocessing.Pipe()
    server = multiprocessing.get_context("spawn").Process(
        target=_serve, args=(settings.db_path, theirs))  # not a daemon: it has a painter
    server.start()
    port = await asyncio.get_running_loop().run_in_executor(None, ours.recv)
    base = f"http://127.0.0.1:{port}"
    secret = b"bench"
    flood_page = f"{base}/g/{flooded}/{tokens.sign(secret, flooded)}"
    quiet_page = f"{base}/g/{quiet}/{tokens.sign(secret, quiet)}"
    calm, busy = Series(), Series()
    counts = {"streams": 0, "ok": 0, "refused": 0, "pages_ok": 0, "pages_refused": 0}
    phases: dict[str, dict] = {}
    updated: list[float] = []  # when each open stream had an update
    churn: list[dict] = []  # the server's figures after each further round
    fanout: list[float] = []
    try:
        # the flood from FLOODERS addresses (127.0.1.x: many link holders, so that the
        # per-client caps let much of it through), the other game's viewer from 127.0.0.2
        flooders = [aiohttp.ClientSession(connector=aiohttp.TCPConnector(
            limit=0, local_addr=(f"127.0.1.{i + 1}", 0))) for i in range(FLOODERS)]
        viewer = aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=("127.0.0.2", 0)))
        turn = iter(range(1 << 30))

        def flooder():
            return flooders[next(turn) % FLOODERS]
        async with viewer:
            async def timed(series: Series, n: int) -> None:
                for _ in range(n):
                    t, c = time.perf_counter(), time.process_time()
                    for path in ("", "/state.json", "/position.json"):  # the page, then its JSON
                        async with viewer.get(quiet_page + path) as r:
                            assert r.status == 200, (path, r.status)
                            await r.read()
                    series.add(time.perf_counter() - t, time.process_time() - c)

            async def hit(url: str, kind: str = "") -> None:
                try:
                    async with flooder().get(url) as r:
                        await r.read()
                        counts[kind + ("ok" if r.status == 200 else "refused")] += 1
                except aiohttp.ClientError:
                    counts[kind + "refused"] += 1

            async def stream() -> None:
                try:
                    async with flooder().get(flood_page + "/events") as r:
                        if r.status == 200:
                            counts["streams"] += 1
                        async for text in r.content:
                            if text == b"event: update\n":
                                updated.append(time.perf_counter())
                except (aiohttp.ClientError, asyncio.CancelledError):
                    pass

            async def loop_since_last(said: str = "stats") -> dict:  # the server's loop since the last ask
                ours.send(said)
                return await asyncio.get_running_loop().run_in_executor(None, ours.recv)

            await timed(calm, 3)  # warm-up
            calm.__init__()
            await loop_since_last()
            await timed(calm, samples)
            phases["calm"] = await loop_since_last()
            version = (await (await viewer.get(flood_page + "/state.json")).json())["version"]
            held = [asyncio.create_task(stream()) for _ in range(streams)]
            await asyncio.gather(*(hit(f"{flood_page}/board.png?v={version}&ply={plies}")
                                   for _ in range(300)))
            phases["arrival"] = await loop_since_last()
            renders = phases["arrival"]["renders"]
            flood = [hit(f"{flood_page}/board.png?v={version}&ply={p}") for p in range(plies)]
            side = "+".join(line)
            flood += [hit(f"{flood_page}/position.json?ply=0&line={side}") for _ in range(20)]
            flood += [hit(f"{flood_page}/eval.json?ply={p}") for p in range(15)]
            flood += [hit(flood_page, "pages_") for _ in range(pages)]
            flooding = asyncio.gather(*flood)
            await timed(busy, samples)
            await flooding
            phases["flood"] = await loop_since_last()
            # a move by another process (this one) on the flooded game: how soon each of
            # its open pages has it
            updated.clear()
            moved = await _move_elsewhere(settings, flooded)
            for _ in range(100):
                if len(updated) >= counts["streams"]:
                    break
                await asyncio.sleep(0.05)
            fanout = sorted(t - moved for t in updated)
            phases["fanout"] = await loop_since_last()
            # the loop quiet again, the streams still open: the full collection held back
            # during the flood runs now (bot/web/collector.py)
            await asyncio.sleep(AFTER_FLOOD)
            phases["after"] = await loop_since_last()
            # what the collection every THAW_EVERY seconds costs with the streams open
            thaw = (await loop_since_last("thaw"))["thaw"]
            await asyncio.sleep(0.1)
            await loop_since_last()  # the thaw's own window: not the next round's
            for t in held:
                t.cancel()
            await asyncio.gather(*held, return_exceptions=True)
            # more rounds (BENCH_WEBFLOOD_ROUNDS): the streams opened and closed again with
            # another flood, the server's memory after each (no leak: it levels off)
            kept = dict(counts)
            for _ in range(rounds - 1):
                held = [asyncio.create_task(stream()) for _ in range(streams)]
                await asyncio.gather(*(hit(f"{flood_page}/board.png?v={version}&ply={p}")
                                       for p in range(plies)),
                                     *(hit(f"{flood_page}/position.json?ply=0&line={side}")
                                       for _ in range(20)))
                for t in held:
                    t.cancel()
                await asyncio.gather(*held, return_exceptions=True)
                await asyncio.sleep(1.0)  # the server sees the pages closed
                churn.append(await loop_since_last())
            counts.update(kept)  # the figures below are the first round's
            for f in flooders:
                await f.close()
    finally:
        ours.send("stop")
        await asyncio.get_running_loop().run_in_executor(None, ours.recv)
        server.join(10)
    return calm, busy, counts, renders, phases, fanout, churn, thaw


async def _move_elsewhere(settings, game_id: int) -> float:
    """A move on the game by a service of this process (the server's is another): when
    it was committed."""
    from bot.operations.service import GameService
    svc = await GameService.open(settings)
    try:
        view = await svc.game(game_id)
        pos = await svc.position(game_id)
        lan = pos.legal_moves()[0].lan
        await svc.move(game_id, view.to_move.id, lan)
        return time.perf_counter()
    finally:
        await svc.close()


def _loop_figures(stats: list[dict]) -> dict:
    """Max and p99 of the lag (ms) over the phases ``stats``, the loop thread's CPU in
    the window of the longest, and the places stalls were seen."""
    lags = [x for s in stats for x in s["lag"]]
    busy = [x for s in stats for x in s["busy"]]
    process = [x for s in stats for x in s["process"]]
    own = [min(lag, cpu) for lag, cpu in zip(lags, busy, strict=True)]
    where: dict[str, int] = {}
    for s in stats:
        for place, n in s["where"]:
            where[place] = where.get(place, 0) + n
    slowest: dict[str, float] = {}
    for s in stats:
        for what, spent in s["slowest"]:
            slowest[what] = max(spent * 1000, slowest.get(what, 0.0))
    longest = max((s["longest_pass"] for s in stats), key=lambda p: p[0], default=(0.0, []))
    worst = max(range(len(lags)), key=lags.__getitem__) if lags else None
    return {"max": max(lags, default=0.0) * 1000, "p99": percentile(lags, 99) * 1000 if lags else 0.0,
            "n": len(lags), "cpu_of_max": busy[worst] * 1000 if worst is not None else 0.0,
            "process_of_max": process[worst] * 1000 if worst is not None else 0.0,
            "cpu_max": max(busy, default=0.0) * 1000,
            # the part of each lag the loop's own work can explain (the rest: no CPU to run on)
            "own_max": max(own, default=0.0) * 1000, "own_p99": percentile(own, 99) * 1000 if own else 0.0,
            "longest_pass": longest[0] * 1000,
            "longest_pass_made_of": [(what, n, round(s * 1000, 1)) for what, n, s in longest[1]],
            "gc": [round(x * 1000, 1) for s in stats for x in s["gc"]],
            "cpu_p99": percentile(busy, 99) * 1000 if busy else 0.0,
            "where": sorted(where.items(), key=lambda kv: -kv[1])[:8],
            "slowest": sorted(slowest.items(), key=lambda kv: -kv[1])[:8]}


def run(ctx: Context) -> dict:
    from bot.web.collector import THAW_EVERY
    plies, streams, samples, pages = ctx.size((300, 1000, 40, PAGE_FLOOD), (20, 50, 6, 60))
    ctx.progress(f"two games played through the service ({plies} plies)")
    lans = long_game(plies, ctx.rng("replay"))
    line = long_game(400, ctx.rng("side line"))[:400 if plies >= 300 else 60]
    settings = service_settings(ctx.tmp / "webflood.db", command_rate_per_minute=0)
    flooded, quiet = run_async(_seed(settings, [lans, lans[:20]]))
    ctx.progress(f"flood: {streams} streams, pictures, side lines, evaluations, {pages} pages")
    rounds = int(os.environ.get("BENCH_WEBFLOOD_ROUNDS", "1"))
    calm, busy, counts, renders, phases, fanout, churn, thaw = run_async(_measure(
        settings, flooded, quiet, line, len(lans), streams, samples, rounds, pages))
    churned = _loop_figures(churn) if churn else None
    loop = _loop_figures([phases["arrival"], phases["flood"], phases["fanout"]])
    quiet_loop = _loop_figures([phases["calm"]])
    arrival, rest = _loop_figures([phases["arrival"]]), _loop_figures([phases["flood"]])
    spread = _loop_figures([phases["fanout"]])
    after = _loop_figures([phases["after"]])
    last = fanout[-1] if fanout else None
    everyone = last is not None and len(fanout) == counts["streams"]
    p95 = busy.summary()["p95"]
    full = plies >= 300
    rows = [row("another game's page + state + position under the flood", "ms", time_figure(busy),
                time_figure(calm), anchor_name="the same requests with no flood")]
    goals = [goal("web-flood", "another game's page p95 under 200 ms while one game is flooded",
                  p95, GOAL_P95, p95 < GOAL_P95 if full else None, f"{p95 * 1000:.0f} ms"),
             goal("web-renders", "300 requests for one board render it once", renders, 1,
                  renders == 1, f"{renders} render(s)"),
             goal("web-live", f"a move by another process reaches all {streams} open pages "
                  "within 1 s", last, 1.0, (everyone and last < 1.0) if full else None,
                  f"{len(fanout)} of {counts['streams']} pages had it" + (
                      f", the first after {fanout[0] * 1000:.0f} ms, the median "
                      f"{fanout[len(fanout) // 2] * 1000:.0f} ms, the last {last * 1000:.0f} ms"
                      if fanout else "")),
             goal("web-loop", "the server's event loop held at most 50 ms during the flood",
                  loop["max"], GOAL_HOLD_MS, loop["max"] < GOAL_HOLD_MS if full else None,
                  f"max {loop['max']:.0f} ms, p99 {loop['p99']:.0f} ms")]
    notes = [f"the server's event loop during the flood (streams arriving, then the rest): "
             f"lag at most {loop['max']:.0f} ms (the loop thread on a CPU for "
             f"{loop['cpu_of_max']:.0f} ms of that window, the process's threads together "
             f"{loop['process_of_max']:.0f} ms; the rest is waiting for a CPU), "
             f"p99 {loop['p99']:.0f} ms, {loop['n']} samples of a 10 ms sleep's overrun; "
             f"while the streams and 300 requests for one picture arrive: at most "
             f"{arrival['max']:.0f} ms, p99 {arrival['p99']:.0f} ms; the rest of the flood: at most "
             f"{rest['max']:.0f} ms, p99 {rest['p99']:.0f} ms; handing a move to the open pages: "
             f"at most {spread['max']:.0f} ms, p99 {spread['p99']:.0f} ms; "
             f"with no flood: at most {quiet_loop['max']:.0f} ms, p99 {quiet_loop['p99']:.0f} ms",
             "where the loop was when late by 25 ms or more: " + (
                 "; ".join(f"{n}x {place}" for place, n in loop["where"]) or "never"),
             "callbacks of the loop that ran on the CPU for 25 ms or more (their longest): " + (
                 "; ".join(f"{what} {ms:.0f} ms" for what, ms in loop["slowest"]) or "none"),
             f"loop thread's CPU in a window: at most {loop['cpu_max']:.0f} ms, p99 {loop['cpu_p99']:.0f} ms; "
             f"the part of the lag that the loop's own work explains (each window's lag or CPU, the "
             f"smaller): at most {loop['own_max']:.0f} ms, p99 {loop['own_p99']:.0f} ms",
             f"the longest pass of the loop: {loop['longest_pass']:.0f} ms of CPU, made of "
             + "; ".join(f"{n}x {what} {ms} ms" for what, n, ms in loop["longest_pass_made_of"]),
             f"full garbage collections during the flood (ms of CPU each): {loop['gc'] or 'none'}",
             f"the quiet {AFTER_FLOOD:.0f} s after the flood (streams still open): lag at most "
             f"{after['max']:.0f} ms, full collections {after['gc'] or 'none'} ms; full collections "
             f"in all {phases['after']['full_collections'][0]} (forced on a busy loop: "
             f"{phases['after']['full_collections'][1]}); the server's RSS "
             + ", ".join(f"{name} {phases[name]['rss']:.0f} MB" for name in
                         ("calm", "arrival", "flood", "fanout", "after")),
             *([f"{len(churn)} more rounds of {streams} streams opened and closed with a flood "
                f"(BENCH_WEBFLOOD_ROUNDS): the server's RSS after each "
                + ", ".join(f"{c['rss']:.0f}" for c in churn) + " MB, streams the server still held "
                + ", ".join(str(c["open_streams"]) for c in churn) + "; their loop lag at most "
                f"{churned['max']:.0f} ms (own work {churned['own_max']:.0f} ms; by round "
                + ", ".join(f"{max(c['lag'], default=0) * 1000:.0f}" for c in churn) + " ms, own work "
                + ", ".join(f"{max(map(min, c['lag'], c['busy']), default=0) * 1000:.0f}" for c in churn)
                + " ms; their "
                "longest full collection " + ", ".join(f"{max(c['gc'], default=0) * 1000:.0f}" for c in churn)
                + " ms), full collections "
                f"{churn[-1]['full_collections'][0]} in all (forced {churn[-1]['full_collections'][1]}), "
                f"the longest {max(churned['gc'], default=0):.0f} ms"] if churn else []),
             f"the thaw (every {THAW_EVERY / 60:.0f} min a full collection over everything, the frozen "
             f"included, collector.py), run once with the {streams} streams open: {thaw * 1000:.0f} ms",
             f"streams held open: {counts['streams']}; flood requests answered {counts['ok']}, "
             f"refused (the client's share, 429/503) {counts['refused']}; of {pages} requests "
             f"for the flooded game's HTML page at once, answered {counts['pages_ok']}, refused "
             f"(the client's share, 429) {counts['pages_refused']}"]
    return {"rows": rows, "goals": goals, "skipped": [], "notes": notes,
            "params": {"plies": len(lans), "streams": streams, "samples": samples, "pages": pages},
            "pages": {"answered": counts["pages_ok"], "refused": counts["pages_refused"]},
            "loop": {"flood": loop, "arrival": arrival, "rest": rest, "fanout": spread, "calm": quiet_loop,
                     "after": after},
            "rss_mb": {name: phases[name]["rss"] for name in ("calm", "arrival", "flood", "fanout", "after")},
            "full_collections": phases["after"]["full_collections"], "thaw_ms": thaw * 1000,
            "rounds": [{"rss_mb": c["rss"], "full_collections": c["full_collections"],
                        "lag_max_ms": max(c["lag"], default=0) * 1000,
                        "own_work_max_ms": max(map(min, c["lag"], c["busy"]), default=0) * 1000,
                        "gc_max_ms": max(c["gc"], default=0) * 1000} for c in churn]}
