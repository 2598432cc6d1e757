"""Two small things every handler needs, apart from ``Fairy`` itself (so that the buttons
in views.py need not import core.py, which posts them: not even for a type)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

if TYPE_CHECKING:
    from bot.operations.service import GameView


def fairy_of(interaction: discord.Interaction):
    """The client's ``core.Fairy``."""
    return interaction.client.fairy  # type: ignore[attr-defined]


def board_flip(view: GameView) -> bool:
    """Seen from the player to move (from White once the game is over)."""
    return view.status == "active" and view.turn == "b"
