"""The schema of a variant file: every key of every table, with its type, default and check.

In the spirit of Fairy-Stockfish's ``variants.ini`` option list. A key not listed here is an
error (naming the nearest listed key), and so is a value of the wrong type or outside its
choices; every message names the file, the table and the key. ``check`` looks at what one
file says (before ``extends`` is resolved), ``merge`` is ``extends``, and ``complete`` checks
the whole definition and fills in every default. docs/variants.md documents the same keys
for server owners (tests/docs checks that every key here is there).
"""
from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from . import betza
from .errors import GameDefinitionError, RulesError, VariantError

GAME_ID = re.compile(r"[a-z][a-z0-9_]{0,31}$")
PIECE_KEY = re.compile(r"\+?[A-Z]$")
_FILES = re.compile(r"[a-z]{1,26}$")


@dataclass(frozen=True)
class Key:
    """One key of a table: its type (a name said in errors), default and extra check."""
    type: str
    default: Any = None
    required: bool = False
    choices: tuple = ()
    check: Callable[[Any], str | None] | None = None   # a reason the value is bad, or None
    squares: bool = False   # holds square names (checked once the board is known)


def _is_str(v: Any) -> bool: return isinstance(v, str)
def _is_int(v: Any) -> bool: return isinstance(v, int) and not isinstance(v, bool)
def _is_bool(v: Any) -> bool: return isinstance(v, bool)
def _is_strs(v: Any) -> bool: return isinstance(v, list) and all(isinstance(x, str) for x in v)
def _is_ints(v: Any) -> bool: return isinstance(v, list) and all(_is_int(x) for x in v)
def _is_table(v: Any) -> bool: return isinstance(v, dict)
def _is_str_table(v: Any) -> bool: return isinstance(v, dict) and all(isinstance(x, str) for x in v.values())
def _is_zones(v: Any) -> bool: return isinstance(v, dict) and all(_is_strs(x) for x in v.values())
def _is_tables(v: Any) -> bool: return isinstance(v, list) and all(isinstance(x, dict) for x in v)


TYPES: dict[str, Callable[[Any], bool]] = {
    "a string": _is_str, "a whole number": _is_int, "true or false": _is_bool,
    "a list of strings": _is_strs, "a list of whole numbers": _is_ints, "a table": _is_table,
    "a table of strings": _is_str_table, "a table of lists of squares": _is_zones,
    "a list of tables": _is_tables,
}


def _files(v: str) -> str | None: return None if _FILES.match(v) and len(set(v)) == len(v) else \
    "must be distinct lower-case letters a-z in board order, e.g. \"abcdefgh\""
def _ranks(v: int) -> str | None: return None if 1 <= v <= 99 else "must be from 1 to 99"
def _positive(v: list[int]) -> str | None: return None if all(x >= 1 for x in v) else "must be ranks counted from 1"
@lru_cache(maxsize=1024)   # the same few strings recur in every game
def _betza(v: str) -> str | None:
    try:
        betza.parse(v)
    except GameDefinitionError as e:
        return f"is not Betza the engine reads: {e}"
    return None
def _two(v: list[str]) -> str | None:
    return None if len(v) == 2 else "must name the piece for White and for Black (two strings)"
def _piece_keys(v: list[str]) -> str | None:
    return None if all(PIECE_KEY.match(x) for x in v) else "must be piece keys like \"Q\" or \"+P\""


TOP: dict[str, Key] = {
    "id": Key("a string", required=True, check=lambda v: None if GAME_ID.match(v) else
              "must be lower-case letters, digits or _, starting with a letter (at most 32)"),
    "extends": Key("a string"),
    "name": Key("a string", required=True),
    "summary": Key("a string", ""),
    "files": Key("a string", required=True, check=_files),
    "ranks": Key("a whole number", required=True, check=_ranks),
    "holes": Key("a list of strings", [], squares=True),
    "start": Key("a string", required=True),
    "setup_start": Key("a string"),
    "special_rules": Key("a list of strings", []),
    "game_end": Key("a string", ""),
    "sides": Key("a table", {}),
    "rules": Key("a table", {}),
    "zones": Key("a table of lists of squares", {}, squares=True),
    "castling": Key("a list of tables", []),
    "pieces": Key("a table", {}, required=True),
    "aliases": Key("a table of strings", {}),
}
SIDES: dict[str, Key] = {"white": Key("a string", "White"), "black": Key("a string", "Black")}
RULES: dict[str, Key] = {
    "stalemate": Key("a string", "draw", choices=("draw", "loss")),
    "castling_letters": Key("a string", choices=("KQ",)),
    "castling_rook": Key("a string", "R", check=lambda v: _piece_keys([v])),
    "king_jump": Key("true or false", False),
    "king_jump_from": Key("a string", squares=True),
    "facing_royals": Key("true or false", False),
    "drop_zone": Key("a string"),
    "drop_order": Key("a list of strings", [], check=_piece_keys),
    "extension": Key("a string"),
}
CASTLING: dict[str, Key] = {k: Key("a string", required=True, squares=True)
                            for k in ("king", "king_to", "rook", "rook_to")}
