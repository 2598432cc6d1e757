"""Nodes per second of the computer opponent's search, every game; chess beside
python-chess's move generation in the same run.

For each game, two positions: the start and the position after 30 seeded random
plies. ``ai.think`` at the top level searches each for a fixed budget (1 s; quick:
0.25 s) after ``ai.prepare``; a node is a position the search visited (interior,
quiescence or leaf), each with its own legal move generation. The anchor is
python-chess walking the same chess positions with push/pop and generating every
node's legal moves (perft 3, counted as the perft bench counts): not a search, but the move generation a Python engine
built on python-chess would stand on. Repetitions interleaved (ABBA).

And per game, how close ``think`` ends to its budget (0.05, 0.2 and 0.5 s; the
"time over budget" rows, ms, negative when under; ``exceeded`` counts the calls over).
"""

from __future__ import annotations

from .common import (Context, Series, python_chess, random_line, rate_figure, row, settle, time_figure,
                     timed)
from .perft import _pc_perft

NAME = "search"
TITLE = "Search nodes/s per game (ai.think); chess beside python-chess move generation"


def _ours(pos, seconds: float):
    import ai
    settle()
    thought, wall, cpu = timed(lambda: ai.think(pos, seconds=seconds, tt={}))
    return thought, wall, cpu


def _anchor(fen: str) -> tuple[int, float, float]:
    """python-chess perft 3 (nodes as the perft bench counts them: the leaves)."""
    import chess
    board = chess.Board(fen)
    settle()
    return timed(lambda: _pc_perft(board, 3))


def _budget_row(ctx: Context, gid: str, pos) -> dict:
    """How close to its budget think() ends: wall time over the budget, in ms (below 0: under)."""
    import ai
    over = Series()
    budgets = ctx.size((0.05, 0.2, 0.5), (0.05,))
    for _ in range(ctx.size(5, 2)):
        for b in budgets:
            _t, wall, cpu = timed(lambda: ai.think(pos, seconds=b))
            over.add(wall - b, cpu - b)
    fig = time_figure(over)
    fig["max"] = max(over.wall) * 1000
    return row(f"{gid} time over budget", "ms", fig, better="lower", game=gid, budgets=budgets,
               exceeded=sum(1 for x in over.wall if x > 0))


def run(ctx: Context) -> dict:
    import ai

    from .common import games
    ids, skipped = games(ctx)
    seconds = ctx.size(1.0, 0.1)
    reps = ctx.size(3, 1)
    chess_mod, why = python_chess()
    if chess_mod is None:
        skipped.append({"case": "python-chess anchor", "why": why})
    rows = []
    for gid in ids:
        ai.prepare(gid)
        line = random_line(gid, ctx.seed, 30)
        for label, pos in ((f"{gid} start", line[0]), (f"{gid} ply {len(line) - 1}", line[-1])):
            with_anchor = gid == "chess" and chess_mod is not None
            ours, anchor = Series(), Series()
            nodes, depths, pc_nodes = [], [], None
            for i in range(reps):
                order = ("ours", "anchor") if i % 2 == 0 else ("anchor", "ours")
                for who in order:
                    if who == "ours":
                        t, _w, cpu = _ours(pos, seconds)
                        # a rate per sample: the search's own nodes over its own elapsed time
                        ours.add(t.elapsed / t.nodes, cpu / t.nodes)
                        nodes.append(t.nodes)
                        depths.append(t.depth)
                    elif with_anchor:
                        pc_nodes, w, c = _anchor(pos.fen())
                        anchor.add(w / pc_nodes, c / pc_nodes)
                ctx.progress(f"{label}: rep {i + 1}/{reps}, {nodes[-1] / seconds:,.0f} nodes/s, "
                             f"depth {depths[-1]}")
            rows.append(row(label, "nodes/s", rate_figure(ours, 1),
                            rate_figure(anchor, 1) if with_anchor else None,
                            anchor_name="python-chess movegen" if with_anchor else None,
                            better="higher", game=gid, seconds=seconds, nodes=nodes, depths=depths))
        rows.append(_budget_row(ctx, gid, line[-1]))
    notes = ["a search node costs one legal move generation of the rules engine (the limit: "
             "see bench/RESULTS.md); python-chess's figure is move generation alone"]
    return {"rows": rows, "goals": [], "skipped": skipped, "notes": notes,
            "params": {"seconds": seconds, "reps": reps}}
