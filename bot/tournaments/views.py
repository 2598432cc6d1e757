"""What the tournament operations return: an event as its players see it (entrants,
standings with their tie-breaks, pairings and results), read in one transaction."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from ..delivery import events as ev
from ..delivery.events import ref
from ..domain.kinds import GameStatus
from ..operations.ratings import rating_now
from ..store import Tx
from ..timekeeping.clock import from_ts
from . import pairing
from .director_tables import DECIDED_WHITE_POINTS, DecisionRow, DirectorTables
from .tables import ROUND_ROBIN, PairingRow, TournamentRow, TournamentTables

WHITE_POINTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


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
    decided: str | None = None  # a decided result's note: who decided it, and why


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

    @property
    def tiebreak_names(self) -> tuple[str, ...]:
        return ("SB",) if self.format == ROUND_ROBIN else ("Buchholz", "Median")


def counted_result(p: PairingRow, decisions: dict[int, DecisionRow], plies: dict[int, int]) -> str | None:
    """The result the event counts for a pairing's game: a decided one (by a director, or a
    withdrawal's rule); a game that never began (its side to move ran out of time before
    both sides moved) as a forfeit by that side ("+/-", "-/+"); else the game's own once it
    is over. None while it goes on."""
    decision = decisions.get(p.game_id) if p.game_id is not None else None
    if decision is not None:
        return decision.result
    if p.status != GameStatus.FINISHED or p.result not in WHITE_POINTS:
        return None if p.status == GameStatus.ACTIVE else p.result  # "*": aborted, counts for no one
    if p.reason == "time" and plies.get(p.game_id, 2) < 2:
        return "+/-" if p.result == "1-0" else "-/+"
    return p.result


async def counted_results(tx: Tx, tournament_id: int, rows: list[PairingRow]) -> dict[int, str | None]:
    """Each game's ``counted_result`` (by game id), read in ``tx``."""
    directing = DirectorTables(tx)
    decisions = await directing.decisions(tournament_id)
    plies = await directing.plies_of_time_losses(tournament_id)
    return {p.game_id: counted_result(p, decisions, plies) for p in rows if p.game_id is not None}


def _results(rows: list[PairingRow], decisions: dict[int, DecisionRow],
             plies: dict[int, int]) -> list[pairing.Result]:
    out = []
    for p in rows:
        if p.black_id is None:
            if p.bye_points:
                out.append(pairing.Result(p.white_id, None, p.bye_points))
            continue
        points = DECIDED_WHITE_POINTS.get(counted_result(p, decisions, plies) or "")
        if points is not None:
            out.append(pairing.Result(p.white_id, p.black_id, points))
    return out


def _note(decision: DecisionRow | None) -> str | None:
    if decision is None:
        return None
    return f"decided by {decision.decided_by}: {decision.reason}"


async def tournament_view(tx: Tx, tables: TournamentTables, t: TournamentRow, now: int) -> TournamentView:
    """The event as it stands, read in ``tx``; the ratings shown are as they stand at ``now``."""
    entrants = await tables.entrants(t.id)
    rows = await tables.pairings(t.id)
    directing = DirectorTables(tx)
    directors = await directing.directors(t.id)
    decisions = await directing.decisions(t.id)
    plies = await directing.plies_of_time_losses(t.id)
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
    table = pairing.standings([p for p in players if p not in gone], _results(rows, decisions, plies), t.format)
    standings = [StandingView(place, refs[s.player], s.points, s.tiebreaks, s.games, s.player in withdrawn,
                              rating_now(ratings.get(s.player), now).rating)
                 for place, s in enumerate(table, 1)]
    pairings = [PairingView(p.round, p.board, refs[p.white_id],
                            None if p.black_id is None else refs[p.black_id], p.game_id,
                            counted_result(p, decisions, plies) if p.game_id is not None else None,
                            p.reason, p.bye_points, _note(decisions.get(p.game_id)))
                for p in rows]
    creator = None if t.creator_id is None else refs[t.creator_id]
    return TournamentView(
        t.id, t.name, t.game, t.format, t.rounds, t.days, t.cycles == 2, bool(t.rated), t.status,
        t.round, from_ts(t.starts_at) if t.starts_at is not None else None,
        from_ts(t.round_deadline) if t.round_deadline is not None else None, t.max_players,
        t.min_rating, t.max_rating, creator, t.scope, [refs[p] for p in players], standings,
        pairings, [refs[d] for d in directors], policy.withdrawal, policy.timeouts)
