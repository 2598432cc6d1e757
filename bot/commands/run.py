"""Typed commands run against the service for one player: the same code for every adapter
that reads typed text (Discord's messages in a game's thread, email). An adapter parses
the line with bot/words/grammar.py, then ``execute(cmd, Context(...))``, and posts the reply's
text (in its markup) and, if it likes, the board of ``reply.game``. The adapter supplies
only how it names players: ``find_player`` reads the OPPONENT of ``challenge`` (a Discord
mention, an email address, a name) as a player, or None.

Refusals (a wrong move, not your turn, no such challenge) raise ``ServiceError``, a
grammar's misuse ``GrammarError``: both say what was wrong, and nothing changed.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import rules
from language import LANGUAGES, T, Tn, language

from ..computer import player as comp
from ..domain.errors import NotFound, ServiceError
from ..identity.links import tournament_link_line
from ..identity.players import Player
from ..operations.service import GameService, GameView
from ..operations.square_moves import square_moves
from ..tournaments.acts import run_act
from ..tournaments.directors import may_see
from ..words import text
from ..words.game_texts import find_piece, piece_text, rules_text
from ..words.grammar import GRAMMAR, Command, Grammar, GrammarError, shown
from ..words.text import Markup
from ..words.timetext import time_left
from ..words.tournament_text import tournament_line, tournament_text


@dataclass(frozen=True)
class Context:
    service: GameService
    player: Player
    markup: Markup
    game_id: int | None = None  # the game the line is about (its thread, an email's subject)
    find_player: Callable[[str], Awaitable[Player | None]] | None = None
    expected_ply: int | None = None  # the ply of the board the player saw, if known
    computer: comp.Computer | None = None  # for hint and review; None: the computer is not here
    width: int | None = None  # wrap long texts (rules, a piece) to a terminal's columns
    scope: str | None = None  # the Discord server typed in: its own tournaments are seen there
    tournament_id: int | None = None  # the tournament the line is about (a reply to its mail)
    here: str | None = None  # the front end's own language for this player (Discord's locale, LANG)


@dataclass(frozen=True)
class Reply:
    text: str
    game: GameView | None = None  # the game as it now stands, if the command changed it
    changed: bool = False
    attachment: tuple[str, str] | None = None  # (file name, text): too long for a message


Handler = Callable[[Command, Context], Awaitable[Reply]]
HANDLERS: dict[str, Handler] = {}


def handles(name: str):
    """Run the grammar's command ``name`` (another engineer's command: register it in
    the grammar, then here)."""
    def register(fn: Handler) -> Handler:
        HANDLERS[name] = fn
        return fn
    return register


def typed_grammar() -> Grammar:
    """The commands that can be typed to an adapter running them here (its help)."""
    return Grammar(s for s in GRAMMAR if s.name in HANDLERS)


async def execute(cmd: Command, ctx: Context) -> Reply:
    spec = GRAMMAR.find(cmd.name)
    if spec is not None and spec.needs_game and ctx.game_id is None:
        raise GrammarError(T("{command} is about one game: say which", command=cmd.name), spec.usage)
    handler = HANDLERS.get(cmd.name)
    if handler is None:
        raise GrammarError(T("{command} cannot be typed here", command=cmd.name))
    return await handler(cmd, ctx)


def _changed(view: GameView, words: str, m: Markup) -> Reply:
    return Reply(m.lines([words, text.turn_line(view, m)]), view, True)


# --- in a game ------------------------------------------------------------------------------

@handles("move")
async def _move(cmd: Command, ctx: Context) -> Reply:
    r = await ctx.service.move(ctx.game_id, ctx.player.id, cmd["move"], expected_ply=ctx.expected_ply)
    m = ctx.markup
    return _changed(r.game, m.tr("You played {move} in game #{id}.", move=m.bold(r.san), id=r.game.id), m)


_ANSWERS = {
    "draw": ("offer_draw", "accept_draw", "decline_draw"),
    "takeback": ("ask_takeback", "accept_takeback", "decline_takeback"),
}


@handles("draw")
@handles("takeback")
async def _offer_or_answer(cmd: Command, ctx: Context) -> Reply:
    ask, accept, decline = _ANSWERS[cmd.name]
    op = {None: ask, "accept": accept, "decline": decline}[cmd["answer"]]
    view = await getattr(ctx.service, op)(ctx.game_id, ctx.player.id, expected_ply=ctx.expected_ply)
    m = ctx.markup
    said = {
        "offer_draw": T("Game #{id}: You offer a draw.", id=view.id),
        "accept_draw": T("Game #{id}: You accept the draw.", id=view.id),
        "decline_draw": T("Game #{id}: You decline the draw.", id=view.id),
        "ask_takeback": T("Game #{id}: You ask to take back your last move.", id=view.id),
        "accept_takeback": T("Game #{id}: You agree to take back the last move.", id=view.id),
        "decline_takeback": T("Game #{id}: You refuse to take back the last move.", id=view.id),
    }[op]
    return _changed(view, m.say(said), m)


@handles("resign")
async def _resign(cmd: Command, ctx: Context) -> Reply:
    view = await ctx.service.resign(ctx.game_id, ctx.player.id, expected_ply=ctx.expected_ply)
    m = ctx.markup
    return Reply(m.tr("You resigned game #{id}: {result}.", id=view.id, result=text.over_line(view, m)), view, True)


@handles("abort")
async def _abort(cmd: Command, ctx: Context) -> Reply:
    view = await ctx.service.abort(ctx.game_id, ctx.player.id, expected_ply=ctx.expected_ply)
    return Reply(ctx.markup.tr("Game #{id} is called off.", id=view.id), view, True)


@handles("board")
async def _board(cmd: Command, ctx: Context) -> Reply:
    if cmd["square"]:
        return await _moves(cmd, ctx)
    view = await ctx.service.game(ctx.game_id)
    return Reply(text.board_caption(view, ctx.markup), view)


@handles("moves")
async def _moves(cmd: Command, ctx: Context) -> Reply:
    m, square = ctx.markup, cmd["square"]
    view = await ctx.service.game(ctx.game_id)
    if view.status != "active":
        return Reply(m.tr("Game #{id} is over: {result}.", id=view.id, result=text.over_line(view, m)))
    if square is None:
        sans = sorted(await ctx.service.legal_moves(ctx.game_id))
        return Reply(m.trn("{n} legal move in game #{id}: {moves}", "{n} legal moves in game #{id}: {moves}",
                           len(sans), id=view.id, moves=m.escape(" ".join(sans))))
    found = square_moves(await ctx.service.position(ctx.game_id), square)
    return Reply(text.square_moves_text(found, m))


@handles("record")
async def _record(cmd: Command, ctx: Context) -> Reply:
    return Reply(ctx.markup.escape((await ctx.service.record(ctx.game_id)).rstrip()))


# --- anywhere ---------------------------------------------------------------------------------

@handles("games")
async def _games(cmd: Command, ctx: Context) -> Reply:
    games = await ctx.service.list_games(ctx.player.id)
    challenges = await ctx.service.list_challenges(ctx.player.id)
    return Reply(text.games_text(games, challenges, ctx.player.id, ctx.markup))


@handles("challenges")
async def _challenges(cmd: Command, ctx: Context) -> Reply:
    challenges = await ctx.service.list_challenges(ctx.player.id)
    return Reply(text.challenges_text(challenges, ctx.player.id, ctx.markup))


@handles("help")
async def _help(cmd: Command, ctx: Context) -> Reply:
    return Reply(text.help_text(typed_grammar(), ctx.markup, cmd["command"]))


@handles("challenge")
async def _challenge(cmd: Command, ctx: Context) -> Reply:
    opponent = await _named_player(cmd["opponent"], ctx)
    kwargs = {} if cmd["days"] is None else {"days": cmd["days"]}
    if cmd["casual"]:
        kwargs["rated"] = False
    c = await ctx.service.challenge(ctx.player.id, cmd["game"], opponent_id=opponent.id, **kwargs)
    return Reply(text.challenge_sent_text(c, ctx.markup))


async def _named_player(who: str, ctx: Context) -> Player:
    found = await ctx.find_player(who) if ctx.find_player is not None else None
    if found is None:
        raise ServiceError(T("there is no player {who} here", who=shown(who)))
    return found


@handles("block")
@handles("unblock")
async def _block(cmd: Command, ctx: Context) -> Reply:
    other = await _named_player(cmd["player"], ctx)
    op = ctx.service.block if cmd.name == "block" else ctx.service.unblock
    blocked = await op(ctx.player.id, other.id)
    m = ctx.markup
    names = ", ".join(m.escape(p.name) for p in blocked) or m.tr("no one")
    said = (m.tr("You blocked {name}. Blocked: {names}.", name=m.escape(other.name), names=names)
            if cmd.name == "block" else
            m.tr("You unblocked {name}. Blocked: {names}.", name=m.escape(other.name), names=names))
    return Reply(said)


@handles("ratings")
async def _ratings(cmd: Command, ctx: Context) -> Reply:
    from ..words.rating_text import ratings_text
    game = cmd["game"] or ((await ctx.service.game(ctx.game_id)).game if ctx.game_id else None)
    return Reply(await ratings_text(ctx.service, game, [ctx.player], ctx.markup))


async def _the_challenge(cmd: Command, ctx: Context) -> int:
    """The challenge named, or the one challenge open to the player (not their own)."""
    if cmd["id"] is not None:
        return cmd["id"]
    mine = [c for c in await ctx.service.list_challenges(ctx.player.id)
            if c.challenger.id != ctx.player.id]
    if len(mine) != 1:
        listed = ", ".join(f"#{c.id}" for c in mine[:10])
        raise ServiceError(Tn("you have {n} challenge open to you ({listed}): say which",
                              "you have {n} challenges open to you ({listed}): say which", len(mine), listed=listed)
                           if mine else T("no challenge is open to you"))
    return mine[0].id


@handles("accept")
async def _accept(cmd: Command, ctx: Context) -> Reply:
    view = await ctx.service.accept_challenge(await _the_challenge(cmd, ctx), ctx.player.id)
    return Reply(text.board_caption(view, ctx.markup, ctx.markup.tr("The game begins.")), view, True)


@handles("decline")
async def _decline(cmd: Command, ctx: Context) -> Reply:
    c = await ctx.service.decline_challenge(await _the_challenge(cmd, ctx), ctx.player.id)
    return Reply(ctx.markup.tr("You declined challenge #{id}.", id=c.id))


@handles("vacation")
async def _vacation(cmd: Command, ctx: Context) -> Reply:
    days, s = cmd["days"], ctx.service
    if days == "end":
        info = await s.end_vacation(ctx.player.id)
    elif days is not None:
        info = await s.start_vacation(ctx.player.id, days)
    else:
        info = await s.vacation(ctx.player.id)
    m = ctx.markup
    left = time_left(info.left_seconds, m.lang)
    if info.on_vacation and info.until:
        return Reply(m.tr("You are on vacation until {until}: your clocks are stopped. {left} of vacation "
                          "left this year.", until=m.when(info.until), left=left))
    if info.on_vacation:
        return Reply(m.tr("You are on vacation: your clocks are stopped. {left} of vacation left this year.",
                          left=left))
    return Reply(m.tr("You are not on vacation; {left} of vacation left this year.", left=left))


@handles("premove")
async def _premove(cmd: Command, ctx: Context) -> Reply:
    """Conditional lines (bot/operations/premoves.py): leave, show or drop the player's own."""
    m, s, arg = ctx.markup, ctx.service, (cmd["lines"] or "").strip()
    if arg.lower() == "cancel":
        n = await s.cancel_premoves(ctx.game_id, ctx.player.id)
        return Reply(m.trn("Your {n} conditional line in game #{id} dropped.",
                           "Your {n} conditional lines in game #{id} dropped.", n, id=ctx.game_id) if n
                     else m.tr("You have no conditional lines in game #{id}.", id=ctx.game_id))
    if arg:
        lines = await s.set_premoves(ctx.game_id, ctx.player.id, arg, expected_ply=ctx.expected_ply)
    else:
        lines = await s.premoves(ctx.game_id, ctx.player.id)
        if not lines.count:
            return Reply(m.tr("You have no conditional lines in game #{id}. Leave some with: {example}",
                              id=ctx.game_id, example=m.code("premove e5 Nf3; c5 Nc3")))
    head = m.tr("Your conditional lines in game #{id} (their move, your answer, ...):", id=ctx.game_id)
    return Reply(m.lines([head, m.list(m.escape(" ".join(line)) for line in lines.sans())]))


