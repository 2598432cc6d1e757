"""A signed-in player's home: "Your games" — those where it is their move first (least time
left first), then the others, then the last finished ones; each a link to their own page."""

from __future__ import annotations

from dataclasses import dataclass

from render import result_text

from .page import game_name
from .site_pages import esc, games_section

LAST_FINISHED = 10


@dataclass(frozen=True)
class Someone:
    id: int
    name: str


@dataclass(frozen=True)
class FinishedGame:
    """What a list of finished games shows of one (as the service's GameSummary has it)."""
    id: int
    game: str
    status: str
    result: str | None
    reason: str | None
    white: Someone
    black: Someone
    opponent: Someone          # of the player whose list it is
    my_move: bool = False
    seconds_left: int | None = None


async def last_finished(service, player_id: int, limit: int) -> list[FinishedGame]:
    """The player's last ``limit`` finished games, newest first, read in one bounded query
    (the games_by_white/black indexes): not all of a player's games (5,000 of them took
    the event loop ~0.2 s a page through GameService.list_games)."""
    out = []
    for g, white_name, black_name in await service.last_finished_games(player_id, limit):
        white, black = Someone(g.white_id, white_name), Someone(g.black_id, black_name)
        out.append(FinishedGame(g.id, g.game, g.status, g.result, g.reason, white, black,
                                black if white.id == player_id else white))
    return out


def _state(g) -> str:
    if g.status == "active":
        state = "your move" if g.my_move else "their move"
        if g.seconds_left is not None:
            hours = max(0, g.seconds_left) // 3600
            state += f", {hours // 24} d {hours % 24} h left"
        return state
    if g.result:
        return result_text(g.game, g.result, g.reason) or g.result
    return str(g.status)


def game_item(g) -> str:
    return (f'<li><a href="/play/{g.id}">{esc(game_name(g.game))} against {esc(g.opponent.name)}'
            f'</a> <span class="state">({esc(_state(g))})</span> '
            f'<a class="who" href="/player/{g.opponent.id}">{esc(g.opponent.name)}\'s page</a></li>')


async def your_games(service, me) -> str:
    active = await service.list_games(me.id)           # the active ones only
    mine = [g for g in active if g.my_move]            # list_games: least time left first
    theirs = [g for g in active if not g.my_move]
    finished = await last_finished(service, me.id, LAST_FINISHED)
    return ('<section aria-labelledby="your-games"><h2 id="your-games">Your games</h2>' +
            games_section("Your move", [game_item(g) for g in mine], "No game waits for you.", "your-move") +
            games_section("Their move", [game_item(g) for g in theirs], "None.", "their-move") +
            games_section("Finished", [game_item(g) for g in finished], "None yet.", "finished") +
            '</section><p><a href="/new">New game</a> · <a href="/lobby">Lobby</a></p>')
