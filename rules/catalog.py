"""Which games there are, and loading them by id: the shipped definitions
(data/variants/<id>.toml) and the server owner's folders of added variants
(docs/variants.md); every game loaded once per process."""
from __future__ import annotations

import difflib
import tomllib
from pathlib import Path
from typing import Any

from language.text import T

from . import schema
from .errors import GameDefinitionError, RulesError, UnknownGameError, VariantError
from .game import Game, definitions_dir
from .vfen import read_fen

_GAMES: dict[str, Game] = {}
# the server owner's variants: id -> file (rules.add_variants_dir)
_EXTRA: dict[str, Path] = {}
# definitions read (extends resolved): a parent is read once; never changed once here
_DEFINITIONS: dict[str, tuple[dict[str, Any], str]] = {}


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


def read_definition(game_id: str, _chain: tuple[str, ...] = ()) -> tuple[dict[str, Any], str]:
    """A game's definition with ``extends`` resolved (not yet defaulted), and its file's name."""
    got = _DEFINITIONS.get(game_id)
    if got is None:
        got = _DEFINITIONS[game_id] = _read_definition(game_id, _chain)
    return got


def _read_definition(game_id: str, _chain: tuple[str, ...]) -> tuple[dict[str, Any], str]:
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
        raise UnknownGameError(T("no game {game}; the games are: {games}", game=repr(game_id),
                                 games=", ".join(variant_ids())))
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
