"""A whole move command, per game: the game service with SQLite, then the picture.

What a player waits for after typing a move, as the Discord adapter does it:
``GameService.move`` (snapshot read, parse, validate, SAN, outcome, one write
transaction with the move, the turn's reminders and the outbox events, then the
"your move" reminder collected and the outbox delivered to a null notifier), then the
adapter's position (its cached position plus the new move) and ``board_png`` in a
worker thread. The database is a file in a temporary directory (WAL,
synchronous=NORMAL, as the service opens it). Moves are the SAN of a seeded random
game, typed by alternating players with ``expected_ply``; the first plies of each
game are a warm-up. After each command the anchor (python-chess svg + cairosvg, one
8 x 8 board at 512 px) draws once, interleaved. Goal: each game's p95 within 2 x
the anchor's median. The players' flood control (``command_rate_per_minute``) is
turned off: the benchmark types faster than people, and a refusal costs nothing.

Then the service is opened again on the same database (a restart: nothing cached) and
each game gets one more move, as the adapter would also do it with an empty cache
(position replayed from the move list): the cold command a player meets after a
restart, or when more games are active than the service caches (256).
"""

from __future__ import annotations

import asyncio
import random

from .common import (
    Context,
    Series,
    atimed,
    board_png_function,
    chess_board_after,
    games,
    goal,
    lans_of,
    random_line,
    row,
    service_settings,
    svg_pipeline,
    time_figure,
    timed,
)

NAME = "move"
TITLE = "A whole move command (service + SQLite + picture), per game"


async def _run(ctx: Context, ids: list[str], lines: dict, draw, anchor_boards) -> dict:
    from bot.operations.service import GameService

    png, where = board_png_function()
    warm = ctx.size(2, 1)
    settings = service_settings(ctx.tmp / "move.db", command_rate_per_minute=0)
    service = await GameService.open(settings, rng=random.Random(ctx.seed))
    cold_todo = []  # (game, view id, mover id, san, ply)
    total = {g: Series() for g in ids}
    svc = {g: Series() for g in ids}
    pic = {g: Series() for g in ids}
    anchor = Series()
    errors: list[str] = []
    k = 0
    try:
        a = await service.player("bench", "a", "Alice")
        b = await service.player("bench", "b", "Bob")
        for gid in ids:
            c = await service.challenge(a.id, gid, opponent_id=b.id, days=3, colour="white")
            view = await service.accept_challenge(c.id, b.id)
            import rules
            pos = rules.from_fen(gid, view.start_vfen)  # the adapter's cached position
            for ply, san in enumerate(lines[gid]):
                mover = a if pos.turn == "w" else b
                if ply == len(lines[gid]) - 1:  # the last move: played cold, below
                    cold_todo.append((gid, view.id, mover.id, san, ply))
                    break

                async def command(view=view, mover=mover, san=san, ply=ply, pos=pos):
                    res = await service.move(view.id, mover.id, san, expected_ply=ply)
                    t_svc = asyncio.get_running_loop().time()
                    new = pos.play(res.lan)
                    await asyncio.to_thread(png, new)
                    return res, new, t_svc

                t0 = asyncio.get_running_loop().time()
                try:
                    (res, pos, t_svc), w, c_ = await atimed(command)
                except Exception as e:  # noqa: BLE001 - counted, reported
                    errors.append(f"{gid} ply {ply + 1} {san}: {type(e).__name__}: {e}")
                    break
                if ply >= warm:
                    total[gid].add(w, c_)
                    svc[gid].add(t_svc - t0)
                    pic[gid].add(w - (t_svc - t0))
                    if draw is not None:
                        board, last = anchor_boards[k % len(anchor_boards)]
                        k += 1
                        _, aw, ac = timed(lambda board=board, last=last: draw(board, last))
                        anchor.add(aw, ac)
                if res.outcome is not None:
                    break
            s = total[gid].summary(False)
            if s["n"]:
                ctx.progress(f"{gid}: {s['n']} commands, median {s['median'] * 1000:.0f} ms, "
                             f"p95 {s['p95'] * 1000:.0f} ms")
    finally:
        await service.close()

    cold = {}
    service = await GameService.open(settings, rng=random.Random(ctx.seed))
    try:
        import rules
        for gid, game_id, mover_id, san, ply in cold_todo:
            async def command(gid=gid, game_id=game_id, mover_id=mover_id, san=san, ply=ply):
                res = await service.move(game_id, mover_id, san, expected_ply=ply)
                t_svc = asyncio.get_running_loop().time()
                new = rules.from_fen(gid, res.game.start_vfen)  # the adapter, cache empty
                for m in res.game.moves:
                    new = new.play(m.lan)
                await asyncio.to_thread(png, new)
                return t_svc
            t0 = asyncio.get_running_loop().time()
            try:
                t_svc, w, c_ = await atimed(command)
            except Exception as e:  # noqa: BLE001
                errors.append(f"{gid} cold ply {ply + 1} {san}: {type(e).__name__}: {e}")
                continue
            cold[gid] = (w, t_svc - t0, ply)
            ctx.progress(f"{gid}: cold command after {ply} plies: {w * 1000:.0f} ms "
                         f"(service {(t_svc - t0) * 1000:.0f} ms)")
    finally:
        await service.close()
    return {"total": total, "service": svc, "picture": pic, "anchor": anchor, "errors": errors,
            "renderer": where, "cold": cold}


