"""`fairypost think GAME [--fen VFEN] [--seconds S] [--level N] [--cores N]`: the computer's move.

Prints the score, depth, nodes and principal variation, then the chosen move in LAN as
the last line (for scripts: ``fairypost think chess | tail -1``). Bad input: a message
on stderr saying what was wrong, exit status 2. The top level searches with ``--cores``
processes together (default: every core; ai/parallel.py); the others think on one.
"""
from __future__ import annotations

import argparse
import math
import sys

from . import parallel
from .engine import DEFAULT_SECONDS, describe_score, prepare
from .levels import DEFAULT_LEVEL, LEVELS

MAX_CORES = 256


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
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
    p.add_argument("--cores", metavar="N", default=None,
                   help="processes searching together at the top level (default: every core, "
                        f"here {parallel.default_cores()}; 1: in this process alone)")


def _fail(message: str) -> int:
    print(f"fairypost think: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
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
    try:
        cores = parallel.default_cores() if args.cores is None else int(args.cores)
    except ValueError:
        cores = None
    if cores is None or not 1 <= cores <= MAX_CORES:
        return _fail(f"--cores must be a whole number from 1 to {MAX_CORES}, not {args.cores!r}")
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
    if not LEVELS[level].exact or LEVELS[level].max_nodes is not None:
        cores = 1   # a level below the top is a node budget: the same on any machine
    try:   # with more cores the processes start, and build the tables, before the clock too
        t = parallel.think(position, level=level, seconds=seconds, cores=cores)
    except KeyboardInterrupt:   # Ctrl-C: the searching processes are ended by now
        print("fairypost think: interrupted", file=sys.stderr)
        return 130
    finally:
        parallel.close_shared_pool()
    print(f"level: {level} ({LEVELS[level].name})")
    print(f"cores: {cores}")
    print(f"score: {describe_score(t.score_cp)}")
    print(f"depth: {t.depth}")
    print(f"nodes: {t.nodes} in {t.elapsed:.2f} s")
    print(f"pv: {' '.join(t.pv)}")
    print(f"san: {t.san}")
    print(t.lan)
    return 0
