"""Moves typed as plain messages in a game's thread.

Reading message text needs the privileged Message Content intent (the runner asks for it
only when ``discord_message_content`` is on); ``/move`` works without it. A message is a
move only if its author is the player to move and the engine accepts it; anything else
(chat, a wrong move, a message from someone else) is ignored quietly. Where no thread could
be made, games share a channel: a move that fits several of them is not guessed at.
"""

from __future__ import annotations

import logging

import discord

from bot.errors import ServiceError
from rules.errors import RulesError

from . import format
from .core import Fairy
from .replies import NO_PINGS

log = logging.getLogger("bot.discord_bot")

MAX_LENGTH = 40


def move_text(content: str) -> str | None:
    """The text of a message that could be a move: one short line (backticks dropped)."""
    text = (content or "").strip().strip("`").strip()
    if not text or len(text) > MAX_LENGTH or "\n" in text or text.startswith(("/", "!", "<")):
        return None
    return text


async def on_message(fairy: Fairy | None, message: discord.Message) -> bool:
    """Play the message as a move if it is one; True if it was played. Where several
    games share the channel, the move goes to the one game where it is the author's move
    and the move is legal; if it fits several, the author is asked which."""
    if fairy is None or message.author.bot or message.guild is None:
        return False
    text = move_text(message.content)
    if text is None:
        return False
    gid = None
    try:
        fitting = await fairy.games_fitting(message.author, await fairy.links.games_in(message.channel.id), text)
        if len(fitting) > 1:
            question = format.ambiguous_move(text, [v.id for v in fitting])
            await message.reply(f"{format.safe(question)} with /move and its game option.",
                                allowed_mentions=NO_PINGS)
            return False
        if not fitting:
            return False  # chat, or not a legal move in any of the author's games here
        view = fitting[0]
        gid = view.id
        from .waiting import asked_first  # the Confirm button's module (it builds on views)
        player = await fairy.service.get_player(view.to_move.id)
        if await asked_first(None, fairy, player, gid, text, typed=True, expected_ply=view.ply,
                             reply_to=message):
            return False
        try:
            await fairy.play(view.to_move.id, gid, text, expected_ply=view.ply)
        except (ServiceError, RulesError) as e:
            log.debug("not played in game #%d: %r (%s)", gid, text, e)
            return False
        return True
    except Exception:  # a chat message must never crash the bot
        log.exception("handling a message in thread %s failed (game #%s)", message.channel.id, gid)
    return False
