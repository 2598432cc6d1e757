"""A game: its board, pieces and rules, read from data/variants/<id>.toml; and the
interfaces of what plugs into it.

Beside ``Game`` stand the bases of the code for what data cannot say (rules/hooks/ holds
the code): ``SpecialMover`` (attached to a piece type by ``hook = "name"``) and
``GameExtension`` (a game's ``extension = "name"``), their registries, and
``PositionView``: what that code, and the text layer (rules.notation, rules.vfen), use
of a position - rules.position.Position is one. They are in this module because each
names the others (a game holds its movers and extension, they are shown positions, a
position holds its game); so nothing here imports the position, and the position
imports this. Finding and loading games by id: rules/catalog.py.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Protocol, TypeAlias, TypeVar

from language.text import T, Text, known

from . import schema
from .errors import GameDefinitionError, RulesError, VariantError
from .geometry import Geometry
from .kingjump import KingJump
from .paths import PATHS
from .pieces import BLACK, WHITE, Board, BoardView, Move, PieceKind, PieceType, Promotion
from .resources import data_path


def definitions_dir() -> Path:
    """The folder of the game definitions, ``<id>.toml`` each."""
    return data_path("variants")


@dataclass(frozen=True)
class Castling:
    color: int
    king: int
    king_to: int
    rook: int
    rook_to: int
    short: bool   # the shorter King move: O-O


class Game:
    def __init__(self, spec: dict[str, Any], source: str = "<data>"):
        # every key checked and defaulted by rules/schema.py; a VariantError names what is wrong
        spec = schema.check(spec, source, complete=True)
        self.spec = spec
        self.id: str = spec["id"]
        self.name: str = spec["name"]
        schema.check_squares(spec, source, Geometry(spec["files"], spec["ranks"]).parse_square, holes=True)
        self.geometry = Geometry(spec["files"], spec["ranks"], frozenset(spec["holes"]))
        schema.check_squares(spec, source, self.geometry.parse_square)
        # one bit past the board's squares: a royal's move carries it (rules.movegen)
        self.royal_bit = 1 << self.geometry.size
        # tuples shared by the moves of rules.movegen's plans (one copy of each)
        self.move_parts: dict[tuple[Any, ...], tuple[Any, ...]] = {}
        # moves made once though not in a plan: a special mover's moves expanded over states,
        # (kind, from, to, captures, clear) -> moves, and a capture of a piece on several
        # squares, ("span", ...) -> moves; one move per key: drops, (kind, square) -> move,
        # and castlings, ("castle", ...) -> move
        self.hook_moves: dict[tuple[Any, ...], tuple[Move, ...]] = {}
        self.made_moves: dict[tuple[Any, ...], Move] = {}
        self.start_fen: str = spec["start"]
        self.summary: str = spec["summary"]
        # for players: the special rules, a paragraph each, and how the game ends
        self.special_rules: tuple[str, ...] = tuple(spec["special_rules"])
        self.game_end: str = spec["game_end"]
        sides = spec["sides"]
        self.side_names: tuple[str, str] = (sides["white"], sides["black"])
        rules = spec["rules"]
        self.stalemate: str = rules["stalemate"]
        self.facing_royals: bool = rules["facing_royals"]
        self.king_jump: bool = rules["king_jump"]
        self.drop_zone: str | None = rules["drop_zone"]
        self.drop_order: tuple[str, ...] = tuple(rules["drop_order"])
        self.extension_name: str | None = rules["extension"]
        self.castling_letters: str | None = rules["castling_letters"]
        self.castling_rook: str = rules["castling_rook"]
        self._king_jump_from: str | None = rules["king_jump_from"]
        self.default_start_fen: str = spec["start"]
        # the position before a set-up phase (Super Chess), or None: where players choose
        self.setup_start_fen: str | None = spec["setup_start"]
        self.aliases: dict[str, str] = dict(spec["aliases"])
        geo = self.geometry
        self._zones: dict[str, frozenset[int]] = {}
        for zname, squares in spec["zones"].items():
            self._zones[zname] = frozenset(geo.parse_square(s) for s in squares)
        self.types: dict[str, PieceType] = {}
        for key, p in spec["pieces"].items():
            self.types[key] = self._piece_type(key, p)
        self.castlings: list[Castling] = []
        for c in spec["castling"]:
            king, king_to = geo.parse_square(c["king"]), geo.parse_square(c["king_to"])
            rook, rook_to = geo.parse_square(c["rook"]), geo.parse_square(c["rook_to"])
            self.castlings.append(Castling(WHITE, king, king_to, rook, rook_to, False))
            self.castlings.append(Castling(BLACK, geo.mirror_rank(king), geo.mirror_rank(king_to),
                                           geo.mirror_rank(rook), geo.mirror_rank(rook_to), False))
        # O-O is the shorter King move; on a tie (orthodox chess) the one towards the h side
        for color in (WHITE, BLACK):
            mine = [c for c in self.castlings if c.color == color]
            if mine:
                short = min(mine, key=lambda c: (abs(c.king_to - c.king), c.king_to < c.king))
                self.castlings = [Castling(c.color, c.king, c.king_to, c.rook, c.rook_to, c is short)
                                  if c.color == color else c for c in self.castlings]
        # vacating a square loses these rights (a King or Rook moved or was captured)
        lost: dict[int, set[int]] = {}
        for c in self.castlings:
            lost.setdefault(c.rook, set()).add(c.rook)
            lost.setdefault(c.king, set()).add(c.rook)
        for color in (WHITE, BLACK):
            j = self.king_jump_square(color)
            if j is not None:
                lost.setdefault(j, set()).add(j)
        self.rights_lost_from = {sq: frozenset(v) for sq, v in lost.items()}
        self._kinds: dict[tuple[str, int, str | None], PieceKind] = {}
        self._sources: list[list[frozenset[int]] | None] = [None, None]   # per colour: attack_sources
        self._between: dict[tuple[int, int], int | None] = {}
        self._initial: dict[tuple[str, int], frozenset[int]] = {}
        # the registries are filled when rules.hooks is imported, which importing rules does
        self.movers: dict[str, SpecialMover] = {}
        for t in self.types.values():
            if t.hook:
                if t.hook not in MOVERS:
                    raise VariantError(f"{source}: [pieces.{t.key}] hook: no special mover {t.hook!r} "
                                       f"(the movers: {', '.join(sorted(MOVERS))})")
                self.movers[t.key] = MOVERS[t.hook](self, t)
            if t.paths and t.paths not in PATHS:
                raise VariantError(f"{source}: [pieces.{t.key}] paths: no path generator {t.paths!r} "
                                   f"(the generators: {', '.join(sorted(PATHS))})")
        # whether some piece stands on several squares (taking one square takes them all)
        self.spans = any(m.span > 1 for m in self.movers.values())
        # every game has an extension object: the base one (no-op defaults) if none is named
        self.extension = GameExtension(self)
        if self.extension_name:
            if self.extension_name not in EXTENSIONS:
                raise VariantError(f"{source}: [rules] extension: no extension {self.extension_name!r} "
                                   f"(the extensions: {', '.join(sorted(EXTENSIONS))})")
            self.extension = EXTENSIONS[self.extension_name](self)

    def _piece_type(self, key: str, p: dict[str, Any]) -> PieceType:
        promo = None
        if p["promotion"] is not None:
            pr = p["promotion"]
            promo = Promotion(ranks=frozenset(pr["ranks"]), to=tuple(pr["to"]),
                              on_capture=pr["on_capture"])
        initial = tuple(p["initial"])
        initial += tuple(f"{f}{r}" for r in p["initial_ranks"] for f in self.geometry.files)
        names = p["side_names"]
        return PieceType(
            key=key, name=p["name"] or key, betza=p["betza"],
            state_betza=dict(p["state_betza"]), states=tuple(p["states"]),
            chosen=p["chosen"], extra_states=tuple(p["extra_states"]),
            royal=p["royal"], pawn=p["pawn"], ep_victim=p["ep_victim"],
            initial=initial, promotion=promo, confined=p["confined"], hook=p["hook"],
            paths=p["paths"], side_names=(names[0], names[1]) if names else None,
            description=p["description"], glyph=p["glyph"])

    # --- kinds -------------------------------------------------------------
    def kind(self, key: str, color: int, state: str | None = None) -> PieceKind:
        k = self._kinds.get((key, color, state))
        if k is None:
            if key not in self.types:
                raise GameDefinitionError(f"{self.id}: no piece {key!r}")
            k = PieceKind(self, self.types[key], color, state)
            if key in self.movers:
                k.hook = self.movers[key]
            self._kinds[(key, color, state)] = k
        return k

    def state_kinds(self, key: str, color: int) -> list[PieceKind]:
        """Every kind a piece of this type may be set to after a move."""
        t = self.types[key]
        if not t.states or not t.chosen:
            return [self.kind(key, color)]
        return [self.kind(key, color, s) for s in t.states]

    def all_kinds(self, color: int) -> list[PieceKind]:
        """Every kind of this colour that may stand on a board (each state, and none)."""
        out = []
        states: tuple[str | None, ...] = (None,)
        for key, t in self.types.items():
            for state in states + t.states + t.extra_states:
                out.append(self.kind(key, color, state))
        return out

    def attack_sources(self, color: int, target: int) -> frozenset[int]:
        """The squares from which some piece of this colour could capture on
        target, on a board empty but for it: whoever attacks target stands on one of
        them (a special mover's attacks on an empty board include all it ever makes).
        Built for every target at once, the first time a colour is asked about."""
        table = self._sources[color]
        if table is None:
            table = self._sources[color] = self._build_sources(color)
        return table[target]

    def _build_sources(self, color: int) -> list[frozenset[int]]:
        geo = self.geometry
        table: list[set[int]] = [set() for _ in range(geo.size)]
        empty: Board = [None] * geo.size
        for k in self.all_kinds(color):
            for x in geo.squares:
                for t in (k._tables[x] or k.moves_at(x)).attacks:
                    table[t].add(x)
                if k.hook is not None:
                    for t in geo.squares:
                        if k.hook.attacks(empty, x, k, t):
                            table[t].add(x)
        return [frozenset(s) for s in table]

    def build_tables(self) -> None:
        """Build now what move generation would build on first need and is too big to
        build in the middle of a timed search: every kind's move tables and attack maps,
        and who could attack each square (about 0.1-0.5 s for the 14 x 14 board)."""
        for color in (WHITE, BLACK):
            self.attack_sources(color, 0)

    # --- squares -----------------------------------------------------------
    def file_between(self, a: int, b: int) -> int | None:
        """The squares strictly between a and b as bits if they share a file, else None."""
        key = (a, b) if a < b else (b, a)
        got = self._between.get(key, -1)
        if got == -1:
            lo, hi = key
            w = self.geometry.width
            got = None if (hi - lo) % w else sum(1 << s for s in range(lo + w, hi, w))
            self._between[key] = got
        return got

    def initial_squares(self, ptype: PieceType, color: int) -> frozenset[int]:
        got = self._initial.get((ptype.key, color))
        if got is None:
            geo = self.geometry
            sqs = [geo.parse_square(s) for s in ptype.initial]
            if color == BLACK:
                sqs = [geo.mirror_rank(s) for s in sqs]
            got = self._initial[(ptype.key, color)] = frozenset(sqs)
        return got

    def zone(self, name: str, color: int) -> frozenset[int]:
        full = f"{name}_{'wb'[color]}"
        if full in self._zones:
            return self._zones[full]
        if name in self._zones:
            return self._zones[name]
        raise GameDefinitionError(f"{self.id}: no zone {full!r}")

    @cached_property
    def jump(self) -> KingJump | None:
        """The royal's one-time jump (rules.kingjump.KingJump), or None without one."""
        return (KingJump(self.geometry, self._king_jump_from) if self.king_jump and self._king_jump_from
                else None)

    def king_jump_square(self, color: int) -> int | None:
        """The square from which this side's King may make its one-time jump."""
        return self.jump.square(color) if self.jump is not None else None

    def relative_rank(self, sq: int, color: int) -> int:
        r = self.geometry.rank_of(sq)
        return r + 1 if color == WHITE else self.geometry.height - r

    def side_name(self, color: int) -> str:
        return self.side_names[color]

    def side_text(self, color: int) -> Text:
        """A side's name as a player reads it: the data's, in the reader's language."""
        return known(self.side_names[color])

    @cached_property
    def royal_keys(self) -> frozenset[str]:
        return frozenset(k for k, t in self.types.items() if t.royal)

    def __repr__(self) -> str:
        return f"<Game {self.id}>"


# --- what a position is, to the code below and to the text layer ---------------------------

#: per colour, the pieces in hand: (key, count) pairs in the game's drop order
Hands: TypeAlias = tuple[tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]]
#: what legality needs to know of the side to move's royal, once per position (in_check,
#: gate, sensitive, ways, check_mask, checkers): rules.attacks.royal_safety says each
Safety: TypeAlias = tuple[bool, int, int | None, list[tuple[int, int]], int, list[int]]


