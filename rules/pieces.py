"""Piece types (from a game's data) and piece kinds (a type in a colour and state).

A *kind* is what stands on a square: the type, its colour and, for pieces
that carry one, its state (Cyclops facing, Spearman setting, Wall side). Kinds
are interned per game, so the board compares them by identity, and each kind
owns its move tables, built lazily square by square.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from . import betza
from .tables import SquareMoves, compile_square

WHITE, BLACK = 0, 1
COLOR_CHARS = "wb"


@dataclass
class Promotion:
    ranks: frozenset[int] = frozenset()   # relative ranks (1 = own back rank) that promote
    to: tuple[str, ...] = ()              # type keys to choose from
    on_capture: bool = False              # King and Queen: a capture promotes


@dataclass
class PieceType:
    key: str                      # "N", "+N"
    name: str
    betza: str = ""
    state_betza: dict[str, str] = field(default_factory=dict)
    states: tuple[str, ...] = ()  # the states it can be in (Cyclops facing, Spearman setting, Wall side)
    chosen: bool = True           # the owner chooses a new state after each move (and may turn in place)
    extra_states: tuple[str, ...] = ()  # states VFEN may show but no move chooses (Cyclops "?")
    royal: bool = False
    pawn: bool = False            # its moves reset the halfmove count
    ep_victim: bool = False       # a straight two-step creates an en passant square
    initial: tuple[str, ...] = () # White's initial squares (Black's mirrored)
    promotion: Promotion | None = None
    confined: str | None = None   # zone name prefix: "castle" -> castle_w / castle_b
    hook: str | None = None       # code for what data cannot say
    paths: str | None = None      # named path generator (Mini-rose)
    side_names: tuple[str, str] | None = None  # names for White/Black (King and Queen)
    description: str = ""
    # the figure pictures draw (a name in render's glyph registry; "white/black" when the
    # sides' figures differ); None: a lettered disc
    glyph: str | None = None

    @property
    def code(self) -> str:
        return self.key.lstrip("+")

    @property
    def promoted(self) -> bool:
        return self.key.startswith("+")


class PieceKind:
    """A piece type in a colour (and state). Interned: compare with `is`."""

    __slots__ = ("type", "color", "state", "symbol", "royal", "hook", "_tables", "_plans",
                 "_components", "game", "key", "stateful")

    def __init__(self, game, ptype: PieceType, color: int, state: str | None):
        self.game = game
        self.type = ptype
        self.key = ptype.key
        self.color = color
        self.state = state
        self.royal = ptype.royal
        self.stateful = bool(ptype.states) and ptype.chosen
        letter = ptype.key if color == WHITE else ptype.key.lower()
        self.symbol = letter + (f"({state})" if state is not None else "")
        self.hook = None
        self._tables: list[SquareMoves | None] = [None] * game.geometry.size
        self._plans: list = [None] * game.geometry.size   # rules.movegen.Plan per square
        src = ptype.state_betza.get(state, ptype.betza) if state is not None else ptype.betza
        self._components = betza.parse(src) if src else []

    def moves_at(self, sq: int) -> SquareMoves:
        t = self._tables[sq]
        if t is None:
            t = self._compile(sq)
            self._tables[sq] = t
        return t

    def plan_at(self, sq: int):
        """Its moves from sq, made once (rules.movegen)."""
        p = self._plans[sq]
        if p is None:
            from .movegen import build_plan
            p = self._plans[sq] = build_plan(self, sq)
        return p

    def _compile(self, sq: int) -> SquareMoves:
        g = self.game
        on_initial = sq in g.initial_squares(self.type, self.color)
        allowed = g.zone(self.type.confined, self.color) if self.type.confined else None
        sm = compile_square(self._components, g.geometry, self.color, sq, on_initial, allowed)
        if self.type.paths:
            from .hooks import path_rays
            extra = path_rays(self.type.paths, g.geometry, self.color, sq, allowed)
            sm = SquareMoves(list(sm.entries) + extra, list(sm.hops))
        return sm

    @property
    def name(self) -> str:
        t = self.type
        return t.side_names[self.color] if t.side_names else t.name

    def __repr__(self):
        return f"<{self.symbol}>"
