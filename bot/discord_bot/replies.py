"""Answering an interaction, and turning any error into a short private answer.

Refusals (``bot.domain.errors.ServiceError``, ``rules.RulesError``) are shown as they are; anything
else is logged with the game id (``interaction.extras['game_id']``, set by the handlers)
and answered with one line. Nothing a user types reaches the event loop as an exception.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.domain.errors import DatabaseUnavailable, ServiceError
from bot.words.text import DISCORD, Markup
from language import T
from rules.errors import RulesError

from .shared import reader_of

log = logging.getLogger("bot.discord_bot")

USER_ERRORS = (ServiceError, RulesError)

NO_PINGS = discord.AllowedMentions.none()


def pings(*user_ids) -> discord.AllowedMentions:
    """Only these users may be pinged by a post (never @everyone, a role, or anyone a
    name or a typed text mentions)."""
    if not user_ids:
        return NO_PINGS
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(int(u)) for u in user_ids])


def note_game(interaction: discord.Interaction, game_id: int | None) -> None:
    """Remember which game an interaction is about, for the log if it fails."""
    interaction.extras["game_id"] = game_id


def game_of(interaction: discord.Interaction) -> int | None:
    try:
        return interaction.extras.get("game_id")
    except Exception:  # noqa: BLE001
        return None


def _clean(kwargs: dict) -> dict:
    return {k: v for k, v in kwargs.items() if v is not None}


async def send(interaction: discord.Interaction, content: str | None = None, *,
               ephemeral: bool = True, **kwargs) -> None:
    """The first answer, or a follow-up once answered (or deferred); it pings no one."""
    kwargs = {"allowed_mentions": NO_PINGS, **_clean(kwargs)}
    if content is not None:
        kwargs["content"] = content[:2000]
    if interaction.response.is_done():
        await interaction.followup.send(ephemeral=ephemeral, **kwargs)
    else:
        await interaction.response.send_message(ephemeral=ephemeral, **kwargs)


async def defer(interaction: discord.Interaction, *, ephemeral: bool = True) -> None:
    """Say "working on it" (images and notices may take longer than Discord's 3 seconds)."""
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)


def _unwrap(error: BaseException) -> BaseException:
    if isinstance(error, app_commands.CommandInvokeError):
        return error.original
    return error


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def user_message(error: BaseException, m: Markup = DISCORD) -> str | None:
    """The answer to an error a user caused, in the reader's language (``m``); None for a bug."""
    if isinstance(error, DatabaseUnavailable):  # nothing was done: the same again in a moment
        return _capital(m.lang.say(getattr(error, "text", None) or str(error))) + "."
    if isinstance(error, USER_ERRORS):  # may quote what the user typed: its values made literal
        text = m.say(getattr(error, "text", None) or str(error) or T("that cannot be done"))
        return _capital(text)
    if isinstance(error, app_commands.NoPrivateMessage):
        return m.tr("That works only in a server channel.")
    if isinstance(error, app_commands.TransformerError):
        return m.tr("{value} is not a valid {kind}.", value=m.escape(repr(error.value)),
                    kind=error.type.name.lower())
    if isinstance(error, app_commands.CommandOnCooldown):
        return m.trn("Slow down: try again in {n} second.", "Slow down: try again in {n} seconds.",
                     round(error.retry_after))
    if isinstance(error, app_commands.CheckFailure):
        return m.tr("You cannot use that here.")
    return None


async def report(interaction: discord.Interaction, error: BaseException) -> None:
    """Answer an error privately, in the asker's language; log it if it is a bug."""
    error = _unwrap(error)
    m = reader_of(interaction)
    text = user_message(error, m)
    if text is None:
        gid = game_of(interaction)
        log.error("unexpected error in %s%s", _what(interaction), f" (game #{gid})" if gid else "",
                  exc_info=error)
        text = (m.tr("Sorry, something went wrong (game #{game}). It has been logged; please try again.", game=gid)
                if gid else m.tr("Sorry, something went wrong. It has been logged; please try again."))
    try:
        await send(interaction, text, ephemeral=True)
    except Exception:  # the interaction may have expired: nothing more to do
        log.warning("could not answer %s with %r", _what(interaction), text, exc_info=True)


def _what(interaction: discord.Interaction) -> str:
    try:
        cmd = interaction.command
        if cmd is not None:
            return f"/{cmd.qualified_name}"
        data = interaction.data or {}
        return f"component {data.get('custom_id', '?')}"
    except Exception:  # noqa: BLE001
        return "interaction"
