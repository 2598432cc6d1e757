"""Fuzzing the rules engine's input (issue #12, part 2): move text and VFEN.

Property, for every game (sample positions: the start, Super Chess's set-up steps, and
positions 10, 40 and 80 plies into a seeded random game):

* any text given as a move either names a legal move or raises a ``rules.RulesError``
  with a message -- never another exception -- and the position is unchanged (same VFEN,
  same legal moves);
* the same for mutations of real move texts: LAN, SAN, the long and hyphenated forms,
  and the inventors' notations (Ganymede's ``S-g5\\S\\``, ``NN-g2``, ``0-h11``,
  ``W-(c2-d2)``; Super Chess's ``SPe4``, capture lists, ``A^e10``; King and Queen's ``Q``);
* any VFEN string (arbitrary, or a real one mutated by characters or by fields) is read
  or refused with a ``RulesError``; a position that is read writes a VFEN that reads back
  the same, and its legal moves, check, outcome and SAN all work.

Examples per target: 250 by default, 100,000 with ``FAIRYPOST_LONG=1``.
"""
from __future__ import annotations

import pytest
from hypothesis import event, given, note
from hypothesis import strategies as st

import rules
from rules.errors import RulesError
from rules.move import CASTLE, NORMAL, SHOT, WALL

from .common import all_positions, games, memo_move_index, profile

PROFILE = profile()
POSITIONS = all_positions()
MOVE_ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-=x:#!?@^(),;/\\| *."


def _same(pos, fen: str, lans: list[str]) -> None:
    assert pos.fen() == fen, "the position changed"
    assert [m.lan for m in pos.legal_moves()] == lans, "the legal moves changed"


def try_move(pos, text) -> None:
    fen, lans = pos.fen(), [m.lan for m in pos.legal_moves()]
    try:
        child = pos.play(text)
    except RulesError as e:
        event(type(e).__name__)
        assert str(e).strip(), f"{type(e).__name__} without a message for {text!r}"
        if isinstance(e, rules.AmbiguousMoveError):
            assert len(e.candidates) >= 2
    else:
        event("read as a legal move")
        assert child.last_move.lan in lans
    _same(pos, fen, lans)


# --- arbitrary text ---------------------------------------------------------------------------

texts = st.one_of(st.text(max_size=80), st.text(alphabet=MOVE_ALPHABET, max_size=24),
                  st.binary(max_size=20).map(lambda b: b.decode("latin-1")))


@PROFILE
@given(st.integers(0, len(POSITIONS) - 1), texts)
def test_arbitrary_move_text(i, text):
    note(POSITIONS[i].fen())
    try_move(POSITIONS[i], text)


def test_non_text_moves_are_refused():
    pos = POSITIONS[0]
    for bad in (None, 42, 4.2, b"e2e4", ["e2e4"], object()):
        with pytest.raises(RulesError):
            pos.play(bad)


# --- mutations of real notations --------------------------------------------------------------