@handles("next")
async def _next(cmd: Command, ctx: Context) -> Reply:
    nxt = await ctx.service.next_game(ctx.player.id)
    if nxt is None:
        return Reply(ctx.markup.tr("No game waits for your move."))
    view = await ctx.service.game(nxt.id)
    return Reply(text.board_caption(view, ctx.markup, ctx.markup.tr("Your most urgent game:")), view)


# --- the game's words, the computer, settings -----------------------------------------------

@handles("rules")
async def _rules(cmd: Command, ctx: Context) -> Reply:
    game = cmd["game"] or ((await ctx.service.game(ctx.game_id)).game if ctx.game_id else None)
    if game is None:
        raise GrammarError(T("rules: which game? The games are: {games}", games=", ".join(rules.variants())),
                           GRAMMAR.find("rules").usage)
    return Reply(rules_text(game, ctx.markup, ctx.width))


@handles("piece")
async def _piece(cmd: Command, ctx: Context) -> Reply:
    g = rules.game((await ctx.service.game(ctx.game_id)).game)
    return Reply(piece_text(g, find_piece(g, cmd["piece"]), ctx.markup, ctx.width))


# --- tournaments (bot/tournaments/) ---------------------------------------------------------

FINISHED_LISTED = 5  # the latest events over, after those open and under way


