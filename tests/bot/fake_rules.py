"""A stand-in for the ``rules`` package with the same interface and a trivial game.

Game ``fake``: any of a1, b2, c3, d4 may be played at any time; ``mate`` ends the
game, the mover winning by checkmate; ``stale`` ends it drawn. The position
string lists the moves made, so a replay that went wrong shows in ``fen()``.
Used by the service tests that are about the service, not the rules.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.errors import FenError, IllegalMoveError, UnknownGameError

MOVES = ("a1", "b2", "c3", "d4", "mate", "stale")


@dataclass(frozen=True)
class Move:
    lan: str


class Position:
    in_setup = False  # the fake game has no set-up phase

    def __init__(self, history: tuple[str, ...], side: str, fullmove: int):
        self.history = history
        self.turn = side
        self.fullmove = fullmove
        self._outcome = None
        if history and history[-1] == "mate":
            self._outcome = ("0-1" if side == "w" else "1-0", "checkmate")
        elif history and history[-1] == "stale":
            self._outcome = ("1/2-1/2", "stalemate")

    def fen(self) -> str:
        board = "/".join(self.history) or "-"
        return f"{board} {self.turn} - - 0 {self.fullmove}"

    def legal_moves(self):
        return [] if self._outcome else [Move(m) for m in MOVES]

    def parse(self, text):
        if isinstance(text, Move):
            return text
        t = str(text).strip().lower()
        if self._outcome:
            raise IllegalMoveError("the game has ended")
        if t not in MOVES:
            raise IllegalMoveError(f"{text!r} is not a legal move here")
        return Move(t)

    def san(self, move) -> str:
        return move.lan.upper()

    def play(self, move):
        m = self.parse(move)
        side = "b" if self.turn == "w" else "w"
        return Position(self.history + (m.lan,), side, self.fullmove + (self.turn == "b"))

    def in_check(self) -> bool:
        return False

    def outcome(self):
        return self._outcome


def variants():
    return ["fake", "fake2"]


@dataclass(frozen=True)
class Game:
    id: str
    setup_start_fen: str | None = None  # no set-up phase


def game(game_id):
    if game_id not in variants():
        raise UnknownGameError(f"no game {game_id!r}")
    return Game(game_id)


def start(game_id):
    if game_id not in variants():
        raise UnknownGameError(f"no game {game_id!r}")
    return Position((), "w", 1)


def from_fen(game_id, vfen):
    if game_id not in variants():
        raise UnknownGameError(f"no game {game_id!r}")
    try:
        board, side, _, _, _, full = vfen.split(" ")[:6]
    except ValueError:
        raise FenError(f"bad position {vfen!r}") from None
    return Position(tuple(board.split("/")) if board != "-" else (), side, int(full))
