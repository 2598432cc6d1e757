"""People's spellings of a move are read as that move (issue #41 item 2).

The engine's one reader (rules/notation.py ``parse_move``, after rules/spelling.py
``tidy``) takes trailing punctuation (``b5.``, ``Nf3!``, ``e4?!``), move numbers (``1. e4``,
``12...Nf6``, ``12… Nf6``), bold and italic marks (``*e5*``, ``_e5_``), en and em dashes
between squares (``e2–e4``, ``e2—e4``, Outlook's ``e2 – e4``) and captures written with
``:`` or ``×``; two moves on one line are refused as two moves, never joined into one.
A property over random positions of every game: each legal move written these ways is
that move, and two legal moves on one line are refused naming both. Long inputs: each
spelling is read within a bound of CPU time (the pathological inputs of
tests/robustness/test_pathological_inputs.py, for these shapes).
"""
from __future__ import annotations

import os
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from rules.errors import InvalidMoveError, RulesError
from rules.move import MoveKind
from rules.notation import MAX_MOVE_TEXT
from rules.spelling import several_moves, tidy
from tests.robustness.common import memo_move_index
from tests.rules.randgames import random_game

LONG = os.environ.get("FAIRYPOST_LONG", "").strip().lower() not in ("", "0", "false", "no")
EXAMPLES = 40 if LONG else 3
GAMES = sorted(rules.variants())

CHESS = rules.start("chess")
# 1. e4 e5 2. Nf3 Nc6 3. Bb5: White's Bishop can take on c6
RUY = rules.from_fen("chess", "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 1")
RUY_BLACK = rules.from_fen("chess", "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 0 1")


@pytest.mark.parametrize("text, lan", [
    ("b4.", "b2b4"), ("Nf3!", "g1f3"), ("e4?!", "e2e4"), ("Nf3,", "g1f3"), ("e4;", "e2e4"),
    ("Nf3!!.", "g1f3"),
    ("1. e4", "e2e4"), ("1.e4", "e2e4"), ("1 . e4", "e2e4"), ("1. Nf3", "g1f3"),
    ("*e4*", "e2e4"), ("**e4**", "e2e4"), ("_e4_", "e2e4"), ("__Nf3__", "g1f3"), ("*1. e4*", "e2e4"),
    ("`e4`", "e2e4"), ("'e4'", "e2e4"), ("\u201ce4\u201d", "e2e4"),
    ("e2\u2013e4", "e2e4"), ("e2\u2014e4", "e2e4"), ("e2 \u2013 e4", "e2e4"), ("e2 - e4", "e2e4"),
    ("Ng1\u2013f3", "g1f3"), ("e2\u2212e4", "e2e4"),
    ("\uff45\uff14", "e2e4"),  # full-width e4 (a phone's CJK keyboard)
    ("e2 e4", "e2e4"), ("Ng1 f3", "g1f3"),  # one move written with a space is still one move
])
def test_a_spelling_of_a_move_is_that_move(text, lan):
    assert CHESS.parse(text).lan == lan


def test_a_pawns_capture_with_a_colon_is_the_pawns_as_its_san_is():
    """Gigachess II's m-pawn and Camel (M) could both take on n4: ``m:n4`` is ``mxn4``, the
    m-pawn's, as written (it was refused as ambiguous when the colon hid the SAN)."""
    pos = rules.from_fen("gigachess2", "7k6/14/14/14/14/14/14/14/14/14/13n/12P1/14/6K5M1 w - - 0 1")
    said = [pos.san(m) for m in pos.legal_moves() if pos.game.geometry.names[m.to] == "n4"]
    assert sorted(said) == ["Mxn4", "mxn4"], said
    assert pos.parse("m:n4") == pos.parse("mxn4") and pos.parse("m:n4").piece.key == "P"


@pytest.mark.parametrize("text", ["B:c6", "B\u00d7c6", "Bxc6", "Bb5:c6", "Bb5\u00d7c6", "B \u00d7 c6", "Bxc6+",
                                  "B : c6"])
def test_a_capture_written_with_a_colon_or_times_sign_is_the_capture(text):
    assert RUY.parse(text).lan == "b5c6"


@pytest.mark.parametrize("text", ["12...Nf6", "12\u2026 Nf6", "12... Nf6", "3. ... Nf6", "...Nf6",
                                  "\u2026Nf6", "3...Nf6!?"])
def test_blacks_move_numbers_and_dots_are_read(text):
    assert RUY_BLACK.parse(text).lan == "g8f6"


@pytest.mark.parametrize("text, words", [
    ("e4 e5", "e4 and e5"), ("1. e4 e5", "e4 and e5"), ("Nf3 Nc6", "Nf3 and Nc6"),
    ("1. e4 e5 2. Nf3", "e4, e5 and Nf3"), ("e4, e5", "e4 and e5"), ("*e4 e5*", "e4 and e5"),
    ("d4 d5", "d4 and d5"), ("Nc6 Nf3", "Nc6 and Nf3"),
])
def test_two_moves_on_one_line_are_refused_as_two_moves(text, words):
    with pytest.raises(InvalidMoveError) as err:
        CHESS.parse(text)
    assert str(err.value) == f"one move at a time: I read {words}"


