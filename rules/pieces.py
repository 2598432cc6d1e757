"""Piece types (from a game's data), piece kinds (a type in a colour and state), and the
moves they make.

A *kind* is what stands on a square: the type, its colour and, for pieces
that carry one, its state (Cyclops facing, Spearman setting, Wall side). Kinds
are interned per game, so the board compares them by identity, and each kind
owns its move tables, built lazily square by square, and its *plans* (``Plan``:
the ``Move`` objects of its tables on one square, made once by rules.movegen).

``Move`` and ``Plan`` live here beside ``PieceKind`` because each names the other:
a move names the kinds it moves, and a kind holds its plans of moves. So do the
small interfaces a kind needs of what it is attached to (``KindGame``: its game,
seen from here; ``Mover``: a special mover, rules.game.SpecialMover; ``BoardView``:
what a special mover sees of a position), so that this module imports nothing above it.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol, TypeAlias

from language.text import Text

from . import betza
from .geometry import Geometry
from .paths import path_rays
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


class KindGame(Protocol):
    """What a kind needs of its game (rules.game.Game is one): the board, and the squares
    its moves depend on."""

    geometry: Geometry

    def initial_squares(self, ptype: PieceType, color: int) -> frozenset[int]: ...

    def zone(self, name: str, color: int) -> frozenset[int]: ...


class PieceKind:
    """A piece type in a colour (and state). Interned: compare with `is`."""

    __slots__ = ("type", "color", "state", "symbol", "royal", "hook", "_tables", "_plans",
                 "_components", "game", "key", "stateful")

    def __init__(self, game: KindGame, ptype: PieceType, color: int, state: str | None):
        self.game = game
        self.type = ptype
        self.key = ptype.key
        self.color = color
        self.state = state
        self.royal = ptype.royal
        self.stateful = bool(ptype.states) and ptype.chosen
        letter = ptype.key if color == WHITE else ptype.key.lower()
        self.symbol = letter + (f"({state})" if state is not None else "")
        self.hook: Mover | None = None
        self._tables: list[SquareMoves | None] = [None] * game.geometry.size
        self._plans: list[Plan | None] = [None] * game.geometry.size   # made by rules.movegen.plan_at
        src = ptype.state_betza.get(state, ptype.betza) if state is not None else ptype.betza
        self._components = betza.parse(src) if src else []

    def moves_at(self, sq: int) -> SquareMoves:
        t = self._tables[sq]
        if t is None:
            t = self._compile(sq)
            self._tables[sq] = t
        return t

    def _compile(self, sq: int) -> SquareMoves:
        g = self.game
        on_initial = sq in g.initial_squares(self.type, self.color)
        allowed = g.zone(self.type.confined, self.color) if self.type.confined else None
        sm = compile_square(self._components, g.geometry, self.color, sq, on_initial, allowed)
        if self.type.paths:
            extra = path_rays(self.type.paths, g.geometry, self.color, sq, allowed)
            sm = SquareMoves(list(sm.entries) + extra, list(sm.hops))
        return sm

    @property
    def name(self) -> str:
        t = self.type
        return t.side_names[self.color] if t.side_names else t.name

    def __repr__(self) -> str:
        return f"<{self.symbol}>"


#: what stands on each square of a board (None: empty, or a hole)
Board: TypeAlias = "list[PieceKind | None]"


class BoardView(Protocol):
    """What a special mover sees of a position: the board (rules.position.Position is one)."""

    @property
    def board(self) -> Board: ...


class Mover(Protocol):
    """A special mover, as the core calls it (rules.game.SpecialMover documents each method
    and is the base of every one)."""

    span: int

    def pseudo_moves(self, pos: BoardView, sq: int, kind: PieceKind) -> Iterable[Move]: ...

    def attacks(self, board: Sequence[PieceKind | None], sq: int, kind: PieceKind, target: int) -> bool: ...

    def watch(self, board: Sequence[PieceKind | None], sq: int, kind: PieceKind,
              target: int) -> Iterable[int] | None: ...

    def zone(self, sq: int, kind: PieceKind, target: int) -> Iterable[int] | None: ...

    def linked(self, board: Sequence[PieceKind | None], sq: int, kind: PieceKind) -> tuple[int, ...]: ...

    def partner_steps(self, state: str) -> tuple[tuple[int, int], ...]: ...

    def san(self, pos: BoardView, move: Move) -> str: ...

    def state_words(self, state: str) -> str: ...

    def state_text(self, state: str) -> Text: ...


# --- moves -------------------------------------------------------------------------------

class MoveKind(StrEnum):
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
    Equal moves have equal LAN. ``new`` is None only in a special mover's move that the
    core has still to expand over states and promotions (rules.movegen); never in a
    position's moves.
    """

    __slots__ = ("kind", "frm", "to", "piece", "new", "captures", "clear", "put", "_lan", "ep", "touch", "memo")

    def __init__(self, kind: MoveKind, frm: int | None, to: int, piece: PieceKind, new: PieceKind | None,
                 captures: tuple[int, ...] = (), clear: tuple[int, ...] | None = None,
                 put: tuple[tuple[int, PieceKind], ...] | None = None, lan: str | None = None,
                 ep: bool = False):
        self.kind = kind
        self.frm = frm
        self.to = to
        self.piece = piece
        self.new = new
        self.captures = captures
        self.clear: tuple[int, ...] = clear if clear is not None else (
            (frm,) + captures if frm is not None else captures)
        self.put: tuple[tuple[int, PieceKind], ...] = put if put is not None else (
            ((to, new),) if new is not None else ())
        self._lan = lan
        self.ep = ep
        self.touch: int | None = None   # the squares it changes as bits (rules.movegen.touch), once asked
        # what a searcher derives from the move once (ai.search), in the searcher's own
        # shape; rules never read it
        self.memo: Any = None

    @property
    def lan(self) -> str:
        if self._lan is None:
            self._lan = self._make_lan()
        return self._lan

    def _make_lan(self) -> str:
        names = self.piece.game.geometry.names
        new = self.new
        assert new is not None, "an unexpanded special move has no LAN"
        if self.kind == DROP:
            return f"{new.key}@{names[self.to]}"
        frm = self.frm
        assert frm is not None, "only a drop or a set-up action comes from no square"
        if self.kind == TURN:
            return f"{names[frm]}({new.state})"
        if self.kind == SHOT:
            return f"{names[frm]}^{names[self.to]}"
        text = names[frm] + names[self.to]
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
    def promotion(self) -> PieceKind | None:
        """The promoted-to kind, or None."""
        if self.kind in (NORMAL, CASTLE) and self.new is not None and self.new.type is not self.piece.type:
            return self.new
        return None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Move) and self.lan == other.lan

    def __hash__(self) -> int:
        return hash(self.lan)

    def __repr__(self) -> str:
        return f"Move({self.lan})"

    def __str__(self) -> str:
        return self.lan


