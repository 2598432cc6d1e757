"""Replay: an animated GIF of a long game (issue 23): its size and the time it takes.

A seeded random Gigachess II game of 300 plies (moves that would end it early are
avoided) is made into a GIF with render/replay.py, the way ``fairypost replay`` and
``/replay`` do, and timed beside the anchor of the same run: drawing the game's final
board as the bot posts it after a move (``board_png`` at its default size), so the ratio
says how many ordinary board pictures one replay costs. The goal is Discord's: under 8 MB
for 300 plies (the upload limit is 10 MB).
"""

from __future__ import annotations

import rules
from render import board_png
from render.replay import replay_gif

from .common import Context, Series, goal, row, settle, time_figure, timed

NAME = "replay"
TITLE = "An animated GIF replay of a 300-ply Gigachess II game"
LIMIT_BYTES = 8_000_000


def long_game(plies: int, rng) -> list[str]:
    """LAN of a random game that lasts `plies` plies: a move that would end it is avoided."""
    pos, lans = rules.start("gigachess2"), []
    while len(lans) < plies:
        moves = pos.legal_moves()
        rng.shuffle(moves)
        for m in moves:
            after = pos.play(m.lan)
            if after.outcome() is None or m is moves[-1]:
                break
        lans.append(m.lan)
        pos = after
        if pos.outcome() is not None:
            break
    return lans


def run(ctx: Context) -> dict:
    plies, reps = ctx.size((300, 3), (20, 1))
    ctx.progress(f"a {plies}-ply game")
    lans = long_game(plies, ctx.rng("replay"))
    start = rules.start("gigachess2")
    final = start
    for lan in lans:
        final = final.play(lan)
    ours, anchor = Series(), Series()
    size = 0
    for i in range(reps):
        ctx.progress(f"repetition {i + 1} of {reps}")
        settle()
        data, wall, cpu = timed(lambda: replay_gif(start, lans))
        ours.add(wall, cpu)
        size = len(data)
        settle()
        _, wall, cpu = timed(lambda: board_png(final))
        anchor.add(wall, cpu)
    frames = len(lans) + 1
    rows = [
        row(f"{frames} frames: the GIF", "ms", time_figure(ours), time_figure(anchor),
            anchor_name="one board_png of the bot", frames=frames, bytes=size),
        row(f"{frames} frames: bytes", "bytes", {"n": 1, "median": size, "p95": size},
            frames=frames),
    ]
    goals = [goal("replay-size", f"a {frames}-frame Gigachess II replay under 8 MB", size,
                  LIMIT_BYTES, size < LIMIT_BYTES if plies >= 300 else None,
                  f"{size / 1e6:.2f} MB")]
    notes = [f"{frames} frames in {size / 1e6:.2f} MB ({size / frames / 1e3:.1f} KB a frame); "
             f"drawn in {ours.summary()['median']:.1f} s, "
             f"{ours.summary()['median'] / anchor.summary()['median']:.0f} board pictures' time"]
    return {"rows": rows, "goals": goals, "skipped": [], "notes": notes,
            "params": {"plies": len(lans), "repetitions": reps}}
