"""Brute-force checks of forced wins, independent of the search: the engine's own outcome."""
from __future__ import annotations

from rules.pieces import WHITE


def wins(pos, mover: int) -> bool:
    """The game is over in pos, won by `mover` (checkmate, or stalemate where it loses)."""
    out = pos.outcome()
    return out is not None and out[0] == ("1-0" if mover == WHITE else "0-1")


def winning_moves(pos) -> list:
    """The moves after which the side to move has won."""
    return [m for m in pos.legal_moves() if wins(pos.apply(m), pos.side)]


def forces_win_in_two(pos, move) -> bool:
    """After `move`, every reply allows a winning move (or the move wins at once)."""
    child = pos.apply(move)
    if wins(child, pos.side):
        return True
    if child.outcome() is not None:
        return False
    return all(winning_moves(child.apply(r)) for r in child.legal_moves())
