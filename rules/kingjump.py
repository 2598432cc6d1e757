"""The royal's one-time jump (data flags ``king_jump`` and ``king_jump_from``).

Everything about it is here: which square it starts from, the moves it adds, its VFEN
right (the file letter of the start square, as for a Rook's castling right), and why
a text naming a refused jump is refused. While the right stands, the royal that has
not moved and is not in check may jump once to an empty square two away ((2,0),
(2,1) or (2,2)), never capturing, if the destination is safe and a middle square of
the jump is not attacked.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

from language.text import T, known

from .errors import LeavesRoyalInCheckError, NoSuchMoveError, RulesError
from .geometry import Geometry
from .pieces import NORMAL, Board, Move

_LEAPS = tuple((dx, dy) for dx in range(-2, 3) for dy in range(-2, 3) if max(abs(dx), abs(dy)) == 2)


class JumpView(Protocol):
    """What the jump looks at in a position (rules.position.Position is one)."""

    board: Board
    side: int
    rights: frozenset[int]
    royal: list[int | None]

    def in_check(self) -> bool: ...

    def is_attacked(self, sq: int, by: int) -> bool: ...


class KingJump:
    def __init__(self, geometry: Geometry, start: str):
        self.geometry = geometry
        white = geometry.parse_square(start)
        self._square = (white, geometry.mirror_rank(white))

    def square(self, color: int) -> int:
        """The square from which this side's royal may jump (its right's square)."""
        return self._square[color]

    # --- VFEN rights --------------------------------------------------------------
    def right_for_file(self, color: int, file: int) -> int | None:
        """The right's square a VFEN letter of this file names, or None."""
        sq = self._square[color]
        return sq if self.geometry.file_of(sq) == file else None

    def is_right(self, color: int, sq: int) -> bool:
        return self._square[color] == sq

    # --- moves ---------------------------------------------------------------------
    def _middles(self, frm: int, dx: int, dy: int) -> list[int]:
        """The squares a royal could pass through on this jump (off-board ones left out)."""
        geo = self.geometry
        sx, sy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
        if abs(dx) == abs(dy) or dx == 0 or dy == 0:
            mids = [geo.step(frm, sx, sy)]
        elif abs(dx) == 2:
            mids = [geo.step(frm, sx, 0), geo.step(frm, sx, sy)]
        else:
            mids = [geo.step(frm, 0, sy), geo.step(frm, sx, sy)]
        return sorted(m for m in mids if m is not None)

    def moves(self, pos: JumpView) -> Iterator[Move]:
        """The jumps of the side to move (pseudo-legal: the destination's safety is
        the core's legality test)."""
        us, them = pos.side, 1 - pos.side
        r = pos.royal[us]
        if r is None or r not in pos.rights or pos.in_check():
            return
        geo = self.geometry
        board = pos.board
        k = board[r]
        assert k is not None, "a royal stands on its square"
        for dx, dy in _LEAPS:
            to = geo.step(r, dx, dy)
            if to is None or board[to] is not None:
                continue
            mids = self._middles(r, dx, dy)
            if all(pos.is_attacked(m, them) for m in mids):
                continue
            yield Move(NORMAL, r, to, k, k, ())

    def refusal(self, pos: JumpView, frm: int, to: int) -> RulesError | None:
        """Why the royal on frm may not jump to to now, or None if that is no jump."""
        geo = self.geometry
        dx, dy = geo.file_of(to) - geo.file_of(frm), geo.rank_of(to) - geo.rank_of(frm)
        if max(abs(dx), abs(dy)) != 2:
            return None
        royal = pos.board[frm]
        assert royal is not None, "a refusal is asked of the royal's square"
        name, dest = known(royal.name), geo.names[to]
        if frm != self._square[pos.side] or frm not in pos.rights:
            return NoSuchMoveError(T("the {piece} cannot jump to {dest}: the jump is made only once, by a {piece} "
                                     "that has not moved", piece=name, dest=dest))
        if pos.board[to] is not None:
            return NoSuchMoveError(T("the {piece} cannot jump to {dest}: the jump needs an empty square, it never "
                                     "captures", piece=name, dest=dest))
        if pos.in_check():
            return LeavesRoyalInCheckError(T("the {piece} cannot jump while in check", piece=name))
        mids = self._middles(frm, dx, dy)
        if all(pos.is_attacked(m, 1 - pos.side) for m in mids):
            if len(mids) == 1:
                return LeavesRoyalInCheckError(T("the {piece} cannot jump to {dest}: it would pass {square}, which "
                                                 "is attacked", piece=name, dest=dest, square=geo.names[mids[0]]))
            return LeavesRoyalInCheckError(T("the {piece} cannot jump to {dest}: it would pass {squares} and {last}, "
                                             "both attacked", piece=name, dest=dest,
                                             squares=" and ".join(geo.names[m] for m in mids[:-1]),
                                             last=geo.names[mids[-1]]))
        return LeavesRoyalInCheckError(T("the {piece} cannot jump to {dest}: it would be in check there",
                                         piece=name, dest=dest))


__all__ = ["KingJump"]
