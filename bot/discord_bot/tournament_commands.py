"""``/tournament create|join|leave|withdraw|list|standings`` and the directors' ``/tournament
start|pause|resume|close|remove|result|replace|extend|director``: the service's tournaments on
Discord. An event made on a server is that server's (its scope); its directors are its maker
and those named (``/tournament director``), and a member who may manage that server
(Discord's Manage Server permission) acts on it too. An event made in a DM, or at the
owner's command line, is never a server manager's (bot/tournaments/directors.py). Its
announcement carries a Join button (tournament_join.py), and a thread opened under it gets
the event's news (tournament_news.py)."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.app_commands import Range, locale_str

from bot.domain.errors import SettingsError
from bot.identity.links import tournament_link_line
from bot.words.text import DISCORD
from bot.words.tournament_text import tournament_line, tournament_text
from language.text import T

from . import access, format, images
from .commands import DAY_CHOICES, game_option, known_game, tournament
from .replies import NO_PINGS, defer, send
from .shared import fairy_of
from .tournament_join import announcement_text, enter_or_leave, join_here, join_view, reader_markup, server_markup
from .tournament_join import here as _here

log = logging.getLogger("bot.discord_bot")

WITHDRAWAL_CHOICES = [
    app_commands.Choice(name=locale_str("ICCF: under half played, all cancelled; else the unplayed lost"),
                        value="iccf"),
    app_commands.Choice(name=locale_str("played results always stand, the unplayed lost"), value="keep"),
    app_commands.Choice(name=locale_str("all their results always cancelled"), value="cancel")]
_ID = locale_str("the tournament's number")
_GAME = locale_str("the game's number")
FORMAT_CHOICES = [app_commands.Choice(name=locale_str("round robin (all play all)"), value="round-robin"),
                  app_commands.Choice(name=locale_str("Swiss (a number of rounds)"), value="swiss")]



def _manages(interaction: discord.Interaction) -> str | None:
    """The server (scope) the member may manage here (Manage Server); None in a DM or without it."""
    perms = getattr(interaction.user, "guild_permissions", None)
    if interaction.guild_id is None or not (perms and perms.manage_guild):
        return None
    return access.scope_of(interaction.guild_id)


@tournament.command(name="create", description=locale_str("Make a tournament that players here can join"))
@app_commands.describe(game=locale_str("which game"), name=locale_str("the tournament's name"),
                       format=locale_str("round robin or Swiss"),
                       rounds=locale_str("a Swiss's number of rounds"), days=locale_str("days per move"),
                       double=locale_str("a round robin played twice, colours swapped"),
                       rated=locale_str("rated games"),
                       max_players=locale_str("at most this many players"),
                       withdrawals=locale_str("a player who leaves a round robin: ICCF's rule (default), or always"),
                       timeouts=locale_str("games lost on time that withdraw a player (default 3; 0: never)"),
                       round_days=locale_str("a Swiss round's deadline, in days: its directors are told of the games "
                                             "left"),
                       adjudicate=locale_str("with round_days: the games left at a round's deadline are adjudicated by "
                                             "the engine"))
@app_commands.choices(format=FORMAT_CHOICES, days=DAY_CHOICES, withdrawals=WITHDRAWAL_CHOICES)
@game_option
async def create(interaction: discord.Interaction, game: str, name: Range[str, 1, 80], format: str,
                 rounds: Range[int, 1, 50] | None = None, days: int | None = None, double: bool = False,
                 rated: bool = False, max_players: Range[int, 2, 1000] | None = None,
                 withdrawals: str = "iccf", timeouts: Range[int, 0, 50] = 3,
                 round_days: Range[int, 1, 365] | None = None, adjudicate: bool = False) -> None:
    fairy = fairy_of(interaction)
    if interaction.guild_id is None:  # Discord keeps the group to servers; this, if it did not
        raise SettingsError(T("tournaments are made on a server, where its members can join them"))
    me = await fairy.player(interaction.user)
    await fairy.service.budget_lookup(me.id)
    t = await fairy.service.create_tournament(
        known_game(game), name=name, format=format, rounds=rounds, days=days, double=double,
        rated=rated, max_players=max_players, creator_id=me.id,
        scope=access.scope_of(interaction.guild_id), withdrawal=withdrawals, timeouts=timeouts,
        round_days=round_days, adjudicate=adjudicate)
    m = server_markup(getattr(interaction, "guild", None))
    await send(interaction, announcement_text(t, m), ephemeral=False, view=join_view(t.id, m))
    await _open_news_thread(interaction, fairy, t, m)


async def _open_news_thread(interaction: discord.Interaction, fairy, t, m=DISCORD) -> None:
    """The thread of the event's news, under its announcement (where none can be opened,
    no permission or the command was used in a thread: the channel itself)."""
    message = await interaction.original_response()
    channel = interaction.channel
    try:
        news = await message.create_thread(name=f"🏆 {t.name}"[:100], auto_archive_duration=10080)
    except (discord.HTTPException, AttributeError, TypeError) as e:
        log.info("no thread for tournament #%d's news (%s): they go to channel %s", t.id, e,
                 interaction.channel_id)
        news = channel
    else:
        await news.send(content=m.tr("The news of tournament #{id} {name}: its rounds, each result, the final "
                                     "standings.", id=t.id, name=m.bold(t.name)), allowed_mentions=NO_PINGS)
    await fairy.links.set_tournament_place(t.id, interaction.guild_id, interaction.channel_id,
                                           message.id, news.id)


async def _organise(interaction: discord.Interaction, tournament_id: int, act: str, *args):
    """A director's act (the service's ``act``) on an event seen here, by the member; the
    service refuses anyone but its directors and the managers of the server it was made on.
    The event after it, and the markup of the member's language."""
    fairy, t = await _here(interaction, tournament_id)
    me = await fairy.player(interaction.user)
    t = await getattr(fairy.service, act)(t.id, *args, me.id, manager_of=_manages(interaction))
    return t, reader_markup(interaction, me)


