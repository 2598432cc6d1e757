"""Strength against an engine nobody here wrote: chess, level 5 against sunfish (PyPI).

sunfish runs as a UCI engine in its own process (``python -m sunfish``, driven by
python-chess's ``chess.engine``); both sides get the same wall time per move (full:
1 s, quick: 0.2 s; ``--seconds``). The games start from ``OPENINGS`` (a few plies of
common openings, so that two deterministic engines do not replay one game), each played
with both colours, colours alternating (full: 20 games, quick: 2). Every move of both
sides is played through fairypost's rules and python-chess's: a move either refuses is
reported and the game stops, unscored. A game ends by the rules (mate, stalemate,
threefold repetition, the 50-move rule, insufficient material) or at the ply cap, where
a side ahead by at least ``ADJUDICATE_CP`` of material (ai.values) wins, else a draw.

    python -m bench strength          (inside a benchmark run: JSON figures)
    python -m bench.strength [--games N] [--seconds S] [--plies N]

Needs the ``bench`` extra's python-chess and ``pip install sunfish``; without them the
benchmark is reported as skipped. Goal (issue 31): at least 60 % for level 5.
"""
from __future__ import annotations

import argparse
import sys
import time

from .common import Context, goal, row

NAME = "strength"
TITLE = "Chess: level 5 against sunfish at equal time per move"
ADJUDICATE_CP = 300
OPENINGS = (
    (), ("e2e4", "e7e5"), ("d2d4", "d7d5"), ("e2e4", "c7c5"), ("c2c4", "e7e5"),
    ("g1f3", "d7d5"), ("e2e4", "e7e6"), ("d2d4", "g8f6", "c2c4", "e7e6"),
    ("e2e4", "c7c6"), ("e2e4", "e7e5", "g1f3", "b8c6", "f1b5"),
)


def sunfish_available() -> str | None:
    """Why sunfish cannot be played against, or None."""
    try:
        import chess.engine  # noqa: F401
    except ImportError:
        return "python-chess is not installed (the bench extra)"
    try:
        import sunfish  # noqa: F401
    except ImportError:
        return "sunfish is not installed (pip install sunfish)"
    return None


def _uci(lan: str) -> str:
    """fairypost's LAN (``a7a8=Q``) as UCI (``a7a8q``)."""
    return lan.replace("=", "").lower() if "=" in lan else lan


def _lan(uci: str) -> str:
    """UCI (``a7a8q``) as fairypost's LAN (``a7a8=Q``)."""
    return f"{uci[:4]}={uci[4].upper()}" if len(uci) == 5 else uci


def play_game(opening, ours_white: bool, seconds: float, plies: int) -> dict:
    import chess
    import chess.engine

    import ai
    import rules
    from ai.values import material

    board = chess.Board()
    pos = rules.start("chess")
    tt: dict = {}
    engine = chess.engine.SimpleEngine.popen_uci([sys.executable, "-m", "sunfish"])
    try:
        for lan in opening:
            board.push_uci(lan)
            pos = pos.play(_lan(lan))
        our_time, their_time, our_moves, depths = 0.0, 0.0, 0, []
        while not board.is_game_over(claim_draw=True) and len(board.move_stack) < plies:
            ours = (board.turn == chess.WHITE) == ours_white
            t0 = time.perf_counter()
            if ours:
                t = ai.think(pos, level=5, seconds=seconds, tt=tt)
                lan, took = t.lan, time.perf_counter() - t0
                our_time += took
                our_moves += 1
                depths.append(t.depth)
            else:
                got = engine.play(board, chess.engine.Limit(time=seconds))
                lan = got.move.uci() if got.move else None
                their_time += time.perf_counter() - t0
            if lan is None:
                return {"error": f"{'ours' if ours else 'sunfish'} gave no move at ply {len(board.move_stack)}"}
            try:
                move = chess.Move.from_uci(_uci(lan))
                if move not in board.legal_moves:
                    raise ValueError("python-chess refuses it")
                pos = pos.play(_lan(lan))
            except ValueError as e:
                return {"error": f"{'ours' if ours else 'sunfish'} played {lan}, refused: {e}",
                        "fen": board.fen()}
            board.push(move)
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            result, reason = outcome.result(), outcome.termination.name.lower()
        else:
            m = material(pos)
            result = "1-0" if m >= ADJUDICATE_CP else "0-1" if m <= -ADJUDICATE_CP else "1/2-1/2"
            reason = f"ply cap, material {m:+d}"
        points = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
        return {"result": result, "reason": reason, "plies": len(board.move_stack),
                "score": points if ours_white else 1 - points,
                "our_seconds_per_move": our_time / max(1, our_moves), "depths": depths,
                "opening": " ".join(opening), "ours_white": ours_white}
    finally:
        engine.quit()


