"""Nodes per second of the computer opponent's search, every game; chess beside
python-chess's move generation in the same run.

For each game, two positions: the start and the position after 30 seeded random
plies. ``ai.think`` at the top level searches each for a fixed budget (1 s; quick:
0.25 s) after ``ai.prepare``; a node is a position the search visited (interior,
quiescence or leaf), each with its own legal move generation. The anchor is
python-chess walking the same chess positions with push/pop and generating every
node's legal moves (perft 3, counted as the perft bench counts): not a search, but the move generation a Python engine
built on python-chess would stand on. Repetitions interleaved (ABBA).

Then the same positions searched to a fixed depth without a clock (``DEPTHS``), nodes
per CPU second of the searching thread: a figure the machine's load moves far less (a
1 s search on a loaded machine gets a share of a core and stops early), and where the
search is unchanged, the same tree node for node ("nodes" and "anchor_nodes" in the row).

And per game, how close ``think`` ends to its budget (0.05, 0.2 and 0.5 s; the
"time over budget" rows, ms, negative when under; ``exceeded`` counts the calls over),
and the depth each search reached (a note). With ``--baseline REF`` the same searches
run on that commit's code, interleaved (bench/baseline.py): the "vs before" rows. Goal: at
least 3x the nodes per second in every game, read on the same trees (the fixed-depth rows,
at least as deep as 82cd786 gets in 1 s). The 1 s rows compare different trees as soon as
one version completes a deeper iteration in its second (a deeper iteration's nodes cost
more: more of them are interior nodes with a full move generation): their ratios are
reported in a note, beside the depth each version reached.
"""

from __future__ import annotations

from .common import (
    Context,
    Series,
    goal,
    paired_ratio,
    python_chess,
    random_line,
    rate_figure,
    row,
    settle,
    time_figure,
    timed,
)
from .perft import _pc_perft

# plies of the fixed-depth searches per game, (start, after 30 plies): at least the depth
# 82cd786 completes in 1 s (the depth note), 0.1-0.6 s of CPU each for this code; another
# game: DEFAULT_DEPTHS
DEPTHS = {"chess": (5, 5), "ganymede": (3, 3), "gigachess2": (3, 3), "grandducal": (4, 4),
          "kingqueen": (6, 6), "superchess": (3, 3)}
DEFAULT_DEPTHS = (3, 2)

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
            _t, wall, cpu = timed(lambda b=b: ai.think(pos, seconds=b))
            over.add(wall - b, cpu - b)
    fig = time_figure(over)
    fig["max"] = max(over.wall) * 1000
    return row(f"{gid} time over budget", "ms", fig, better="lower", game=gid, budgets=budgets,
               exceeded=sum(1 for x in over.wall if x > 0))


def _fixed_depth_row(ctx: Context, base, gid: str, label: str, pos, depth: int, reps: int) -> dict:
    """Nodes per CPU second of a search to `depth` (ours, and the baseline's if any),
    repetitions interleaved."""
    import rules

    from .baseline_worker import fixed_depth
    req = {"game": gid, "fen": rules.game(gid).default_start_fen, "line": pos.line(), "depth": depth}
    ours, before, nodes, b_nodes = Series(), Series(), [], []
    warm = dict(req, depth=max(1, depth - 1))   # the plans of most positions built first
    fixed_depth(warm)
    if base is not None:
        base.call("search", **warm)
    for i in range(reps):
        for who in ("ours", "before") if i % 2 == 0 else ("before", "ours"):
            if who == "ours":
                got = fixed_depth(req)
                ours.add(got["cpu"] / got["nodes"])
                nodes.append(got["nodes"])
            elif base is not None:
                got = base.call("search", **req)
                before.add(got["cpu"] / got["nodes"])
                b_nodes.append(got["nodes"])
    ctx.progress(f"{label} to depth {depth}: {nodes[-1]:,} nodes, {1 / ours.cpu[-1]:,.0f} "
                 f"nodes per CPU s" + (f"; {base.name}: {b_nodes[-1]:,} nodes" if base else ""))
    return row(f"{label} depth {depth}", "nodes/CPU s", rate_figure(ours, 1),
               rate_figure(before, 1) if base is not None else None,
               anchor_name=base.name if base is not None else None, better="higher", game=gid,
               depth=depth, nodes=nodes[-1], anchor_nodes=b_nodes[-1] if b_nodes else None)


def _before(base, gid: str, pos, seconds: float):
    """The baseline's think on the same position (its start and the moves to it)."""
    import rules
    got = base.call("think", game=gid, fen=rules.game(gid).default_start_fen, line=pos.line(),
                    seconds=seconds)
    return got