def inventor_forms(pos, m, mangled: bool = True) -> list[str]:
    """The move in the notations people type: LAN, SAN, long forms, and the inventors'
    (with ``mangled``, also its case changed, which may name another move or none)."""
    names = pos.game.geometry.names
    san = pos.san(m)
    forms = [m.lan, san, san.rstrip("+#"), san + "!?", san.rstrip("+#") + "ch"]
    if m.kind == NORMAL and m.frm != m.to:
        frm, to = names[m.frm], names[m.to]
        code = m.piece.key
        rest = m.lan[len(frm) + len(to):]
        sep = "x" if m.captures else "-"
        forms.append(f"{frm}-{to}{rest}")
        if not (m.piece.type.pawn and code == "P"):
            forms += [f"{code}{frm}{sep}{to}{rest}", f"{code}{frm}:{to}{rest}"]
        gid = pos.game.id
        if gid == "ganymede":
            for word, mark in (("(L)", "\\S\\"), ("(R)", "/S/"), ("(V)", "|S|")):
                if code == "S" and rest.endswith(word):
                    forms += [f"S{frm}-{to}{mark}", f"S({frm})-{to}{mark}", f"S{frm}{to}{mark[0]}"]
            if code == "I":
                forms += [f"NN{frm}-{to}", f"NN({frm})-{to}"]
            if code == "O":
                forms += [f"0{frm}-{to}", f"0({frm}){to}"]
        elif gid == "superchess":
            if code == "S":
                forms += [f"SP{frm}{to}", f"SP{frm}-{to}"]
            if len(m.captures) > 1:
                forms.append(f"{san.rstrip('+#')}x{','.join(names[c] for c in m.captures)}")
        elif gid == "kingqueen" and code == "K" and pos.turn == "w":
            forms += [f"Q{frm}{to}", f"Q{frm}-{to}", f"Q{frm}{sep}{to}"]
    if m.kind == WALL:
        (a, _), (b, _) = m.put
        forms += [f"W({names[m.clear[0]]}{names[m.clear[1]]})-{names[a]}{names[b]}"]
    if m.kind == SHOT:
        forms += [f"A{names[m.frm]}^{names[m.to]}"]
    if m.kind == CASTLE:
        forms += [san.replace("O", "0"), san.lower()]
    if mangled:
        forms += [m.lan.upper(), san.lower(), san.swapcase(), f"{m.lan[:2]} {m.lan[2:]}"]
    return forms


@st.composite
def real_notation(draw):
    i = draw(st.integers(0, len(POSITIONS) - 1))
    pos = POSITIONS[i]
    moves = pos.legal_moves()
    m = moves[draw(st.integers(0, len(moves) - 1))]
    forms = inventor_forms(pos, m)
    text = forms[draw(st.integers(0, len(forms) - 1))]
    for _ in range(draw(st.integers(0, 3))):
        k = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["replace", "insert", "delete", "swap", "case", "double", "space"]))
        ch = draw(st.sampled_from(MOVE_ALPHABET))
        if op == "replace" and k < len(text):
            text = text[:k] + ch + text[k + 1:]
        elif op == "insert":
            text = text[:k] + ch + text[k:]
        elif op == "delete" and k < len(text):
            text = text[:k] + text[k + 1:]
        elif op == "swap" and k + 1 < len(text):
            text = text[:k] + text[k + 1] + text[k] + text[k + 2:]
        elif op == "case":
            text = text.swapcase()
        elif op == "double":
            text = text[:k] + text[k:] * 2
        elif op == "space":
            text = text[:k] + " " + text[k:]
    # and sometimes at another game's position: the same text, a different board
    j = draw(st.one_of(st.just(i), st.integers(0, len(POSITIONS) - 1)))
    return j, text


@PROFILE
@given(real_notation())
def test_mutated_real_notation(case):
    j, text = case
    note(f"{POSITIONS[j].fen()} {text!r}")
    try_move(POSITIONS[j], text)


def test_real_notations_read_back():
    """The seeds of the mutations are real: unmangled, each form reads as its move
    (or, for an under-specified one, is refused as ambiguous)."""
    with memo_move_index():
        for pos in POSITIONS:
            for m in pos.legal_moves()[::4]:
                for text in inventor_forms(pos, m, mangled=False):
                    try:
                        assert pos.parse(text) == m, (pos.fen(), text, m.lan)
                    except rules.AmbiguousMoveError as e:
                        assert m.lan in {pos.parse(c).lan for c in e.candidates}, (pos.fen(), text)


# --- VFEN --------------------------------------------------------------------------------------

FENS = sorted({p.fen() for p in POSITIONS})
FIELD_NOISE = ["-", "w", "b", "0", "1", "-1", "99999999999999999999", "KQkq", "hand=-;dropped=-",
               "setup=sp-w", "setup=face-b", "hand=QQqq", "dropped=wb", "e3", "a1", "z99", "*", "(",
               "C(?)", "s(V)", "W(E)", "1" * 30, "x" * 300]


