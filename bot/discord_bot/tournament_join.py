"""A tournament's announcement on its server and its Join button: the text as the event is
now, the button (a DynamicItem, so a press works after a restart), and joining from it or
from ``/tournament join``. Both the commands and the event's news use it; it uses neither."""

from __future__ import annotations

import logging

import discord
from discord import ui

from bot.domain.errors import NotFound
from bot.tournaments.directors import may_see
from bot.words.text import DISCORD, Markup
from bot.words.tournament_text import tournament_line
from language.choosing import from_discord_locale
from language.text import T

from . import access
from .replies import NO_PINGS, send
from .shared import fairy_of
from .views import _Button

log = logging.getLogger("bot.discord_bot")

MESSAGE_CHARS = 2000


class JoinTournament(_Button, template=r"fp:tjoin:(\d+)"):
    """On a tournament's announcement: the one who presses it joins (told privately)."""

    action, label, style = "tjoin", "Join", discord.ButtonStyle.success  # label: join_view's, per reader

    async def run(self, interaction, fairy):
        (tid,) = self.ids
        await join_here(interaction, tid)


def join_view(tournament_id: int, m: Markup = DISCORD) -> ui.View:
    """The announcement's Join button, labelled in ``m``'s language."""
    v = ui.View(timeout=None)
    button = JoinTournament(tournament_id)
    button.item.label = m.tr("Join")
    v.add_item(button)
    return v


def reader_markup(interaction: discord.Interaction, player) -> Markup:
    """Discord's markup in the language of the member who used the command or button (their
    choice, else their Discord's language)."""
    return DISCORD.in_language(player.reads(from_discord_locale(getattr(interaction, "locale", None))))


def server_markup(guild) -> Markup:
    """Discord's markup in a server's language (a message all its members read: an event's
    announcement and news)."""
    return DISCORD.in_language(from_discord_locale(getattr(guild, "preferred_locale", None)))


async def here(interaction: discord.Interaction, tournament_id: int):
    """The event, if it is seen here: this server's, one not made on a server, or one the
    member plays in or directs (another server's events are not seen here by others)."""
    fairy = fairy_of(interaction)
    t = await fairy.service.tournament(tournament_id)
    me = await fairy.player(interaction.user)
    if not may_see(t, me.id, access.scope_of(interaction.guild_id)):
        raise NotFound(T("there is no tournament #{id} on this server", id=tournament_id))
    return fairy, t


async def join_here(interaction: discord.Interaction, tournament_id: int) -> None:
    """/tournament join, and the Join button of its announcement."""
    await enter_or_leave(interaction, tournament_id, join=True)


async def enter_or_leave(interaction: discord.Interaction, tournament_id: int, *, join: bool) -> None:
    """The member joins (or leaves) this server's event before it starts; its announcement
    follows."""
    fairy, t = await here(interaction, tournament_id)
    me = await fairy.player(interaction.user)
    m = reader_markup(interaction, me)
    if join:
        t = await fairy.service.join_tournament(t.id, me.id)
        await send(interaction, m.tr("You are in {event}", event=tournament_line(t, m)))
    else:
        t = await fairy.service.leave_tournament(t.id, me.id)
        await send(interaction, m.tr("You left {event}", event=tournament_line(t, m)))
    await refresh_announcement(fairy, t)


def announcement_text(t, m: Markup = DISCORD) -> str:
    """The event's announcement: its line (players and state as they are now), and how to
    join while it is open."""
    line = f"🏆 {tournament_line(t, m)}"
    if t.status != "open":
        return line + "\n" + m.tr("Its rounds, results and final standings are posted in its thread.")
    return line + "\n" + m.tr("Press {join}, or use {command}. Its rounds, results and final standings are "
                              "posted in its thread.", join=m.tr("Join"), command=f"`/tournament join {t.id}`")


async def refresh_announcement(fairy, t) -> None:
    """The announcement brought up to date (a player joined or left; once the event has
    begun, without its Join button, whose press would only be refused). Not there any more,
    or out of reach: left as it is."""
    place = await fairy.links.tournament_place(t.id)
    if place is None or not place.message_id:
        return
    try:
        channel = await fairy.channel(int(place.channel_id))
        m = server_markup(getattr(channel, "guild", None))
        await channel.get_partial_message(int(place.message_id)).edit(
            content=announcement_text(t, m)[:MESSAGE_CHARS], view=join_view(t.id, m) if t.status == "open" else None,
            allowed_mentions=NO_PINGS)
    except discord.HTTPException as e:
        log.info("could not bring tournament #%d's announcement up to date: %s", t.id, e)