class PositionView(Protocol):
    """What special movers, extensions and the text layer (rules.notation, rules.vfen) use
    of a position: rules.position.Position is one, and documents each member."""

    game: Game
    board: Board
    side: int
    rights: frozenset[int]
    ep: int | None
    halfmove: int
    fullmove: int
    hands: Hands
    dropped: tuple[bool, bool]
    setup: str | None
    occ: list[set[int]]
    bits: list[int]
    royal: list[int | None]

    @property
    def turn(self) -> str: ...

    def in_check(self) -> bool: ...

    def is_attacked(self, sq: int, by: int) -> bool: ...

    def safety(self) -> Safety: ...

    def pseudo_moves(self) -> Iterator[Move]: ...

    def legal_moves(self) -> list[Move]: ...

    def is_legal(self, m: Move) -> bool: ...

    def apply(self, m: Move) -> PositionView: ...

    def outcome(self) -> tuple[str, str] | None: ...

    def ep_square(self) -> int | None: ...

    def parse(self, text: str) -> Move: ...

    def san(self, move: Move | str) -> str: ...


# --- code for what data cannot say: the bases and their registries --------------------------
#
# A hook module registers itself with the decorators (rules/hooks/: importing that package,
# which importing rules does, imports every module in it).

class SpecialMover:
    """The base of every special mover: one instance per game and piece type.

    Every method has a no-op default, so callers call, never probe.

    pseudo_moves(pos, sq, kind): yield Move objects (pseudo-legal) beyond the
        Betza moves of the piece on sq. Stateful kinds: yield moves with
        new=None to let the core expand them over every state; or set new.
    attacks(board, sq, kind, target): True if the piece on sq could capture a
        piece on target (whatever stands there now), by its special moves. On an
        empty board it must be True wherever it could be on some board (pieces may
        only stop an attack): Game.attack_sources relies on it.
    watch(board, sq, kind, target): the squares whose change of occupancy
        could change attacks(...) -- or None to mean "always check again".
    zone(sq, kind, target): the squares besides sq whose contents can decide
        attacks(...) on any board, or None (any may): a searcher's quick check test.
    linked(board, sq, kind): the other squares of a piece standing on several;
        a capture on sq empties them too (rules.movegen.expand).
    span / partner_steps(state): how many squares one such piece stands on, and
        the (file, rank) steps from one of its squares to the others in a state
        (pictures draw it as one figure over them).
    san(pos, move): the SAN of a move of the mover's own kind (MoveKind.SPAN).
    state_words(state): how a state is described to a player ("facing NE"); state_text(state):
    the same as a Text (language.text), said in the reader's language.
    """

    #: squares one piece of this type stands on
    span = 1

    def __init__(self, game: Game, ptype: PieceType):
        self.game = game
        self.ptype = ptype

    def pseudo_moves(self, pos: BoardView, sq: int, kind: PieceKind) -> Iterable[Move]:
        return ()

    def attacks(self, board: Sequence[PieceKind | None], sq: int, kind: PieceKind, target: int) -> bool:
        return False

    def watch(self, board: Sequence[PieceKind | None], sq: int, kind: PieceKind,
              target: int) -> Iterable[int] | None:
        return None

    def zone(self, sq: int, kind: PieceKind, target: int) -> Iterable[int] | None:
        """The squares (besides sq) whose contents can decide whether this piece on sq
        attacks target, on any board; None: it cannot say (any square may)."""
        return None

    def linked(self, board: Sequence[PieceKind | None], sq: int, kind: PieceKind) -> tuple[int, ...]:
        return ()

    def partner_steps(self, state: str) -> tuple[tuple[int, int], ...]:
        return ()

    def san(self, pos: BoardView, move: Move) -> str:
        return move.lan

    def state_words(self, state: str) -> str:
        return str(self.state_text(state))

    def state_text(self, state: str) -> Text:
        """``state_words`` as a Text, said in its reader's language."""
        return T("set to {state}", state=state)


