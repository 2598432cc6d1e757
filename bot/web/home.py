"""A signed-in player's home: "Your games" — those where it is their move first (least time
left first), then the others, then the last finished ones; each a link to their own page."""

from __future__ import annotations

from dataclasses import dataclass

from language import ENGLISH, Language

from .page import ended_text, game_name
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


def time_left(seconds: int, lang: Language = ENGLISH) -> str:
    """Days and hours left, as the page says them ("2 d 5 h" in English)."""
    hours = max(0, seconds) // 3600
    return lang.tr("{days} d {hours} h", days=hours // 24, hours=hours % 24)


def _state(g, lang: Language = ENGLISH) -> str:
    if g.status == "active":
        if g.seconds_left is None:
            return lang.tr("your move") if g.my_move else lang.tr("their move")
        left = time_left(g.seconds_left, lang)
        return lang.tr("your move, {time} left", time=left) if g.my_move else \
            lang.tr("their move, {time} left", time=left)
    return ended_text(g.game, g.status, g.result, g.reason, lang)


def game_item(g, lang: Language = ENGLISH) -> str:
    game = lang.tr("{game} against {name}", game=esc(game_name(g.game, lang)), name=esc(g.opponent.name))
    page = lang.tr("{name}'s page", name=esc(g.opponent.name))
    return (f'<li><a href="/play/{g.id}">{game}</a> <span class="state">({esc(_state(g, lang))})</span> '
            f'<a class="who" href="/player/{g.opponent.id}">{page}</a></li>')


async def your_games(service, me, lang: Language = ENGLISH) -> str:
    active = await service.list_games(me.id)           # the active ones only
    mine = [g for g in active if g.my_move]            # list_games: least time left first
    theirs = [g for g in active if not g.my_move]
    finished = await last_finished(service, me.id, LAST_FINISHED)
    tr = lang.tr
    title = esc(tr("Your games"))
    new, lobby = esc(tr("New game")), esc(tr("Lobby"))
    return (f'<section aria-labelledby="your-games"><h2 id="your-games">{title}</h2>' +
            games_section(tr("Your move"), [game_item(g, lang) for g in mine], tr("No game waits for you."),
                          "your-move") +
            games_section(tr("Their move"), [game_item(g, lang) for g in theirs], tr("None."), "their-move") +
            games_section(tr("Finished"), [game_item(g, lang) for g in finished], tr("None yet."), "finished") +
            f'</section><p><a href="/new">{new}</a> · <a href="/lobby">{lobby}</a></p>')
