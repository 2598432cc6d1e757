"""A move: what it changes on the board, and its canonical text (LAN)."""
from __future__ import annotations

from enum import Enum


class MoveKind(str, Enum):
    """What sort of move it is. A str enum whose values are the old one-letter codes,
    so a kind compares equal to its letter (moves are stored as LAN, never as kinds)."""
    NORMAL = "n"   # a piece moves (and may capture, promote, change state)
    CASTLE = "c"
    DROP = "d"     # a piece from hand onto the board
    TURN = "t"     # a stateful piece changes state in place
    SHOT = "s"     # a capture from a distance: the shooter stays
    SPAN = "w"     # a piece standing on several squares moves (its mover writes the SAN)
    SETUP = "u"    # an action of a set-up phase, before the first move

    # plain str behaviour: printed as the letter, hashed and compared at str speed
    __str__ = str.__str__
    __hash__ = str.__hash__
    __eq__ = str.__eq__


NORMAL, CASTLE, DROP, TURN, SHOT, SPAN, SETUP = (
    MoveKind.NORMAL, MoveKind.CASTLE, MoveKind.DROP, MoveKind.TURN, MoveKind.SHOT, MoveKind.SPAN,
    MoveKind.SETUP)
WALL = SPAN  # the older name, kept for callers outside the engine


class Move:
    """One legal (or pseudo-legal) move.

    The board effect is ``clear`` (squares emptied, first) then ``put`` ((square,
    kind) placed). ``captures`` are the squares whose pieces the move removes.
    Equal moves have equal LAN.
    """

    __slots__ = ("kind", "frm", "to", "piece", "new", "captures", "clear", "put", "_lan", "ep", "touch", "memo")

    def __init__(self, kind: MoveKind, frm, to, piece, new, captures=(), clear=None, put=None, lan=None, ep=False):
        self.kind = kind
        self.frm = frm
        self.to = to
        self.piece = piece
        self.new = new
        self.captures = captures
        self.clear = clear if clear is not None else ((frm,) + captures if frm is not None else captures)
        self.put = put if put is not None else (((to, new),) if new is not None else ())
        self._lan = lan
        self.ep = ep
        self.touch = None   # the squares it changes as bits (rules.movegen.touch), once asked
        self.memo = None    # what a searcher derives from the move once (ai.search); rules never read it

    @property
    def lan(self) -> str:
        if self._lan is None:
            self._lan = self._make_lan()
        return self._lan

    def _make_lan(self) -> str:
        names = self.piece.game.geometry.names
        if self.kind == DROP:
            return f"{self.new.key}@{names[self.to]}"
        if self.kind == TURN:
            return f"{names[self.frm]}({self.new.state})"
        if self.kind == SHOT:
            return f"{names[self.frm]}^{names[self.to]}"
        text = names[self.frm] + names[self.to]
        new = self.new
        if new.type is not self.piece.type:
            text += "=" + new.key
            if new.state is not None:
                text += f"({new.state})"
        elif new.stateful:
            text += f"({new.state})"
        return text

    @property
    def is_capture(self) -> bool:
        return bool(self.captures)

    @property
    def promotion(self):
        """The promoted-to kind, or None."""
        if self.kind in (NORMAL, CASTLE) and self.new is not None and self.new.type is not self.piece.type:
            return self.new
        return None

    def __eq__(self, other):
        return isinstance(other, Move) and self.lan == other.lan

    def __hash__(self):
        return hash(self.lan)

    def __repr__(self):
        return f"Move({self.lan})"

    def __str__(self):
        return self.lan
