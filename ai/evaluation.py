"""The evaluation: material, mobility, royal safety, pieces in hand.

Per piece kind and square one number (White's view, centipawns), kept incrementally by
the searcher from the board changes of each move:

* material: ``values.piece_values`` (a Wall stands on two squares: half on each);
* mobility: the piece's occupancy-weighted mobility from that square minus its average
  over the board, times ``MOBILITY_CP`` (a centralised Knight is worth more; a Cyclops
  facing the board's edge less), and for pawn types a bonus growing towards promotion;
* royal safety (computed per evaluation, small boards of squares): own pieces next to
  the royal count ``SHIELD_CP`` each (up to three), enemy pieces within two squares cost
  ``PRESSURE_CP`` each;
* pieces in hand (King and Queen): ``HAND_SHARE`` of their board value.

No count of legal moves: the quiescence search stands pat without generating any.
"""
from __future__ import annotations

from functools import cache

from rules.game import Game, Hands
from rules.pieces import WHITE, Board, PieceKind
from rules.position import Position

from .values import kind_mobility, piece_values, square_mobility, squares_of

MOBILITY_CP = 6
PAWN_ADVANCE_CP = 4
SHIELD_CP = 10
PRESSURE_CP = 12
HAND_SHARE = 0.9


class Evaluator:
    """One game's evaluation tables."""

    def __init__(self, game: Game):
        self.game = game
        self.values = piece_values(game)
        self._tables: dict[PieceKind, list[int]] = {}
        geo = game.geometry
        self.near1: list[int] = []
        self.near2: list[int] = []
        for sq in range(geo.size):
            one: list[int] = []
            two: list[int] = []
            for dx in range(-2, 3):
                for dy in range(-2, 3):
                    t = geo.step(sq, dx, dy) if (dx or dy) else None
                    if t is None:
                        continue
                    (one if max(abs(dx), abs(dy)) == 1 else two).append(t)
            self.near1.append(sum(1 << t for t in one))
            self.near2.append(sum(1 << t for t in one + two))
        self._hand_cache: dict[int, tuple[Hands, int]] = {}   # id(hands) -> (hands, their score)

    def table(self, kind: PieceKind) -> list[int]:
        """Per square: the kind's material + mobility, White's view."""
        t = self._tables.get(kind)
        if t is None:
            t = self._tables[kind] = self._build(kind)
        return t

    def _build(self, kind: PieceKind) -> list[int]:
        game, geo = self.game, self.game.geometry
        ptype = kind.type
        value = self.values.get(kind.key, 0) / squares_of(kind)
        sign = 1 if kind.color == WHITE else -1
        out = [0] * geo.size
        if ptype.pawn:
            last = geo.height
            for sq in geo.squares:
                rank = game.relative_rank(sq, kind.color)
                advance = float(max(0, rank - 2) ** 1.5)
                out[sq] = sign * round(value + PAWN_ADVANCE_CP * advance / max(1, last / 8))
            return out
        avg = kind_mobility(kind) if not ptype.royal else 0.0
        for sq in geo.squares:
            if ptype.royal:
                out[sq] = 0
            else:
                out[sq] = sign * round(value + MOBILITY_CP * (square_mobility(kind, sq) - avg))
        return out

    def board_score(self, board: Board) -> int:
        """Material + mobility of a whole board, White's view (the searcher keeps it incrementally)."""
        total = 0
        for sq, k in enumerate(board):
            if k is not None:
                total += self.table(k)[sq]
        return total

    def hands_score(self, hands: Hands) -> int:
        # by the hands' identity (the engine makes one object per value: no nested tuple
        # hashed), the object held beside its score so that its id stays its own
        got = self._hand_cache.get(id(hands))
        if got is not None and got[0] is hands:
            return got[1]
        s = 0
        for color, sign in ((0, 1), (1, -1)):
            for key, count in hands[color]:
                s += sign * round(HAND_SHARE * self.values.get(key, 0)) * count
        if len(self._hand_cache) > 100_000:   # a bound for a long-running process
            self._hand_cache.clear()
        self._hand_cache[id(hands)] = (hands, s)
        return s

    def royal_safety(self, pos: Position) -> int:
        """White's view: shield around each royal, enemy pieces near it (the squares
        around each square, and each side's pieces, as bits)."""
        bits, royal = pos.bits, pos.royal
        return self.royal_safety_of(royal[0], royal[1], bits[0], bits[1])

    def royal_safety_of(self, white_royal: int | None, black_royal: int | None, white_bits: int,
                        black_bits: int) -> int:
        """royal_safety from the royals' squares (None: none) and each side's pieces as bits
        (a searcher asks it of a position it has not made)."""
        total = 0
        r = white_royal
        if r is not None:
            shield = (self.near1[r] & white_bits).bit_count()
            total += (SHIELD_CP * (shield if shield < 3 else 3)
                      - PRESSURE_CP * (self.near2[r] & black_bits).bit_count())
        r = black_royal
        if r is not None:
            shield = (self.near1[r] & black_bits).bit_count()
            total -= (SHIELD_CP * (shield if shield < 3 else 3)
                      - PRESSURE_CP * (self.near2[r] & white_bits).bit_count())
        return total


@cache
def evaluator(game: Game) -> Evaluator:
    return Evaluator(game)


def static_eval(pos: Position) -> int:
    """Centipawns for the side to move, without search."""
    ev = evaluator(pos.game)
    white = ev.board_score(pos.board) + ev.hands_score(pos.hands) + ev.royal_safety(pos)
    return white if pos.side == WHITE else -white
