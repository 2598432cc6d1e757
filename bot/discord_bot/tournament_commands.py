"""``/tournament create|join|leave|start|standings``: the service's tournaments on a Discord
server. An event made on a server is that server's (its scope); its organiser is the one
who made it, or a member who may manage the server (Discord's Manage Server permission)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import Range

from bot.words.text import DISCORD
from bot.words.tournament_text import tournament_line, tournament_text

from . import access
from .commands import DAY_CHOICES, game_option, known_game
from .replies import send
from .shared import fairy_of

FORMAT_CHOICES = [app_commands.Choice(name="round robin (all play all)", value="round-robin"),
                  app_commands.Choice(name="Swiss (a number of rounds)", value="swiss")]

tournament = app_commands.Group(name="tournament", description="Tournaments: round robins and Swiss events",
                                guild_only=True)


def _manages(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_guild)


@tournament.command(name="create", description="Make a tournament that players here can join")
@app_commands.describe(game="which game", name="the tournament's name", format="round robin or Swiss",
                       rounds="a Swiss's number of rounds", days="days per move",
                       double="a round robin played twice, colours swapped", rated="rated games",
                       max_players="at most this many players")
@app_commands.choices(format=FORMAT_CHOICES, days=DAY_CHOICES)
@game_option
async def create(interaction: discord.Interaction, game: str, name: Range[str, 1, 80], format: str,
                 rounds: Range[int, 1, 50] | None = None, days: int | None = None, double: bool = False,
                 rated: bool = False, max_players: Range[int, 2, 1000] | None = None) -> None:
    fairy = fairy_of(interaction)
    me = await fairy.player(interaction.user)
    await fairy.service.budget_lookup(me.id)
    t = await fairy.service.create_tournament(
        known_game(game), name=name, format=format, rounds=rounds, days=days, double=double,
        rated=rated, max_players=max_players, creator_id=me.id,
        scope=access.scope_of(interaction.guild_id))
    await send(interaction, f"Made {tournament_line(t, DISCORD)}\nJoin with `/tournament join {t.id}`.",
               ephemeral=False)


async def _here(interaction: discord.Interaction, tournament_id: int):
    """The event, if it is this server's (another server's events are not seen here)."""
    fairy = fairy_of(interaction)
    t = await fairy.service.tournament(tournament_id)
    if t.scope is not None and t.scope != access.scope_of(interaction.guild_id):
        from bot.errors import NotFound
        raise NotFound(f"there is no tournament #{tournament_id} on this server")
    return fairy, t


@tournament.command(name="join", description="Join a tournament before it starts")
@app_commands.describe(id="the tournament's number")
async def join(interaction: discord.Interaction, id: int) -> None:
    fairy, t = await _here(interaction, id)
    me = await fairy.player(interaction.user)
    t = await fairy.service.join_tournament(t.id, me.id)
    await send(interaction, f"You are in {tournament_line(t, DISCORD)}")


@tournament.command(name="leave", description="Leave a tournament before it starts")
@app_commands.describe(id="the tournament's number")
async def leave(interaction: discord.Interaction, id: int) -> None:
    fairy, t = await _here(interaction, id)
    me = await fairy.player(interaction.user)
    t = await fairy.service.leave_tournament(t.id, me.id)
    await send(interaction, f"You left {tournament_line(t, DISCORD)}")


@tournament.command(name="start", description="Start a tournament (its organiser, or a server manager)")
@app_commands.describe(id="the tournament's number")
async def start(interaction: discord.Interaction, id: int) -> None:
    fairy, t = await _here(interaction, id)
    me = await fairy.player(interaction.user)
    t = await fairy.service.start_tournament(t.id, me.id, manager=_manages(interaction))
    games = sum(1 for p in t.pairings if p.game_id is not None)
    await send(interaction, f"Started {tournament_line(t, DISCORD)}: {games} games begun.", ephemeral=False)


@tournament.command(name="standings", description="A tournament's standings, games and results")
@app_commands.describe(id="the tournament's number")
async def standings(interaction: discord.Interaction, id: int) -> None:
    fairy, t = await _here(interaction, id)
    me = await fairy.player(interaction.user)
    await fairy.service.budget_read(me.id)
    await send(interaction, tournament_text(t, DISCORD))
