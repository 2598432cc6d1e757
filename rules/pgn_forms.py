"""Moves as a PGN record writes them: the engine's forms without brackets, and back.

PGN reads a bracket in the movetext as the start of a side line, so a record cannot hold
the engine's ``Cd3(NE)`` or ``W(a2b2)-b2c2``. A record writes instead (docs/rules/README.md,
"Moves in a PGN record"):

    Cd3(NE)   -> Cd3=NE      a state chosen with a move: the Cyclops's facing, the
    Cd1(E)    -> Cd1=E       Spearman's setting (Sdd9(L) -> Sdd9=L); a turn in place
    e10=C(N)  -> e10=C=N     promotion to a Cyclops, facing N
    d1(E)     -> d1=E        a set-up phase's facing (Super Chess)
    W(a2b2)-b2c2 -> Wa2b2-b2c2   the Ganymede Wall (the engine reads this form as it is)

Each is one PGN symbol token (letters, digits and ``_+#=:-``). ``pgn_form(san)`` writes
it; ``bracketed(pos, text)`` reads it back: the engine's form of a text in that form, which
the reader (rules.notation) reads in the text's place. ``=N`` after a square is a
pawn's promotion in SAN, so a state is read only where it cannot be one: after the letter
of a piece that chooses states (``Cd3=N``), after a promotion to one (``e10=C=N``), or on a
bare square in a set-up phase (``d1=E``), and only a state that piece has.
"""
from __future__ import annotations

import re

from .game import PositionView

_SQ = r"[a-z]\d{1,2}"
_BRACKETED_STATE = re.compile(r"\(([A-Za-z]{1,2})\)")
_WALL = re.compile(rf"^W\(({_SQ})({_SQ})\)")
_MARKS = r"(?P<marks>[+#!?]*)"
# a state at the end: Cd1d3=NE+, Sdd9=L, e10=C=N, d1=E
_STATE_END = re.compile(rf"^(?P<body>.*?)=(?P<state>[A-Za-z]{{1,2}}){_MARKS}$")
_PROMOTED_TO = re.compile(r"=(?P<code>\+?[A-Z])$")
_PIECE_FIRST = re.compile(r"^(?P<code>\+?[A-Z])")
_BARE_SQUARE = re.compile(rf"^{_SQ}$")


def pgn_form(san: str) -> str:
    """The record's form of an engine SAN (above): no brackets, one PGN symbol token."""
    text = _WALL.sub(r"W\1\2", san)
    return _BRACKETED_STATE.sub(r"=\1", text)


def _states(pos: PositionView, code: str) -> tuple[str, ...]:
    """The states a piece letter's type chooses (none for a type without, or no such type)."""
    ptype = pos.game.types.get(code)
    if ptype is None or not ptype.chosen:
        return ()
    return ptype.states


def bracketed(pos: PositionView, text: str) -> str:
    """The engine's form of a record's text (``Cd3=NE`` -> ``Cd3(NE)``); any other text as
    it is. A text this rewrites has no other reading (a piece that chooses states is
    never promoted to one), so the reader reads the rewritten text in its place."""
    m = _STATE_END.match(text.strip())
    if m is None:
        return text
    body, state = m["body"], m["state"]
    promoted = _PROMOTED_TO.search(body)
    first = _PIECE_FIRST.match(body)
    if promoted is not None:
        code = promoted["code"]
    elif first is not None:
        code = first["code"]
    elif pos.setup is not None and _BARE_SQUARE.match(body):
        return f"{body}({state}){m['marks']}"   # the set-up phase's own reader checks it
    else:
        return text
    if state.upper() not in _states(pos, code):
        return text
    return f"{body}({state.upper()}){m['marks']}"
