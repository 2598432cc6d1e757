"""A tournament's announcement on its server and its Join button: the text as the event is
now, the button (a DynamicItem, so a press works after a restart), and joining from it or
from ``/tournament join``. Both the commands and the event's news use it; it uses neither."""

from __future__ import annotations

import logging

import discord
from discord import ui

from bot.domain.errors import NotFound
from bot.tournaments.directors import may_see
from bot.words.text import DISCORD
from bot.words.tournament_text import tournament_line

from . import access
from .replies import NO_PINGS, send
from .shared import fairy_of
from .views import _Button

log = logging.getLogger("bot.discord_bot")

MESSAGE_CHARS = 2000


class JoinTournament(_Button, template=r"fp:tjoin:(\d+)"):
    """On a tournament's announcement: the one who presses it joins (told privately)."""

    action, label, style = "tjoin", "Join", discord.ButtonStyle.success

    async def run(self, interaction, fairy):
        (tid,) = self.ids
        await join_here(interaction, tid)


def join_view(tournament_id: int) -> ui.View:
    v = ui.View(timeout=None)
    v.add_item(JoinTournament(tournament_id))
    return v


async def here(interaction: discord.Interaction, tournament_id: int):
    """The event, if it is seen here: this server's, one not made on a server, or one the
    member plays in or directs (another server's events are not seen here by others)."""
    fairy = fairy_of(interaction)
    t = await fairy.service.tournament(tournament_id)
    me = await fairy.player(interaction.user)
    if not may_see(t, me.id, access.scope_of(interaction.guild_id)):
        raise NotFound(f"there is no tournament #{tournament_id} on this server")
    return fairy, t


async def join_here(interaction: discord.Interaction, tournament_id: int) -> None:
    """/tournament join, and the Join button of its announcement."""
    await enter_or_leave(interaction, tournament_id, join=True)


async def enter_or_leave(interaction: discord.Interaction, tournament_id: int, *, join: bool) -> None:
    """The member joins (or leaves) this server's event before it starts; its announcement
    follows."""
    fairy, t = await here(interaction, tournament_id)
    me = await fairy.player(interaction.user)
    if join:
        t = await fairy.service.join_tournament(t.id, me.id)
        await send(interaction, f"You are in {tournament_line(t, DISCORD)}")
    else:
        t = await fairy.service.leave_tournament(t.id, me.id)
        await send(interaction, f"You left {tournament_line(t, DISCORD)}")
    await refresh_announcement(fairy, t)


def announcement_text(t) -> str:
    """The event's announcement: its line (players and state as they are now), and how to
    join while it is open."""
    line = f"🏆 {tournament_line(t, DISCORD)}"
    if t.status != "open":
        return line + "\nIts rounds, results and final standings are posted in its thread."
    return (line + f"\nPress Join, or use `/tournament join {t.id}`. Its rounds, results and final "
            "standings are posted in its thread.")


async def refresh_announcement(fairy, t) -> None:
    """The announcement brought up to date (a player joined or left; once the event has
    begun, without its Join button, whose press would only be refused). Not there any more,
    or out of reach: left as it is."""
    place = await fairy.links.tournament_place(t.id)
    if place is None or not place.message_id:
        return
    try:
        channel = await fairy.channel(int(place.channel_id))
        await channel.get_partial_message(int(place.message_id)).edit(
            content=announcement_text(t)[:MESSAGE_CHARS], view=join_view(t.id) if t.status == "open" else None,
            allowed_mentions=NO_PINGS)
    except discord.HTTPException as e:
        log.info("could not bring tournament #%d's announcement up to date: %s", t.id, e)