async def named_tournament(cmd: Command, ctx: Context):
    """The event ``tournament ACT [ID]`` is about (its ID, else the context's), as the player
    sees it; else the error that says why not."""
    usage = GRAMMAR.find("tournament").usage
    if cmd["details"] and cmd["act"] in ("join", "leave", "show"):  # these say no more than the ID
        first = cmd["details"].split()[0]
        raise GrammarError(T("{command}: unexpected {words}", command=f"tournament {cmd['act']}",
                             words=shown(cmd["details"])) if cmd["id"]
                           else T("{word} is not a number (like 12 or #12)", word=shown(first)), usage)
    tid = cmd["id"] or ctx.tournament_id
    if tid is None:
        raise GrammarError(T("{command}: which tournament? Give its number ({list} lists them)",
                             command=f"tournament {cmd['act']}", list="tournaments"), usage)
    t = await ctx.service.tournament(tid)
    if not may_see(t, ctx.player.id, ctx.scope):
        raise NotFound(T("there is no tournament #{id} here", id=tid))
    return t


@handles("tournaments")
async def _tournaments(cmd: Command, ctx: Context) -> Reply:
    m = ctx.markup
    seen = await ctx.service.listed_tournaments(ctx.player.id, ctx.scope)
    going = [t for t in seen if t.status != "finished"]
    over = [t for t in seen if t.status == "finished"][-FINISHED_LISTED:]
    if not going and not over:
        return Reply(m.tr("No tournaments yet."))
    lines = [m.list([tournament_line(t, m) for t in going + over]),
             m.tr("Join one with {join}; {show} gives its standings.", join="tournament join ID",
                  show="tournament show ID")]
    return Reply(m.lines(lines))


