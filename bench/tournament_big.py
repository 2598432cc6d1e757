"""Big events (issue 43 item 5, issue 40 item 5), the share of ``python -m bench tournament``
that bench/tournament.py runs after its 100-player Swiss: each figure beside an anchor
measured in the same run.

* **pairing a 500-player Swiss round** (pure, every round of 9, results drawn at random)
  beside pairing a 100-player round of the same kind: how the pairing grows with the field;
  the goal: under 2 s a round;
* **starting a 60-player round robin** (1,770 games, in batches: bot/tournaments/batches.py)
  beside making the 1,770 games alone in one transaction (what the start did before);
* **another game's move during that start** (two players outside the event, moving in
  turn the whole time) beside the same moves with nothing else going on: the wall time and
  the process's CPU time of each move (the goal: every move within 100 ms of CPU);
* **the 500-player Swiss's page**: its size, and a look at it once built (kept by the
  event's version) beside its first build (the view read and the HTML made in a thread).

``--quick``: 120 players, a 16-player round robin.
"""

from __future__ import annotations

import asyncio
import random
import time

from .common import Context, Series, goal, row, settle, time_figure

OPENING = ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "d3", "d6", "Nc3", "Nf6", "O-O", "O-O"]


def _swiss_rounds(n: int, rounds: int, rng: random.Random, series: Series) -> None:
    from bot.tournaments.pairing import SwissPlayer, pair_swiss
    state = {i: SwissPlayer(i) for i in range(n)}
    for _ in range(rounds):
        settle()
        c, w = time.process_time(), time.perf_counter()
        r = pair_swiss(list(state.values()))
        series.add(time.perf_counter() - w, time.process_time() - c)
        for white, black in r.pairs:
            if black is None:
                s = state[white]
                state[white] = SwissPlayer(white, s.score + 1, s.colours, s.opponents, True)
                continue
            got = rng.choice((1.0, 0.5, 0.0))
            sw, sb = state[white], state[black]
            state[white] = SwissPlayer(white, sw.score + got, sw.colours + ("w",), sw.opponents | {black},
                                       sw.had_bye)
            state[black] = SwissPlayer(black, sb.score + 1 - got, sb.colours + ("b",), sb.opponents | {white},
                                       sb.had_bye)


async def _entered(svc, n: int, fmt: str, **kw):
    from bot.tournaments.tables import TournamentTables
    t = await svc.create_tournament("chess", name=f"Big {fmt}", format=fmt, days=3, **kw)
    people = [await svc.player("bench", f"{fmt}{i}", f"Player {i}") for i in range(n)]
    async with svc.store.write() as tx:
        for p in people:
            await TournamentTables(tx).join(t.id, p.id, svc._now())
    return t


async def _moves(svc, games, white, black, stop: asyncio.Event, wall: Series, cpu_worst: list[float]):
    for gid in games:
        for ply, san in enumerate(OPENING):
            if stop.is_set():
                return
            c, w = time.process_time(), time.perf_counter()
            await svc.move(gid, white if ply % 2 == 0 else black, san)
            cpu = time.process_time() - c
            wall.add(time.perf_counter() - w, cpu)
            cpu_worst[0] = max(cpu_worst[0], cpu)
            await asyncio.sleep(0.001)


async def _other_games(svc, count: int):
    white = (await svc.player("bench", "w", "White")).id
    black = (await svc.player("bench", "b", "Black")).id
    async with svc.store.write() as tx:
        games = [await svc._create_game(tx, "chess", white, black, 3, svc._now(), scope=None, rated=False)
                 for _ in range(count)]
    await svc._after_commit()
    return games, white, black


