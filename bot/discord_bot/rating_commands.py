"""``/ratings [game]``: a game's leaderboard and the caller's own ratings."""

from __future__ import annotations

import discord
from discord import app_commands

import rules
from bot.rating_service import PROVISIONAL_NOTE, leaderboard_lines, own_lines

from . import format
from .commands import _thread_variant, game_option, known_game
from .core import fairy_of
from .replies import send

LEADERS_PER_GAME = 3  # without a game: each game's first few


@app_commands.command(description="Ratings: a game's leaderboard and your own ratings")
@app_commands.describe(game="which game (default: this thread's; leave out for every game's leaders)")
@game_option
async def ratings(interaction: discord.Interaction, game: str | None = None) -> None:
    fairy = fairy_of(interaction)
    me = await fairy.player(interaction.user)
    fairy.service.budget_read(me.id)
    game = known_game(game) if game else await _thread_variant(interaction)
    mine = await fairy.service.player_ratings(me.id)
    if game is not None:
        board = await fairy.service.leaderboard(game)
        e = discord.Embed(title=f"Ratings · {format.game_name(game)}", colour=format.COLOUR_INFO,
                          description="\n".join(leaderboard_lines(board, format.safe))
                          or "No rated game of it has been played yet.")
        mine = [r for r in mine if r.game == game]
    else:
        e = discord.Embed(title="Ratings", colour=format.COLOUR_INFO)
        for g in rules.variants():
            board = await fairy.service.leaderboard(g, LEADERS_PER_GAME)
            if board and len(e.fields) < 24:
                e.add_field(name=format.game_name(g)[:256],
                            value="\n".join(leaderboard_lines(board, format.safe))[:1024], inline=False)
        if not e.fields:
            e.description = "No rated game has been played yet."
    e.add_field(name="Your ratings", inline=False,
                value=("\n".join(own_lines(mine, format.game_name))
                       or "None yet: play a rated game (challenges are rated unless you say casual)")[:1024])
    e.set_footer(text=PROVISIONAL_NOTE)
    await send(interaction, embed=e)
