"""A text is played only as the move it names (issue #29 item 1).

The reader (rules/notation.py ``parse_move``) is the one every front end uses. Here:
the issue's cases, the rules of capital and small letters, kindred pieces (the Super
Pawn's ``e4``, a promoted piece's unpromoted letter), and a property test over random
positions of every game: every legal move's SAN, LAN and the game's own forms read back
as that move, and ``LETTER + square`` is refused or a move of a piece with that letter.

Default: a few examples per game (a few seconds of CPU); ``FAIRYPOST_LONG=1``: many
more, with every letter on every square.
"""
from __future__ import annotations

import os
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from rules.errors import AmbiguousMoveError, InvalidMoveError, NoSuchMoveError, RulesError
from rules.hooks.superchess import FACING_WORDS
from rules.move import MoveKind
from tests.robustness.common import memo_move_index
from tests.rules.randgames import random_game

LONG = os.environ.get("FAIRYPOST_LONG", "").strip().lower() not in ("", "0", "false", "no")
EXAMPLES = 60 if LONG else 4           # random positions per game
LETTER_SQUARES = None if LONG else 40  # (letter, square) pairs tried per position; None: all

CHESS = rules.start("chess")
# White's b-pawn on b3 and Bishop on f1 can both take Black's pawn on c4
BOTH_TAKE_C4 = "rnbqkbnr/pppp1ppp/8/8/2p5/1P6/P1PP1PPP/RNBQKBNR w KQkq - 0 1"


# --- the cases ---------------------------------------------------------------

@pytest.mark.parametrize("text", ["Bb4", "Bb3", "Bxb3", "B4", "bb3", "bb4", "Bxb4"])
def test_a_capital_bishop_letter_never_plays_the_b_pawn(text):
    with pytest.raises(RulesError) as err:
        CHESS.parse(text)
    assert "Bishop" in str(err.value)


def test_a_capital_letter_refused_says_how_to_write_the_pawn_move():
    with pytest.raises(InvalidMoveError) as err:
        CHESS.parse("B4")
    assert "B is the Bishop's letter" in str(err.value) and "write b4" in str(err.value)


def test_the_bishop_letter_plays_the_bishop_and_the_file_the_pawn():
    pos = CHESS.play("e4").play("e5")
    assert pos.parse("Bb5").lan == "f1b5"
    assert pos.parse("b4").lan == "b2b4"
    with pytest.raises(NoSuchMoveError, match="a small b is the b-pawn's file.*For the Bishop write Bb5"):
        pos.parse("bb5")  # the b-pawn stands on b2: a small b may mean it


def test_a_text_two_moves_answer_is_refused_with_both_readings():
    pos = rules.from_fen("chess", BOTH_TAKE_C4)
    with pytest.raises(AmbiguousMoveError) as err:
        pos.parse("bc4")
    text = str(err.value)
    assert "the b-pawn takes on c4" in text and "the Bishop on f1 takes on c4" in text
    assert "Write bxc4 or Bxc4" in text
    assert set(err.value.candidates) == {"bxc4", "Bxc4"}
    assert pos.parse("bxc4").lan == "b3c4"   # its own SAN: the pawn
    assert pos.parse("Bc4").lan == pos.parse("Bxc4").lan == "f1c4"


def test_a_small_letter_is_not_the_piece_where_a_pawn_on_that_file_could_be_meant():
    # the b-pawn cannot take on c4 from b2, the Bishop can: "bxc4" is refused, saying how
    pos = rules.from_fen("chess", BOTH_TAKE_C4.replace("/1P6/P1PP1PPP/", "/8/PPPP1PPP/"))
    for text in ("bc4", "bxc4"):
        with pytest.raises(NoSuchMoveError) as err:
            pos.parse(text)
        assert "the b-pawn's file" in str(err.value) and "For the Bishop write Bxc4" in str(err.value)
    # with no pawn on the b file nothing else can be meant
    no_b = rules.from_fen("chess", "rnbqkbnr/pppp1ppp/8/8/2p5/8/P1PP1PPP/RNBQKBNR w KQkq - 0 1")
    assert no_b.parse("bc4").lan == no_b.parse("bxc4").lan == "f1c4"


@pytest.mark.parametrize("text,lan", [("nf3", "g1f3"), ("NF3", "g1f3"), ("E2E4", "e2e4"),
                                      ("e2E4", "e2e4"), ("E4", "e2e4"), ("Ng1xf3", "g1f3")])
def test_case_of_squares_and_of_letters_no_square_uses_is_free(text, lan):
    assert CHESS.parse(text).lan == lan


def test_x_in_a_short_form_says_the_move_takes():
    with pytest.raises(NoSuchMoveError, match="nothing to take on f3; write Nf3"):
        CHESS.parse("Nxf3")
    with pytest.raises(NoSuchMoveError, match="nothing to take on f3; write Nf3"):
        CHESS.parse("nxf3")


def test_a_small_piece_letter_that_is_no_file_is_explained_as_the_piece():
    with pytest.raises(NoSuchMoveError, match="no King of yours can move to e2"):
        CHESS.parse("ke2")


