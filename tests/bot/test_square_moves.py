"""The legal moves of the piece on one square (bot/operations/square_moves.py) and their words
(bot/words/text.py's square_moves_text), which the terminal, the typed commands, Discord's
"which piece?" box and an email's hint all show."""

import pytest

import rules
from bot.domain.errors import ServiceError
from bot.operations.square_moves import square_moves
from bot.words.text import DISCORD, HTML, PLAIN, square_moves_text

# King and Queen: Blue (to move) holds a Pawn and a Knight to drop, Red a Cannon
KQ_DROPS = "***1k1***/***n2***/9/4P4/9/***1B1***/***1K1*** w - - 0 1 hand=PNc;dropped=-"
# Super Chess after both sides placed their Super Pawns: White's Cyclops is to face a way
SC_FACING = ("rnbc(?)kqabnr/sspppppppp/10/10/10/10/10/10/SSPPPPPPPP/RNBC(?)KQABNR "
             "w AKak - 0 1 setup=face-w")


def said(pos, square: str, markup=PLAIN) -> str:
    return square_moves_text(square_moves(pos, square), markup)


def test_a_piece_with_moves_lists_them_sorted_by_their_san():
    pos = rules.start("chess")
    found = square_moves(pos, "G1")
    assert (found.square, found.piece, found.owner, found.sans, found.as_if) == \
        ("g1", "Knight", "White", ("Nf3", "Nh3"), False)
    assert said(pos, "g1") == "2 moves of the Knight on g1: Nf3 Nh3"
    assert square_moves_text(found, PLAIN, list_break="\n") == "2 moves of the Knight on g1:\nNf3 Nh3"
    after = pos.play("e4").play("e5")
    assert said(after, "e1") == "1 move of the King on e1: Ke2"


def test_a_piece_of_the_side_to_move_without_moves_and_an_empty_square():
    pos = rules.start("chess")
    assert said(pos, "a1") == "The Rook on a1 has no legal move."
    assert square_moves(pos, "e4").piece is None
    assert said(pos, "e4") == "There is no piece on e4."


def test_a_piece_of_the_side_not_to_move_shows_what_it_could_do_were_its_side_to_move():
    pos = rules.start("chess")
    found = square_moves(pos, "e7")
    assert found.as_if and found.sans == ("e5", "e6") and found.to_move == "White"
    assert said(pos, "e7") == ("e7 is Black's Pawn; if Black were to move, it could go to: "
                               "e5 e6 (not now: it is White's move).")
    assert said(pos, "a8") == ("a8 is Black's Rook; if Black were to move, it could not move "
                               "(not now: it is White's move).")
    # the side to move in check: taking its King is no move the other side could make
    checked = pos.play("e4").play("f5").play("Qh5")
    assert "Qxe8" not in square_moves(checked, "h5").sans


@pytest.mark.parametrize("name, why", [
    ("z99", "this board has no file 'z'"),
    ("e0", "this board has ranks 1 to 8"),
    ("xx", "is not a square name"),
    ("", "is not a square name"),
])
def test_a_name_that_is_no_square_of_the_board_is_refused_saying_why(name, why):
    with pytest.raises(ServiceError, match=why):
        square_moves(rules.start("chess"), name)


def test_a_square_of_a_bigger_board_and_a_name_only_a_bigger_board_has():
    with pytest.raises(ServiceError, match="ranks 1 to 8"):
        square_moves(rules.start("chess"), "e10")
    assert said(rules.start("superchess"), "E10") == (
        "e10 is Black's King; if Black were to move, it could not move (not now: it is White's move).")


def test_super_chess_set_up_lists_the_facings_and_no_moves_as_if_for_the_other_side():
    pos = rules.from_fen("superchess", SC_FACING)
    assert said(pos, "d1") == ("8 moves of the Cyclops on d1: "
                               "d1(E) d1(N) d1(NE) d1(NW) d1(S) d1(SE) d1(SW) d1(W)")
    # Black's Cyclops faces later: during the set-up there is no playing "as if"
    assert said(pos, "d10") == "The Cyclops on d10 has no legal move."
    # placing the Super Pawns is no move from a square
    first = rules.from_fen("superchess", rules.game("superchess").setup_start_fen)
    assert first.in_setup and said(first, "e2") == "There is no piece on e2."


def test_king_and_queen_drops_are_from_the_hand_not_from_a_square():
    pos = rules.from_fen("kingqueen", KQ_DROPS)
    assert any(m.lan.startswith("P@d1") for m in pos.legal_moves())  # a drop onto d1 is legal
    assert said(pos, "d1") == "There is no piece on d1."
    assert said(pos, "e2") == "4 moves of the Shaman on e2: Bd1 Bd3 Bf1 Bf3"
    assert said(pos, "e7") == ("e7 is Red's King; if Red were to move, it could go to: "
                               "Kd7 Ke6 Kf7 (not now: it is Blue's move).")


def test_each_markup_escapes_the_moves():
    pos = rules.start("chess")
    found = square_moves(pos, "g1")
    fake = type(found)(found.square, "Knight <b>", "White", "Black", ("a*b", "c<d"))
    assert square_moves_text(fake, HTML) == "2 moves of the Knight &lt;b&gt; on g1: a*b c&lt;d"
    assert square_moves_text(fake, DISCORD) == r"2 moves of the Knight \<b> on g1: a\*b c\<d"