PIECE: dict[str, Key] = {
    "remove": Key("true or false", False),
    "name": Key("a string"),
    "betza": Key("a string", "", check=_betza),
    "state_betza": Key("a table of strings", {}),
    "states": Key("a list of strings", []),
    "chosen": Key("true or false", True),
    "extra_states": Key("a list of strings", []),
    "royal": Key("true or false", False),
    "pawn": Key("true or false", False),
    "ep_victim": Key("true or false", False),
    "initial": Key("a list of strings", [], squares=True),
    "initial_ranks": Key("a list of whole numbers", [], check=_positive),
    "promotion": Key("a table"),
    "confined": Key("a string"),
    "hook": Key("a string"),
    "paths": Key("a string"),
    "side_names": Key("a list of strings", check=_two),
    "description": Key("a string", ""),
    "glyph": Key("a string"),
}
PROMOTION: dict[str, Key] = {
    "ranks": Key("a list of whole numbers", [], check=_positive),
    "to": Key("a list of strings", [], check=_piece_keys),
    "on_capture": Key("true or false", False),
}

# what `extends` does not pass on: a game's own id and names
NOT_INHERITED = ("id", "extends", "name", "summary")


def piece_table(pkey: str) -> str:
    """How a piece's table is written in TOML: pieces.N, pieces."+N"."""
    return f"pieces.{pkey}" if pkey.isalnum() else f'pieces."{pkey}"'


def _fail(source: str, table: str | None, message: str) -> VariantError:
    return VariantError(f"{source}: [{table}] {message}" if table else f"{source}: {message}")


def _check_table(values: dict, keys: dict[str, Key], source: str, table: str | None,
                 complete: bool) -> dict:
    """The table's known keys checked; with complete, also required keys and defaults."""
    for name, value in values.items():
        key = keys.get(name)
        if key is None:
            near = difflib.get_close_matches(name, list(keys), n=1)
            hint = f" (did you mean {near[0]!r}?)" if near else ""
            raise _fail(source, table, f"unknown key {name!r}{hint}")
        if not TYPES[key.type](value):
            raise _fail(source, table, f"{name} must be {key.type}, not {value!r}")
        if key.choices and value not in key.choices:
            raise _fail(source, table, f"{name} must be one of "
                                       f"{', '.join(repr(c) for c in key.choices)}, not {value!r}")
        reason = key.check(value) if key.check else None
        if reason:   # said once: a reason may quote the value itself
            said = "" if repr(value) in reason else f", not {value!r}"
            raise _fail(source, table, f"{name} {reason}{said}")
    if not complete:
        return values
    out = {}
    for name, key in keys.items():
        if name in values:
            out[name] = values[name]
        elif key.required:
            raise _fail(source, table, f"missing key {name!r}")
        else:
            d = key.default
            out[name] = d.copy() if isinstance(d, (list, dict)) else d
    return out


def check(spec: dict, source: str, complete: bool = False) -> dict:
    """Check every key of a definition; with complete, the result has every key (defaults
    filled in) and the definition is whole: promotions and zones name what exists."""
    top = _check_table(spec, TOP, source, None, complete)
    sides = _check_table(top.get("sides", {}), SIDES, source, "sides", complete)
    rules = _check_table(top.get("rules", {}), RULES, source, "rules", complete)
    castling = [_check_table(c, CASTLING, source, "castling", complete)
                for c in top.get("castling", [])]
    pieces = {}
    for pkey, p in top.get("pieces", {}).items():
        table = piece_table(pkey)
        if not PIECE_KEY.match(pkey):
            raise _fail(source, table, "a piece key is one capital letter, with + before it for "
                                       "a promoted piece (\"N\", \"+N\")")
        if not isinstance(p, dict):
            raise _fail(source, table, f"must be a table, not {p!r}")
        p = _check_table(p, PIECE, source, table, complete)
        if "remove" in p and (p["remove"] is not True or len(p) > 1) and not complete:
            raise _fail(source, table, "remove = true (and nothing else) drops an inherited "
                                       "piece; to change a piece, write it whole")
        if p.get("promotion") is not None:
            p = dict(p, promotion=_check_table(p["promotion"], PROMOTION, source,
                                               f"{table}.promotion", complete))
        pieces[pkey] = p
    if not complete:
        return spec
    out = dict(top, sides=sides, rules=rules, castling=castling, pieces=pieces)
    _check_whole(out, source)
    return out


