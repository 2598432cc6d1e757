"""Command line: perft, moves, play (for tools and checks that must not import the package)."""
from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence

from . import Position, add_variants_dir, from_fen, start, variants
from .errors import RulesError


def _position(game_id: str, fen: str | None) -> Position:
    return from_fen(game_id, fen) if fen else start(game_id)


VARIANTS_DIR_ENV = "FAIRYPOST_VARIANTS_DIR"


def main(argv: Sequence[str] | None = None) -> int:
    # the own variants first: the game choices below list them
    early = argparse.ArgumentParser(add_help=False)
    early.add_argument("--variants-dir")
    known, _ = early.parse_known_args(argv)
    folder = known.variants_dir or os.environ.get(VARIANTS_DIR_ENV)
    if folder:
        try:
            add_variants_dir(folder)
        except RulesError as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
    parser = argparse.ArgumentParser(prog="python -m rules", description="fairypost rules engine")
    own = argparse.ArgumentParser(add_help=False)
    own.add_argument("--variants-dir", metavar="DIR",
                     help=f"also load the variant files in DIR (default: ${VARIANTS_DIR_ENV})")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("perft", parents=[own], help="count the move paths of a given depth")
    p.add_argument("game", choices=variants())
    p.add_argument("depth", type=int)
    p.add_argument("--fen", help="start from this VFEN instead of the start position")
    p.add_argument("--divide", action="store_true", help="also print the count under each move")
    p.add_argument("--time", action="store_true", help="print the time taken on stderr")
    m = sub.add_parser("moves", parents=[own], help="print the legal moves' LAN, sorted, one a line")
    m.add_argument("game", choices=variants())
    m.add_argument("--fen")
    pl = sub.add_parser("play", parents=[own], help="play moves and print the VFEN after them")
    pl.add_argument("game", choices=variants())
    pl.add_argument("moves", nargs="*")
    pl.add_argument("--fen")
    # moves may come before or after --fen: argparse leaves the later ones over
    args, extra = parser.parse_known_args(argv)
    if extra:
        if args.command != "play" or any(e.startswith("--") for e in extra):
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
        args.moves += extra
    try:
        pos = _position(args.game, args.fen)
        if args.command == "perft":
            if args.depth < 0:
                parser.error("depth must be 0 or more")
            t0 = time.perf_counter()
            if args.divide:
                total = 0
                for mv in sorted(pos.legal_moves(), key=lambda x: x.lan):
                    n = pos.apply(mv).perft(args.depth - 1)
                    total += n
                    print(f"{mv.lan} {n}")
                print(total)
            else:
                print(pos.perft(args.depth))
            if args.time:
                print(f"{time.perf_counter() - t0:.3f}s", file=sys.stderr)
        elif args.command == "moves":
            for lan in sorted(mv.lan for mv in pos.legal_moves()):
                print(lan)
        else:
            for i, text in enumerate(args.moves, 1):
                try:
                    pos = pos.play(text)
                except RulesError as e:
                    print(f"move {i} ({text}): {e}", file=sys.stderr)
                    return 2
            print(pos.fen())
    except RulesError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0
