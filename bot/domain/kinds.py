"""The service's small types: a side, a game's status, how a game ended.

``Side`` and ``GameStatus`` are ``StrEnum``s whose values are what the store's columns
and the rules engine hold ('w'/'b', 'active'/...): they compare equal to those strings,
so code that still compares with ``"w"`` or ``"active"`` keeps working."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Side(StrEnum):
    WHITE = "w"
    BLACK = "b"

    @property
    def other(self) -> Side:
        return Side.BLACK if self is Side.WHITE else Side.WHITE


class GameStatus(StrEnum):
    ACTIVE = "active"
    FINISHED = "finished"
    ABORTED = "aborted"


class ChallengeStatus(StrEnum):
    OPEN = "open"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    CANCELLED = "cancelled"
    EXPIRED = "expired"  # unanswered in time (bot/operations/challenges.py)


_WIN = {Side.WHITE: "1-0", Side.BLACK: "0-1"}
_DRAW = "1/2-1/2"
_NO_RESULT = "*"  # an aborted game's


@dataclass(frozen=True, eq=False)
class Outcome:
    """How a game ended: ``result`` ("1-0", "0-1", "1/2-1/2"; "*" when aborted) and
    ``reason`` ("checkmate", "time", "agreement", ...).

    It compares equal to the ``(result, reason)`` pair it replaces, and unpacks as one,
    so callers written for the pair keep working."""

    result: str
    reason: str

    def __post_init__(self) -> None:
        if self.result not in (*_WIN.values(), _DRAW, _NO_RESULT):
            raise ValueError(f"not a game result: {self.result!r}")

    @classmethod
    def win(cls, side: Side | str, reason: str) -> Outcome:
        return cls(_WIN[Side(side)], reason)

    @classmethod
    def loss(cls, side: Side | str, reason: str) -> Outcome:
        """``side`` loses (resigned, ran out of time)."""
        return cls.win(Side(side).other, reason)

    @classmethod
    def draw(cls, reason: str) -> Outcome:
        return cls(_DRAW, reason)

    @classmethod
    def aborted(cls) -> Outcome:
        return cls(_NO_RESULT, "aborted")

    @property
    def winner(self) -> Side | None:
        """The side that won; None for a draw or an aborted game."""
        return next((side for side, result in _WIN.items() if result == self.result), None)

    def __iter__(self):
        return iter((self.result, self.reason))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (Outcome, tuple)):
            return tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.result, self.reason))
