"""A signed-in player's home: "Your games" — those where it is their move first (least time
left first), then the others, then the last finished ones; each a link to their own page."""

from __future__ import annotations

from render import result_text

from .page import game_name
from .site_pages import esc, games_section

LAST_FINISHED = 10


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
    games = await service.list_games(me.id, include_finished=True)
    active = [g for g in games if g.status == "active"]
    mine = [g for g in active if g.my_move]            # list_games: least time left first
    theirs = [g for g in active if not g.my_move]
    finished = sorted((g for g in games if g.status != "active"), key=lambda g: -g.id)[:LAST_FINISHED]
    return ('<section aria-labelledby="your-games"><h2 id="your-games">Your games</h2>' +
            games_section("Your move", [game_item(g) for g in mine], "No game waits for you.", "your-move") +
            games_section("Their move", [game_item(g) for g in theirs], "None.", "their-move") +
            games_section("Finished", [game_item(g) for g in finished], "None yet.", "finished") +
            '</section><p><a href="/new">New game</a> · <a href="/lobby">Lobby</a></p>')
