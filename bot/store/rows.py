"""The core's rows: one frozen dataclass per kind of row the statements (``Tx``) read back,
and ``as_row``, which makes one from a database row of either back end.
"""

from __future__ import annotations

from dataclasses import dataclass, fields


def as_row(cls, row):
    """The dataclass ``cls`` made from a database row (of either driver) by the columns it
    names; None for no row."""
    if row is None:
        return None
    names = {f.name for f in fields(cls)}
    return cls(**{k: row[k] for k in row.keys() if k in names})  # noqa: SIM118 (sqlite3.Row)


@dataclass(frozen=True)
class PlayerRow:
    id: int
    platform: str
    user_id: str
    name: str
    settings: str
    vacation_start: int | None
    vacation_until: int | None
    created_at: int
    next_digest_at: int | None = None  # schema 8


@dataclass(frozen=True)
class ChallengeRow:
    id: int
    challenger_id: int
    opponent_id: int | None
    game: str
    days: int | None
    colour: str
    setup: str
    status: str
    created_at: int
    answered_at: int | None
    answered_by: int | None
    game_id: int | None
    scope: str | None = None
    rated: int = 0  # schema 8
    expires_at: int | None = None


@dataclass(frozen=True)
class GameRow:
    id: int
    game: str
    challenge_id: int | None
    white_id: int
    black_id: int
    start_vfen: str
    current_vfen: str
    ply: int
    version: int
    turn_no: int
    status: str
    result: str | None
    reason: str | None
    days: int | None
    to_move: str | None
    to_move_id: int | None
    turn_started_at: int
    deadline: int | None
    draw_offer: str | None
    takeback_by: str | None
    created_at: int
    ended_at: int | None
    scope: str | None = None
    rated: int = 0  # schema 8


@dataclass(frozen=True)
class MoveRow:
    game_id: int
    ply: int
    lan: str
    san: str
    player_id: int
    side: str
    played_at: int
    vfen: str | None = None  # the position after it (schema 6)


@dataclass(frozen=True)
class PremoveRow:
    game_id: int
    player_id: int
    ply: int  # the game's ply when set: the tree's root is the opponent's move after it
    tree: str  # JSON (bot/operations/premoves.py)
    updated_at: int


@dataclass(frozen=True)
class DueGameRow:
    """An active game with a clock, and the vacation of the player to move."""

    id: int
    version: int
    to_move_id: int
    turn_started_at: int
    deadline: int
    vacation_start: int | None
    vacation_until: int | None


@dataclass(frozen=True)
class PendingReminderRow:
    """A pending reminder of a game's current turn, with what deciding on it needs."""

    id: int
    game_id: int
    turn_no: int
    player_id: int
    kind: str
    before_deadline: int | None
    turn_started_at: int
    deadline: int | None
    settings: str
    vacation_start: int | None
    vacation_until: int | None


@dataclass(frozen=True)
class EventRow:
    id: int
    kind: str
    player_id: int | None
    game_id: int | None
    turn_no: int | None
    payload: str
    created_at: int
    status: str
    attempts: int
    next_try_at: int
    claimed_at: int | None
    sent_at: int | None
    last_error: str | None
    claimed_by: str | None = None  # schema 6
    lease_until: int | None = None


@dataclass(frozen=True)
class ReminderRow:
    id: int
    game_id: int
    turn_no: int
    player_id: int
    kind: str
    before_deadline: int | None
    status: str
    done_at: int | None
    event_id: int | None
    due_at: int | None = None  # nominal due time (schema 3)


@dataclass(frozen=True)
class RatingRow:
    """A player's Glicko-2 rating in one game, as of ``rated_at`` (their last rated game)."""

    player_id: int
    game: str
    rating: float
    deviation: float
    volatility: float
    games: int
    rated_at: int
