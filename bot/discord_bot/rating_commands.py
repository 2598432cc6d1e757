"""What ``/ratings [game]`` shows: a game's leaderboard (no game: each game's leaders) and
the caller's own ratings, as an embed. The command itself is in commands.py."""

from __future__ import annotations

import discord

import rules
from bot.operations.ratings import leaderboard_lines, own_lines, provisional_note
from bot.words.text import DISCORD, Markup

from . import format

LEADERS_PER_GAME = 3  # without a game: each game's first few


async def ratings_embed(service, player_id: int, game: str | None, *, m: Markup = DISCORD) -> discord.Embed:
    mine = await service.player_ratings(player_id)
    if game is not None:
        board = await service.leaderboard(game)
        leaders = "\n".join(leaderboard_lines(board, format.safe, lang=m.lang))
        e = discord.Embed(title=m.tr("Ratings · {game}", game=m.data(format.game_name(game))),
                          colour=format.COLOUR_INFO,
                          description=leaders or m.tr("No rated game of it has been played yet."))
        mine = [r for r in mine if r.game == game]
    else:
        e = discord.Embed(title=m.tr("Ratings"), colour=format.COLOUR_INFO)
        for g in rules.variants():
            board = await service.leaderboard(g, LEADERS_PER_GAME)
            if board and len(e.fields) < 24:
                e.add_field(name=m.data(format.game_name(g))[:256],
                            value="\n".join(leaderboard_lines(board, format.safe, lang=m.lang))[:1024], inline=False)
        if not e.fields:
            e.description = m.tr("No rated game has been played yet.")
    e.add_field(name=m.tr("Your ratings"), inline=False,
                value=("\n".join(own_lines(mine, lambda g: m.data(format.game_name(g)), lang=m.lang))
                       or m.tr("None yet: play a rated game (challenges are rated unless you say casual)"))[:1024])
    e.set_footer(text=provisional_note(m.lang))
    return e
