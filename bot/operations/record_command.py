"""``fairypost record GAME_ID [FILE]``: a stored game's PGN (``record.game_pgn``, through
the service) written to FILE or the standard output."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..domain.errors import ServiceError


def add_parser(sub) -> None:
    p = sub.add_parser("record", help="a game's record as PGN, to a file or the screen",
                       description="Write a stored game's record as PGN (tags, then the moves "
                                   "in SAN): to FILE, or to the standard output without one.")
    p.add_argument("game_id", type=int, metavar="GAME_ID", help="the game's number (fairypost games)")
    p.add_argument("file", nargs="?", metavar="FILE",
                   help="where to write it (default, or -: the standard output); an existing "
                        "file is replaced")


async def run(args: argparse.Namespace, settings) -> int:
    """``fairypost record``: the PGN to FILE or stdout; a game not there, or a file that
    cannot be written, is said on stderr with status 2 and writes nothing."""
    from ..store import database_file
    from .service import GameService
    out = Path(args.file).expanduser() if args.file not in (None, "-") else None  # -: stdout
    problem = _unwritable(out) if out is not None else None
    if problem:
        print(f"fairypost record: {args.file}: {problem}", file=sys.stderr)
        return 2
    file = database_file(settings.db_path)
    if file is not None and not file.exists():  # say so, rather than make an empty database
        print(f"fairypost record: there is no game #{args.game_id} (no database at {file})",
              file=sys.stderr)
        return 2
    service = await GameService.open(settings)
    try:
        try:
            pgn = await service.record(args.game_id)
        except ServiceError as e:
            print(f"fairypost record: {e}", file=sys.stderr)
            return 2
    finally:
        await service.close()
    if out is None:
        sys.stdout.write(pgn)
        sys.stdout.flush()
        return 0
    try:
        out.write_text(pgn, encoding="utf-8")
    except OSError as e:
        print(f"fairypost record: cannot write {args.file}: {e.strerror or e}", file=sys.stderr)
        return 2
    print(f"{out}: game #{args.game_id}'s record, {pgn.count(chr(10))} lines")
    return 0


def _unwritable(out: Path) -> str | None:
    """Why ``out`` cannot be written as a file, or None (a denied write is found when it
    is tried)."""
    if out.is_dir():
        return "that is a folder; name a file to write"
    folder = out.parent
    if not folder.exists():
        return f"the folder {folder} does not exist"
    if not folder.is_dir():
        return f"{folder} is not a folder"
    return None
