"""A game: its board, pieces and rules, read from data/variants/<id>.toml."""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from .errors import GameDefinitionError, UnknownGameError
from .geometry import Geometry
from .pieces import BLACK, WHITE, PieceKind, PieceType, Promotion
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
    def __init__(self, spec: dict, source: str = "<data>"):
        self.spec = spec
        try:
            self.id: str = spec["id"]
            self.name: str = spec["name"]
            self.geometry = Geometry(spec["files"], int(spec["ranks"]), frozenset(spec.get("holes", [])))
            self.start_fen: str = spec["start"]
        except KeyError as e:
            raise GameDefinitionError(f"{source}: missing {e.args[0]!r}") from None
        self.summary: str = spec.get("summary", "")
        # for players: the special rules, a paragraph each, and how the game ends
        self.special_rules: tuple[str, ...] = _texts(spec.get("special_rules", ()), "special_rules", source)
        self.game_end: str = spec.get("game_end", "")
        if not isinstance(self.game_end, str):
            raise GameDefinitionError(f"{source}: game_end must be a string")
        sides = spec.get("sides", {})
        self.side_names = (sides.get("white", "White"), sides.get("black", "Black"))
        rules = spec.get("rules", {})
        self.stalemate = rules.get("stalemate", "draw")
        if self.stalemate not in ("draw", "loss"):
            raise GameDefinitionError(f"{source}: stalemate must be 'draw' or 'loss'")
        self.facing_royals: bool = rules.get("facing_royals", False)
        self.king_jump: bool = rules.get("king_jump", False)
        self.drop_zone: str | None = rules.get("drop_zone")
        self.drop_order: tuple[str, ...] = tuple(rules.get("drop_order", ()))
        self.extension_name: str | None = rules.get("extension")
        self.castling_letters: str | None = rules.get("castling_letters")
        self.castling_rook: str = rules.get("castling_rook", "R")
        self._king_jump_from: str | None = rules.get("king_jump_from")
        self.default_start_fen: str = spec.get("start")
        # the position before a set-up phase (Super Chess), or None: where players choose
        self.setup_start_fen: str | None = spec.get("setup_start")
        self.aliases: dict[str, str] = dict(spec.get("aliases", {}))
        geo = self.geometry
        self._zones: dict[str, frozenset[int]] = {}
        for zname, squares in spec.get("zones", {}).items():
            self._zones[zname] = frozenset(geo.parse_square(s) for s in squares)
        self.types: dict[str, PieceType] = {}
        for key, p in spec.get("pieces", {}).items():
            self.types[key] = self._piece_type(key, p, source)
        for t in self.types.values():
            if t.promotion:
                for k in t.promotion.to:
                    if k not in self.types:
                        raise GameDefinitionError(f"{source}: {t.key} promotes to unknown piece {k!r}")
        self.castlings: list[Castling] = []
        for c in spec.get("castling", []):
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
        lost: dict[int, set] = {}
        for c in self.castlings:
            lost.setdefault(c.rook, set()).add(c.rook)
            lost.setdefault(c.king, set()).add(c.rook)
        for color in (WHITE, BLACK):
            j = self.king_jump_square(color)
            if j is not None:
                lost.setdefault(j, set()).add(j)
        self.rights_lost_from = {sq: frozenset(v) for sq, v in lost.items()}
        self._kinds: dict[tuple, PieceKind] = {}
        self._initial: dict[tuple, frozenset] = {}
        self.movers = {}
        from . import hooks
        for t in self.types.values():
            if t.hook:
                if t.hook not in hooks.MOVERS:
                    hooks.load_all()
                if t.hook not in hooks.MOVERS:
                    raise GameDefinitionError(f"{source}: no special mover {t.hook!r}")
                self.movers[t.key] = hooks.MOVERS[t.hook](self, t)
        # every game has an extension object: the base one (no-op defaults) if none is named
        self.extension = hooks.GameExtension(self)
        if self.extension_name:
            if self.extension_name not in hooks.EXTENSIONS:
                hooks.load_all()
            if self.extension_name not in hooks.EXTENSIONS:
                raise GameDefinitionError(f"{source}: no extension {self.extension_name!r}")
            self.extension = hooks.EXTENSIONS[self.extension_name](self)

    def _piece_type(self, key: str, p: dict, source: str) -> PieceType:
        promo = None
        if "promotion" in p:
            pr = p["promotion"]
            promo = Promotion(ranks=frozenset(pr.get("ranks", ())), to=tuple(pr.get("to", ())),
                              on_capture=pr.get("on_capture", False))
        initial = tuple(p.get("initial", ()))
        if "initial_ranks" in p:
            geo = self.geometry
            initial += tuple(f"{f}{r}" for r in p["initial_ranks"] for f in geo.files)
        names = p.get("side_names")
        t = PieceType(
            key=key, name=p.get("name", key), betza=p.get("betza", ""),
            state_betza=dict(p.get("state_betza", {})), states=tuple(p.get("states", ())),
            chosen=p.get("chosen", True), extra_states=tuple(p.get("extra_states", ())),
            royal=p.get("royal", False), pawn=p.get("pawn", False), ep_victim=p.get("ep_victim", False),
            initial=initial, promotion=promo, confined=p.get("confined"), hook=p.get("hook"),
            paths=p.get("paths"), side_names=tuple(names) if names else None,
            description=p.get("description", ""), glyph=p.get("glyph"))
        return t

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

    # --- squares -----------------------------------------------------------
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
    def jump(self):
        """The royal's one-time jump (rules.kingjump.KingJump), or None without one."""
        from .kingjump import KingJump
        return KingJump(self, self._king_jump_from) if self.king_jump and self._king_jump_from else None

    def king_jump_square(self, color: int) -> int | None:
        """The square from which this side's King may make its one-time jump."""
        return self.jump.square(color) if self.jump is not None else None

    def relative_rank(self, sq: int, color: int) -> int:
        r = self.geometry.rank_of(sq)
        return r + 1 if color == WHITE else self.geometry.height - r

    def side_name(self, color: int) -> str:
        return self.side_names[color]

    @cached_property
    def royal_keys(self) -> frozenset[str]:
        return frozenset(k for k, t in self.types.items() if t.royal)

    def __repr__(self):
        return f"<Game {self.id}>"


def _texts(value, key: str, source: str) -> tuple[str, ...]:
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise GameDefinitionError(f"{source}: {key} must be a list of strings")
    return tuple(value)


_GAMES: dict[str, Game] = {}


def variant_ids() -> list[str]:
    """The ids of the games shipped; a missing or empty folder of definitions is an error,
    never an empty list (a program with no games is a broken install)."""
    folder = definitions_dir()
    try:
        ids = sorted(p.stem for p in folder.glob("*.toml"))
    except OSError as e:
        raise GameDefinitionError(f"cannot read the game definitions in {folder}: {e}") from None
    if not ids:
        raise GameDefinitionError(f"no game definitions (*.toml) in {folder}; reinstall fairypost")
    return ids


def load_game(game_id: str) -> Game:
    g = _GAMES.get(game_id)
    if g is not None:
        return g
    if not isinstance(game_id, str) or game_id not in variant_ids():
        raise UnknownGameError(f"no game {game_id!r}; the games are: {', '.join(variant_ids())}")
    path = definitions_dir() / f"{game_id}.toml"
    try:
        spec = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as e:
        raise GameDefinitionError(f"cannot read the game definition {path}: {e}") from None
    except tomllib.TOMLDecodeError as e:
        raise GameDefinitionError(f"{path.name}: {e}") from None
    g = _GAMES[game_id] = Game(spec, path.name)
    return g
