"""Betza notation: the data language for how ordinary pieces move.

Supported (the subset the five games need, with clear errors for the rest):

* atoms W F D N A H C Z G (leaps (1,0) (1,1) (2,0) (2,1) (2,2) (3,0) (3,1) (3,2) (3,3))
  and the shorthands K (WF), Q (WWFF), R (WW), B (FF);
* a doubled atom is a rider (``NN``, ``DD``); digits after an atom limit its range
  (``AA2``, ``W3``);
* modifiers before an atom: ``m`` move only, ``c`` capture only, ``p`` capture by
  hopping exactly one screen (cannon: ``mRcpR``), ``n`` lame (every square it would
  jump must be empty: the Xiangqi horse ``nN``, the Grand Duke's ``nDD``), ``i`` only
  from the piece's initial squares, ``e`` may capture en passant;
  directions ``f b l r v s`` and pairs ``fr fl br bl``, relative to the owner;
* two legs, XBetza style: ``yafsF`` is one diagonal step, then a slide turning 45
  degrees either way (the Griffon's outward slide); ``yafsW`` the same from an
  orthogonal step (Rhinoceros). Leg-two directions: ``f`` straight on, ``fs`` 45,
  ``s`` 90, ``bs`` 135, ``b`` 180 degrees.
"""
from __future__ import annotations

from dataclasses import dataclass

from .errors import GameDefinitionError

ATOMS = {
    "W": (1, 0), "F": (1, 1), "D": (2, 0), "N": (2, 1), "A": (2, 2),
    "H": (3, 0), "C": (3, 1), "Z": (3, 2), "G": (3, 3),
}
SHORTHANDS = {"K": ["W", "F"], "Q": ["WW", "FF"], "R": ["WW"], "B": ["FF"]}

# the eight unit directions in turning order, for two-leg moves
COMPASS = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]


@dataclass(frozen=True)
class Component:
    """One clause of a Betza string, expanded to concrete offsets (White's view)."""
    offsets: tuple[tuple[int, int], ...]
    range: int            # 1 = leaper, 0 = unlimited rider, n = at most n steps
    move: bool            # may move to an empty square
    capture: bool         # may capture
    hop: bool = False     # moves/captures only after jumping exactly one screen
    lame: bool = False    # every square jumped over must be empty
    initial: bool = False # only from the piece's initial squares
    en_passant: bool = False
    turns: tuple[int, ...] = ()  # two legs: leg-two turns in 45-degree units
    slide2: bool = False  # leg two slides (else one step)


def _symmetric(dx: int, dy: int) -> set[tuple[int, int]]:
    out = set()
    for a, b in ((dx, dy), (dy, dx)):
        for sa in (1, -1):
            for sb in (1, -1):
                out.add((a * sa, b * sb))
    return out


def _direction_tokens(mods: str) -> list[str]:
    toks, i = [], 0
    while i < len(mods):
        ch = mods[i]
        if ch in "fb" and i + 1 < len(mods) and mods[i + 1] in "lr":
            toks.append(mods[i:i + 2])
            i += 2
            continue
        if ch in "fblrvs":
            toks.append(ch)
        i += 1
    return toks


def _keep(token: str, dx: int, dy: int, text: str) -> bool:
    orth = dx == 0 or dy == 0
    diag = abs(dx) == abs(dy)
    if token == "f":
        return dy > 0
    if token == "b":
        return dy < 0
    if token == "l":
        return dx < 0
    if token == "r":
        return dx > 0
    if token in ("v", "s"):
        if diag:
            raise GameDefinitionError(f"{text!r}: '{token}' means nothing on a diagonal atom")
        if orth:
            return dx == 0 if token == "v" else dy == 0
        return abs(dy) > abs(dx) if token == "v" else abs(dx) > abs(dy)
    # pairs: fr fl br bl
    fwd = dy > 0 if token[0] == "f" else dy < 0
    side = dx > 0 if token[1] == "r" else dx < 0
    return fwd and side


