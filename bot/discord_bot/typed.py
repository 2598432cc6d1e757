"""Moves typed as plain messages in a game's thread.

Reading message text needs the privileged Message Content intent (the runner asks for it
only when ``discord_message_content`` is on); ``/move`` works without it. A message is a
move only if its author is the player to move and the engine accepts it; anything else
(chat, a wrong move, a message from someone else) is ignored quietly.
"""

from __future__ import annotations

import logging

import discord

from bot.errors import ServiceError
from rules.errors import RulesError

from . import PLATFORM
from .core import Fairy

log = logging.getLogger("bot.discord_bot")

MAX_LENGTH = 40


def move_text(content: str) -> str | None:
    """The text of a message that could be a move: one short line (backticks dropped)."""
    text = (content or "").strip().strip("`").strip()
    if not text or len(text) > MAX_LENGTH or "\n" in text or text.startswith(("/", "!", "<")):
        return None
    return text


async def on_message(fairy: Fairy | None, message: discord.Message) -> bool:
    """Play the message as a move if it is one; True if it was played."""
    if fairy is None or message.author.bot or message.guild is None:
        return False
    text = move_text(message.content)
    if text is None:
        return False
    gid = None
    try:
        for gid in await fairy.links.games_in(message.channel.id):
            gv = await fairy.service.game(gid)
            to_move = gv.to_move
            if (gv.status != "active" or to_move is None or to_move.platform != PLATFORM
                    or to_move.user_id != str(message.author.id)):
                continue
            try:
                await fairy.play(to_move.id, gid, text, expected_ply=gv.ply)
            except (ServiceError, RulesError) as e:
                log.debug("not a move in game #%d: %r (%s)", gid, text, e)
                return False
            return True
    except Exception:  # a chat message must never crash the bot
        log.exception("handling a message in thread %s failed (game #%s)", message.channel.id, gid)
    return False
