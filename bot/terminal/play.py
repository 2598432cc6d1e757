"""``fairypost play``: start, choose or resume a game at one keyboard.

The two players are game-service players on the platform ``terminal`` (named
after the sides unless given names). A new game is a challenge from White's
player to Black's, accepted at once; from then on each line acts for the side to
move (see :mod:`bot.terminal.session`). Games live in the bot's SQLite database,
so ``fairypost play --resume`` goes on with the latest unfinished one. With ``--vs
computer`` the one terminal player challenges the computer's player of that level
(bot/computer/player.py), which accepts at once and answers in its worker process.

Notifications: both players sit at the keyboard and see everything, so the
terminal's notifier drops its own players' notices; being scoped to the
``terminal`` platform, it never takes a Discord player's notice when the bot
shares the database file. The computer's notices go to the session's
:class:`bot.computer.player.Computer` (``Notifiers``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import rules
from language import T, language

from ..computer import player as comp
from ..config import ConfigError, Settings, _days_text, parse_days
from ..delivery.notifiers import Notifiers
from ..domain.errors import DatabaseError, ServiceError
from ..operations.service import COMPUTER, GameService
from ..timekeeping.clock import Clock
from ..words import text
from ..words.grammar import problem_of, resolve_game
from ..words.text import PLAIN
from .console import QUIT, Console
from .games import PLATFORM, games_text, terminal_games
from .images import Images
from .session import Session

QUIT_WORDS = QUIT  # leave at any question, as at the game's prompt

_ORTHODOX_KEYS = frozenset("KQRBNP")


def game_ids() -> list[str]:
    """The variants first, then any game of the orthodox pieces alone (the engine's
    conformance game), each group in the engine's order."""
    ids = rules.variants()
    orthodox = [g for g in ids if set(rules.game(g).types) <= _ORTHODOX_KEYS]
    return [g for g in ids if g not in orthodox] + orthodox


class TerminalNotifier:
    """Terminal players' notices. At one keyboard both players see the board, so they
    need no delivery (see above); given ``say`` (a console's), each is said in plain
    words, for a terminal player whose opponent is elsewhere (on Discord, by mail)."""

    platforms = frozenset({PLATFORM})

    def __init__(self, say: Callable[[str], None] | None = None, here: str | None = None):
        self.say = say
        self.here = here  # the terminal's own language (LANG): for a player who chose none
        self.service: GameService | None = None

    def bind(self, service: GameService) -> None:
        """Read each recipient's language through ``service`` (unbound: the terminal's)."""
        self.service = service

    async def notify(self, event) -> None:
        if self.say is None:
            return
        m = PLAIN.in_language(await self._reads(event.recipient))
        words = text.event_text(event, m)
        if words:
            self.say(m.tr("[to {name}] {notice}", name=event.recipient.name, notice=words))

    async def _reads(self, recipient) -> str:
        if self.service is None or recipient is None:
            return language(self.here).code
        return (await self.service.get_player(recipient.id)).reads(self.here)


class DatabaseFileError(Exception):
    """The database file is something else than an SQLite file: a message for the user."""


async def open_service(settings: Settings, clock: Clock | None = None,
                       computer: comp.Computer | None = None) -> GameService:
    """The service; with ``computer``, the computer's notices go to it (it is bound)."""
    notifier = TerminalNotifier() if computer is None else Notifiers([TerminalNotifier(), computer])
    # one person at one keyboard: moves piped or pasted in are never "too fast" (the flood
    # control is for a bot that many players share)
    settings = replace(settings, command_rate_per_minute=0)
    try:
        service = await GameService.open(settings, clock=clock, notifier=notifier)
    except DatabaseError as e:  # "file is not a database": the database's words, in ours
        raise DatabaseFileError(f"{settings.db_path} is not a fairypost database "
                                f"(not an SQLite file: {e})") from None
    if computer is not None:
        computer.bind(service)
    return service