@handles("tournament")
async def _tournament(cmd: Command, ctx: Context) -> Reply:
    m = ctx.markup
    t = await named_tournament(cmd, ctx)
    tid = t.id
    if cmd["act"] == "show":
        page = tournament_link_line(ctx.service.settings, tid)  # with FAIRYPOST_WEB_URL set
        return Reply(tournament_text(t, m) + (f"\n{page}" if page else ""))
    if cmd["act"] == "join":
        t = await ctx.service.join_tournament(tid, ctx.player.id)
        line = tournament_line(t, m)
        return Reply(m.tr("You are in {tournament}. It starts at {when}, or when its organiser starts it.",
                          tournament=line, when=m.when(t.starts_at)) if t.starts_at
                     else m.tr("You are in {tournament}. It starts when its organiser starts it; you will be "
                               "told of your games.", tournament=line))
    if cmd["act"] == "leave":
        t = await ctx.service.leave_tournament(tid, ctx.player.id)
        return Reply(m.tr("You left {tournament}.", tournament=tournament_line(t, m)))
    return Reply(await run_act(ctx.service, ctx.player.id, cmd["act"], tid, cmd["details"], m, ctx.find_player),
                 changed=True)


def _computer(ctx: Context) -> comp.Computer:
    if ctx.computer is None:
        raise ServiceError(T("the computer is not playing here just now"))
    return ctx.computer


