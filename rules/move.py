"""A move: what it changes on the board, and its canonical text (LAN).

``Move`` and ``MoveKind`` are defined in rules.pieces, beside the piece kinds they name
(a kind holds its plans of moves, a move names its kinds: one module, so no two import
each other); this module keeps their import path.
"""
from __future__ import annotations

from .pieces import CASTLE, DROP, NORMAL, SETUP, SHOT, SPAN, TURN, WALL, Move, MoveKind

__all__ = ["Move", "MoveKind", "NORMAL", "CASTLE", "DROP", "TURN", "SHOT", "SPAN", "SETUP", "WALL"]