@tournament.command(name="join", description=locale_str("Join a tournament before it starts"))
@app_commands.describe(id=_ID)
async def join(interaction: discord.Interaction, id: int) -> None:
    await join_here(interaction, id)


@tournament.command(name="leave", description=locale_str("Leave a tournament before it starts"))
@app_commands.describe(id=_ID)
async def leave(interaction: discord.Interaction, id: int) -> None:
    await enter_or_leave(interaction, id, join=False)


@tournament.command(name="start", description=locale_str("Start a tournament (its organiser, or a server manager)"))
@app_commands.describe(id=_ID)
async def start(interaction: discord.Interaction, id: int) -> None:
    t, m = await _organise(interaction, id, "start_tournament")
    games = sum(1 for p in t.pairings if p.game_id is not None)
    await send(interaction, m.trn("Started {event}: {n} game begun.", "Started {event}: {n} games begun.", games,
                                  event=tournament_line(t, m)), ephemeral=False)


@tournament.command(name="pause", description=locale_str("No new round starts until it is resumed (its organiser)"))
@app_commands.describe(id=_ID)
async def pause(interaction: discord.Interaction, id: int) -> None:
    t, m = await _organise(interaction, id, "pause_tournament")
    command = f"`/tournament resume {t.id}`"
    await send(interaction, m.tr("Paused {event}: no new round starts until {command}.", event=tournament_line(t, m),
                                 command=command), ephemeral=False)


@tournament.command(name="resume", description=locale_str("Go on with a paused tournament (its organiser)"))
@app_commands.describe(id=_ID)
async def resume(interaction: discord.Interaction, id: int) -> None:
    t, m = await _organise(interaction, id, "resume_tournament")
    await send(interaction, m.tr("Resumed {event}", event=tournament_line(t, m)), ephemeral=False)


@tournament.command(name="remove",
                    description=locale_str("Take a player out: their games still going are lost (its organiser)"))
@app_commands.describe(id=_ID, player=locale_str("the player to take out"))
async def remove(interaction: discord.Interaction, id: int, player: discord.Member) -> None:
    them = await fairy_of(interaction).player(player)
    t, m = await _organise(interaction, id, "remove_from_tournament", them.id)
    await send(interaction, m.tr("Took {player} out of {event}", player=m.bold(them.name), event=tournament_line(t, m)),
               ephemeral=False)


@tournament.command(name="withdraw",
                    description=locale_str("Leave a tournament under way: your games still going are lost"))
@app_commands.describe(id=_ID)
async def withdraw(interaction: discord.Interaction, id: int) -> None:
    fairy, t = await _here(interaction, id)
    me = await fairy.player(interaction.user)
    t = await fairy.service.withdraw_from_tournament(t.id, me.id)
    m = reader_markup(interaction, me)
    await send(interaction, m.tr("You withdrew from {event}", event=tournament_line(t, m)), ephemeral=False)


@tournament.command(name="close",
                    description=locale_str("End a tournament now: called off if not begun (its directors)"))
@app_commands.describe(id=_ID)
async def close(interaction: discord.Interaction, id: int) -> None:
    t, m = await _organise(interaction, id, "close_tournament")
    await send(interaction, m.tr("Closed {event}", event=tournament_line(t, m)), ephemeral=False)


