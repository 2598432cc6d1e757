"""What the tournament operations return: an event as its players see it (entrants,
standings with their tie-breaks, pairings and results), read in one transaction."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from ..delivery import events as ev
from ..delivery.events import ref
from ..domain.kinds import GameStatus
from ..operations.ratings import rating_now
from ..store import Tx
from ..timekeeping.clock import from_ts
from . import tiebreaks
from .tables import ROUND_ROBIN, PairingRow, TournamentRow, TournamentTables

WHITE_POINTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
#: The reasons of a game decided without being played (a forfeit, for the tie-breaks)
FORFEIT_REASONS = frozenset({"withdrawal", "forfeit"})


@dataclass(frozen=True)
class StandingView:
    place: int
    player: ev.PlayerRef
    points: float
    tiebreaks: tuple[float, ...]
    games: int
    withdrawn: bool
    rating: float | None = None  # the player's rating at the event's game, now


@dataclass(frozen=True)
class PairingView:
    round: int
    board: int
    white: ev.PlayerRef
    black: ev.PlayerRef | None  # None: a bye
    game_id: int | None
    result: str | None  # None while the game goes on
    reason: str | None
    bye_points: float | None


@dataclass(frozen=True)
class TournamentView:
    id: int
    name: str
    game: str
    format: str
    rounds: int
    days: int | None
    double: bool
    rated: bool
    status: str
    round: int
    starts_at: datetime | None
    round_deadline: datetime | None
    max_players: int | None
    min_rating: float | None
    max_rating: float | None
    creator: ev.PlayerRef | None
    scope: str | None
    entrants: list[ev.PlayerRef]
    standings: list[StandingView]
    pairings: list[PairingView]
    starting: bool = False  # games of its start or of its round still being made (batches.py)
    version: int = 0        # bumped by every change its page shows
    adjudicate: bool = False  # a Swiss round's games left at its deadline: adjudicated, or the director's

    @property
    def tiebreak_names(self) -> tuple[str, ...]:
        return tiebreaks.ROUND_ROBIN_TIEBREAKS if self.format == ROUND_ROBIN else tiebreaks.SWISS_TIEBREAKS


def _results(t: TournamentRow, rows: list[PairingRow]) -> list[tiebreaks.Result]:
    """The results so far, round by round (a game decided without play is a forfeit for
    the tie-breaks: ``_unplayed``); a round robin's rest round (no points) is no result."""
    out = []
    for p in rows:
        if p.black_id is None:
            if p.bye_points:
                out.append(tiebreaks.Result(p.white_id, None, p.bye_points, p.round))
        elif p.status == GameStatus.FINISHED and p.result in WHITE_POINTS:
            out.append(tiebreaks.Result(p.white_id, p.black_id, WHITE_POINTS[p.result], p.round, _unplayed(p)))
    return out


def _unplayed(p: PairingRow) -> bool:
    """Whether a finished game was decided without being played: a forfeit or a withdrawal,
    or lost on time by a player who never moved (White before the first move, Black before
    the second)."""
    if p.reason in FORFEIT_REASONS:
        return True
    if p.reason != "time" or p.ply is None:
        return False
    return p.ply == 0 if p.result == "0-1" else p.ply <= 1


def _unfinished(rows: list[PairingRow]) -> set[tuple[int, int]]:
    """(player, round) of every game still going (or voided): no result of theirs yet."""
    out = set()
    for p in rows:
        if p.black_id is not None and not (p.status == GameStatus.FINISHED and p.result in WHITE_POINTS):
            out |= {(p.white_id, p.round), (p.black_id, p.round)}
    return out


async def tournament_view(tx: Tx, tables: TournamentTables, t: TournamentRow, now: int) -> TournamentView:
    """The event as it stands, read in ``tx``; the ratings shown are as they stand at ``now``."""
    entrants = await tables.entrants(t.id)
    rows = await tables.pairings(t.id)
    # every player named, and the entrants' ratings, each in one statement
    ids = {e.player_id for e in entrants} | {p.white_id for p in rows} | \
          {p.black_id for p in rows if p.black_id is not None} | ({t.creator_id} - {None})
    refs = {pid: ref(row) for pid, row in (await tx.players_by_id(ids)).items()}
    ratings = await tables.ratings(t.id, t.game)
    seeded = sorted(entrants, key=lambda e: (e.seed if e.seed is not None else 10**9, e.joined_at))
    players = [e.player_id for e in seeded]
    withdrawn = {e.player_id for e in entrants if e.withdrawn_at is not None}
    table = tiebreaks.standings(players, _results(t, rows), t.format, rounds=t.round if rows else 0,
                                unfinished=_unfinished(rows))
    standings = [StandingView(place, refs[s.player], s.points, s.tiebreaks, s.games, s.player in withdrawn,
                              rating_now(ratings.get(s.player), now).rating)
                 for place, s in enumerate(table, 1)]
    pairings = [PairingView(p.round, p.board, refs[p.white_id],
                            None if p.black_id is None else refs[p.black_id], p.game_id,
                            None if p.status == GameStatus.ACTIVE else p.result, p.reason, p.bye_points)
                for p in rows]
    creator = None if t.creator_id is None else refs[t.creator_id]
    return TournamentView(
        t.id, t.name, t.game, t.format, t.rounds, t.days, t.cycles == 2, bool(t.rated), t.status,
        t.round, from_ts(t.starts_at) if t.starts_at is not None else None,
        from_ts(t.round_deadline) if t.round_deadline is not None else None, t.max_players,
        t.min_rating, t.max_rating, creator, t.scope, [refs[p] for p in players], standings,
        pairings, starting=any(p.black_id is not None and p.game_id is None for p in rows),
        version=t.version, adjudicate=bool(t.adjudicate))
