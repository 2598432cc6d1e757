"""The slash commands. Each one: who is asking, which game, one service call, an answer.

Answers are private (ephemeral) except what others should see: a challenge, and the
boards posted in a game's thread. ``add_commands(tree)`` puts them on a command tree.
"""

from __future__ import annotations

import asyncio
import io
import logging
import zoneinfo
from functools import lru_cache

import discord
from discord import app_commands
from discord.app_commands import Choice, Range, locale_str

import rules
from bot.computer import player as comp
from bot.domain.errors import GameOver, ServiceError, SettingsError
from bot.identity.links import link_suffix
from bot.operations.replays import game_gif
from bot.words.text import DISCORD, Markup, challenges_text
from language import T, Tn, language_names

from . import access, format, images, suggest, waiting
from .core import board_flip, fairy_of, lookup_game
from .rating_commands import ratings_embed
from .replies import defer, note_game, pings, send
from .threads import NotifyPref
from .views import ask_resign, challenge_view, piece_moves_text

log = logging.getLogger("bot.discord_bot")

#: Discord's limit on an option's fixed choices (and on an embed's fields).
MAX_CHOICES = 25
GAME_CHOICES = [Choice(name=locale_str(format.game_name(g), data=True), value=g)
                for g in rules.variants()][:MAX_CHOICES]


def _per_move(days: int) -> Choice[int]:
    text = Tn("{n} day per move", "{n} days per move", days)
    return Choice(name=locale_str(str(text), text=text), value=days)


DAY_CHOICES = [_per_move(d) for d in (1, 2, 3, 5, 7, 10, 14)] + [Choice(name=locale_str("no clock"), value=0)]
COLOUR_CHOICES = [Choice(name=locale_str("random"), value="random"),
                  Choice(name=locale_str("white (moves first)"), value="white"),
                  Choice(name=locale_str("black"), value="black")]
SETUP_CHOICES = [Choice(name=locale_str("the usual start"), value="default"),
                 Choice(name=locale_str("the players make the set-up (games that have one)"), value="players")]
GAME_OPTION = locale_str("the game's number, like 12 (not needed in the game's thread or if you have one game)")


# --- autocomplete -----------------------------------------------------------------------

MAX_TYPED = 100  # characters of a typed option an autocomplete reads (a choice's value holds 100)


def _typed(current) -> str:
    """What is typed in an option, as far as a suggestion can use it: Discord sends up to 6,000
    characters, and nothing longer than a choice's value can be suggested anyway."""
    return str(current or "")[:MAX_TYPED]


def _hint(text: str, value: str) -> list[Choice[str]]:
    return [Choice(name=text[:100], value=(value or "?")[:100])]


