"""What the tournament operations return: an event as its players see it (entrants,
standings with their tie-breaks, pairings and results), read in one transaction."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from ..delivery import events as ev
from ..delivery.events import ref
from ..operations.ratings import rating_now
from ..store import Tx
from ..timekeeping.clock import from_ts
from . import tiebreaks
from .counting import WHITE_POINTS, counted_result, is_forfeit, white_points
from .director_tables import DecisionRow, DirectorTables
from .tables import ROUND_ROBIN, PairingRow, TournamentRow, TournamentTables

__all__ = ["WHITE_POINTS", "StandingView", "PairingView", "TournamentView", "tournament_view"]


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
    result: str | None  # None while the game goes on; "+/-", "-/+": a forfeit; "cancelled"
    reason: str | None
    bye_points: float | None
    decided: str | None = None  # a decided result's note: who decided it, and why (English)
    decided_by: str | None = None      # the note's parts, for the words to say it in any language
    decided_reason: str | None = None


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
    directors: list[ev.PlayerRef] = field(default_factory=list)
    withdrawal_rule: str = "iccf"
    timeout_limit: int = 3
    starting: bool = False  # games of its start or of its round still being made (batches.py)
    version: int = 0        # bumped by every change its page shows
    adjudicate: bool = False  # a Swiss round's games left at its deadline: adjudicated, or the director's

    @property
    def tiebreak_names(self) -> tuple[str, ...]:
        return tiebreaks.ROUND_ROBIN_TIEBREAKS if self.format == ROUND_ROBIN else tiebreaks.SWISS_TIEBREAKS


def _results(rows: list[PairingRow], counted: dict[int, str | None]) -> list[tiebreaks.Result]:
    """The results so far, round by round, as the event counts them (counting.py): a
    forfeit is an unplayed round for the tie-breaks; a cancelled or aborted game, and a
    round robin's rest round (no points), are no result."""
    out = []
    for p in rows:
        if p.black_id is None:
            if p.bye_points:
                out.append(tiebreaks.Result(p.white_id, None, p.bye_points, p.round))
            continue
        result = counted.get(p.game_id) if p.game_id is not None else None
        points = white_points(result)
        if points is not None:
            out.append(tiebreaks.Result(p.white_id, p.black_id, points, p.round, is_forfeit(result)))
    return out


def _unfinished(rows: list[PairingRow], counted: dict[int, str | None]) -> set[tuple[int, int]]:
    """(player, round) of every game with no counted result (still going, still to be made,
    voided or cancelled): no absence of theirs in that round."""
    out = set()
    for p in rows:
        if p.black_id is not None and white_points(counted.get(p.game_id) if p.game_id else None) is None:
            out |= {(p.white_id, p.round), (p.black_id, p.round)}
    return out


def _note(decision: DecisionRow | None) -> str | None:
    if decision is None:
        return None
    return f"decided by {decision.decided_by}: {decision.reason}"


def _parts(decision: DecisionRow | None) -> tuple[str | None, str | None]:
    return (None, None) if decision is None else (decision.decided_by, decision.reason)


async def tournament_view(tx: Tx, tables: TournamentTables, t: TournamentRow, now: int) -> TournamentView:
    """The event as it stands, read in ``tx``; the ratings shown are as they stand at ``now``."""
    entrants = await tables.entrants(t.id)
    rows = await tables.pairings(t.id)
    directing = DirectorTables(tx)
    directors = await directing.directors(t.id)
    decisions = await directing.decisions(t.id)
    counted = {p.game_id: counted_result(p, decisions) for p in rows if p.game_id is not None}
    gone = {w.player_id for w in (await directing.withdrawals(t.id)).values() if w.cancelled}
    policy = await directing.policy(t.id)
    # every player named, and the entrants' ratings, each in one statement
    ids = {e.player_id for e in entrants} | {p.white_id for p in rows} | \
          {p.black_id for p in rows if p.black_id is not None} | ({t.creator_id} - {None}) | set(directors)
    refs = {pid: ref(row) for pid, row in (await tx.players_by_id(ids)).items()}
    ratings = await tables.ratings(t.id, t.game)
    seeded = sorted(entrants, key=lambda e: (e.seed if e.seed is not None else 10**9, e.joined_at))
    players = [e.player_id for e in seeded]
    withdrawn = {e.player_id for e in entrants if e.withdrawn_at is not None}
    # a player whose results a withdrawal cancelled is gone from the table
    table = tiebreaks.standings([p for p in players if p not in gone], _results(rows, counted), t.format,
                                rounds=t.round if rows else 0, unfinished=_unfinished(rows, counted))
    standings = [StandingView(place, refs[s.player], s.points, s.tiebreaks, s.games, s.player in withdrawn,
                              rating_now(ratings.get(s.player), now).rating)
                 for place, s in enumerate(table, 1)]
    pairings = [PairingView(p.round, p.board, refs[p.white_id],
                            None if p.black_id is None else refs[p.black_id], p.game_id,
                            counted.get(p.game_id) if p.game_id is not None else None,
                            p.reason, p.bye_points, _note(decisions.get(p.game_id)),
                            *_parts(decisions.get(p.game_id)))
                for p in rows]
    creator = None if t.creator_id is None else refs[t.creator_id]
    return TournamentView(
        t.id, t.name, t.game, t.format, t.rounds, t.days, t.cycles == 2, bool(t.rated), t.status,
        t.round, from_ts(t.starts_at) if t.starts_at is not None else None,
        from_ts(t.round_deadline) if t.round_deadline is not None else None, t.max_players,
        t.min_rating, t.max_rating, creator, t.scope, [refs[p] for p in players], standings,
        pairings, [refs[d] for d in directors], policy.withdrawal, policy.timeouts,
        starting=any(p.black_id is not None and p.game_id is None for p in rows),
        version=t.version, adjudicate=bool(t.adjudicate))
