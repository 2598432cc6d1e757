"""`fairypost think GAME [--fen VFEN] [--seconds S] [--level N]`: the computer's move.

Prints the score, depth, nodes and principal variation, then the chosen move in LAN as
the last line (for scripts: ``fairypost think chess | tail -1``). Bad input: a message
on stderr saying what was wrong, exit status 2.
"""
from __future__ import annotations

import math
import sys

from .engine import DEFAULT_SECONDS, describe_score, prepare, think
from .levels import DEFAULT_LEVEL, LEVELS


def add_parser(sub) -> None:
    """Add the `think` subcommand to an argparse subparsers object."""
    levels = ", ".join(f"{n} {lv.name}" for n, lv in LEVELS.items())
    p = sub.add_parser("think", help="the computer's move in a position (LAN on the last line)",
                       description="Search a position and print the computer's move: the score "
                                   "and depth, then the move in LAN as the last line.")
    p.add_argument("game", help="ganymede, gigachess2, grandducal, kingqueen, superchess or chess")
    p.add_argument("--fen", metavar="VFEN", help="the position (default: the game's start)")
    p.add_argument("--seconds", metavar="S", default=str(DEFAULT_SECONDS),
                   help=f"time budget, never exceeded (default {DEFAULT_SECONDS:g})")
    p.add_argument("--level", metavar="N", default=str(DEFAULT_LEVEL),
                   help=f"{levels} (default {DEFAULT_LEVEL})")


def _fail(message: str) -> int:
    print(f"fairypost think: {message}", file=sys.stderr)
    return 2


def run(args) -> int:
    import rules
    try:
        seconds = float(args.seconds)
    except ValueError:
        return _fail(f"--seconds must be a number of seconds, not {args.seconds!r}")
    if not (math.isfinite(seconds) and seconds > 0):
        return _fail(f"--seconds must be more than 0, not {args.seconds!r}")
    try:
        level = int(args.level)
    except ValueError:
        level = None
    if level not in LEVELS:
        return _fail(f"--level must be one of {', '.join(map(str, LEVELS))}, not {args.level!r}")
    if args.game not in rules.variants():
        return _fail(f"no game {args.game!r}; the games are: {', '.join(sorted(rules.variants()))}")
    try:
        position = rules.from_fen(args.game, args.fen) if args.fen else rules.start(args.game)
    except rules.FenError as e:
        return _fail(f"bad VFEN: {e}")
    if not position.legal_moves():
        out = position.outcome()
        return _fail(f"the game is over in that position ({out[0]}, {out[1]})" if out
                     else "no legal move in that position")
    prepare(args.game)  # the tables, before the clock starts (as a worker does)
    t = think(position, level=level, seconds=seconds)
    print(f"level: {level} ({LEVELS[level].name})")
    print(f"score: {describe_score(t.score_cp)}")
    print(f"depth: {t.depth}")
    print(f"nodes: {t.nodes} in {t.elapsed:.2f} s")
    print(f"pv: {' '.join(t.pv)}")
    print(f"san: {t.san}")
    print(t.lan)
    return 0