def run(ctx: Context) -> dict:
    import ai

    from .baseline import baseline
    from .common import games
    ids, skipped = games(ctx)
    seconds = ctx.size(1.0, 0.1)
    reps = ctx.size(3, 1)
    chess_mod, why = python_chess()
    if chess_mod is None:
        skipped.append({"case": "python-chess anchor", "why": why})
    base = baseline(ctx)
    rows, depth_notes, speedups, fixed_speedups = [], [], {}, {}
    for gid in ids:
        ai.prepare(gid)
        line = random_line(gid, ctx.seed, 30)
        if base is not None:
            _before(base, gid, line[0], 0.05)   # its tables built, as ours are by prepare
        for label, pos in ((f"{gid} start", line[0]), (f"{gid} ply {len(line) - 1}", line[-1])):
            with_anchor = gid == "chess" and chess_mod is not None
            ours, anchor, before = Series(), Series(), Series()
            nodes, depths, pc_nodes, b_depths = [], [], None, []
            for i in range(reps):
                order = ("ours", "anchor", "before") if i % 2 == 0 else ("before", "anchor", "ours")
                for who in order:
                    if who == "ours":
                        t, _w, cpu = _ours(pos, seconds)
                        # a rate per sample: the search's own nodes over its own elapsed time
                        ours.add(t.elapsed / t.nodes, cpu / t.nodes)
                        nodes.append(t.nodes)
                        depths.append(t.depth)
                    elif who == "anchor" and with_anchor:
                        pc_nodes, w, c = _anchor(pos.fen())
                        anchor.add(w / pc_nodes, c / pc_nodes)
                    elif who == "before" and base is not None:
                        b = _before(base, gid, pos, seconds)
                        before.add(b["elapsed"] / b["nodes"], b["cpu"] / b["nodes"])
                        b_depths.append(b["depth"])
                ctx.progress(f"{label}: rep {i + 1}/{reps}, {nodes[-1] / seconds:,.0f} nodes/s, "
                             f"depth {depths[-1]}"
                             + (f"; {base.name}: depth {b_depths[-1]}" if base else ""))
            rows.append(row(label, "nodes/s", rate_figure(ours, 1),
                            rate_figure(anchor, 1) if with_anchor else None,
                            anchor_name="python-chess movegen" if with_anchor else None,
                            better="higher", game=gid, seconds=seconds, nodes=nodes, depths=depths))
            depth_notes.append(f"{label}: {min(depths)}-{max(depths)}"
                               + (f" (before: {min(b_depths)}-{max(b_depths)})" if b_depths else ""))
            if base is not None:
                r = row(f"{label} vs before", "nodes/s", rate_figure(ours, 1), rate_figure(before, 1),
                        anchor_name=base.name, better="higher", game=gid, seconds=seconds,
                        depths=depths, anchor_depths=b_depths,
                        paired_ratio=paired_ratio(before.wall, ours.wall))
                rows.append(r)
                speedups[label] = r["ratio"]
            depth = DEPTHS.get(gid, DEFAULT_DEPTHS)[0 if pos is line[0] else 1] - ctx.size(0, 1)
            fixed = _fixed_depth_row(ctx, base, gid, label, pos, depth, reps)
            rows.append(fixed)
            if base is not None:
                fixed_speedups[label] = fixed["ratio"]
        rows.append(_budget_row(ctx, gid, line[-1]))
    notes = ["a search node costs one legal move generation of the rules engine (the limit: "
             "see bench/RESULTS.md); python-chess's figure is move generation alone",
             f"depth reached in {seconds:g} s (complete iterations, over the repetitions): "
             + "; ".join(depth_notes)]
    if speedups:
        notes.append(f"nodes/s in {seconds:g} s, ours / {base.name} (different trees where the depths "
                     "above differ: not the goal's measure): "
                     + ", ".join(f"{k}: {v:.2f}" for k, v in speedups.items()))
    goals = []
    if fixed_speedups:
        worst = min(fixed_speedups, key=fixed_speedups.get)
        goals.append(goal("2", f"search nodes per CPU second at least 3x {base.name} in every game "
                          "(the same trees: fixed depth)", fixed_speedups[worst], 3.0,
                          fixed_speedups[worst] >= 3.0, f"lowest: {worst}; all: "
                          + ", ".join(f"{k}: {v:.2f}" for k, v in fixed_speedups.items())))
    over = [r for r in rows if r["case"].endswith("time over budget")]
    if over:
        worst = max(over, key=lambda r: r["ours"]["max"])
        goals.append(goal("2b", "think never overruns its budget (calls over it, every game)",
                          sum(r["exceeded"] for r in over), 0,
                          all(r["exceeded"] == 0 for r in over),
                          f"largest overrun {worst['ours']['max']:.1f} ms ({worst['case']})"))
    return {"rows": rows, "goals": goals, "skipped": skipped, "notes": notes,
            "params": {"seconds": seconds, "reps": reps, "baseline": base.name if base else None}}