RESULT_CHOICES = [app_commands.Choice(name=r, value=r) for r in ("1-0", "0-1", "1/2-1/2", "+/-", "-/+")]


@tournament.command(name="result",
                    description=locale_str("Decide a game's result: adjudication or forfeit (its directors)"))
@app_commands.describe(id=_ID, game=_GAME, result=locale_str("the result"),
                       reason=locale_str("why (shown with the result and your name)"))
@app_commands.choices(result=RESULT_CHOICES)
async def result(interaction: discord.Interaction, id: int, game: int, result: str,
                 reason: Range[str, 1, 200]) -> None:
    t, m = await _organise(interaction, id, "set_tournament_result", game, result, reason)
    await send(interaction, m.tr("Game #{game} of {event}: {result} ({reason})", game=game, event=tournament_line(t, m),
                                 result=result, reason=format.safe(" ".join(reason.split()))),
               ephemeral=False)


@tournament.command(name="replace",
                    description=locale_str("Put a player in another's place before their first move (its directors)"))
@app_commands.describe(id=_ID, old=locale_str("the player to replace"),
                       new=locale_str("who takes their place"))
async def replace(interaction: discord.Interaction, id: int, old: discord.Member, new: discord.Member) -> None:
    fairy = fairy_of(interaction)
    them, newcomer = await fairy.player(old), await fairy.player(new)
    t, m = await _organise(interaction, id, "replace_in_tournament", them.id, newcomer.id)
    await send(interaction, m.tr("{new} takes {old}'s place in {event}", new=m.bold(newcomer.name),
                                 old=m.bold(them.name), event=tournament_line(t, m)), ephemeral=False)


@tournament.command(name="extend", description=locale_str("Give a game's player to move more days (its directors)"))
@app_commands.describe(id=_ID, game=_GAME, days=locale_str("how many more days"))
async def extend(interaction: discord.Interaction, id: int, game: int, days: Range[int, 1, 60]) -> None:
    t, m = await _organise(interaction, id, "extend_tournament_game", game, days)
    said = m.trn("Game #{game} of {event} has {n} more day.", "Game #{game} of {event} has {n} more days.", days,
                 game=game, event=tournament_line(t, m))
    await send(interaction, said, ephemeral=False)


@tournament.command(name="director", description=locale_str("Name or remove a director (the event's maker)"))
@app_commands.describe(id=_ID, action=locale_str("add or remove"), player=locale_str("the player"))
@app_commands.choices(action=[app_commands.Choice(name=locale_str("add"), value="add"),
                              app_commands.Choice(name=locale_str("remove"), value="remove")])
async def director(interaction: discord.Interaction, id: int, action: str, player: discord.Member) -> None:
    fairy, t = await _here(interaction, id)
    me, them = await fairy.player(interaction.user), await fairy.player(player)
    change = fairy.service.add_tournament_director if action == "add" else fairy.service.remove_tournament_director
    t = await change(t.id, them.id, me.id)
    m = reader_markup(interaction, me)
    names = ", ".join(m.bold(d.name) for d in t.directors) or m.tr("none but the server owner")
    await send(interaction, m.tr("The directors of {event}: {names}", event=tournament_line(t, m), names=names),
               ephemeral=False)


@tournament.command(name="list", description=locale_str("The tournaments you can see here"))
async def list_(interaction: discord.Interaction) -> None:
    fairy = fairy_of(interaction)
    me = await fairy.player(interaction.user)
    await fairy.service.budget_read(me.id)
    seen = await fairy.service.listed_tournaments(me.id, access.scope_of(interaction.guild_id),
                                                 include_finished=False)
    m = reader_markup(interaction, me)
    lines = [tournament_line(t, m) for t in seen] or [m.tr("No tournaments here yet.")]
    await send(interaction, "\n".join(lines)[:2000])


@tournament.command(name="standings", description=locale_str("A tournament's standings, games and results"))
@app_commands.describe(id=_ID)
async def standings(interaction: discord.Interaction, id: int) -> None:
    fairy, t = await _here(interaction, id)
    me = await fairy.player(interaction.user)
    await fairy.service.budget_read(me.id)
    m = reader_markup(interaction, me)
    page = tournament_link_line(fairy.service.settings, t.id, lang=m.lang)  # with FAIRYPOST_WEB_URL set
    await defer(interaction)  # the picture may take longer than Discord's 3 seconds
    picture = await images.crosstable_file(t)
    await send(interaction, tournament_text(t, m) + (f"\n{page}" if page else ""),
               **({"file": picture} if picture else {}))