class GameExtension:
    """The base of every game-level extension (``extension = "name"`` in the data).

    Every method has a documented no-op default, so callers never probe.

    Set-up phase (a game whose players first choose part of the start position):
    ``setup_phases`` names its steps (VFEN ``setup=<step>``); ``setup_moves(pos)``
    lists the actions of the current step; ``after_setup(pos, move)`` gives (side
    to act next, next step or None when the set-up is over); ``setup_hint(pos)`` (and
    ``setup_hint_text(pos)``, the same as a Text)
    says in the game's words what the action now due is; ``setup_choice()`` and
    ``setup_default()`` say what the players choose and what the usual start is
    (for a player deciding whether to make the set-up).

    Reading moves: ``rewrite(pos, text)`` gives candidate texts for the inventor's
    notations; ``explain(pos, text)`` says why such a text names no legal move (an
    error, or None to let the core say); ``ambiguity_hint(pos, moves)`` adds advice
    to an ambiguity. ``validate(pos)`` refuses a position the game cannot have
    (raises FenError).
    """

    setup_phases: tuple[str, ...] = ()

    def __init__(self, game: Game):
        self.game = game

    def setup_moves(self, pos: PositionView) -> Iterable[Move]:
        return ()

    def after_setup(self, pos: PositionView, move: Move) -> tuple[int, str | None]:
        return 1 - pos.side, None

    def setup_hint(self, pos: PositionView) -> str | None:
        return None

    def setup_hint_text(self, pos: PositionView) -> Text | str | None:
        """``setup_hint`` as a Text, said in its reader's language."""
        return self.setup_hint(pos)

    def setup_choice(self) -> Text | str | None:
        return None

    def setup_default(self) -> Text | str | None:
        return None

    def rewrite(self, pos: PositionView, text: str) -> Iterable[str]:
        return ()

    def explain(self, pos: PositionView, text: str) -> RulesError | None:
        return None

    def ambiguity_hint(self, pos: PositionView, moves: Sequence[Move]) -> Text | str | None:
        return None

    def validate(self, pos: PositionView) -> None:
        return None


MOVERS: dict[str, type[SpecialMover]] = {}
EXTENSIONS: dict[str, type[GameExtension]] = {}

_M = TypeVar("_M", bound=type[SpecialMover])
_E = TypeVar("_E", bound=type[GameExtension])


def mover(name: str) -> Callable[[_M], _M]:
    """Register a special mover (a subclass of SpecialMover) for ``hook = "name"``."""
    def deco(cls: _M) -> _M:
        MOVERS[name] = cls
        return cls
    return deco


def extension(name: str) -> Callable[[_E], _E]:
    """Register a game-level extension (a subclass of GameExtension)."""
    def deco(cls: _E) -> _E:
        EXTENSIONS[name] = cls
        return cls
    return deco