def match(games: int, seconds: float, plies: int, progress=print) -> list[dict]:
    out = []
    for i in range(games):
        opening = OPENINGS[(i // 2) % len(OPENINGS)]
        g = play_game(opening, ours_white=i % 2 == 0, seconds=seconds, plies=plies)
        out.append(g)
        done = [x for x in out if "score" in x]
        progress(f"game {i + 1}/{games}: "
                 + (g.get("error") or f"{g['result']} ({g['reason']}), ours {'white' if g['ours_white'] else 'black'}")
                 + f"; level 5 so far {sum(x['score'] for x in done):g}/{len(done)}")
    return out


def summary(results: list[dict]) -> dict:
    done = [g for g in results if "score" in g]
    score = sum(g["score"] for g in done)
    depths = [d for g in done for d in g["depths"]]
    return {"games": len(done), "points": score, "share": score / len(done) if done else None,
            "wins": sum(1 for g in done if g["score"] == 1), "draws": sum(1 for g in done if g["score"] == 0.5),
            "losses": sum(1 for g in done if g["score"] == 0),
            "errors": [g["error"] for g in results if "error" in g],
            "mean_depth": sum(depths) / len(depths) if depths else None}


def run(ctx: Context) -> dict:
    why = sunfish_available()
    if why:
        return {"rows": [], "goals": [goal("3", "chess level 5 against sunfish >= 60 %", None, 0.6, None, why)],
                "skipped": [{"case": "level 5 vs sunfish", "why": why}]}
    games, seconds, plies = ctx.size(20, 2), ctx.size(1.0, 0.2), ctx.size(200, 16)
    results = match(games, seconds, plies, ctx.progress)
    s = summary(results)
    if s["share"] is None:
        return {"rows": [], "goals": [], "skipped": [{"case": "level 5 vs sunfish",
                                                      "why": f"no game finished: {s['errors']}"}]}
    r = row("chess level 5 vs sunfish", "score", {"median": s["share"], "p95": s["share"], "n": s["games"]},
            better="higher", seconds=seconds, game_records=results,
            **{k: v for k, v in s.items() if k != "share"})
    return {"rows": [r], "goals": [goal("3", f"chess level 5 against sunfish at {seconds:g} s a move "
                                           f"(both sides), {games} games: >= 60 %",
                                        s["share"], 0.6, None if s["share"] is None else s["share"] >= 0.6,
                                        f"+{s['wins']} ={s['draws']} -{s['losses']}, mean depth "
                                        f"{s['mean_depth'] or 0:.1f}; disagreements/errors: {s['errors'] or 'none'}")],
            "skipped": [], "params": {"games": games, "seconds": seconds, "plies": plies}}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.strength", description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--plies", type=int, default=200)
    args = ap.parse_args(argv)
    why = sunfish_available()
    if why:
        print(why, file=sys.stderr)
        return 2
    import ai
    ai.prepare("chess")
    results = match(args.games, args.seconds, args.plies, lambda s: print(s, flush=True))
    s = summary(results)
    print(f"level 5 vs sunfish at {args.seconds:g} s a move: {s['points']:g}/{s['games']} "
          f"(+{s['wins']} ={s['draws']} -{s['losses']}), mean depth {s['mean_depth'] or 0:.1f}; "
          f"errors: {s['errors'] or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
