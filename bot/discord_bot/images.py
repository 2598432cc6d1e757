"""The render package's pictures as ``discord.File`` attachments, drawn off the event loop."""

from __future__ import annotations

import asyncio
import io

import discord

import render
import rules
from bot.tournaments.crosstable import crosstable_picture
from language import ENGLISH, Language
from render.legend import draw_legend


def _file(data: bytes, name: str) -> discord.File:
    return discord.File(io.BytesIO(data), filename=name)


async def board_file(pos, *, flip: bool, highlight: str | None = None,
                     name: str = "board.png",
                     outcome: tuple[str | None, str | None] = (None, None),
                     lang: Language = ENGLISH) -> discord.File:
    """The board, its last move marked; with ``highlight``, that piece's legal moves;
    with ``outcome``, a finished game's stored (result, reason) as a banner (the
    position alone knows no resignation, time or agreement); its words in ``lang``."""
    banner = render.result_text(pos.game, *outcome, lang=lang)
    data = await asyncio.to_thread(render.board_png, pos, flip=flip, highlight=highlight,
                                   show_last_move=True, result=banner, lang=lang)
    return _file(data, name)


def every_piece(game_id: str) -> list[render.LegendEntry]:
    """The start position's legend, and after it every piece the start leaves out (those
    that only come by promotion), in both colours."""
    entries = render.legend_entries(rules.start(game_id))
    listed = {e.key for e in entries}
    for key, t in rules.game(game_id).types.items():
        if key in listed:
            continue
        names = (("w", t.side_names[0]), ("b", t.side_names[1])) if t.side_names else (("w", t.name), ("b", t.name))
        state = t.states[0] if t.states and t.chosen else None
        entries.append(render.LegendEntry(key, key, ("w", "b"), names, (("w", state), ("b", state)),
                                          sided=bool(t.side_names) and t.side_names[0] != t.side_names[1]))
    return entries


def _rules_legend_png(game_id: str, lang: Language) -> bytes:
    return render.to_png(draw_legend(rules.game(game_id), every_piece(game_id), lang=lang)[0])


async def rules_legend_file(game_id: str, name: str = "pieces.png", *, lang: Language = ENGLISH) -> discord.File:
    """Every piece of a game, for /rules (its words in ``lang``)."""
    return _file(await asyncio.to_thread(_rules_legend_png, game_id, lang), name)


async def piece_file(game: str, key: str, colour: str = "w", name: str = "piece.png", *,
                     lang: Language = ENGLISH) -> discord.File:
    return _file(await asyncio.to_thread(render.piece_card_png, game, key, color=colour, lang=lang), name)


async def crosstable_file(view, name: str = "crosstable.png") -> discord.File | None:
    """A tournament's crosstable picture (None before it has begun: nothing to show)."""
    if not view.pairings:
        return None
    return _file(await asyncio.to_thread(crosstable_picture, view), name)
