"""The render package's pictures as ``discord.File`` attachments, drawn off the event loop."""

from __future__ import annotations

import asyncio
import io

import discord

import render


def _file(data: bytes, name: str) -> discord.File:
    return discord.File(io.BytesIO(data), filename=name)


async def board_file(pos, *, flip: bool, highlight: str | None = None,
                     name: str = "board.png",
                     outcome: tuple[str | None, str | None] = (None, None)) -> discord.File:
    """The board, its last move marked; with ``highlight``, that piece's legal moves;
    with ``outcome``, a finished game's stored (result, reason) as a banner (the
    position alone knows no resignation, time or agreement)."""
    banner = render.result_text(pos.game, *outcome)
    data = await asyncio.to_thread(render.board_png, pos, flip=flip, highlight=highlight,
                                   show_last_move=True, result=banner)
    return _file(data, name)


async def legend_file(pos, name: str = "pieces.png") -> discord.File:
    return _file(await asyncio.to_thread(render.legend_png, pos), name)


async def piece_file(game: str, key: str, colour: str = "w", name: str = "piece.png") -> discord.File:
    return _file(await asyncio.to_thread(render.piece_card_png, game, key, color=colour), name)