def run(ctx: Context) -> dict:
    ids, skipped = games(ctx)
    draw, why = svg_pipeline()
    if draw is None:
        skipped.append({"case": "8x8 svg pipeline anchor", "why": why})
    plies = ctx.size(26, 3)
    lines = {}
    for gid in ids:
        ctx.progress(f"{gid}: seeded random game")
        try:
            line = random_line(gid, 7, plies)
            lines[gid] = [line[i].san(line[i + 1].last_move) for i in range(len(line) - 1)]
        except Exception as e:  # noqa: BLE001
            skipped.append({"case": gid, "why": f"random game failed: {type(e).__name__}: {e}"})
    ids = [g for g in ids if g in lines]
    anchor_boards = []
    if draw is not None:
        line = random_line("chess", 7, plies) if "chess" in ids else []
        anchor_boards = [(b, b.peek() if b.move_stack else None)
                         for b in (chess_board_after(lans_of(p)) for p in line[1:])]
        if not anchor_boards:
            import chess
            anchor_boards = [(chess.Board(), None)]
        draw(*anchor_boards[0])

    out = asyncio.run(_run(ctx, ids, lines, draw, anchor_boards))
    anchor_fig = time_figure(out["anchor"]) if len(out["anchor"]) else None
    rows = []
    for gid in ids:
        if not len(out["total"][gid]):
            skipped.append({"case": gid, "why": "no move command completed"})
            continue
        rows.append(row(f"{gid} move command total", "ms", time_figure(out["total"][gid]),
                        anchor_fig, anchor_name="python-chess svg + cairosvg 8x8 512px",
                        better="lower", game=gid, part="total"))
        rows.append(row(f"{gid}   service.move", "ms", time_figure(out["service"][gid]),
                        game=gid, part="service"))
        rows.append(row(f"{gid}   position + board_png", "ms", time_figure(out["picture"][gid]),
                        game=gid, part="picture"))
        if gid in out["cold"]:
            w, s_, ply = out["cold"][gid]
            one = Series()
            one.add(w)
            rows.append(row(f"{gid}   cold, after {ply} plies (restart)", "ms", time_figure(one),
                            game=gid, part="cold", service_ms=s_ * 1000, plies=ply))
    goals = []
    totals = [r for r in rows if r["part"] == "total"]
    if totals and anchor_fig is not None:
        limit = 2 * anchor_fig["median"]
        worst = max(totals, key=lambda r: r["ours"]["p95"])
        goals.append(goal("5", "a whole move command: every game's p95 (ms) within 2x the 8x8 "
                          "pipeline's median", worst["ours"]["p95"], limit,
                          all(r["ours"]["p95"] <= limit for r in totals),
                          f"worst: {worst['game']}; " + ", ".join(
                              f"{r['game']} {r['ours']['p95']:.0f}" for r in totals)
                          + f"; anchor median {anchor_fig['median']:.0f} ms, p95 "
                            f"{anchor_fig['p95']:.0f} ms"))
    else:
        goals.append(goal("5", "a whole move command within 2x the 8x8 pipeline", None, 0, None,
                          "not measured (anchor missing or no command completed)"))
    errors = out["errors"]
    return {"rows": rows, "goals": goals, "skipped": skipped, "errors": errors,
            "notes": [f"{len(errors)} command(s) failed: {errors[:3]}"] if errors else [],
            "params": {"plies": plies, "warm_up_plies": ctx.size(2, 1), "days": 3,
                       "renderer": out["renderer"], "db": "file in a temporary directory"}}
