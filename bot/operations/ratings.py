"""Ratings in the service: each player's Glicko-2 rating per game (bot/operations/glicko.py's maths).

A rated game's end updates both players' ratings in the transaction that ends it
(``rate_finished``, called by the service's ``_finish``): a win, a loss or a draw by any
way (mate, resignation, time, agreement, the rules' draws); an aborted game counts for
nothing, and a game against the computer is never rated.

Rating periods. Each rated game is its own rating period, as Lichess does for
correspondence games: a game lasts days or weeks, and players finish them one at a time,
so batching games into fixed periods would rate a game weeks after it ended. Between
games a rating's deviation grows with the time without a game, continuously, at
Lichess's rate of 0.21436 periods a day (about one period every 4.7 days; capped at the
starting 500): a rating that has not been played for months is uncertain again. The
growth is worked out whenever a rating is read (for a game, a leaderboard or a header)
from the stored time of the player's last rated game; nothing is written for it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from language import ENGLISH, Language
from language.text import T

from ..delivery.events import PlayerRef, ref
from ..domain.errors import NotFound
from ..identity.players import COMPUTER
from ..store import GameRow, PlayerRow, RatingRow, Tx
from ..timekeeping.clock import DAY
from .glicko import Rating, after_inactivity, rate_game

#: White's score for each decisive or drawn result; '*' (aborted) has none.
WHITE_SCORES = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
LEADERBOARD_SIZE = 10


@dataclass(frozen=True)
class RatingEntry:
    """A player's rating in one game, as it stands now (the deviation grown by inactivity)."""

    player: PlayerRef
    game: str
    rating: Rating
    games: int  # rated games played

    def shown(self) -> str:
        return self.rating.shown()


def rating_now(row: RatingRow | None, now: int) -> Rating:
    """The stored rating with its deviation grown for the days since its last game; a
    player with no rated game in that game starts at 1500 ± 500."""
    if row is None:
        return Rating()
    stored = Rating(row.rating, row.deviation, row.volatility)
    return after_inactivity(stored, (now - row.rated_at) / DAY)


def can_be_rated(*players: PlayerRow) -> bool:
    """Only games between people are rated: never a game against the computer."""
    return all(p.platform != COMPUTER for p in players)


async def rate_finished(tx: Tx, g: GameRow, result: str, ended_at: int) -> None:
    """If ``g`` is rated and ended in a result, both players' new ratings (each from the
    other's rating before the game), in the caller's transaction."""
    if not g.rated or result not in WHITE_SCORES:
        return
    # another of their games may be ending at this moment, in another process: each
    # rating is read and written under its player's lock
    await tx.lock_players((g.white_id, g.black_id))
    rows = [await tx.rating(g.white_id, g.game), await tx.rating(g.black_id, g.game)]
    white, black = rate_game(rating_now(rows[0], ended_at), rating_now(rows[1], ended_at),
                             WHITE_SCORES[result])
    for player_id, row, new in ((g.white_id, rows[0], white), (g.black_id, rows[1], black)):
        await tx.put_rating(RatingRow(
            player_id, g.game, new.rating, new.deviation, new.volatility,
            (row.games if row else 0) + 1, max(ended_at, row.rated_at if row else ended_at)))


async def header_ratings(tx: Tx, g: GameRow, white: PlayerRow, black: PlayerRow,
                         now: int) -> tuple[str | None, str | None]:
    """What shows beside the players' names in a game's header ('1523', '1500?'): their
    ratings in that game, in any game between people (casual ones too); none against
    the computer."""
    if not can_be_rated(white, black):
        return None, None
    return (rating_now(await tx.rating(white.id, g.game), now).shown(),
            rating_now(await tx.rating(black.id, g.game), now).shown())


class RatingsOps:
    """The service's rating operations (mixed into ``GameService``)."""

    async def leaderboard(self, game: str, limit: int = LEADERBOARD_SIZE) -> list[RatingEntry]:
        """The game's highest ratings as they stand now: established ratings first, then
        provisional ones (a deviation of 110 or more: a '?' beside it), each by rating.
        (A game no one has played rated, or none of that name: an empty board.)"""
        now = self._now()
        async with self.store.read() as tx:
            # a provisional rating ranks below the established ones: read enough to fill
            # the board with those, however many provisional ones are above them
            rows = await tx.leaderboard(game, limit * 20)
        out = [RatingEntry(ref(p), game, rating_now(r, now), r.games) for r, p in rows]
        out.sort(key=lambda e: (e.rating.provisional, -e.rating.rating, e.player.id))
        return out[:limit]

    async def player_ratings(self, player_id: int) -> list[RatingEntry]:
        """The player's ratings, one per game they have played rated."""
        now = self._now()
        async with self.store.read() as tx:
            p = await tx.player(player_id)
            if p is None:
                raise NotFound(T("there is no player #{id}", id=player_id))
            rows = await tx.ratings_of(player_id)
        return [RatingEntry(ref(p), r.game, rating_now(r, now), r.games) for r in rows]

    async def players_named(self, name: str) -> list[PlayerRef]:
        """The players shown under ``name`` (any case), on any platform."""
        async with self.store.read() as tx:
            return [ref(p) for p in await tx.players_named(name)]


# --- the words, for every adapter (``clean``: how an adapter makes a name safe to show) ---

def _games(n: int, lang: Language = ENGLISH) -> str:
    return lang.trn("{n} rated game", "{n} rated games", n)


def leaderboard_lines(entries: list[RatingEntry], clean: Callable[[str], str] = str, *,
                      lang: Language = ENGLISH) -> list[str]:
    """'1. Alice 1812 (40 rated games)', one a player, best first."""
    return [f"{i}. {clean(e.player.name)} {e.shown()} ({_games(e.games, lang)})"
            for i, e in enumerate(entries, 1)]


def own_lines(entries: list[RatingEntry], game_name: Callable[[str], str] = str, *,
              lang: Language = ENGLISH) -> list[str]:
    """'Chess: 1523? (3 rated games)', one a game the player has played rated (``game_name``:
    the game's name as the reader reads it)."""
    return [f"{game_name(e.game)}: {e.shown()} ({_games(e.games, lang)})" for e in entries]


_PROVISIONAL = T("A ? marks a provisional rating (too few recent rated games to be sure of it).")
PROVISIONAL_NOTE = _PROVISIONAL.english()


def provisional_note(lang: Language = ENGLISH) -> str:
    """What the ? after a rating means, in the reader's language."""
    return lang.say(_PROVISIONAL)