async def move_autocomplete(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """The legal moves in SAN matching what has been typed, best first, at most 25."""
    current = _typed(current)
    try:
        fairy = fairy_of(interaction)
        me, m = await fairy.me(interaction)
        if not await fairy.service.budget_lookup(me.id):
            return _hint(m.tr("Slow down: too many lookups; try again in a moment"), current)
        try:
            gid = await fairy.resolve_game(interaction, me, getattr(interaction.namespace, "game", None),
                                           my_move=True)
            gv = await fairy.service.game(gid)
        except ServiceError as e:
            return _hint(m.lang.say(e.text), current)
        side = gv.side_of(me.id)
        if gv.status != "active":
            return _hint(m.tr("Game #{game} is over", game=gid), current)
        if side is not None and gv.turn != side:
            return _hint(m.tr("Not your move: {name} is to move in game #{game}", name=gv.to_move.name, game=gid),
                         current)
        pos = await fairy.position(gv)
        found = await asyncio.to_thread(suggest.suggest_moves, pos, current, lang=m.lang)  # every SAN: not on the loop
        return [Choice(name=n, value=v) for n, v in found]
    except Exception:  # autocomplete must never fail loudly
        log.exception("move autocomplete failed")
        return []


async def game_autocomplete(interaction: discord.Interaction, current: str) -> list[Choice[int]]:
    """The player's games, most urgent first (finished ones too, for /record, /board, /review)."""
    try:
        fairy = fairy_of(interaction)
        me, m = await fairy.me(interaction)
        if not await fairy.service.budget_lookup(me.id):
            return []
        finished = (interaction.command is not None
                    and interaction.command.name in ("record", "board", "review", "replay"))
        games = await fairy.service.list_games(me.id, include_finished=finished)
        t = _typed(current).strip().lstrip("#").lower()
        if t.isdigit():
            games = [s for s in games if str(s.id).startswith(t)]
        elif t:
            games = [s for s in games if t in format.game_choice_name(s, lang=m.lang).lower()]
        out = [Choice(name=format.game_choice_name(s, lang=m.lang), value=s.id) for s in games]
        return out[:25]
    except Exception:
        log.exception("game autocomplete failed")
        return []


async def piece_square_autocomplete(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """Pieces of the side to move that have legal moves."""
    current = _typed(current)
    try:
        found = await lookup_game(interaction)
        if found is None or found[2].status != "active":
            return []
        fairy, _, gv = found
        m = await _asker(interaction)
        found = await asyncio.to_thread(suggest.suggest_pieces, await fairy.position(gv), current, lang=m.lang)
        return [Choice(name=n, value=v) for n, v in found]
    except Exception:  # noqa: BLE001
        return []


async def piece_name_autocomplete(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """A game's pieces; with no game chosen (and none here), every game's."""
    current = _typed(current)
    try:
        game = getattr(interaction.namespace, "game", None) or await _thread_variant(interaction)
        if game:
            return [Choice(name=n, value=v) for n, v in suggest.suggest_game_pieces(game, current)]
        out = []
        for g in rules.variants():
            for n, key in suggest.suggest_game_pieces(g, current):
                out.append(Choice(name=f"{n}, {format.game_name(g)}"[:100], value=f"{g}:{key}"))
        return out[:25]
    except Exception:  # noqa: BLE001
        return []


async def variant_autocomplete(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """The games whose name or id holds what has been typed (when they are too many for
    Discord's fixed list: a server's own variants added to the built-in ones)."""
    typed = _typed(current).casefold().strip()
    return [Choice(name=format.game_name(g)[:100], value=g) for g in rules.variants()
            if typed in g or typed in format.game_name(g).casefold()][:MAX_CHOICES]


async def _asker(interaction: discord.Interaction) -> Markup:
    """The asker's markup, for the commands that need no player but answer in their language."""
    return (await fairy_of(interaction).me(interaction))[1]


def game_option(cmd):
    """The `game` option: a fixed list while Discord's 25 choices hold every game, else
    typed with suggestions (what is typed is then checked by known_game)."""
    if len(rules.variants()) <= MAX_CHOICES:
        return app_commands.choices(game=GAME_CHOICES)(cmd)
    return app_commands.autocomplete(game=variant_autocomplete)(cmd)


def known_game(game: str) -> str:
    if game not in rules.variants():
        raise ServiceError(T("there is no game {game}; start typing a game's name and choose it from the list",
                             game=repr(game[:40])))
    return game


@lru_cache(maxsize=1)
def _zones() -> tuple[str, ...]:
    return tuple(sorted(zoneinfo.available_timezones()))


async def timezone_autocomplete(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    t = _typed(current).strip().lower().replace(" ", "_")
    zones = _zones()
    hits = [z for z in zones if z.lower().startswith(t)] + [z for z in zones if t and t in z.lower()
                                                            and not z.lower().startswith(t)]
    return [Choice(name=z, value=z) for z in hits[:25]]


async def _thread_variant(interaction: discord.Interaction) -> str | None:
    if interaction.channel_id is None:
        return None
    fairy = fairy_of(interaction)
    games = await fairy.links.games_in(interaction.channel_id)
    if not games:
        return None
    return (await fairy.service.game(games[-1])).game


# --- playing ------------------------------------------------------------------------------

@app_commands.command(
    description=locale_str("Challenge someone (or anyone, or the computer) to a game"))
@app_commands.describe(game=locale_str("which game to play"),
                       opponent=locale_str("who to challenge (this bot: the computer); "
                                           "leave out for an open challenge"),
                       days=locale_str("time allowed for each move (yours: the computer answers at once)"),
                       colour=locale_str("the side you want"),
                       setup=locale_str("games with a set-up phase: the players place their own pieces first"),
                       computer=locale_str("play the computer: it accepts at once and answers each move"),
                       level=locale_str("the computer's level, 1 (beginner) to 5 (strongest); default 3"),
                       rated=locale_str("a rated game (the default between people) or casual (False); "
                                        "never rated against the computer"))
@app_commands.choices(days=DAY_CHOICES, colour=COLOUR_CHOICES, setup=SETUP_CHOICES)
@game_option
@app_commands.guild_only()
async def challenge(interaction: discord.Interaction, game: str, opponent: discord.Member | None = None,
                    days: int | None = None, colour: str = "random", setup: str = "default",
                    computer: bool = False, level: Range[int, 1, 5] | None = None,
                    rated: bool | None = None) -> None:
    fairy = fairy_of(interaction)
    me, m = await fairy.me(interaction)
    kwargs = {} if days is None else {"days": days or None}
    if rated is not None:
        kwargs["rated"] = rated
    bot_user = interaction.client.user
    if computer or level is not None or (opponent is not None and bot_user is not None
                                         and opponent.id == bot_user.id):
        if opponent is not None and (bot_user is None or opponent.id != bot_user.id):
            raise ServiceError(T("a game is against a person or against the computer, not both: "
                                 "leave out the opponent, or the computer option"))
        await _challenge_computer(interaction, fairy, me, m, game, level or comp.DEFAULT_LEVEL,
                                  colour=colour, setup=setup, **kwargs)
        return
    them = None
    if opponent is not None:
        if opponent.bot:
            raise ServiceError(T("bots do not play here: challenge a person, the computer "
                                 "(this bot, or the computer option), or leave the opponent out"))
        them = await fairy.player(opponent)
    async with fairy.service.outbox.held():  # the opponent's notice only once this is answered
        c = await fairy.service.challenge(me.id, game, opponent_id=them.id if them else None,
                                          colour=colour, setup=setup,
                                          scope=access.scope_of(interaction.guild_id), **kwargs)
        await interaction.response.send_message(
            format.challenge_text(c, opponent.mention if opponent is not None else None, m=m),
            view=challenge_view(c.id, m=m), allowed_mentions=pings(*([opponent.id] if opponent is not None else ())))
    msg = await interaction.original_response()
    await fairy.links.set_challenge_message(c.id, interaction.guild_id, interaction.channel_id, msg.id)
    await fairy.links.remember_offer_message("challenge", c.id, str(interaction.channel_id), msg.id)


async def _challenge_computer(interaction: discord.Interaction, fairy, me, m: Markup, game: str, level: int,
                              **options) -> None:
    """A challenge to the computer, accepted by it at once; the game's thread opens here."""
    computer = _computer(fairy)
    cpu, c = await comp.challenge_computer(fairy.service, me.id, game, level,
                                           scope=access.scope_of(interaction.guild_id), **options)
    if c.game_id is None:
        raise ServiceError(T("the computer did not take up challenge #{challenge} ({status})", challenge=c.id,
                             status=c.status))
    note_game(interaction, c.game_id)
    async with computer.held(c.game_id):  # its first move (as White) comes after the thread
        text = format.challenge_text(c, m=m) + "\n✅ " + m.tr("Accepted by {name}: game #{game}.",
                                                                name=m.bold(cpu.name), game=c.game_id)
        await interaction.response.send_message(text, allowed_mentions=pings())
        msg = await interaction.original_response()
        await fairy.links.set_challenge_message(c.id, interaction.guild_id, interaction.channel_id, msg.id)
        await fairy.open_thread(await fairy.service.game(c.game_id), interaction.channel, msg)


def _computer(fairy) -> comp.Computer:
    if fairy.computer is None:
        raise ServiceError(T("the computer is not playing on this bot just now"))
    return fairy.computer


@app_commands.command(description=locale_str("The move the computer would play (only in games against the computer)"))
@app_commands.describe(game=GAME_OPTION)
@app_commands.autocomplete(game=game_autocomplete)
async def hint(interaction: discord.Interaction, game: int | None = None) -> None:
    fairy = fairy_of(interaction)
    me, m = await fairy.me(interaction)
    gid = await fairy.resolve_game(interaction, me, game, my_move=True)
    gv = await fairy.service.game(gid)
    comp.check_hint(gv, me.id)  # refused at once, before the thinking
    await defer(interaction)
    h = await _computer(fairy).hint(gv, me.id)
    await send(interaction, comp.hint_line(gid, h))


@app_commands.command(description=locale_str("After a game: each move's score swing, its blunders and best moves"))
@app_commands.describe(game=GAME_OPTION)
@app_commands.autocomplete(game=game_autocomplete)
async def review(interaction: discord.Interaction, game: int | None = None) -> None:
    fairy = fairy_of(interaction)
    me, m = await fairy.me(interaction)
    gid = await fairy.resolve_game(interaction, me, game, finished=True, spectate=True)
    gv = await fairy.visible_game(interaction, me, gid)
    comp.check_review(gv)
    computer = _computer(fairy)
    await defer(interaction)
    moves = await computer.review(gv)
    text = comp.review_text(gv, moves)
    file = discord.File(io.BytesIO(text.encode("utf-8")), filename=comp.review_file_name(gid))
    await send(interaction, comp.review_summary(gid, moves), file=file)


@app_commands.command(description=locale_str("Your game's web page: its link, and whether anyone may follow it"))
@app_commands.describe(public=locale_str("True: anyone with the plain link may follow the game; False: only "
                              "signed links (the default)"), game=GAME_OPTION)
@app_commands.autocomplete(game=game_autocomplete)
async def share(interaction: discord.Interaction, public: bool | None = None,
                game: int | None = None) -> None:
    fairy = fairy_of(interaction)
    settings = fairy.service.settings
    if not settings.web_url:
        raise ServiceError(T("this bot has no web pages (its owner has not set FAIRYPOST_WEB_URL)"))
    me, m = await fairy.me(interaction)
    gid = await fairy.resolve_game(interaction, me, game, finished=True)
    gv = await fairy.visible_game(interaction, me, gid)
    if gv.side_of(me.id) is None:
        raise ServiceError(T("only the players of game #{game} may share it", game=gid))
    if public is not None:
        await fairy.service.set_public(gid, public)
    if await fairy.service.is_public(gid):
        text = m.tr("Game #{game} is public: anyone may follow it at {link}", game=gid,
                    link=f"<{settings.web_url.rstrip('/')}/g/{gid}>")
    else:
        text = m.tr("Game #{game}'s page (a signed link; only those you give it to can follow the game):", game=gid)
        text += link_suffix(settings, gid)
    await send(interaction, text)


#: Discord's upload limit for a bot's file (bytes).
UPLOAD_LIMIT = 10 * 1024 * 1024


@app_commands.command(description=locale_str("A game as an animated picture, one frame per position"))
@app_commands.describe(game=GAME_OPTION)
@app_commands.autocomplete(game=game_autocomplete)
async def replay(interaction: discord.Interaction, game: int | None = None) -> None:
    fairy = fairy_of(interaction)
    me, m = await fairy.me(interaction)
    gid = await fairy.resolve_game(interaction, me, game, finished=True, spectate=True)
    gv = await fairy.visible_game(interaction, me, gid)
    await defer(interaction)  # drawing every position takes seconds (off the event loop)
    data = await game_gif(fairy.service, gid, flip=gv.side_of(me.id) == "b")
    if len(data) > UPLOAD_LIMIT:
        raise ServiceError(T("the replay of game #{game} is {size} MB, more than Discord takes; {command} on the "
                             "bot's machine writes it", game=gid, size=f"{len(data) / 1e6:.1f}",
                             command="`fairypost replay`"))
    file = discord.File(io.BytesIO(data), filename=f"fairypost-game-{gid}.gif")
    await send(interaction, m.trn("Game #{game}, {n} move.", "Game #{game}, {n} moves.", len(gv.moves), game=gid),
               file=file)


@app_commands.command(description=locale_str("Make your move (start typing: the legal moves are offered)"))
@app_commands.describe(move=locale_str("your move, like Nf3 or g1f3: pick one of the legal moves offered"),
                       game=GAME_OPTION)
@app_commands.autocomplete(move=move_autocomplete, game=game_autocomplete)
async def move(interaction: discord.Interaction, move: Range[str, 1, 40], game: int | None = None) -> None:
    fairy = fairy_of(interaction)
    me, m = await fairy.me(interaction)
    gid = await _game_for_move(fairy, interaction, me, game, move)
    if await waiting.asked_first(interaction, fairy, me, gid, move, typed=False):
        return
    await defer(interaction)
    r = await fairy.play(me.id, gid, move)
    text = ""
    link = await fairy.thread_link(gid)
    if link and interaction.channel_id is not None and str(interaction.channel_id) not in link:
        text += " " + m.tr("The board: {link}", link=link)
    await waiting.send_played(interaction, r, text)  # (its words: waiting's)


async def _game_for_move(fairy, interaction, me, game: int | None, text: str) -> int:
    """The game named; else, in a channel where several of the player's games are played,
    the one game where it is their move and ``text`` is legal (several: ask which)."""
    if game is None and interaction.channel_id is not None:
        here = await fairy.links.games_in(interaction.channel_id)
        fitting = await fairy.games_fitting(interaction.user, here, text)
        if len(fitting) == 1:
            note_game(interaction, fitting[0].id)
            return fitting[0].id
        if len(fitting) > 1:
            raise ServiceError(format.ambiguous_move(text, [v.id for v in fitting]))
    return await fairy.resolve_game(interaction, me, game, my_move=True)


@app_commands.command(description=locale_str("See a game's board"))
@app_commands.describe(game=GAME_OPTION, my_side=locale_str("show it from your side (default: from the side to move)"),
                       piece=locale_str("mark the legal moves of the piece on this square"))
@app_commands.autocomplete(game=game_autocomplete, piece=piece_square_autocomplete)
async def board(interaction: discord.Interaction, game: int | None = None, my_side: bool = False,
                piece: str | None = None) -> None:
    fairy = fairy_of(interaction)
    me, m = await fairy.me(interaction)
    await fairy.service.budget_read(me.id)
    gid = await fairy.resolve_game(interaction, me, game, finished=True, spectate=True)
    await defer(interaction)
    gv = await fairy.service.game(gid)
    side = gv.side_of(me.id)
    flip = side == "b" if my_side and side else board_flip(gv)
    # the reply is the asker's alone (ephemeral): a player gets their own link, to play
    content, square = format.board_caption(gv, m=m) + link_suffix(fairy.service.settings, gid, side), None
    if piece:
        if gv.status != "active":
            raise GameOver(T("the game is over: no piece has moves"))
        text, square = await piece_moves_text(fairy, gv, piece)
        content += "\n" + text
    await send(interaction, content, file=await fairy.board_file(gv, flip=flip, highlight=square))


@app_commands.command(description=locale_str("Resign a game (you will be asked to confirm)"))
@app_commands.describe(game=GAME_OPTION)
@app_commands.autocomplete(game=game_autocomplete)
async def resign(interaction: discord.Interaction, game: int | None = None) -> None:
    fairy = fairy_of(interaction)
    me, m = await fairy.me(interaction)
    gid = await fairy.resolve_game(interaction, me, game)
    await ask_resign(interaction, fairy, gid, me.id)


DRAW_CHOICES = [Choice(name=locale_str("offer a draw (accepts your opponent's offer if there is one)"), value="offer"),
                Choice(name=locale_str("accept your opponent's offer"), value="accept"),
                Choice(name=locale_str("decline your opponent's offer"), value="decline")]
TAKEBACK_CHOICES = [Choice(name=locale_str("ask to take back your last move"), value="ask"),
                    Choice(name=locale_str("accept your opponent's request"), value="accept"),
                    Choice(name=locale_str("decline your opponent's request"), value="decline")]


@app_commands.command(description=locale_str("Offer a draw, or answer your opponent's offer"))
@app_commands.describe(answer=locale_str("what to do (default: offer)"), game=GAME_OPTION)
@app_commands.choices(answer=DRAW_CHOICES)
@app_commands.autocomplete(game=game_autocomplete)
async def draw(interaction: discord.Interaction, answer: str = "offer", game: int | None = None) -> None:
    fairy = fairy_of(interaction)
    me, m = await fairy.me(interaction)
    gid = await fairy.resolve_game(interaction, me, game)
    await defer(interaction)
    op = {"offer": fairy.service.offer_draw, "accept": fairy.service.accept_draw,
          "decline": fairy.service.decline_draw}[answer]
    gv = await fairy.act(gid, lambda: op(gid, me.id), post=lambda gv: gv.status != "active")
    if gv.status != "active":
        await send(interaction, m.tr("Game #{game} is drawn by agreement.", game=gid))
    elif answer == "decline":
        await send(interaction, m.tr("You declined the draw offer in game #{game}.", game=gid))
    else:
        await send(interaction, m.tr("You offered a draw in game #{game}; your opponent has been told.", game=gid))


@app_commands.command(description=locale_str("Ask to take back your last move, or answer such a request"))
@app_commands.describe(answer=locale_str("what to do (default: ask)"), game=GAME_OPTION)
@app_commands.choices(answer=TAKEBACK_CHOICES)
@app_commands.autocomplete(game=game_autocomplete)
async def takeback(interaction: discord.Interaction, answer: str = "ask", game: int | None = None) -> None:
    fairy = fairy_of(interaction)
    me, m = await fairy.me(interaction)
    gid = await fairy.resolve_game(interaction, me, game)
    await defer(interaction)
    op = {"ask": fairy.service.ask_takeback, "accept": fairy.service.accept_takeback,
          "decline": fairy.service.decline_takeback}[answer]
    await fairy.act(gid, lambda: op(gid, me.id), note="Move taken back.", post=lambda gv: answer == "accept")
    if answer == "accept":
        await send(interaction, m.tr("The last move of game #{game} was taken back.", game=gid))
    elif answer == "decline":
        await send(interaction, m.tr("You declined the takeback in game #{game}.", game=gid))
    else:
        await send(interaction, m.tr("You asked to take back your last move in game #{game}; "
                                     "your opponent has been told.", game=gid))


# --- looking things up ------------------------------------------------------------------

@app_commands.command(description=locale_str("Your games, most urgent first, and your open challenges"))
@app_commands.describe(finished=locale_str("include finished games"))
async def games(interaction: discord.Interaction, finished: bool = False) -> None:
    fairy = fairy_of(interaction)
    me, m = await fairy.me(interaction)
    summaries = await fairy.service.list_games(me.id, include_finished=finished)
    challenges = [c for c in await fairy.service.list_challenges(me.id)
                  if c.challenger.id == me.id or (c.opponent and c.opponent.id == me.id)]
    await send(interaction, embed=format.games_embed(summaries, challenges, me.id, m=m))


CHALLENGES_WITH_BUTTONS = 5  # the first ones come each with its Accept button


@app_commands.command(description=locale_str("Open challenges"))
async def challenges(interaction: discord.Interaction) -> None:
    fairy = fairy_of(interaction)
    me, m = await fairy.me(interaction)
    await fairy.service.budget_read(me.id)
    found = []
    for c in await fairy.service.list_challenges(me.id):
        try:  # an open challenge of another server is not shown here
            access.check_can_accept(c, interaction.guild_id)
            found.append(c)
        except ServiceError:
            pass
    await send(interaction, challenges_text(found, me.id, m))
    for c in [c for c in found if c.challenger.id != me.id][:CHALLENGES_WITH_BUTTONS]:
        await send(interaction, format.challenge_text(c, m=m), view=challenge_view(c.id, m=m))


@app_commands.command(description=locale_str("A game's record (PGN) as a file"))
@app_commands.describe(game=GAME_OPTION)
@app_commands.autocomplete(game=game_autocomplete)
async def record(interaction: discord.Interaction, game: int | None = None) -> None:
    fairy = fairy_of(interaction)
    me, m = await fairy.me(interaction)
    await fairy.service.budget_read(me.id)
    gid = await fairy.resolve_game(interaction, me, game, finished=True, spectate=True)
    text = await fairy.service.record(gid)
    file = discord.File(io.BytesIO(text.encode("utf-8")), filename=f"fairypost-game-{gid}.pgn")
    await send(interaction, m.tr("The record of game #{game}.", game=gid), file=file)


@app_commands.command(name="rules", description=locale_str("A game's rules in short, and its pieces"))
@app_commands.describe(game=locale_str("which game (default: this thread's; leave out for a list of the games)"))
@game_option
async def rules_(interaction: discord.Interaction, game: str | None = None) -> None:
    m = await _asker(interaction)
    game = known_game(game) if game else await _thread_variant(interaction)
    if game is None:
        e = discord.Embed(title=m.tr("The games"), colour=format.COLOUR_INFO)
        games = rules.variants()
        for g in games[:MAX_CHOICES - 1]:
            e.add_field(name=m.data(format.game_name(g)), value=(m.data(format.game_summary(g)) or "—")[:1024],
                        inline=False)
        if len(games) >= MAX_CHOICES:  # an embed holds 25 fields: the rest by name
            rest = ", ".join(m.data(format.game_name(g)) for g in games[MAX_CHOICES - 1:])
            e.add_field(name=m.tr("And"), value=rest[:1024], inline=False)
        await send(interaction, embed=e)
        return
    await defer(interaction)
    e = format.rules_embed(game, m=m)
    e.set_image(url="attachment://pieces.png")
    e.set_footer(text=m.tr("{command} shows one piece's moves", command="/piece"))
    await send(interaction, embed=e, file=await images.rules_legend_file(game))


@app_commands.command(description=locale_str("A piece's card: how it moves"))
@app_commands.describe(piece=locale_str("the piece (start typing its name)"),
                       game=locale_str("which game (default: this thread's)"))
@game_option
@app_commands.autocomplete(piece=piece_name_autocomplete)
async def piece(interaction: discord.Interaction, piece: str, game: str | None = None) -> None:
    if ":" in piece and piece.split(":", 1)[0] in rules.variants():
        game, piece = piece.split(":", 1)
    m = await _asker(interaction)
    game = known_game(game) if game else await _thread_variant(interaction)
    if game is None:
        raise ServiceError(T("which game? Choose it with the game option"))
    key = suggest.piece_key(game, piece)
    await defer(interaction)
    e = format.piece_embed(game, key, m=m)
    e.set_image(url="attachment://piece.png")
    await send(interaction, embed=e, file=await images.piece_file(game, key))


# --- you ----------------------------------------------------------------------------------

NOTIFY_CHOICES = [Choice(name=locale_str("by direct message"), value="dm"),
                  Choice(name=locale_str("in a server channel"), value="channel")]
CONFIRM_CHOICES = [Choice(name=locale_str("never"), value="off"),
                   Choice(name=locale_str("typed moves (messages, the Move button's form)"), value="typed"),
                   Choice(name=locale_str("every move, /move too"), value="all")]
VACATION_CHOICES = [Choice(name=locale_str("start (pauses all your clocks)"), value="start"),
                    Choice(name=locale_str("end"), value="end")]
#: "default": no choice of one's own, the language of one's Discord
DEFAULT_LANGUAGE = "default"
LANGUAGE_CHOICES = [Choice(name=own, value=code) for code, own in language_names().items()] \
    + [Choice(name=locale_str("your Discord's language"), value=DEFAULT_LANGUAGE)]


def _times(text: str) -> tuple[str, str] | None:
    t = text.strip().lower()
    if t in ("off", "none", "no", ""):
        return None
    for sep in ("-", "–", " to "):
        if sep in t:
            a, b = (x.strip() for x in t.split(sep, 1))
            return a, b
    raise SettingsError(T("quiet hours are a start and an end, like 22:00-07:00 (or off)"))


@app_commands.command(description=locale_str("Where your notices go, quiet hours, daily digest, vacation, language"))
@app_commands.describe(notify=locale_str("where to tell you it is your move"),
                       channel=locale_str("the channel for notices (default: this one)"),
                       timezone=locale_str("your time zone, for quiet hours and the digest (like Europe/Paris)"),
                       quiet_hours=locale_str("no notices between these times, like 22:00-07:00, or off"),
                       digest=locale_str("a daily list of your games at this time, like 08:00, or off"),
                       vacation=locale_str("pause all your clocks, or end the pause"),
                       vacation_days=locale_str("how long a vacation lasts (default: all you have left this year)"),
                       confirm_moves=locale_str("ask \"Play Nf3?\" with a Confirm button before a move is made"),
                       block=locale_str("no more challenges from this member (games under way go on)"),
                       unblock=locale_str("take a block back"),
                       email=locale_str("link a mail address to play by mail too (a code is mailed to it)"),
                       email_code=locale_str("the code mailed to the address, to confirm it"),
                       email_notices=locale_str("mail your notices (each board to answer) to that address too"),
                       web=locale_str("a one-time link to sign in on the web site (only you see it)"),
                       language=locale_str("the language the bot writes to you in (default: your Discord's)"))
@app_commands.choices(notify=NOTIFY_CHOICES, vacation=VACATION_CHOICES, confirm_moves=CONFIRM_CHOICES,
                      language=LANGUAGE_CHOICES)
@app_commands.autocomplete(timezone=timezone_autocomplete)
async def settings(interaction: discord.Interaction, notify: str | None = None,
                   channel: discord.TextChannel | None = None, timezone: str | None = None,
                   quiet_hours: str | None = None, digest: str | None = None, vacation: str | None = None,
                   vacation_days: Range[int, 1, 365] | None = None,
                   confirm_moves: str | None = None, block: discord.Member | None = None,
                   unblock: discord.Member | None = None, email: str | None = None,
                   email_code: str | None = None, email_notices: bool | None = None,
                   web: bool | None = None, language: str | None = None) -> None:
    fairy = fairy_of(interaction)
    me, m = await fairy.me(interaction)
    if language is not None:  # first: the answer is then in the new language (a bad code changes nothing)
        await fairy.service.update_settings(me.id, language=None if language == DEFAULT_LANGUAGE else language)
        me, m = await fairy.me(interaction)
    await defer(interaction)  # answered before anything a change may send (a vacation's notices)
    done = []
    if language is not None:
        done.append(m.tr("you read {language} here", language=m.bold(m.lang.name)))
    if email is not None or email_code is not None or email_notices is not None:
        from bot.identity.account_links import link_step
        done.append(await link_step(fairy.service, me.id, email, email_code, email_notices))
    if web:
        from bot.identity.web_links import signin_url
        url = await signin_url(fairy.service, me.id, "discord")
        done.append(m.tr("your web sign-in link, for you only (it works once, for 15 minutes): {link}",
                         link=f"<{url}>"))
    if notify == "channel" or (notify is None and channel is not None):
        target = channel or interaction.channel
        access.check_notice_channel(interaction, target)
        await fairy.links.set_notify_pref(me.id, NotifyPref("channel", interaction.guild_id, target.id))
        done.append(m.tr("notices go to {channel}", channel=target.mention))
    elif notify == "dm":
        await fairy.links.set_notify_pref(me.id, NotifyPref("dm"))
        done.append(m.tr("notices come by direct message"))
    changes = {}
    if timezone is not None:
        changes["timezone"] = timezone.strip()
    if quiet_hours is not None:
        changes["quiet_hours"] = _times(quiet_hours)
    if digest is not None:
        d = digest.strip().lower()
        changes["digest_time"] = None if d in ("off", "none", "no", "") else d
    if confirm_moves is not None:
        changes["confirm_moves"] = confirm_moves
    if changes:
        await fairy.service.update_settings(me.id, **changes)
        done.append(m.tr("settings saved"))
    if vacation == "start":
        await fairy.service.start_vacation(me.id, vacation_days)
        done.append(m.tr("vacation started"))
    elif vacation == "end":
        await fairy.service.end_vacation(me.id)
        done.append(m.tr("vacation ended"))
    elif vacation_days is not None:
        raise SettingsError(T("vacation_days goes with vacation: start"))
    done += await block_members(fairy, me, block, unblock, m=m)
    await send(interaction, (m.tr("Done: {changes}.", changes="; ".join(done)) if done else None),
               embed=await _settings_embed(fairy, me.id, m=m))


def _choice_name(choices: list[Choice], value: str, m: Markup) -> str:
    """A fixed choice's name, as the reader's Discord shows it."""
    return next((m.tr(c.name) for c in choices if c.value == value), value)


async def _settings_embed(fairy, player_id: int, *, m: Markup = DISCORD) -> discord.Embed:
    p = await fairy.service.get_player(player_id)
    pref = await fairy.links.notify_pref(player_id)
    vac = await fairy.service.vacation(player_id)
    s = p.settings
    e = discord.Embed(title=m.tr("Your settings"), colour=format.COLOUR_INFO)
    where = (m.tr("in {channel}", channel=f"<#{pref.channel_id}>")
             if pref.notify == "channel" and pref.channel_id else m.tr("by direct message"))
    e.add_field(name=m.tr("Notices"), value=where)
    e.add_field(name=m.tr("Time zone"), value=format.safe(s.timezone))
    e.add_field(name=m.tr("Quiet hours"), value=f"{s.quiet_start}–{s.quiet_end}" if s.quiet_start else m.tr("none"))
    e.add_field(name=m.tr("Daily digest"), value=s.digest_time or m.tr("off"))
    e.add_field(name=m.tr("Confirm moves"), value=_choice_name(CONFIRM_CHOICES, s.confirm_moves, m))
    e.add_field(name=m.tr("Language"), value=m.lang.name if s.language else
                m.tr("{language} (your Discord's)", language=m.lang.name))
    blocked = await fairy.service.blocked_players(player_id)
    e.add_field(name=m.tr("Blocked"), value=(", ".join(format.name(p) for p in blocked) or m.tr("no one"))[:1024])
    left = format.time_left(vac.left_seconds, m.lang)
    if vac.on_vacation:
        until = int(vac.until.timestamp())
        e.add_field(name=m.tr("Vacation"), value=m.tr("on vacation until {moment}; {left} left this year",
                                                      moment=f"<t:{until}:f>", left=left))
    else:
        e.add_field(name=m.tr("Vacation"), value=m.tr("{left} left this year", left=left))
    return e


# the group's commands are in tournament_commands.py (declared here, so /help lists it)
tournament = app_commands.Group(name="tournament", description=locale_str("Tournaments: round robins and Swiss events"),
                                guild_only=True)


@app_commands.command(name="help", description=locale_str("How to play here"))
async def help_(interaction: discord.Interaction) -> None:
    m = await _asker(interaction)
    e = discord.Embed(title="fairypost", description=format.help_text((*COMMANDS, tournament), m=m),
                      colour=format.COLOUR_INFO)
    e.add_field(name=m.tr("Games"), value=", ".join(m.data(format.game_name(g)) for g in rules.variants()),
                inline=False)
    await send(interaction, embed=e)


async def block_members(fairy, me, block: discord.Member | None, unblock: discord.Member | None, *,
                        m: Markup = DISCORD) -> list[str]:
    """/settings block and unblock: what was done, in words."""
    done = []
    for member, op, unblocking in ((block, fairy.service.block, False), (unblock, fairy.service.unblock, True)):
        if member is None:
            continue
        if member.bot:
            raise SettingsError(T("bots send no challenges: there is nothing to block"))
        await op(me.id, (await fairy.player(member)).id)
        name = format.safe(member.display_name)
        done.append(m.tr("unblocked {name}", name=name) if unblocking else m.tr("blocked {name}", name=name))
    return done


@app_commands.command(
    description=locale_str("Answers left in advance: if your opponent plays X, you play Y (only you see them)"))
@app_commands.describe(lines=waiting.LINES_OPTION, cancel=locale_str("True: drop your conditional lines in the game"),
                       game=GAME_OPTION)
@app_commands.autocomplete(lines=waiting.lines_autocomplete, game=game_autocomplete)
async def premove(interaction: discord.Interaction, lines: Range[str, 1, 1000] | None = None,
                  cancel: bool = False, game: int | None = None) -> None:
    """With lines: leave them; without: show them (with a Cancel button)."""
    await waiting.premove(interaction, lines, cancel, game)


@app_commands.command(description=locale_str("Ratings: a game's leaderboard and your own ratings"))
@app_commands.describe(game=locale_str("which game (default: this thread's; leave out for every game's leaders)"))
@game_option
async def ratings(interaction: discord.Interaction, game: str | None = None) -> None:
    fairy = fairy_of(interaction)
    me, m = await fairy.me(interaction)
    await fairy.service.budget_read(me.id)
    game = known_game(game) if game else await _thread_variant(interaction)
    await send(interaction, embed=await ratings_embed(fairy.service, me.id, game, m=m))


COMMANDS = (challenge, challenges, move, board, resign, draw, takeback, games, record, rules_, piece, settings, help_,
            hint, review, replay, share, premove, ratings)


def add_commands(tree: app_commands.CommandTree) -> None:
    for cmd in COMMANDS:
        tree.add_command(cmd)