async def run_big(ctx: Context, open_service, games_alone, scratch) -> dict:
    """The rows and goals of the big events (``open_service(name)``: a fresh service;
    ``games_alone(svc, people, count, now)``: the anchor of making games in one transaction)."""
    rows, goals, notes = [], [], []
    big_n, small_n = ctx.size((500, 100), (120, 40))
    rr_n = ctx.size(60, 16)
    rng = ctx.rng("tournament-big")
    # pairing, 500 beside 100 players
    big, small = Series(), Series()
    _swiss_rounds(big_n, 9, rng, big)
    _swiss_rounds(small_n, 9, rng, small)
    rows.append(row(f"pair a {big_n}-player Swiss round (all 9 rounds)", "ms", time_figure(big), time_figure(small),
                    anchor_name=f"a {small_n}-player round"))
    worst = max(big.cpu)
    goals.append(goal("43.5-pairing", f"pairing a {big_n}-player Swiss round takes under 2 s", worst, 2.0,
                      worst < 2.0, f"the slowest of 9 rounds: {worst:.2f} s of CPU"))
    # a 60-player round robin's start, and another game's moves meanwhile
    svc = await open_service("bigrr")
    try:
        t = await _entered(svc, rr_n, "round-robin")
        games, white, black = await _other_games(svc, 80)
        quiet, quiet_worst = Series(), [0.0]
        stop = asyncio.Event()
        mover = asyncio.create_task(_moves(svc, games[:40], white, black, stop, quiet, quiet_worst))
        await asyncio.sleep(ctx.size(3.0, 1.0))  # the anchor: the same moves, nothing else going on
        stop.set()
        await mover
        during, during_worst = Series(), [0.0]
        stop = asyncio.Event()
        mover = asyncio.create_task(_moves(svc, games[40:], white, black, stop, during, during_worst))
        await asyncio.sleep(0.05)
        settle()
        c, w = time.process_time(), time.perf_counter()
        view = await svc.start_tournament(t.id)
        start = Series()
        start.add(time.perf_counter() - w, time.process_time() - c)
        stop.set()
        await mover
        count = sum(p.black is not None for p in view.pairings)
    finally:
        await svc.close()
    settle()
    anchor = Series()
    anchor.add(*await games_alone(scratch, scratch.people, count, scratch._now()))
    rows.append(row(f"start a {rr_n}-player round robin, {count} games in batches", "ms", time_figure(start),
                    time_figure(anchor), anchor_name=f"{count} games made alone in one transaction"))
    rows.append(row(f"another game's move during that start (n {len(during)})", "ms", time_figure(during),
                    time_figure(quiet), anchor_name="the same moves, nothing else going on",
                    worst_cpu_ms=round(during_worst[0] * 1000, 1), anchor_worst_cpu_ms=round(quiet_worst[0] * 1000, 1)))
    goals.append(goal("43.5-moves", "every other move answered within 100 ms of CPU during the start",
                      during_worst[0], 0.1, during_worst[0] < 0.1,
                      f"worst {during_worst[0] * 1000:.0f} ms of CPU, {max(during.wall) * 1000:.0f} ms wall "
                      f"({len(during)} moves)"))
    notes.append(f"the {rr_n}-player start took {start.wall[0]:.1f} s in batches; the moves' worst wall time "
                 f"during it {max(during.wall) * 1000:.0f} ms (the machine's load counts in it; the CPU time not)")
    # the 500-player Swiss's page
    page_row, size = await _page(ctx, open_service, big_n)
    rows.append(page_row)
    goals.append(goal("43.5-page", f"the {big_n}-player Swiss's page stays under 100 KB", size / 1024, 100,
                      size < 100 * 1024, f"{size / 1024:.0f} KB"))
    return {"rows": rows, "goals": goals, "notes": notes}


async def _page(ctx: Context, open_service, n: int):
    from aiohttp.test_utils import TestClient, TestServer

    from bot.identity import page_tokens as tokens
    from bot.web.server import RUNNER_OPTIONS, WORKERS, make_app
    from bot.web.tournament_page import TVIEWS
    from bot.web.work import Workers
    secret = b"bench secret"
    svc = await open_service("bigpage")
    try:
        t = await _entered(svc, n, "swiss", rounds=9, round_days=7)
        view = await svc.start_tournament(t.id)
        for p in [p for p in view.pairings if p.black is not None][: n // 4]:
            await svc.resign(p.game_id, p.black.id)
        app = make_app(svc, secret)
        app[WORKERS] = Workers(processes=1)
        client = TestClient(TestServer(app, **RUNNER_OPTIONS))
        await client.start_server()
        try:
            path = f"/t/{t.id}/{tokens.sign_tournament(secret, t.id)}"
            first, kept, size = Series(), Series(), 0
            for _ in range(ctx.size(5, 2)):
                app[TVIEWS].forget()
                app[TVIEWS]._kept.clear()
                app[TVIEWS]._pages.clear()
                settle()
                c, w = time.process_time(), time.perf_counter()
                body = await (await client.get(path)).read()
                first.add(time.perf_counter() - w, time.process_time() - c)
                size = max(size, len(body))
                settle()
                c, w = time.process_time(), time.perf_counter()
                await (await client.get(path)).read()
                kept.add(time.perf_counter() - w, time.process_time() - c)
        finally:
            await client.close()
    finally:
        await svc.close()
    return row(f"the {n}-player Swiss's page, built ({size / 1024:.0f} KB)", "ms", time_figure(first),
               time_figure(kept), anchor_name="a look once built (kept by its version)", page_bytes=size), size