async def play(settings: Settings, *, game: str | None = None, resume: int | bool | None = None,
               white: str | None = None, black: str | None = None, setup: str | None = None,
               days: str | None = None, images: str | Path | None = None, flip: bool = False,
               console: Console | None = None, clock: Clock | None = None,
               vs: str | None = None, level: int | None = None, colour: str | None = None,
               computer: comp.Computer | None = None, rated: bool = False) -> int:
    """Run one terminal session; the exit status. ``clock``: the service's (tests);
    ``vs="computer"``: against the computer at ``level`` (default 3), the human playing
    ``colour`` (default white). ``computer``: its player (tests give one with a small
    budget); by default one with a worker process that starts when first needed.
    ``rated``: a game between the two players at the keyboard is casual unless they ask
    (one person may well play both sides)."""
    console = console or Console()
    try:
        days_value = parse_days(days) if days is not None else None
    except ConfigError:  # the service's refusal, in the reader's words
        console.say("fairypost play: " + console.m.tr("days per move must be one of {choices}, not {value}",
                                                       choices=_days_text(), value=repr(days)))
        return 2
    computer = computer or comp.Computer(games=())  # each game's tables when first played
    # no background delivery here: one player at one keyboard waits for nobody else's
    # notices, and the computer's answers (accepting, agreeing to a takeback) are wanted
    # before the next prompt, as each commit delivers them
    service = await open_service(settings, clock, computer)
    try:
        if resume is not None and resume is not False:
            game_id = await _resumable(service, None if resume is True else int(resume), console)
        elif vs == COMPUTER:
            game_id = await _computer_game(service, console, game, white, black, setup, days_value,
                                           level or comp.DEFAULT_LEVEL, colour or "white")
        else:
            game_id = await _new_game(service, console, game, white, black, setup, days_value, rated)
        if game_id is None:
            return 1
        session = Session(service, game_id, console, Images(images), flip=flip, computer=computer)
        return await session.run()
    except ServiceError as e:
        console.say(f"fairypost play: {console.m.say(e.text)}")
        return 1
    finally:
        await computer.close()
        await service.close()


async def _which_game(console: Console, game: str | None) -> str | None:
    if game is None:
        return choose_game(console)
    try:
        return resolve_game(game)
    except ValueError as e:
        console.say(f"fairypost play: {console.m.say(problem_of(e))}")
        return None


async def _computer_game(service: GameService, console: Console, game: str | None,
                         white: str | None, black: str | None, setup: str | None,
                         days: int | None, level: int, colour: str) -> int | None:
    """A new game against the computer: the human challenges it, it accepts at once."""
    game = await _which_game(console, game)
    if game is None:
        return None
    you = console.m.tr("You")  # the person at the keyboard, named in their language
    name = ((white if colour == "white" else black) or you).strip() or you
    if setup is None:
        setup = (choose_setup(console, game) if rules.game(game).setup_start_fen is not None
                 else "default")
        if setup is None:
            return None
    me = await service.player(PLATFORM, name.casefold(), name)
    cpu, c = await comp.challenge_computer(service, me.id, game, level, days=days,
                                           colour=colour, setup=setup)
    if c.game_id is None:
        console.say("fairypost play: " + console.m.tr("the computer did not take up the challenge ({status})",
                                                       status=c.status))
        return None
    side = rules.game(game).side_names[0 if colour == "white" else 1]
    console.say(console.m.tr("You play {side} against {name} ({level}).", side=console.m.data(side),
                             name=cpu.name, level=_level_name(level, console.m)))
    return c.game_id


#: the computer's levels (ai.LEVELS' names), as its opponent reads them
LEVEL_NAMES = {1: T("beginner"), 2: T("novice"), 3: T("club player"), 4: T("strong"),
               5: T("strongest within the time budget")}


def _level_name(level: int, m=PLAIN) -> str:
    import ai
    return m.say(LEVEL_NAMES[level]) if level in LEVEL_NAMES else ai.LEVELS[level].name


