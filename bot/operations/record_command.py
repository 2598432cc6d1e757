"""``fairypost record GAME_ID [FILE]``: a stored game's PGN (``record.game_pgn``, through
the service) written to FILE or the standard output."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from language import Language, from_environment, language

from ..domain.errors import ServiceError


def reader() -> Language:
    """The language of whoever runs the command: the environment's (LANG), else English."""
    return language(from_environment(os.environ))


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
    lang = reader()
    out = Path(args.file).expanduser() if args.file not in (None, "-") else None  # -: stdout
    problem = _unwritable(out, lang) if out is not None else None
    if problem:
        print(f"fairypost record: {args.file}: {problem}", file=sys.stderr)
        return 2
    file = database_file(settings.db_path)
    if file is not None and not file.exists():  # say so, rather than make an empty database
        print("fairypost record: " + lang.tr("there is no game #{id} (no database at {file})",
                                             id=args.game_id, file=file), file=sys.stderr)
        return 2
    service = await GameService.open(settings)
    try:
        try:
            pgn = await service.record(args.game_id)
        except ServiceError as e:
            print("fairypost record: " + lang.say(e.text), file=sys.stderr)
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
        print("fairypost record: " + lang.tr("cannot write {file}: {why}", file=args.file, why=e.strerror or e),
              file=sys.stderr)
        return 2
    print(f"{out}: " + lang.trn("game #{id}'s record, {n} line", "game #{id}'s record, {n} lines",
                                pgn.count(chr(10)), id=args.game_id))
    return 0


def _unwritable(out: Path, lang: Language) -> str | None:
    """Why ``out`` cannot be written as a file, or None (a denied write is found when it
    is tried)."""
    if out.is_dir():
        return lang.tr("that is a folder; name a file to write")
    folder = out.parent
    if not folder.exists():
        return lang.tr("the folder {folder} does not exist", folder=folder)
    if not folder.is_dir():
        return lang.tr("{folder} is not a folder", folder=folder)
    return None
