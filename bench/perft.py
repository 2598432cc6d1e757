"""Perft nodes per second from each game's start; orthodox chess beside python-chess.

Depth 3 from every game's start, depth 4 for chess and King and Queen (quick: 2, and 3
for those two). For chess, python-chess counts the same positions in the same run (the
start, and Kiwipete at depth 3), its repetitions interleaved with ours (ABBA order),
so that both see the same load; the ratio is ours / python-chess in nodes per second.
Goal: at least 1.0. With ``--baseline REF`` every case also runs on that commit's code
(bench/baseline.py), interleaved: the "vs before" rows; goal: at least 2x in every game.

Both count the last ply by the length of the legal move list (ours: ``len(legal_moves())``,
python-chess: ``legal_moves.count()``) and walk the tree above it move by move with
``push``/``pop`` on one board (ours on a copy of the position read).
Each repetition starts from a freshly read position (the engine caches a position's
legal moves); the per-(piece, square) move tables are process-wide and warm after the
warm-up run, as they are in a running bot.
"""

from __future__ import annotations

from .common import (
    Context,
    Series,
    goal,
    paired_ratio,
    python_chess,
    rate_figure,
    row,
    settle,
    timed,
)

NAME = "perft"
TITLE = "Perft nodes/s from the start; chess beside python-chess"

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
DEEPER = ("chess", "kingqueen")


def _pc_perft(board, depth: int) -> int:
    if depth <= 1:
        return board.legal_moves.count() if depth == 1 else 1
    n = 0
    for m in board.legal_moves:
        board.push(m)
        n += _pc_perft(board, depth - 1)
        board.pop()
    return n


def _ours(game_id: str, fen: str, depth: int) -> tuple[int, float, float]:
    import rules
    pos = rules.from_fen(game_id, fen)
    settle()
    return timed(lambda: pos.perft(depth))


def _anchor(fen: str, depth: int) -> tuple[int, float, float]:
    import chess
    board = chess.Board(fen)
    settle()
    return timed(lambda: _pc_perft(board, depth))


def _before(base, gid: str, fen: str, depth: int) -> tuple[int, float, float]:
    got = base.call("perft", game=gid, fen=fen, depth=depth)
    return got["nodes"], got["wall"], got["cpu"]


def run(ctx: Context) -> dict:
    import rules

    from .baseline import baseline
    from .common import games
    ids, skipped = games(ctx)
    reps = ctx.size(5, 2)
    chess_mod, why = python_chess()
    if chess_mod is None:
        skipped.append({"case": "python-chess anchor", "why": why})
    base = baseline(ctx)
    cases = []  # (game, label, fen, depth, with_anchor)
    for gid in ids:
        depth = ctx.size(4 if gid in DEEPER else 3, 3 if gid in DEEPER else 2)
        cases.append((gid, f"{gid} start d{depth}", rules.game(gid).default_start_fen, depth,
                      gid == "chess" and chess_mod is not None))
    if "chess" in ids:
        d = ctx.size(3, 2)
        cases.append(("chess", f"chess kiwipete d{d}", KIWIPETE, d, chess_mod is not None))

    rows, ratios, speedups = [], {}, {}
    for gid, label, fen, depth, with_anchor in cases:
        ctx.progress(f"{label}: warm-up")
        nodes, _, _ = _ours(gid, fen, depth)
        pc_nodes = None
        if with_anchor:
            pc_nodes, _, _ = _anchor(fen, depth)
        if base is not None:
            before_nodes, _, _ = _before(base, gid, fen, depth)
        ours, anchor, before = Series(), Series(), Series()
        for i in range(reps):
            order = ("ours", "anchor", "before") if i % 2 == 0 else ("before", "anchor", "ours")
            for who in order:
                if who == "ours":
                    _, w, c = _ours(gid, fen, depth)
                    ours.add(w, c)
                elif who == "anchor" and with_anchor:
                    _, w, c = _anchor(fen, depth)
                    anchor.add(w, c)
                elif who == "before" and base is not None:
                    _, w, c = _before(base, gid, fen, depth)
                    before.add(w, c)
            ctx.progress(f"{label}: rep {i + 1}/{reps}, ours {nodes / ours.wall[-1]:,.0f} nodes/s"
                         + (f", python-chess {pc_nodes / anchor.wall[-1]:,.0f}" if with_anchor else "")
                         + (f", {base.name} {before_nodes / before.wall[-1]:,.0f}" if base else ""))
        r = row(label, "nodes/s", rate_figure(ours, nodes),
                rate_figure(anchor, pc_nodes) if with_anchor else None,
                anchor_name="python-chess", better="higher", game=gid, depth=depth, nodes=nodes)
        if with_anchor:
            r["anchor_nodes"] = pc_nodes
            r["counts_agree"] = pc_nodes == nodes
            # paired: anchor time / ours time = ours rate / anchor rate, pair by pair
            r["paired_ratio"] = paired_ratio(anchor.wall, ours.wall)
            ratios[label] = r["ratio"]
        rows.append(r)
        if base is not None:
            b = row(f"{label} vs before", "nodes/s", rate_figure(ours, nodes),
                    rate_figure(before, before_nodes), anchor_name=base.name, better="higher",
                    game=gid, depth=depth, nodes=nodes, anchor_nodes=before_nodes,
                    counts_agree=before_nodes == nodes,
                    paired_ratio=paired_ratio(before.wall, ours.wall))
            rows.append(b)
            if label.endswith("start d" + str(depth)):
                speedups[gid] = b["ratio"]

    goals = []
    if ratios:
        worst = min(ratios, key=ratios.get)
        value = ratios[worst]
        goals.append(goal("1", "chess perft: ours / python-chess nodes per second >= 1.0 "
                          "on the same positions", value, 1.0, value >= 1.0,
                          f"lowest: {worst}; all: "
                          + ", ".join(f"{k}: {v:.2f}" for k, v in ratios.items())))
    else:
        goals.append(goal("1", "chess perft: ours / python-chess >= 1.0", None, 1.0, None,
                          "not measured: python-chess or chess missing"))
    if speedups:
        worst = min(speedups, key=speedups.get)
        goals.append(goal("1b", f"every game's perft from the start at least 2x {base.name}",
                          speedups[worst], 2.0, speedups[worst] >= 2.0,
                          f"lowest: {worst}; all: "
                          + ", ".join(f"{k}: {v:.2f}" for k, v in speedups.items())))
    return {"rows": rows, "goals": goals, "skipped": skipped,
            "params": {"reps": reps, "warmup": 1, "order": "ABBA interleaved",
                       "baseline": base.name if base else None}}
