"""Legal moves plus outcome of one position, per game: the rules work of a move command.

Positions: seeded random games per game (moves drawn uniformly, history kept so that
the repetition count is real), one position every few plies. Each sample takes a
fresh copy of a position (no cached legal moves, safety or key; the parents' caches
stay warm as in the bot, which keeps its positions) and times ``legal_moves()`` then
``outcome()``. Goal: Gigachess II's median no slower than python-chess svg + cairosvg
drawing one 8 x 8 board at 512 px, that pipeline measured in the same run, its
samples interleaved with ours (its boards: the chess positions of the same random
games).

Beside it, for orthodox chess only, python-chess does the same work on the same
positions (its board rebuilt by pushing the same moves): ``list(legal_moves)``,
``outcome()`` (checkmate, stalemate, insufficient material, 75 moves, fivefold) and
``is_repetition(3)`` (ours decides threefold and the 100-ply rule in ``outcome``).
"""

from __future__ import annotations

from .common import (
    Context,
    Series,
    chess_board_after,
    fresh,
    games,
    goal,
    lans_of,
    python_chess,
    random_line,
    row,
    settle,
    svg_pipeline,
    time_figure,
    timed,
)

NAME = "legal"
TITLE = "Legal moves + outcome of one position, per game"


def _positions(ctx: Context, gid: str) -> list:
    seeds = ctx.size((1, 2, 3), (1,))
    plies, every = ctx.size((90, 9), (12, 6))
    out = []
    for seed in seeds:
        line = random_line(gid, seed, plies)
        out.extend(line[1::every])
    return out


def run(ctx: Context) -> dict:
    ids, skipped = games(ctx)
    draw, why = svg_pipeline()
    if draw is None:
        skipped.append({"case": "8x8 svg pipeline anchor", "why": why})
    chess_mod, why_pc = python_chess()
    if chess_mod is None:
        skipped.append({"case": "python-chess legal + outcome", "why": why_pc})
    rounds = ctx.size(3, 1)
    anchor_every = ctx.size(10, 2)

    positions = {}
    for gid in ids:
        ctx.progress(f"{gid}: seeded random games")
        try:
            positions[gid] = _positions(ctx, gid)
        except Exception as e:  # noqa: BLE001 - a game being finished right now
            skipped.append({"case": gid, "why": f"random game failed: {type(e).__name__}: {e}"})
    ids = [g for g in ids if g in positions]
    anchor_boards = []
    if chess_mod is not None and "chess" in positions:
        for p in positions["chess"]:
            lans = lans_of(p)
            b = chess_board_after(lans)
            last = b.peek() if b.move_stack else None
            anchor_boards.append((b, last))

    def pc_work(b):
        moves = list(b.legal_moves)
        return moves, b.outcome(), b.is_repetition(3)

    # warm-up: every position once, the anchor twice
    for gid in ids:
        for p in positions[gid]:
            q = fresh(p)
            q.legal_moves()
            q.outcome()
    if draw is not None and anchor_boards:
        for b, last in anchor_boards[:2]:
            draw(b, last)

    ours = {gid: Series() for gid in ids}
    anchor = Series()
    pc_ours, pc = Series(), Series()
    k = 0
    for rnd in range(rounds):
        for gid in ids:
            for i, p in enumerate(positions[gid]):
                q = fresh(p)
                _, w, c = timed(lambda q=q: (q.legal_moves(), q.outcome()))
                ours[gid].add(w, c)
                if gid == "chess" and chess_mod is not None:
                    pc_ours.add(w, c)
                    b = anchor_boards[i][0]
                    _, w, c = timed(lambda b=b: pc_work(b))
                    pc.add(w, c)
                if (i + 1) % anchor_every == 0 and draw is not None and anchor_boards:
                    b, last = anchor_boards[k % len(anchor_boards)]
                    k += 1
                    settle()
                    _, w, c = timed(lambda b=b, last=last: draw(b, last))
                    anchor.add(w, c)
            s = ours[gid].summary(samples=False)
            ctx.progress(f"round {rnd + 1}/{rounds} {gid}: {len(positions[gid])} positions, "
                         f"median {s['median'] * 1000:.2f} ms"
                         + (f"; 8x8 pipeline median {anchor.summary(False)['median'] * 1000:.0f} ms"
                            if len(anchor) else ""))

    anchor_fig = time_figure(anchor) if len(anchor) else None
    rows = []
    for gid in ids:
        moves = [len(fresh(p).legal_moves()) for p in positions[gid]]
        rows.append(row(f"{gid} legal+outcome", "ms", time_figure(ours[gid]), anchor_fig,
                        anchor_name="python-chess svg + cairosvg 8x8 512px", better="lower",
                        game=gid, positions=len(positions[gid]),
                        legal_moves_mean=sum(moves) / len(moves) if moves else None,
                        legal_moves_max=max(moves) if moves else None))
    if len(pc):
        rows.append(row("chess legal+outcome vs python-chess", "ms", time_figure(pc_ours),
                        time_figure(pc), anchor_name="python-chess legal_moves + outcome + "
                        "is_repetition(3)", better="lower", game="chess"))
    goals = []
    giga = next((r for r in rows if r.get("game") == "gigachess2"), None)
    if giga is not None and anchor_fig is not None:
        value = giga["ours"]["median"]
        target = anchor_fig["median"]
        goals.append(goal("3", "Gigachess II legal moves + outcome: median (ms) no slower than "
                          "the 8x8 svg + cairosvg pipeline's median", value, target,
                          value <= target, f"ratio {value / target:.3f}"))
    else:
        goals.append(goal("3", "Gigachess II legal moves + outcome no slower than the 8x8 "
                          "pipeline", None, 0, None, "not measured (game or anchor missing)"))
    return {"rows": rows, "goals": goals, "skipped": skipped,
            "params": {"rounds": rounds, "anchor_every": anchor_every,
                       "positions": {g: len(v) for g, v in positions.items()}}}
