"""Strength against an engine nobody here wrote: chess, level 5 against sunfish (PyPI).

sunfish runs as a UCI engine in its own process (``python -m sunfish``, driven by
python-chess's ``chess.engine``); both sides get the same wall time per move (full:
1 s, quick: 0.2 s; ``--seconds``). sunfish ignores ``go movetime`` and budgets a move
from its clock (with none given, 60 s: 1.3 s before it stops deepening, 6.5 s at most),
so it is given the clock and increment (``sunfish_limit``) that make its hard limit a
given time and its soft one about half of it, as fairypost's level 5 has (45 %,
ai.engine). sunfish looks at the clock every 2,048 nodes, which on a loaded machine
overruns its limit by a lot, while fairypost's level 5 stops early (it starts no new
iteration past 45 % of the budget): so sunfish's limit is set, move by move, to what
makes its mean wall time a move so far equal to fairypost's in the same game (never above
the budget). Each side's mean seconds a move are reported beside the score. The games
start from ``OPENINGS`` (a few plies of common openings, so that two deterministic engines
do not replay one game), each played with both colours, colours alternating (full: 20
games, quick: 2). Every move of both sides is played through fairypost's rules and
python-chess's: a move either refuses is reported and the game stops, unscored. A game
ends by the rules (mate, stalemate, threefold repetition, the 50-move rule, insufficient
material) or at the ply cap, where a side ahead by at least ``ADJUDICATE_CP`` of material
(ai.values) wins, else a draw.

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


SUNFISH_DELAY = 0.2   # sunfish's own allowance for lag (its DELAY, ms / 1000)


def sunfish_limit(seconds: float):
    """The clock that makes sunfish think at most `seconds` a move (its formula, sunfish
    2026.1: soft = min(clock/40 + inc - D, clock/4 - D), hard = min(5 (clock/40 + inc - D),
    clock/2 - D)): clock 2 (s + D), increment so that the budget is s/2; hard = s,
    soft = s/2 - D/2 (floors: 0.1 s and 0.2 s)."""
    import chess.engine
    clock = 2 * (seconds + SUNFISH_DELAY)
    inc = seconds / 2 + SUNFISH_DELAY - clock / 40
    return chess.engine.Limit(white_clock=clock, black_clock=clock, white_inc=inc, black_inc=inc)


def equal_time(budget: float, our_mean: float | None, overrun: float, floor: float = 0.2) -> float:
    """The opponent's limit for its next move: what makes its mean time a move our mean
    (the budget before our first move), given how much it overran its limits so far
    (its time over the limits asked); between `floor` (sunfish's: 0.2 s) and the budget."""
    target = budget if our_mean is None else our_mean
    return max(floor, min(budget, target / max(overrun, 1e-3)))


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
        our_time, their_time, our_moves, their_moves, depths = 0.0, 0.0, 0, 0, []
        asked = 0.0   # the hard limits sunfish was given, summed
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
                limit = equal_time(seconds, our_time / our_moves if our_moves else None,
                                   their_time / asked if asked else 1.0)
                asked += limit
                got = engine.play(board, sunfish_limit(limit))
                lan = got.move.uci() if got.move else None
                their_time += time.perf_counter() - t0
                their_moves += 1
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
                "our_seconds_per_move": our_time / max(1, our_moves),
                "sunfish_seconds_per_move": their_time / max(1, their_moves), "depths": depths,
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
            "mean_depth": sum(depths) / len(depths) if depths else None,
            **{key: _mean(g.get(key) for g in done) for key in SECONDS_PER_MOVE}}


SECONDS_PER_MOVE = ("our_seconds_per_move", "sunfish_seconds_per_move", "jocly_seconds_per_move")


def _mean(xs) -> float | None:
    xs = [x for x in xs if x is not None]
    return sum(xs) / len(xs) if xs else None


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
                                        f"{s['mean_depth'] or 0:.1f}, seconds a move ours "
                                        f"{s['our_seconds_per_move'] or 0:.2f}, sunfish's "
                                        f"{s['sunfish_seconds_per_move'] or 0:.2f}; disagreements/errors: "
                                        f"{s['errors'] or 'none'}")],
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
          f"(+{s['wins']} ={s['draws']} -{s['losses']}), mean depth {s['mean_depth'] or 0:.1f}, "
          f"seconds a move ours {s['our_seconds_per_move'] or 0:.2f}, sunfish's "
          f"{s['sunfish_seconds_per_move'] or 0:.2f}; errors: {s['errors'] or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
