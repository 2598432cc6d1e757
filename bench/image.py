"""One board image per game (the PNG the bot sends) beside python-chess svg + cairosvg at 512 px.

Ours: ``board_png(pos)`` as the bot calls it (the default size: about 1,100 px wide for
a 14 x 14 board; the last move and check marked; the board seen from the side to
move), on positions of a seeded random game of each game at a few plies. The anchor:
python-chess's SVG board at 512 px (last move and check marked) turned into PNG by
cairosvg, on the chess positions of the same plies; its samples interleaved with ours.
Goal: a 14 x 14 board (Gigachess II) no slower than that 8 x 8 pipeline.
"""

from __future__ import annotations

import io

from .common import (
    Context,
    Series,
    board_png_function,
    chess_board_after,
    games,
    goal,
    lans_of,
    random_line,
    row,
    settle,
    svg_pipeline,
    time_figure,
    timed,
)

NAME = "image"
TITLE = "One board image per game beside python-chess svg + cairosvg 8x8 at 512 px"


def run(ctx: Context) -> dict:
    from PIL import Image

    ids, skipped = games(ctx)
    draw, why = svg_pipeline()
    if draw is None:
        skipped.append({"case": "8x8 svg pipeline anchor", "why": why})
    png, where = board_png_function()
    plies = ctx.size((10, 30, 60), (6,))
    reps = ctx.size(4, 1)

    positions = {}
    for gid in ids:
        try:
            line = random_line(gid, 1, max(plies))
            positions[gid] = [line[min(p, len(line) - 1)] for p in plies]
        except Exception as e:  # noqa: BLE001
            skipped.append({"case": gid, "why": f"random game failed: {type(e).__name__}: {e}"})
    ids = [g for g in ids if g in positions]
    anchor_boards = []
    if draw is not None:
        for p in positions.get("chess", []):
            b = chess_board_after(lans_of(p))
            anchor_boards.append((b, b.peek() if b.move_stack else None))
        if not anchor_boards:
            import chess
            anchor_boards = [(chess.Board(), None)]

    sizes = {}
    ctx.progress(f"warm-up ({where})")
    for gid in ids:
        try:
            data = png(positions[gid][0])
            sizes[gid] = {"pixels": list(Image.open(io.BytesIO(data)).size), "bytes": len(data)}
        except Exception as e:  # noqa: BLE001 - a game whose pictures are being finished
            skipped.append({"case": gid, "why": f"board_png failed: {type(e).__name__}: {e}"})
    ids = [g for g in ids if g in sizes]
    anchor_size = None
    if draw is not None:
        data = draw(*anchor_boards[0])
        draw(*anchor_boards[-1])
        anchor_size = {"pixels": list(Image.open(io.BytesIO(data)).size), "bytes": len(data)}

    ours = {gid: Series() for gid in ids}
    anchor = Series()
    for rep in range(reps):
        for gid in ids:
            for i, p in enumerate(positions[gid]):
                settle()
                _, w, c = timed(lambda p=p: png(p))
                ours[gid].add(w, c)
                if draw is not None:
                    b, last = anchor_boards[i % len(anchor_boards)]
                    settle()
                    _, w, c = timed(lambda b=b, last=last: draw(b, last))
                    anchor.add(w, c)
            ctx.progress(f"rep {rep + 1}/{reps} {gid}: median "
                         f"{ours[gid].summary(False)['median'] * 1000:.0f} ms"
                         + (f", 8x8 pipeline {anchor.summary(False)['median'] * 1000:.0f} ms"
                            if len(anchor) else ""))

    anchor_fig = time_figure(anchor) if len(anchor) else None
    rows = []
    for gid in ids:
        geo = positions[gid][0].game.geometry
        rows.append(row(f"{gid} {geo.width}x{geo.height} board_png", "ms", time_figure(ours[gid]),
                        anchor_fig, anchor_name="python-chess svg + cairosvg 8x8 512px",
                        better="lower", game=gid, image=sizes[gid], anchor_image=anchor_size,
                        plies=list(plies), renderer=where))
    giga = next((r for r in rows if r["game"] == "gigachess2"), None)
    goals = []
    if giga is not None and anchor_fig is not None:
        value, target = giga["ours"]["median"], anchor_fig["median"]
        goals.append(goal("4", "a 14x14 board image (Gigachess II) median (ms) no slower than "
                          "the 8x8 svg + cairosvg pipeline's median", value, target,
                          value <= target, f"ratio {value / target:.2f}; p95 "
                          f"{giga['ours']['p95']:.0f} vs {anchor_fig['p95']:.0f} ms"))
    else:
        goals.append(goal("4", "a 14x14 board image no slower than the 8x8 pipeline", None, 0,
                          None, "not measured (game or anchor missing)"))
    return {"rows": rows, "goals": goals, "skipped": skipped,
            "params": {"reps": reps, "plies": list(plies), "renderer": where}}