# --- plans: a kind's moves from one square, made once (rules.movegen builds them) ----------

#: one square of a ray: (square, the moves to it when empty, the moves taking there); a
#: tuple of moves is empty where the piece may not move or take
Target: TypeAlias = "tuple[int, tuple[Move, ...], tuple[Move, ...]]"
#: (squares that must be empty first, the ray's targets, whether en passant may take)
PlanEntry: TypeAlias = "tuple[tuple[int, ...], tuple[Target, ...], bool]"

LEAPS, RAYS, GENERAL, SPECIAL = range(4)


class Plan:
    """The moves of one kind on one square, in the generation order of its tables.

    entries: (prefix, targets, ep_ok) with targets ((square, quiet moves, capturing moves),
    ...) - a tuple of moves is empty where the piece may not move or capture; hops:
    (targets,) for hoppers; turns: its changes of state in place; overlap: whether two
    ways reach one square (a square is then given once, by the first way).

    mode says which walk rules.movegen.pseudo_list may inline: LEAPS (every entry one square,
    nothing to find empty first, no en passant: ``flat`` holds the targets), RAYS (no
    prefix, no en passant: ``rays`` holds each entry's targets), GENERAL (entries with
    prefixes or en passant), or SPECIAL (hops, overlaps, hooks or turns:
    ``piece_moves``)."""
    __slots__ = ("entries", "hops", "turns", "overlap", "mode", "flat", "rays", "prey", "taking_entries",
                 "taking_overlap")

    def __init__(self, entries: tuple[PlanEntry, ...], hops: tuple[tuple[tuple[Target, ...]], ...],
                 turns: tuple[Move, ...], overlap: bool, special: bool = False):
        self.entries = entries
        self.hops = hops
        self.turns = turns
        self.overlap = overlap
        self.rays = tuple(targets for _p, targets, _e in entries)
        # the entries that can take something (a captures-only walk needs no other: a
        # Cannon's slides only move)
        self.taking_entries = tuple(e for e in entries if e[2] or any(taking for _t, _q, taking in e[1]))
        # whether two of its ways could take on one square (a Cannon's slides and hops
        # share squares, but only the hops take): a captures-only walk then needs no
        # record of the squares given
        taken: set[int] = set()
        self.taking_overlap = False
        for targets in [e[1] for e in self.taking_entries] + [h[0] for h in hops]:
            for t, _quiet, taking in targets:
                if taking:
                    if t in taken:
                        self.taking_overlap = True
                    taken.add(t)
        self.flat = tuple(ts[0] for ts in self.rays if len(ts) == 1)
        # the squares it could take on (en passant: the square it moves to), as bits;
        # -1 (all) for a special mover
        prey = -1 if special else 0
        for _p, targets, epok in entries:
            for t, _quiet, taking in targets:
                if taking or epok:
                    prey |= 1 << t
        for (targets,) in hops:
            for t, _quiet, taking in targets:
                if taking:
                    prey |= 1 << t
        self.prey = prey
        if special or hops or turns or overlap:
            self.mode = SPECIAL
        elif any(prefix or epok for prefix, _t, epok in entries):
            self.mode = GENERAL
        elif len(self.flat) == len(entries):
            self.mode = LEAPS
        else:
            self.mode = RAYS