def test_castling_with_dashes_and_spaces_is_castling():
    pos = rules.from_fen("chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    for text in ("O\u2013O", "0 - 0", "O-O.", "*O-O*", "1. O-O"):
        assert pos.parse(text).lan == "e1g1", text
    assert pos.parse("O\u2014O\u2014O").lan == "e1c1"


def test_marks_alone_are_still_no_move():
    for text in ("?", "!!", "...", "1.", "**", "\u2013"):
        with pytest.raises(RulesError):
            CHESS.parse(text)


def test_the_games_own_forms_keep_their_marks():
    """Ganymede's setting marks, Super Chess's facings and set-up, King and Queen's drops:
    what tidy takes off is never part of them."""
    gany = rules.start("ganymede")
    assert gany.parse("Sf3/S/.").lan == gany.parse("Sf3(R)").lan
    assert gany.parse("*Sf3\\S\\*").lan == gany.parse("Sf3(L)").lan
    sc = rules.from_fen("superchess", rules.game("superchess").setup_start_fen)
    assert sc.parse("S@e2, S@f2.").lan == "S@e2,S@f2"
    kq = rules.from_fen("kingqueen", "***1k1***/***3***/9/9/9/***3***/***K2*** w - - 0 1 hand=P;dropped=-")
    assert kq.parse("1. P@d2!").lan == "P@d2"


def test_tidy_never_adds_and_leaves_a_plain_move_alone():
    for text in ("e4", "Nf3", "e7e8=Q", "W(a2b2)-c2d2", "Cd1d3(NE)", "P@e2", "Ae6^e10", "+Pf2", "S@e2,S@f2"):
        assert tidy(text) == text
    assert several_moves("e2 e4") == ["e2", "e4"] and several_moves("Cd1 (N)") == []
    sc = rules.from_fen("superchess", rules.game("superchess").setup_start_fen)
    assert tidy("S@e2, S@f2") == "S@e2, S@f2" and sc.parse("S@e2, S@f2").lan == "S@e2,S@f2"


# --- the property: every legal move, spelled as people do -----------------------------------

def _spellings(san: str, lan: str, kind) -> list[str]:
    bare = san.rstrip("+#")
    out = [f"{bare}.", f"{bare}!", f"{bare}?!", f"1. {bare}", f"12...{bare}", f"12\u2026 {bare}",
           f"*{bare}*", f"_{bare}_", f"**{bare}**"]
    if "x" in bare and kind == MoveKind.NORMAL:
        out += [bare.replace("x", ":", 1), bare.replace("x", "\u00d7", 1)]
    if "-" in lan and kind in (MoveKind.NORMAL, MoveKind.SPAN):
        out += [lan.replace("-", "\u2013"), lan.replace("-", "\u2014"), lan.replace("-", " \u2013 ")]
    return out


def _position(game_id, seed, plies):
    start = None
    if game_id == "superchess" and seed % 3 == 0:  # the set-up phase too
        start = rules.from_fen("superchess", rules.game("superchess").setup_start_fen)
        plies = seed % 5
    *_, (final, _none) = random_game(game_id, seed, plies, start=start)
    return final


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=EXAMPLES, deadline=None, derandomize=not LONG,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.differing_executors])
@given(seed=st.integers(0, 2 ** 20), plies=st.integers(0, 120), pick=st.randoms(use_true_random=False))
def test_every_legal_move_spelled_as_people_do_is_that_move(game_id, seed, plies, pick):
    pos = _position(game_id, seed, plies)
    legal = pos.legal_moves()
    if not legal:
        return
    moves = legal if LONG else pick.sample(legal, min(len(legal), 12))
    with memo_move_index():
        for move in moves:
            san = pos.san(move)
            for text in _spellings(san, move.lan, move.kind):
                if len(text) > MAX_MOVE_TEXT:
                    continue
                assert pos.parse(text) == move, f"{game_id} {pos.fen()}: {text!r} is not {move.lan}"
        # two legal moves of the side to move on one line: refused as two, never one move
        if len(legal) >= 2:
            a, b = pick.sample(legal, 2)
            sa, sb = pos.san(a).rstrip("+#"), pos.san(b).rstrip("+#")
            if " " not in sa + sb and several_moves(f"{sa} {sb}"):
                with pytest.raises(InvalidMoveError, match="one move at a time"):
                    pos.parse(f"{sa} {sb}")
                with pytest.raises(InvalidMoveError, match="one move at a time"):
                    pos.parse(f"1. {sa} {sb}")


# --- long inputs -------------------------------------------------------------------------------

BOUND = 0.050  # seconds of this thread's CPU time (time.thread_time: other processes do not count)
LONG_SHAPES = ["1. " * 34_000, "." * 100_000, "*" * 100_000, "\u2013 " * 50_000, "e4 " * 34_000,
               "1" * 100_000, "\u2026" * 100_000, " " * 99_999 + "x", "_e4_" * 25_000,
               "e2 \u2013 e4 " * 10_000, "Yes, " * 20_000, "accept." * 12_500, "\uff45" * 100_000]


@pytest.mark.parametrize("text", LONG_SHAPES, ids=[repr(s[:8]) for s in LONG_SHAPES])
def test_a_long_text_of_these_shapes_is_read_quickly(text):
    for call in (lambda: CHESS.parse(text), lambda: CHESS.parse(text[:MAX_MOVE_TEXT]),
                 lambda: tidy(text), lambda: several_moves(tidy(text))):
        start = time.thread_time()
        try:
            call()
        except RulesError:
            pass
        took = time.thread_time() - start
        assert took < BOUND, f"{text[:12]!r}: {took * 1000:.0f} ms of CPU"