def test_capital_squares_that_a_piece_letter_also_reads_are_refused_when_both_are_moves():
    # Gigachess II: E is the Elephant. An Elephant on rank 4 and the piece on e4 can both reach e6
    pos = rules.from_fen("gigachess2", "k13/14/14/14/14/14/14/14/14/14/4E9/14/14/K13 w - - 0 1")
    assert pos.parse("e4g6").lan == pos.parse("E4G6").lan == "e4g6"  # both ways the Elephant on e4
    two = rules.from_fen("gigachess2", "k13/14/14/14/14/14/14/14/14/14/E3Q9/14/14/K13 w - - 0 1")
    # E4C6: the Elephant on rank 4 to c6, or the piece on e4 to c6 (the Queen)
    with pytest.raises(AmbiguousMoveError) as err:
        two.parse("E4C6")
    assert "Elephant on a4" in str(err.value) and "Queen on e4" in str(err.value)


# --- kindred pieces --------------------------------------------------------------------

def test_super_chess_e4_plays_the_super_pawn_that_alone_can_go_there():
    pos = rules.start("superchess")
    for text in ("e4", "e3", "f4", "E4"):
        move = pos.parse(text)
        assert move.piece.name == "Super Pawn" and pos.san(move) == "S" + text.lower()
    assert pos.parse("d4").piece.name == "Pawn"


def test_a_kindred_move_that_is_illegal_is_refused_saying_how_it_is_written():
    # White's Super Pawn on e2 is pinned by the Bishop on h5
    pos = rules.from_fen("superchess", "k9/10/10/10/10/7b2/10/10/4S5/3K6 w - - 0 1")
    with pytest.raises(RulesError) as err:
        pos.parse("e4")
    assert "Super Pawn on e2 (written Se4)" in str(err.value) and "check" in str(err.value)


def test_a_promoted_piece_answers_its_unpromoted_letter_when_nothing_else_can():
    # King and Queen: Blue's Promoted Bishop (Druid) on e3; no plain Bishop
    pos = rules.from_fen("kingqueen", "***1k1***/***3***/9/9/4+B4/***3***/***K2*** w - - 0 1 hand=-;dropped=-")
    move = pos.parse("Bg5")
    assert move.piece.key == "+B" and pos.san(move).rstrip("+") == "+Bg5"
    # with a plain Bishop that could go there too, B is that Bishop
    both = rules.from_fen("kingqueen", "***1k1***/***3***/9/5B3/4+B4/***3***/***K2*** w - - 0 1 hand=-;dropped=-")
    assert both.parse("Bg5").piece.key == "B"


def test_a_walls_square_alone_is_refused_saying_how_a_wall_moves():
    pos = rules.from_fen("ganymede", "6k5/12/12/12/12/12/12/12/12/pn10/W(E)W(W)10/6K5 w - - 0 1")
    for text in ("a2a3", "Wa3"):
        with pytest.raises(InvalidMoveError) as err:
            pos.parse(text)
        assert "a Wall stands on two squares" in str(err.value)
        assert "write W(a2b2)xa3b3 or W(a2b2)xa2a3" in str(err.value)
    assert pos.san(pos.parse("wc2d2")) == "W(a2b2)-c2d2"  # w is no file here: the Wall


# --- the property test -----------------------------------------------------------------

GAMES = sorted(rules.variants())


def _game_forms(pos, move, san_text):
    """The game's own forms of a move (docs/rules/<game>.md), each naming only it."""
    gid, key = pos.game.id, move.piece.key if move.piece else ""
    out = []
    if move.kind == MoveKind.CASTLE and san_text.startswith("O-O"):
        out.append(san_text.replace("O", "0"))
    if gid == "superchess":
        words = {v: k for k, v in FACING_WORDS.items()}
        m = re.search(r"\(([NESW]{1,2})\)", san_text)
        if m and pos.setup is None:
            out.append(san_text.replace(m.group(0), f"({words[m.group(1)]})"))
        if key == "S" and san_text.startswith("S"):
            out.append("SP" + san_text[1:])
        if move.kind == MoveKind.SHOT:
            shots = [m2 for m2 in pos.legal_moves() if m2.kind == MoveKind.SHOT and m2.to == move.to]
            if len(shots) == 1:
                out.append("A^" + pos.game.geometry.names[move.to])
    if gid == "ganymede":
        marks = {"L": "\\", "R": "/", "V": "|"}
        m = re.search(r"\(([LRV])\)$", san_text.rstrip("+#"))
        if m and key.lstrip("+") == "S":
            mark = marks[m.group(1)]
            out.append(san_text.rstrip("+#")[:m.start()] + f"{mark}S{mark}")
        if key.lstrip("+") == "I" and san_text.lstrip("+").startswith("I"):
            out.append(san_text.replace("I", "NN", 1))
        if key == "O":
            out.append("0" + san_text[1:])
        if move.kind == MoveKind.SPAN:
            new = tuple(sorted(sq for sq, _k in move.put))
            same = [m2 for m2 in pos.legal_moves() if m2.kind == MoveKind.SPAN
                    and tuple(sorted(sq for sq, _k in m2.put)) == new]
            if len(same) == 1:
                a, b = (pos.game.geometry.names[s] for s in new)
                out.append(f"W-({a}-{b})")
    if gid == "kingqueen" and key in ("K", "+K") and pos.side == 0 and san_text.lstrip("+").startswith("K"):
        out.append(san_text.replace("K", "Q", 1))
    return out


