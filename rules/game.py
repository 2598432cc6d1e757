"""A game: its board, pieces and rules, read from data/variants/<id>.toml."""
from __future__ import annotations

import difflib
import tomllib
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from . import schema
from .errors import GameDefinitionError, RulesError, UnknownGameError, VariantError
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
        self.move_parts: dict[tuple, tuple] = {}
        # moves made once though not in a plan: a special mover's moves expanded over states,
        # (kind, from, to, captures, clear) -> moves; drops, (kind, square) -> move
        self.hook_moves: dict[tuple, object] = {}
        self.start_fen: str = spec["start"]
        self.summary: str = spec["summary"]
        # for players: the special rules, a paragraph each, and how the game ends
        self.special_rules: tuple[str, ...] = tuple(spec["special_rules"])
        self.game_end: str = spec["game_end"]
        sides = spec["sides"]
        self.side_names = (sides["white"], sides["black"])
        rules = spec["rules"]
        self.stalemate = rules["stalemate"]
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
        self._sources: list[list | None] = [None, None]   # per colour: attack_sources
        self._between: dict[tuple, int | None] = {}
        self._initial: dict[tuple, frozenset] = {}
        self.movers = {}
        from . import hooks
        for t in self.types.values():
            if t.hook:
                if t.hook not in hooks.MOVERS:
                    hooks.load_all()
                if t.hook not in hooks.MOVERS:
                    raise VariantError(f"{source}: [pieces.{t.key}] hook: no special mover {t.hook!r} "
                                       f"(the movers: {', '.join(sorted(hooks.MOVERS))})")
                self.movers[t.key] = hooks.MOVERS[t.hook](self, t)
        # whether some piece stands on several squares (taking one square takes them all)
        self.spans = any(m.span > 1 for m in self.movers.values())
        # every game has an extension object: the base one (no-op defaults) if none is named
        self.extension = hooks.GameExtension(self)
        if self.extension_name:
            if self.extension_name not in hooks.EXTENSIONS:
                hooks.load_all()
            if self.extension_name not in hooks.EXTENSIONS:
                raise VariantError(f"{source}: [rules] extension: no extension {self.extension_name!r} "
                                   f"(the extensions: {', '.join(sorted(hooks.EXTENSIONS))})")
            self.extension = hooks.EXTENSIONS[self.extension_name](self)

    def _piece_type(self, key: str, p: dict) -> PieceType:
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
            paths=p["paths"], side_names=tuple(names) if names else None,
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
        for key, t in self.types.items():
            for state in (None,) + t.states + t.extra_states:
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
        table = [set() for _ in range(geo.size)]
        empty = [None] * geo.size
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


_GAMES: dict[str, Game] = {}
# the server owner's variants: id -> file (rules.add_variants_dir)
_EXTRA: dict[str, Path] = {}
# definitions read (extends resolved): a parent is read once; never changed once here
_DEFINITIONS: dict[str, tuple[dict, str]] = {}


def _builtin_ids() -> list[str]:
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


def variant_ids() -> list[str]:
    """The ids of every game: the shipped ones, then those of added folders."""
    return _builtin_ids() + sorted(_EXTRA)


def _path(game_id: str) -> tuple[Path, str]:
    """A game's file, and how errors name it."""
    if game_id in _EXTRA:
        return _EXTRA[game_id], str(_EXTRA[game_id])
    return definitions_dir() / f"{game_id}.toml", f"{definitions_dir().parent.name}/variants/{game_id}.toml"


def read_definition(game_id: str, _chain: tuple[str, ...] = ()) -> tuple[dict, str]:
    """A game's definition with ``extends`` resolved (not yet defaulted), and its file's name."""
    got = _DEFINITIONS.get(game_id)
    if got is None:
        got = _DEFINITIONS[game_id] = _read_definition(game_id, _chain)
    return got


def _read_definition(game_id: str, _chain: tuple[str, ...]) -> tuple[dict, str]:
    path, source = _path(game_id)
    try:
        spec = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as e:
        raise GameDefinitionError(f"cannot read the game definition {source}: {e}") from None
    except tomllib.TOMLDecodeError as e:
        raise VariantError(f"{source}: {e}") from None
    schema.check(spec, source)
    if spec.get("id", game_id) != game_id:
        raise VariantError(f"{source}: id {spec['id']!r} must be the file's name, {game_id!r}")
    spec["id"] = game_id
    parent_id = spec.get("extends")
    if parent_id is not None:
        chain = _chain + (game_id,)
        if parent_id in chain:
            raise VariantError(f"{source}: extends {parent_id!r} makes a cycle: "
                               f"{' -> '.join(chain + (parent_id,))}")
        ids = variant_ids()
        if parent_id not in ids:
            near = difflib.get_close_matches(parent_id, ids, n=1)
            hint = f" (did you mean {near[0]!r}?)" if near else ""
            raise VariantError(f"{source}: extends {parent_id!r}, which is no game{hint}; "
                               f"the games are: {', '.join(ids)}")
        parent, _ = read_definition(parent_id, chain)
        spec = schema.merge(parent, spec, source)
    return spec, source


