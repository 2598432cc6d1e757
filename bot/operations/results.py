"""What the service's operations return: plain, frozen dataclasses an adapter shows."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from ..delivery import events as ev
from ..domain.kinds import ChallengeStatus, GameStatus, Outcome, Side


class _Ended:
    """A game's ``result`` and ``reason`` (None while it runs), also as an Outcome."""

    result: str | None
    reason: str | None

    @property
    def outcome(self) -> Outcome | None:
        return None if self.result is None else Outcome(self.result, self.reason or "")


@dataclass(frozen=True)
class MoveRecord:
    ply: int
    lan: str
    san: str
    side: Side
    player_id: int
    played_at: datetime


@dataclass(frozen=True)
class GameView(_Ended):
    id: int
    game: str
    white: ev.PlayerRef
    black: ev.PlayerRef
    status: GameStatus
    result: str | None
    reason: str | None
    start_vfen: str
    fen: str
    ply: int
    turn: Side  # the side to move (or to make the next set-up action)
    to_move: ev.PlayerRef | None  # None once the game is over
    days: int | None
    deadline: datetime | None  # the player to move's, vacation counted in
    seconds_left: int | None
    in_setup: bool
    in_check: bool
    draw_offer: Side | None  # side that offered
    takeback_by: Side | None  # side that asked
    moves: tuple[MoveRecord, ...]
    created_at: datetime
    ended_at: datetime | None
    scope: str | None = None  # where it was made ("discord:guild:<id>"); None: a DM, the terminal
    rated: bool = False
    white_rating: str | None = None  # '1523', '1500?' (provisional); None against the computer
    black_rating: str | None = None
    version: int = 0  # moves on with every change of the game (a move, an offer, a takeback, the end)

    def side_of(self, player_id: int) -> Side | None:
        return (Side.WHITE if player_id == self.white.id else Side.BLACK if player_id == self.black.id
                else None)


@dataclass(frozen=True)
class MoveResult:
    game: GameView
    lan: str
    san: str
    outcome: Outcome | None  # if the move (or the answer) ended the game
    #: the ply the move was played at (the answer's is the next). ``game`` is the game as
    #: this move left it, read in the move's own transaction: another process's next move,
    #: committed a moment later, is never in it (nor taken for this one)
    ply: int
    answer: str | None = None  # SAN of the opponent's conditional answer, played at once


@dataclass(frozen=True)
class Challenge:
    id: int
    challenger: ev.PlayerRef
    opponent: ev.PlayerRef | None  # None: open to anyone
    game: str
    days: int | None
    colour: str  # the challenger's
    setup: str
    status: ChallengeStatus
    created_at: datetime
    game_id: int | None
    scope: str | None = None  # where it was made (see GameView.scope)
    rated: bool = False
    expires_at: datetime | None = None  # unanswered by then, it expires


@dataclass(frozen=True)
class GameSummary(_Ended):
    id: int
    game: str
    white: ev.PlayerRef
    black: ev.PlayerRef
    my_side: Side
    opponent: ev.PlayerRef
    my_move: bool
    status: GameStatus
    result: str | None
    reason: str | None
    ply: int
    deadline: datetime | None
    seconds_left: int | None
    white_rating: str | None = None  # as in GameView: None against the computer
    black_rating: str | None = None


@dataclass(frozen=True)
class VacationInfo:
    on_vacation: bool
    since: datetime | None
    until: datetime | None
    used_seconds: int  # this (UTC) year, the running vacation included
    allowance_seconds: int

    @property
    def left_seconds(self) -> int:
        return max(0, self.allowance_seconds - self.used_seconds)


@dataclass(frozen=True)
class SweepReport:
    vacations_ended: int = 0
    games_timed_out: int = 0
    reminders: int = 0
    digests: int = 0
    delivered: int = 0
    pruned: int = 0
    challenges_expired: int = 0
    turns_retried: int = 0  # the computer's failed turns tried again (bot/computer/player.py)
