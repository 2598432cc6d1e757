"""Piece values in centipawns, derived from each piece's mobility on its own board.

The mobility of a piece type is the average, over every square of the game's board,
of the squares it could reach from there on a board where each square is occupied
with probability 0.3: the i-th square of a ray (after a required-empty prefix of p
squares) counts 0.7 ** (p + i); move-only and capture-only ways half, hopper captures
a quarter; a square counts once. This discounts long
riders the way a crowded board does, so that one formula fits the orthodox values:

    value = 43 * mobility ** 1.17        (chess: N 300, B 346, R 497, Q 950)

A rider is worth more on a bigger board, which is what the Super Chess inventor says
of the Bishop. Pawn types are 100. Where the inventors give a value the table
``INVENTORS`` refines it (pieces whose moves are code, not Betza: Cyclops, Archer, Wall).
Royal pieces have no material value: mate scores stand for them.
"""
from __future__ import annotations

from collections.abc import Callable
from functools import cache

from rules.game import Game
from rules.pieces import Board, Move, PieceKind
from rules.position import Position

OCCUPANCY = 0.3
SCALE, POWER = 43.0, 1.17
PAWN = 100

# game -> type key -> value from the other values (cp), with the inventor's word
INVENTORS: dict[str, dict[str, Callable[[dict[str, int]], int]]] = {
    # Super Chess (Schulz): "The Cyclops is probably more powerful than a Bishop, though not
    # as strong as a Rook"; "The Archer is somewhat more powerful than the Knight ... might be
    # more or less valuable than a Bishop".
    "superchess": {
        "C": lambda v: (v["B"] + v["R"]) // 2,
        "A": lambda v: (v["N"] + v["B"]) // 2 + 20,
    },
    # Ganymede (inventor): the Wall "is worth about a pawn more than a rook".
    "ganymede": {
        "W": lambda v: v["R"] + PAWN,
    },
}


def square_mobility(kind: PieceKind, sq: int) -> float:
    """Occupancy-weighted count of the squares a kind reaches from sq (tables only).

    A square reached several ways counts once, by its likeliest way; a move-only or
    capture-only way counts half, a hopper's capture a quarter."""
    keep = 1.0 - OCCUPANCY
    sm = kind.moves_at(sq)
    best: dict[int, float] = {}
    for prefix, ray, mv, cap, _ep in sm.entries:
        base = keep ** len(prefix) * (1.0 if mv and cap else 0.5)
        for i, t in enumerate(ray):
            best[t] = max(best.get(t, 0.0), base * keep ** i)
    for ray, _mv, cap in sm.hops:
        if cap:
            for t in ray[1:]:
                best[t] = max(best.get(t, 0.0), 0.25)
    return sum(best.values())


def kind_mobility(kind: PieceKind) -> float:
    squares = kind.game.geometry.squares
    return sum(square_mobility(kind, sq) for sq in squares) / len(squares)


def from_mobility(mobility: float) -> int:
    return round(SCALE * float(mobility ** POWER))   # (float ** float is typed as maybe complex)


@cache
def piece_values(game: Game) -> dict[str, int]:
    """Type key -> centipawns for one game (royals 0)."""
    values: dict[str, int] = {}
    for key, t in game.types.items():
        if t.royal:
            values[key] = 0
        elif t.pawn:
            values[key] = PAWN
        else:
            kinds = game.state_kinds(key, 0)
            values[key] = from_mobility(sum(kind_mobility(k) for k in kinds) / len(kinds))
    for key, rule in INVENTORS.get(game.id, {}).items():
        if key in values:
            values[key] = rule(values)
    return values


def squares_of(kind: PieceKind) -> int:
    """How many squares one piece of this kind stands on (a Wall: two)."""
    return kind.hook.span if kind.hook is not None else 1


def material(pos: Position) -> int:
    """White's material minus Black's, board and hands, in centipawns."""
    values = piece_values(pos.game)
    total = 0.0
    for k in pos.board:
        if k is not None:
            v = values.get(k.key, 0) / squares_of(k)
            total += v if k.color == 0 else -v
    for color, sign in ((0, 1), (1, -1)):
        for key, n in pos.hands[color]:
            total += sign * values.get(key, 0) * n
    return round(total)


def capture_gain(board: Board, values: dict[str, int], m: Move) -> int:
    """What a move takes (every captured piece; an enemy royal counts 2000) plus what
    its promotion adds, in centipawns."""
    g = 0
    for s in m.captures:
        q = board[s]
        if q is not None and q.color != m.piece.color:
            g += values.get(q.key, 0) or 2000
    if m.new is not None and m.new.type is not m.piece.type:
        g += values.get(m.new.key, 0) - values.get(m.piece.key, 0)
    return g