def _letters(game):
    letters = {k.lstrip("+") for k in game.types}
    if game.id == "kingqueen":
        letters.add("Q")  # Blue's royal, the Queen (K in the engine's codes)
    return sorted(letters)


def _letter_of(game, move) -> str:
    piece = move.new if move.kind == MoveKind.DROP else move.piece
    return piece.key.lstrip("+")


def _check_letter_square(pos, letter, square):
    """``LETTER + square`` is refused or a move of a piece with that letter; the same with
    a small letter, or the pawn-like piece of that file."""
    game = pos.game
    want = "K" if game.id == "kingqueen" and letter == "Q" else letter
    for text in (letter + square, letter.lower() + square):
        try:
            move = pos.parse(text)
        except RulesError:
            continue
        got = _letter_of(game, move)
        if text[0].isupper() or got == want:
            assert got == want, f"{game.id} {pos.fen()}: {text!r} played {move.lan} ({move.piece.name})"
            continue
        # a small letter that is a file: a pawn-like piece of that file, its capture
        names = game.geometry.names
        assert (move.piece.type.pawn and move.frm is not None and names[move.frm][0] == text[0]
                and move.captures), f"{game.id} {pos.fen()}: {text!r} played {move.lan}"


def _position(game_id, seed, plies):
    start = None
    if game_id == "superchess" and seed % 3 == 0:  # the set-up phase too
        g = rules.game("superchess")
        start = rules.from_fen("superchess", g.setup_start_fen)
    *_, (final, _none) = random_game(game_id, seed, plies, start=start)  # it ends with (final position, None)
    return final


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=EXAMPLES, deadline=None, derandomize=not LONG,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.differing_executors])
@given(seed=st.integers(0, 2 ** 20), plies=st.integers(0, 120), pick=st.randoms(use_true_random=False))
def test_every_move_reads_back_and_every_letter_means_its_piece(game_id, seed, plies, pick):
    pos = _position(game_id, seed, plies)
    game = pos.game
    with memo_move_index():
        for move in pos.legal_moves():
            san_text = pos.san(move)
            texts = [move.lan, san_text, san_text.rstrip("+#")] + _game_forms(pos, move, san_text)
            for text in texts:
                assert pos.parse(text) == move, f"{game.id} {pos.fen()}: {text!r} is not {move.lan}"
            # its SAN with a small first letter is that move or refused, never another,
            # unless that text is the other move's own SAN (bxc7 is the b-pawn's capture)
            lead = san_text[san_text.startswith("+"):][:1]
            if lead.isupper() and lead in game.types and move.kind == MoveKind.NORMAL:
                small = san_text.replace(lead, lead.lower(), 1)
                try:
                    got = pos.parse(small)
                except RulesError:
                    continue
                assert got == move or pos.san(got).rstrip("+#") == small.rstrip("+#"), \
                    f"{game.id} {pos.fen()}: {small!r} played {got.lan}"
        names = [game.geometry.names[s] for s in game.geometry.squares]
        pairs = [(letter, sq) for letter in _letters(game) for sq in names]
        if LETTER_SQUARES is not None:
            dests = {game.geometry.names[m.to] for m in pos.legal_moves() if m.to is not None}
            near = [p for p in pairs if p[1] in dests]
            pairs = pick.sample(near, min(len(near), LETTER_SQUARES // 2)) + \
                pick.sample(pairs, min(len(pairs), LETTER_SQUARES // 2))
        for letter, sq in pairs:
            _check_letter_square(pos, letter, sq)


def test_a_pawn_move_refused_names_the_super_pawn_of_that_file_by_its_letter():
    pos = rules.start("superchess")
    for text in ("e5", "Pe4"):  # P is the Pawn's letter: never the Super Pawn's
        with pytest.raises(NoSuchMoveError) as err:
            pos.parse(text)
        assert "the Super Pawn on e2 is written with its letter S" in str(err.value)


def test_a_kindred_text_two_pieces_answer_is_refused_even_if_one_move_is_illegal():
    # Blue's Promoted Pawns on d2 and f1 could both go to f2; d2's move is illegal (facing)
    pos = rules.from_fen("kingqueen", "***1pb***/***1kb***/7+p+P/1+P7/3nN4/***+P2***/***+cK+P*** "
                                      "w - - 2 29 hand=PPPPc;dropped=-")
    with pytest.raises(AmbiguousMoveError) as err:
        pos.parse("Pf2")
    assert "+Pdf2 (not legal now) or +Pf2; write the one you mean in full" in str(err.value)
    assert pos.parse("+Pf2").lan == "f1f2"