@st.composite
def mutated_fen(draw):
    base = draw(st.sampled_from(FENS))
    gid = draw(st.one_of(st.sampled_from(games()),
                         st.just(next(p.game.id for p in POSITIONS if p.fen() == base))))
    text = base
    for _ in range(draw(st.integers(1, 4))):
        fields = text.split(" ")
        op = draw(st.sampled_from(["char", "char", "char", "delete", "insert", "field", "drop",
                                   "dup", "swap", "rank", "number"]))
        k = draw(st.integers(0, max(0, len(text) - 1)))
        if op == "char" and text:
            text = text[:k] + draw(st.sampled_from(MOVE_ALPHABET + "*")) + text[k + 1:]
        elif op == "delete" and text:
            text = text[:k] + text[k + 1:]
        elif op == "insert":
            text = text[:k] + draw(st.text(alphabet=MOVE_ALPHABET + "*", max_size=3)) + text[k:]
        elif op == "field":
            f = draw(st.integers(0, len(fields) - 1))
            fields[f] = draw(st.one_of(st.sampled_from(FIELD_NOISE), st.text(max_size=8)))
            text = " ".join(fields)
        elif op == "drop" and len(fields) > 1:
            del fields[draw(st.integers(0, len(fields) - 1))]
            text = " ".join(fields)
        elif op == "dup":
            f = draw(st.integers(0, len(fields) - 1))
            fields.insert(f, fields[f])
            text = " ".join(fields)
        elif op == "swap" and len(fields) > 1:
            a, b = draw(st.integers(0, len(fields) - 1)), draw(st.integers(0, len(fields) - 1))
            fields[a], fields[b] = fields[b], fields[a]
            text = " ".join(fields)
        elif op == "rank":
            ranks = fields[0].split("/")
            a, b = draw(st.integers(0, len(ranks) - 1)), draw(st.integers(0, len(ranks) - 1))
            other = draw(st.sampled_from(FENS)).split(" ")[0].split("/")
            if draw(st.booleans()):
                ranks[a] = other[b % len(other)]
            else:
                ranks[a], ranks[b] = ranks[b], ranks[a]
            fields[0] = "/".join(ranks)
            text = " ".join(fields)
        elif op == "number":
            text = text[:k] + str(draw(st.integers(0, 10**6))) + text[k:]
    return gid, text


def check_fen(gid: str, text: str) -> None:
    try:
        pos = rules.from_fen(gid, text)
    except RulesError as e:
        event(type(e).__name__)
        assert str(e).strip(), f"{type(e).__name__} without a message"
        return
    event("read as a position")
    fen = pos.fen()
    again = rules.from_fen(gid, fen)
    assert again.fen() == fen, "an accepted position must write a VFEN that reads back the same"
    moves = pos.legal_moves()
    assert sorted(m.lan for m in again.legal_moves()) == sorted(m.lan for m in moves)
    pos.in_check()
    outcome = pos.outcome()
    if not moves and pos.setup is None:
        assert outcome is not None, "no legal move, yet the game goes on"
    for m in moves[:6]:
        pos.san(m)
        pos.play(m).fen()


@PROFILE
@given(mutated_fen())
def test_mutated_vfen(case):
    gid, text = case
    note(f"{gid}: {text!r}")
    check_fen(gid, text)


@PROFILE
@given(st.sampled_from(games()), st.one_of(st.text(max_size=120),
                                           st.text(alphabet=MOVE_ALPHABET + "*/ ", max_size=120)))
def test_arbitrary_vfen(gid, text):
    check_fen(gid, text)


def test_vfen_of_other_types_and_sizes():
    for bad in (None, 7, b"8/8 w - - 0 1", "x" * 100_000, " ".join(["8"] * 10_000)):
        with pytest.raises(RulesError):
            rules.from_fen("chess", bad)
