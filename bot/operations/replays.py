"""A stored game as an animated GIF (render/replay.py), made off the event loop.

Used by ``fairypost replay GAME_ID FILE.gif`` and Discord's ``/replay``: one frame per
position from the game's start, seen from one side throughout, the last frame with the
stored result as its banner.
"""
from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable
from pathlib import Path

import render
import rules
from render.replay import replay_gif

from ..domain.errors import ServiceError


async def game_gif(service, game_id: int, *, flip: bool = False,
                   progress: Callable[[int, int], None] | None = None) -> bytes:
    """The game's replay, from Black's side if flip. Raises the service's NotFound."""
    view = await service.game(game_id)
    start = rules.from_fen(view.game, view.start_vfen)
    banner = render.result_text(start.game, view.result, view.reason)
    lans = [m.lan for m in view.moves]
    return await asyncio.to_thread(replay_gif, start, lans, flip=flip, result=banner,
                                   progress=progress)


def add_parser(sub) -> None:
    p = sub.add_parser("replay", help="a game as an animated GIF, one frame per position",
                       description="Write a stored game as an animated GIF: one frame per "
                                   "position, the last move marked, seen from one side.")
    p.add_argument("game_id", type=int, metavar="GAME_ID", help="the game's number (fairypost games)")
    p.add_argument("file", metavar="FILE.gif", help="where to write the picture")
    p.add_argument("--black", action="store_true", help="seen from Black's side (default White's)")


async def run(args: argparse.Namespace, settings) -> int:
    from .record_command import reader
    from .service import GameService
    lang = reader()
    out = Path(args.file)
    if out.suffix.lower() != ".gif":
        print(f"fairypost replay: {args.file}: " + lang.tr("name a {suffix} file", suffix=".gif"), file=sys.stderr)
        return 2
    if out.is_dir() or not out.parent.expanduser().resolve().is_dir():
        print(f"fairypost replay: {args.file}: " + lang.tr("not a file in an existing folder"), file=sys.stderr)
        return 2
    service = await GameService.open(settings)
    try:
        def progress(done: int, total: int) -> None:
            if done == total or done % 25 == 0:
                print("\r" + lang.tr("drawing frame {done} of {total}", done=done, total=total), end="",
                      file=sys.stderr, flush=True)
        try:
            data = await game_gif(service, args.game_id, flip=args.black, progress=progress)
        except ServiceError as e:
            print("fairypost replay: " + lang.say(e.text), file=sys.stderr)
            return 2
        print(file=sys.stderr)
    finally:
        await service.close()
    out.write_bytes(data)
    print(f"{out}: {len(data) / 1e6:.1f} MB")
    return 0