def _check_whole(spec: dict, source: str) -> None:
    """What one key cannot say alone: references between pieces, zones and states."""
    pieces, zones, rules = spec["pieces"], spec["zones"], spec["rules"]

    def zone_known(name: str) -> bool:
        return name in zones or (f"{name}_w" in zones and f"{name}_b" in zones)
    if not pieces:
        raise _fail(source, "pieces", "a game needs at least one piece")
    for pkey, p in pieces.items():
        table = piece_table(pkey)
        if p["remove"]:
            raise _fail(source, table, "remove = true drops an inherited piece, but there "
                                       "is none: this file extends no game that has it")
        if p["promotion"] is not None:
            for k in p["promotion"]["to"]:
                if k not in pieces:
                    raise _fail(source, f"{table}.promotion", f"to names {k!r}, which is not "
                                f"a piece of this game")
        for state in p["state_betza"]:
            if state not in p["states"]:
                raise _fail(source, f"{table}.state_betza", f"{state!r} is not one of its "
                            f"states {p['states']}")
        for state, text in p["state_betza"].items():
            reason = _betza(text)
            if reason:
                raise _fail(source, f"{table}.state_betza", f"{state} {reason}")
        if p["confined"] is not None and not zone_known(p["confined"]):
            raise _fail(source, table, f"confined names no zone {p['confined']!r} "
                                       f"(the zones: {', '.join(zones) or 'none'})")
    if rules["drop_zone"] is not None and not zone_known(rules["drop_zone"]):
        raise _fail(source, "rules", f"drop_zone names no zone {rules['drop_zone']!r}")
    for k in rules["drop_order"]:
        if k not in pieces:
            raise _fail(source, "rules", f"drop_order names {k!r}, which is not a piece of this game")
    if spec["castling"] and rules["castling_rook"] not in pieces:
        raise _fail(source, "rules", f"castling_rook {rules['castling_rook']!r} is not a piece "
                                     f"of this game")


def check_squares(spec: dict, source: str, parse_square: Callable[[str], int],
                  holes: bool = False) -> None:
    """Every square name in a completed definition is a square of its board: with holes,
    the holes themselves (on the board without holes); else every other square (not a hole)."""
    def each(table: str | None, values: dict[str, Any], keys: dict[str, Key]) -> None:
        for name, key in keys.items():
            value = values.get(name)
            if not key.squares or value is None or (name == "holes") != holes:
                continue
            names = [value] if isinstance(value, str) else \
                [s for v in value.values() for s in v] if isinstance(value, dict) else value
            for s in names:
                try:
                    parse_square(s)
                except RulesError as e:
                    raise _fail(source, table, f"{name}: {e}") from None
    each(None, spec, TOP)
    if holes:
        return
    each("rules", spec["rules"], RULES)
    for c in spec["castling"]:
        each("castling", c, CASTLING)
    for pkey, p in spec["pieces"].items():
        each(piece_table(pkey), p, PIECE)


def merge(parent: dict, child: dict, source: str) -> dict:
    """``extends``: the child's keys over its parent's. Every key and table is replaced whole,
    except ``pieces``, merged by piece key: a piece the child writes replaces the parent's
    whole, ``remove = true`` drops it, every other piece is inherited. The parent's id, name
    and summary are not inherited."""
    out = {k: v for k, v in parent.items() if k not in NOT_INHERITED}
    for key, value in child.items():
        if key != "pieces":
            out[key] = value
            continue
        pieces = dict(parent.get("pieces", {}))
        for pkey, p in value.items():
            if p.get("remove") is True:
                if pieces.pop(pkey, None) is None:
                    raise _fail(source, piece_table(pkey), f"remove = true, but {child['extends']!r} "
                                                          f"has no piece {pkey!r} to drop")
            else:
                pieces[pkey] = p
        out["pieces"] = pieces
    return out