def _filter(offsets: set, mods: str, text: str) -> tuple:
    toks = _direction_tokens(mods)
    if not toks:
        return tuple(sorted(offsets))
    kept = {o for o in offsets if any(_keep(t, o[0], o[1], text) for t in toks)}
    if not kept:
        raise GameDefinitionError(f"{text!r}: directions {mods!r} leave no move")
    return tuple(sorted(kept))


def _leg_turns(mods: str, text: str) -> tuple[int, ...]:
    """Leg-two direction modifiers to turns in 45-degree steps."""
    table = {"f": (0,), "fs": (1, -1), "s": (2, -2), "bs": (3, -3), "b": (4,)}
    turns: list[int] = []
    i = 0
    letters = "".join(c for c in mods if c in "fbs")
    while i < len(letters):
        two = letters[i:i + 2]
        if two in ("fs", "bs"):
            turns.extend(table[two])
            i += 2
        else:
            turns.extend(table[letters[i]])
            i += 1
    if not turns:
        raise GameDefinitionError(f"{text!r}: the second leg needs a direction")
    return tuple(turns)


def parse(text: str) -> list[Component]:
    """Parse a Betza string into components; GameDefinitionError if unsupported."""
    comps: list[Component] = []
    i, n = 0, len(text)
    while i < n:
        j = i
        while j < n and text[j].islower():
            j += 1
        if j >= n:
            raise GameDefinitionError(f"Betza {text!r}: modifiers {text[i:]!r} with no atom")
        mods, atom = text[i:j], text[j]
        j += 1
        doubled = j < n and text[j] == atom
        if doubled:
            j += 1
        k = j
        while k < n and text[k].isdigit():
            k += 1
        limit = int(text[j:k]) if k > j else None
        i = k
        if atom in SHORTHANDS:
            if "a" in mods or doubled or limit is not None:
                raise GameDefinitionError(f"Betza {text!r}: {atom} cannot take that form")
            for sub in SHORTHANDS[atom]:
                comps.extend(parse(mods + sub))
            continue
        if atom not in ATOMS:
            raise GameDefinitionError(f"Betza {text!r}: unknown atom {atom!r}")
        unknown = set(mods) - set("mcpnieafblrvsy")
        if unknown:
            raise GameDefinitionError(f"Betza {text!r}: unsupported modifier(s) {''.join(sorted(unknown))!r}")
        legs = mods.split("a")
        head = legs[0]
        move = "c" not in head or "m" in head
        capture = "m" not in head or "c" in head
        if "m" in head and "c" in head:
            move = capture = True
        base = _symmetric(*ATOMS[atom])
        if "n" in head and lame_squares(*ATOMS[atom]) is None:
            raise GameDefinitionError(f"Betza {text!r}: {atom} has no single path to be lame on")
        if len(legs) == 1:
            rng = 1
            if doubled:
                rng = limit or 0
            elif limit is not None:
                rng = limit
            comps.append(Component(
                offsets=_filter(base, head, text), range=rng, move=move, capture=capture,
                hop="p" in head, lame="n" in head, initial="i" in head, en_passant="e" in head))
        elif len(legs) == 2:
            if atom not in ("W", "F") or doubled or limit is not None:
                raise GameDefinitionError(f"Betza {text!r}: two legs only from W or F")
            comps.append(Component(
                offsets=_filter(base, head, text), range=1, move=move, capture=capture,
                turns=_leg_turns(legs[1], text), slide2="y" in head))
        else:
            raise GameDefinitionError(f"Betza {text!r}: at most two legs are supported")
    return comps


def lame_squares(dx: int, dy: int) -> list[tuple[int, int]] | None:
    """Offsets that a lame leap (dx, dy) must find empty, or None if it has no single path."""
    adx, ady = abs(dx), abs(dy)
    sx = (dx > 0) - (dx < 0)
    sy = (dy > 0) - (dy < 0)
    if adx == ady or adx == 0 or ady == 0:
        n = max(adx, ady)
        return [(sx * k, sy * k) for k in range(1, n)]
    if sorted((adx, ady)) == [1, 2]:
        # Xiangqi horse: the orthogonal step along the long side first
        return [(sx, 0)] if adx == 2 else [(0, sy)]
    return None