def load_game(game_id: str) -> Game:
    g = _GAMES.get(game_id)
    if g is not None:
        return g
    if not isinstance(game_id, str) or game_id not in variant_ids():
        raise UnknownGameError(f"no game {game_id!r}; the games are: {', '.join(variant_ids())}")
    spec, source = read_definition(game_id)
    g = _GAMES[game_id] = Game(spec, source)
    return g


def _folder_files(folder: str | Path) -> dict[str, Path]:
    folder = Path(folder).expanduser()
    if not folder.is_dir():
        raise VariantError(f"the variants folder {folder} does not exist or is not a folder")
    return {p.stem: p.resolve() for p in sorted(folder.glob("*.toml"))}


def _name_problem(game_id: str, path: Path, builtin: set[str]) -> str | None:
    """What is wrong with a variant file's name (its game's id), or None."""
    if game_id in builtin:
        return f"{path}: {game_id!r} is the id of a built-in game; rename the file"
    if not schema.GAME_ID.match(game_id):
        return (f"{path}: a game's id (its file name) must be lower-case letters, "
                f"digits or _, starting with a letter (at most 32)")
    if _EXTRA.get(game_id, path) != path:
        return f"{path}: the game {game_id!r} is already defined by {_EXTRA[game_id]}"
    return None


def _load_added(game_id: str, path: Path) -> None:
    """Load an added game and read its start positions: a VariantError naming the file."""
    from .vfen import read_fen
    g = load_game(game_id)
    for fen in (g.default_start_fen, g.setup_start_fen):
        if fen is not None:
            try:
                read_fen(g, fen)
            except RulesError as e:
                raise VariantError(f"{path}: start: {e}") from None


def add_variants_dir(folder: str | Path) -> list[str]:
    """Register a folder of extra variant files (``<id>.toml``) beside the shipped games and
    load each one, its start position too: a bad file raises a VariantError naming it, and
    then none of the folder's games is registered. Returns the folder's ids."""
    found = _folder_files(folder)
    builtin = set(_builtin_ids())
    for game_id, path in found.items():
        problem = _name_problem(game_id, path, builtin)
        if problem:
            raise VariantError(problem)
    _EXTRA.update(found)
    try:
        for game_id, path in found.items():
            _load_added(game_id, path)
    except BaseException:
        remove_variants_dir(folder)
        raise
    return sorted(found)


def add_good_variants(folder: str | Path) -> tuple[list[str], dict[Path, VariantError]]:
    """Like add_variants_dir, but file by file, for an owner trying files out (the
    gallery): every file that loads is registered; each bad one is left out and reported
    (its path -> the error naming it and what is wrong), and so is a file that extends it.
    A missing folder raises a VariantError. Returns (the ids registered, the bad files)."""
    found = _folder_files(folder)
    builtin = set(_builtin_ids())
    bad: dict[Path, VariantError] = {}
    for game_id, path in found.items():
        problem = _name_problem(game_id, path, builtin)
        if problem:
            bad[path] = VariantError(problem)
    named = {i: p for i, p in found.items() if p not in bad}
    _EXTRA.update(named)
    for game_id, path in named.items():
        try:
            _load_added(game_id, path)
        except RulesError as e:
            bad[path] = e if isinstance(e, VariantError) else VariantError(f"{path}: {e}")
    for game_id, path in named.items():
        if path in bad:
            del _EXTRA[game_id]
            _GAMES.pop(game_id, None)
            _DEFINITIONS.pop(game_id, None)
    return sorted(i for i, p in named.items() if p not in bad), bad


def remove_variants_dir(folder: str | Path) -> None:
    """Forget a folder's games (and every added game loaded, as one may extend another)."""
    folder = Path(folder).expanduser().resolve()
    for game_id in [i for i, p in _EXTRA.items() if p.parent == folder]:
        del _EXTRA[game_id]
    builtin = _builtin_ids()
    for cache in (_GAMES, _DEFINITIONS):
        for game_id in [i for i in cache if i not in builtin]:
            del cache[game_id]
