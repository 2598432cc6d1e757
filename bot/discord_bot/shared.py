"""The few small things every handler needs, apart from ``Fairy`` itself (so that the buttons
in views.py need not import core.py, which posts them: not even for a type)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.words.text import DISCORD, Markup
from language import from_discord_locale

if TYPE_CHECKING:
    from bot.operations.service import GameView


def fairy_of(interaction: discord.Interaction):
    """The client's ``core.Fairy``."""
    return interaction.client.fairy  # type: ignore[attr-defined]


def board_flip(view: GameView) -> bool:
    """Seen from the player to move (from White once the game is over)."""
    return view.status == "active" and view.turn == "b"


def _here(interaction: discord.Interaction) -> str | None:
    """The language of the asker's Discord (``interaction.locale``), if we have it."""
    try:
        return from_discord_locale(interaction.locale)
    except Exception:  # noqa: BLE001 - an interaction without a locale: none
        return None


async def reader(interaction: discord.Interaction, player) -> Markup:
    """The asker's markup in their language: the one they chose, else their Discord's (which
    is remembered, for the notices they get later), else the one last seen, else English."""
    here = _here(interaction)
    if here is not None and here != player.settings.seen_language:
        await fairy_of(interaction).service.saw_language(player.id, here)
    code = player.reads(here)
    interaction.extras["lang"] = code
    return DISCORD.in_language(code)


def reader_of(interaction: discord.Interaction) -> Markup:
    """The asker's markup, as far as known without the store (for errors): the language found
    by ``reader`` earlier in this interaction, else their Discord's."""
    try:
        code = interaction.extras.get("lang")
    except Exception:  # noqa: BLE001
        code = None
    return DISCORD.in_language(code or _here(interaction))
