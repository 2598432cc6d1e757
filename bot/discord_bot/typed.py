"""Moves and commands typed as plain messages in a game's thread.

Reading message text needs the privileged Message Content intent (the runner asks for it
only when ``discord_message_content`` is on); ``/move`` works without it. A message is read
with the one text grammar (bot/words/grammar.py). A command (``draw``, ``draw accept``,
``takeback``, ``resign``, ``moves e2``, ``games``, ``help`` ...) from a player of the game
here runs as every adapter runs it (bot/commands/run.py) and is answered. Any other line
is a move only if its author is the player to move and the engine accepts it; anything
else (chat, a wrong move, a message from someone else, a line that only starts like a
command) is ignored quietly. Where no thread could be made, games share a channel: a move
that fits several of them is not guessed at.
"""

from __future__ import annotations

import io
import logging

import discord

from bot.commands import run as commands_text
from bot.domain.errors import DatabaseUnavailable, ServiceError
from bot.words.grammar import GrammarError, parse
from bot.words.text import DISCORD, Markup
from language import T
from rules.errors import RulesError

from . import PLATFORM, access, format
from .core import Fairy
from .replies import NO_PINGS, user_message
from .views import asked_first

log = logging.getLogger("bot.discord_bot")

MAX_LENGTH = 40
MESSAGE_CHARS = 2000  # Discord's limit on a message
CUT_NOTE = T("… (all of it in the file)")


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
    try:
        cmd = parse(text)
    except GrammarError:
        return False  # chat that starts with a command's word
    if cmd.name == "premove":  # lines typed in a thread are there for the opponent to read
        m = await _reader(fairy, message.author)
        await message.reply(m.tr("Conditional lines typed here can be read by your opponent: delete "
                                 "this message and use /premove, whose answers only you see."),
                            allowed_mentions=NO_PINGS)
        return True
    if cmd.name != "move":
        return await _command(fairy, message, cmd)
    gid = None
    try:
        fitting = await fairy.games_fitting(message.author, await fairy.links.games_in(message.channel.id), text)
        if len(fitting) > 1:
            m = await _reader(fairy, message.author)
            question = format.ambiguous_move(text, [v.id for v in fitting], how="typed")
            await message.reply(m.say(question), allowed_mentions=NO_PINGS)
            return False
        if not fitting:
            return False  # chat, or not a legal move in any of the author's games here
        view = fitting[0]
        gid = view.id
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
    except DatabaseUnavailable as e:  # nothing was done: typed again in a moment, it will be
        await message.reply(user_message(e, await _reader(fairy, message.author)), allowed_mentions=NO_PINGS)
    except Exception:  # a chat message must never crash the bot
        log.exception("handling a message in thread %s failed (game #%s)", message.channel.id, gid)
    return False


async def _command(fairy: Fairy, message: discord.Message, cmd) -> bool:
    """Run a typed command for its author in the one game of theirs here; answered."""
    try:
        me = await fairy.player(message.author)
        m = DISCORD.in_language(me.reads())
        mine = []
        for gid in await fairy.links.games_in(message.channel.id):
            view = await fairy.service.game(gid)
            if view.side_of(me.id) is not None:
                mine.append(view)
        if not mine:
            return False  # not a player here: chat
        if len(mine) > 1:
            mine = [v for v in mine if v.status == "active"] or mine[-1:]
        view = mine[0] if len(mine) == 1 else None
        ctx = commands_text.Context(fairy.service, me, m, view.id if view else None,
                                    find_player=lambda who: _mentioned(fairy, message, who),
                                    expected_ply=view.ply if view else None, computer=fairy.computer,
                                    scope=access.scope_of(message.guild.id))
        try:
            reply = await commands_text.execute(cmd, ctx)
        except GrammarError as e:  # what was wrong, and the usage
            await message.reply(e.said(m), allowed_mentions=NO_PINGS)
            return True
        except ServiceError as e:
            await message.reply(m.say(e.text), allowed_mentions=NO_PINGS)
            return True
        extra = {}
        if reply.attachment is not None:  # a long text (a review) as a file
            filename, body = reply.attachment
            extra["file"] = discord.File(io.BytesIO(body.encode("utf-8")), filename=filename)
        words = reply.text
        if len(words) > MESSAGE_CHARS and not extra:  # a long text (a big game's rules): all of it as a file
            extra["file"] = discord.File(io.BytesIO(words.encode("utf-8")), filename="fairypost-reply.md")
            cut = "\n" + m.say(CUT_NOTE)
            words = words[:MESSAGE_CHARS - len(cut)].rsplit("\n", 1)[0] + cut
        await message.reply(words[:MESSAGE_CHARS], allowed_mentions=NO_PINGS, **extra)
        if reply.changed and reply.game is not None:
            await fairy.post_board(reply.game)
        return True
    except Exception:  # a chat message must never crash the bot
        log.exception("handling a command in thread %s failed", message.channel.id)
    return False


async def _reader(fairy: Fairy, user) -> Markup:
    """A message's author's markup, in the language they read (a message has no locale)."""
    try:
        return DISCORD.in_language((await fairy.player(user)).reads())
    except Exception:  # noqa: BLE001 - the store is down: English
        return DISCORD


async def _mentioned(fairy: Fairy, message: discord.Message, who: str):
    """The Discord player a challenge names: a mention of someone in the message."""
    for user in message.mentions:
        if who in (f"<@{user.id}>", f"<@!{user.id}>") and not user.bot:
            return await fairy.service.player(PLATFORM, str(user.id), user.display_name)
    return None