async def _new_game(service: GameService, console: Console, game: str | None, white: str | None,
                    black: str | None, setup: str | None, days: int | None,
                    rated: bool = False) -> int | None:
    game = await _which_game(console, game)
    if game is None:
        return None
    names = rules.game(game).side_names
    white = (white or names[0]).strip()
    black = (black or names[1]).strip()
    if not white or not black or white.casefold() == black.casefold():
        console.say("fairypost play: " + console.m.tr("the two players need two different names"))
        return None
    if setup is None:
        setup = "default"
        if rules.game(game).setup_start_fen is not None:
            setup = choose_setup(console, game)
            if setup is None:
                return None
    unfinished = await terminal_games(service, active_only=True)
    w = await service.player(PLATFORM, white.casefold(), white)
    b = await service.player(PLATFORM, black.casefold(), black)
    c = await service.challenge(w.id, game, opponent_id=b.id, days=days, colour="white",
                                setup=setup, rated=rated)
    view = await service.accept_challenge(c.id, b.id)
    if unfinished:
        console.say(console.m.trn("(You also have {n} unfinished game here: {command} lists them.)",
                                  "(You also have {n} unfinished games here: {command} lists them.)",
                                  len(unfinished), command="fairypost games"))
    return view.id


def choose_game(console: Console) -> str | None:
    ids = game_ids()
    m = console.m
    console.say(m.tr("Which game?"))
    for i, g in enumerate(ids, 1):
        game = rules.game(g)
        geo = game.geometry
        console.say(f"  {i}  {g:<11} {m.data(game.name)}, {geo.width} x {geo.height}")
    while True:
        answer = console.ask(m.tr("Game (1-{last} or its name): ", last=len(ids)))
        if answer is None:
            return None
        a = answer.strip()
        if not a:
            continue
        if a.lower() in QUIT_WORDS:
            return None
        if a.isdigit() and 1 <= int(a) <= len(ids):
            return ids[int(a) - 1]
        try:
            return resolve_game(a)
        except ValueError as e:
            said = m.say(problem_of(e))
            console.say(said[:1].upper() + said[1:])


_COUNTS = (T("no"), T("one"), T("two"), T("three"), T("four"), T("five"), T("six"), T("seven"), T("eight"),
           T("nine"))


def _count(n: int, m=PLAIN) -> str:
    """A small count in words ("four"), in the reader's language; digits from ten on."""
    return m.say(_COUNTS[n]) if n < len(_COUNTS) else str(n)


def choose_setup(console: Console, game: str) -> str | None:
    g, m = rules.game(game), console.m
    ext = g.extension
    choice = ext.setup_choice()
    choice = m.say(choice) if choice else m.tr("the players may choose part of the start position")
    console.say(m.tr("{game} starts with a set-up: {choice}.", game=m.data(g.name), choice=choice))
    default = ext.setup_default()
    console.say("  default  " + (m.tr("the usual set-up ({setup})", setup=m.say(default)) if default
                                 else m.tr("the usual set-up")))
    console.say("  players  " + m.trn("make the {n} set-up action yourselves",
                                      "make the {n} set-up actions yourselves", len(ext.setup_phases),
                                      n=_count(len(ext.setup_phases), m)))
    while True:
        answer = console.ask(m.tr("Set-up ({choices}) [{default}]: ", choices="default/players",
                                  default="default"))
        if answer is None:
            return None
        a = answer.strip().lower()
        if a in QUIT_WORDS:
            return None
        if a in ("", "d", "default"):
            return "default"
        if a in ("p", "players", "own"):
            return "players"
        console.say(m.tr("Please answer {default} or {players}.", default="default", players="players"))


async def _resumable(service: GameService, game_id: int | None, console: Console) -> int | None:
    games = await terminal_games(service)
    if game_id is None:
        active = [s for s in games if s.status == "active"]
        if not active:
            console.say(console.m.tr("There is no unfinished game to resume. Start one with: {command}",
                                     command="fairypost play GAME"))
            return None
        return active[0].id
    if game_id not in {s.id for s in games}:
        try:
            await service.game(game_id)
        except ServiceError:
            console.say("fairypost play: " + console.m.tr("there is no game #{id}", id=game_id))
            return None
        console.say("fairypost play: " + console.m.tr("game #{id} is not a terminal game (its players play it "
                                                       "on the bot)", id=game_id))
        return None
    return game_id


async def list_games(settings: Settings, console: Console | None = None) -> int:
    console = console or Console()
    service = await open_service(settings)
    try:
        console.say(await games_text(service, m=console.m))
    finally:
        await service.close()
    return 0
