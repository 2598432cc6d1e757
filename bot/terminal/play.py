"""``fairypost play``: start, choose or resume a game at one keyboard.

The two players are game-service players on the platform ``terminal`` (named
after the sides unless given names). A new game is a challenge from White's
player to Black's, accepted at once; from then on each line acts for the side to
move (see :mod:`bot.terminal.session`). Games live in the bot's SQLite database,
so ``fairypost play --resume`` goes on with the latest unfinished one.

Notifications: both players sit at the keyboard and see everything, so the
terminal's notifier drops its own players' notices; being scoped to the
``terminal`` platform, it never takes a Discord player's notice when the bot
shares the database file.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import rules

from ..clock import Clock
from ..config import ConfigError, Settings, parse_days
from ..errors import ServiceError
from ..service import SETUP_START, GameService
from .console import Console
from .images import Images
from .session import Session, resolve_game

PLATFORM = "terminal"
QUIT_WORDS = ("q", "quit", "exit")  # leave at any question, as at the game's prompt

def game_ids() -> list[str]:
    """The five games first, then the engine's orthodox chess."""
    ids = rules.variants()
    return [g for g in ids if g != "chess"] + [g for g in ids if g == "chess"]


class TerminalNotifier:
    """Both players see the board: their notices need no delivery (see above)."""

    platforms = frozenset({PLATFORM})

    async def notify(self, event) -> None:
        return None


class DatabaseFileError(Exception):
    """The database file is something else than an SQLite file: a message for the user."""


async def open_service(settings: Settings, clock: Clock | None = None) -> GameService:
    try:
        return await GameService.open(settings, clock=clock, notifier=TerminalNotifier())
    except sqlite3.DatabaseError as e:  # "file is not a database": sqlite's words, in ours
        raise DatabaseFileError(f"{settings.db_path} is not a fairypost database "
                                f"(not an SQLite file: {e})") from None


async def play(settings: Settings, *, game: str | None = None, resume: int | bool | None = None,
               white: str | None = None, black: str | None = None, setup: str | None = None,
               days: str | None = None, images: str | Path | None = None, flip: bool = False,
               console: Console | None = None, clock: Clock | None = None) -> int:
    """Run one terminal session; the exit status. ``clock``: the service's (tests)."""
    console = console or Console()
    try:
        days_value = parse_days(days) if days is not None else None
    except ConfigError as e:
        console.say(f"fairypost play: {e}")
        return 2
    service = await open_service(settings, clock)
    service.start_delivery()
    try:
        if resume is not None and resume is not False:
            game_id = await _resumable(service, None if resume is True else int(resume), console)
        else:
            game_id = await _new_game(service, console, game, white, black, setup, days_value)
        if game_id is None:
            return 1
        session = Session(service, game_id, console, Images(images), flip=flip)
        return await session.run()
    except ServiceError as e:
        console.say(f"fairypost play: {e}")
        return 1
    finally:
        await service.close()


async def _new_game(service: GameService, console: Console, game: str | None, white: str | None,
                    black: str | None, setup: str | None, days: int | None) -> int | None:
    if game is None:
        game = choose_game(console)
        if game is None:
            return None
    else:
        try:
            game = resolve_game(game)
        except ValueError as e:
            console.say(f"fairypost play: {e}")
            return None
    names = rules.game(game).side_names
    white = (white or names[0]).strip()
    black = (black or names[1]).strip()
    if not white or not black or white.casefold() == black.casefold():
        console.say("fairypost play: the two players need two different names")
        return None
    if setup is None:
        setup = "default"
        if game in SETUP_START:
            setup = choose_setup(console, game)
            if setup is None:
                return None
    unfinished = await terminal_games(service, active_only=True)
    w = await service.player(PLATFORM, white.casefold(), white)
    b = await service.player(PLATFORM, black.casefold(), black)
    c = await service.challenge(w.id, game, opponent_id=b.id, days=days, colour="white",
                                setup=setup)
    view = await service.accept_challenge(c.id, b.id)
    if unfinished:
        n = len(unfinished)
        console.say(f"(You also have {n} unfinished game{'s' if n != 1 else ''} here: "
                    f"fairypost games lists them.)")
    return view.id


def choose_game(console: Console) -> str | None:
    ids = game_ids()
    console.say("Which game?")
    for i, g in enumerate(ids, 1):
        game = rules.game(g)
        geo = game.geometry
        console.say(f"  {i}  {g:<11} {game.name}, {geo.width} x {geo.height}")
    while True:
        answer = console.ask(f"Game (1-{len(ids)} or its name): ")
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
            console.say(str(e)[0].upper() + str(e)[1:])


def choose_setup(console: Console, game: str) -> str | None:
    console.say(f"{rules.game(game).name} starts with a set-up: each side chooses where its two "
                "Super Pawns stand and which way its Cyclops faces.")
    console.say("  default  the usual set-up (Super Pawns on e and f, Cyclopes facing N, "
                "forward)")
    console.say("  players  make the four set-up actions yourselves")
    while True:
        answer = console.ask("Set-up (default/players) [default]: ")
        if answer is None:
            return None
        a = answer.strip().lower()
        if a in QUIT_WORDS:
            return None
        if a in ("", "d", "default"):
            return "default"
        if a in ("p", "players", "own"):
            return "players"
        console.say("Please answer default or players.")


async def terminal_games(service: GameService, *, active_only: bool = False):
    """Summaries of the games between terminal players, newest first (each once,
    as White's player sees it)."""
    found = {}
    for p in await service.players_on(PLATFORM):
        for s in await service.list_games(p.id, include_finished=not active_only):
            if s.white.platform == PLATFORM and s.black.platform == PLATFORM and s.my_side == "w":
                found[s.id] = s
    return [found[i] for i in sorted(found, reverse=True)]


async def games_text(service: GameService) -> str:
    games = await terminal_games(service)
    if not games:
        return "No games yet. Start one with: fairypost play GAME"
    lines = []
    for s in games:
        if s.status == "active":
            state = f"{s.white.name if s.my_move else s.black.name} to move"
        elif s.status == "aborted":
            state = "aborted"
        else:
            state = f"{s.result} ({s.reason})"
        lines.append(f"#{s.id:<4} {s.game:<11} {s.white.name} v {s.black.name}, "
                     f"{s.ply} pl{'y' if s.ply == 1 else 'ies'}, {state}")
    if any(s.status == "active" for s in games):
        lines.append("Resume one with: fairypost play --resume ID (without ID: the newest)")
    return "\n".join(lines)


async def _resumable(service: GameService, game_id: int | None, console: Console) -> int | None:
    games = await terminal_games(service)
    if game_id is None:
        active = [s for s in games if s.status == "active"]
        if not active:
            console.say("There is no unfinished game to resume. Start one with: fairypost play GAME")
            return None
        return active[0].id
    if game_id not in {s.id for s in games}:
        try:
            await service.game(game_id)
        except ServiceError:
            console.say(f"fairypost play: there is no game #{game_id}")
            return None
        console.say(f"fairypost play: game #{game_id} is not a terminal game "
                    f"(its players play it on the bot)")
        return None
    return game_id


async def list_games(settings: Settings, console: Console | None = None) -> int:
    console = console or Console()
    service = await open_service(settings)
    try:
        console.say(await games_text(service))
    finally:
        await service.close()
    return 0