@handles("hint")
async def _hint(cmd: Command, ctx: Context) -> Reply:
    view = await ctx.service.game(ctx.game_id)
    comp.check_hint(view, ctx.player.id)  # refused at once, before the thinking
    hint = await _computer(ctx).hint(view, ctx.player.id)
    return Reply(ctx.markup.escape(comp.hint_line(view.id, hint, lang=ctx.markup.lang)))


@handles("review")
async def _review(cmd: Command, ctx: Context) -> Reply:
    """The counts in the reply; the move-by-move review (a long text) attached."""
    view = await ctx.service.game(ctx.game_id)
    comp.check_review(view)
    moves = await _computer(ctx).review(view)
    return Reply(ctx.markup.escape(comp.review_summary(view.id, moves, lang=ctx.markup.lang)),
                 attachment=(comp.review_file_name(view.id),
                             comp.review_text(view, moves, lang=ctx.markup.lang)))


CONFIRM_SAID = {True: T("Moves you type are asked about (\"Play Nf3?\") before they are played."),
                False: T("Moves you type are played as typed.")}


async def set_confirm(service: GameService, player_id: int, on: bool) -> None:
    """The player setting ``confirm_moves`` for ``confirm on|off``: on asks about typed moves
    (a player who has every move asked about keeps that); off asks about none."""
    current = (await service.get_player(player_id)).settings.confirm_moves
    value = "off" if not on else ("all" if current == "all" else "typed")
    await service.update_settings(player_id, confirm_moves=value)


@handles("confirm")
async def _confirm(cmd: Command, ctx: Context) -> Reply:
    on = cmd["answer"] == "on"
    await set_confirm(ctx.service, ctx.player.id, on)
    return Reply(ctx.markup.say(CONFIRM_SAID[on]))


# --- the player's language (issue #44) ------------------------------------------------------

def languages_line(m: Markup) -> str:
    """Every language in its own name, with the code to type for it."""
    return ", ".join(f"{m.escape(language(code).name)} ({m.code(code)})" for code in LANGUAGES)


@handles("language")
async def _language(cmd: Command, ctx: Context) -> Reply:
    """``language``: the one read and the others; ``language fr``: choose it (the reply is
    already in it); ``language default``: back to the front end's (``ctx.here``)."""
    chosen = cmd["language"]
    player = ctx.player
    if chosen is not None:
        code = None if chosen == "default" else chosen
        settings = await ctx.service.update_settings(player.id, language=code)
        player = await ctx.service.get_player(player.id)
        m = ctx.markup.in_language(player.reads(ctx.here))
        name = m.bold(m.lang.name)
        if settings.language is None:
            return Reply(m.tr("No language chosen: you read {language}, the one where you type.", language=name),
                         changed=True)
        return Reply(m.tr("From now on you read {language}.", language=name), changed=True)
    m = ctx.markup.in_language(player.reads(ctx.here))
    name = m.bold(m.lang.name)
    said = (m.tr("You read {language}, as you chose.", language=name) if player.settings.language
            else m.tr("You read {language}, the language where you type.", language=name))
    return Reply(m.lines([
        said,
        m.tr("The languages: {languages}.", languages=languages_line(m)),
        m.tr("Choose one with {example}; {default} goes back to the language where you type.",
             example=m.code("language fr"), default=m.code("language default")),
    ]))
