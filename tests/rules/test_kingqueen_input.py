"""King and Queen input that players wrote and the engine misread (issue 15, item 4):
a pawn capture with the letter P, a drop from an empty hand, castling that the game
does not have."""

from __future__ import annotations

import pytest

import rules
from rules.errors import NoSuchMoveError
from tests.rules.test_kingqueen import pos


def test_a_pawn_capture_written_with_its_letter_is_read():
    p = rules.start("kingqueen").play("e4").play("Bf5")
    assert p.parse("Pxe5").lan == p.parse("exe5").lan == "e4e5=+P"
    assert p.parse("Pe4xe5").lan == "e4e5=+P"
    chess = rules.start("chess").play("e4").play("d5")
    assert chess.parse("Pxd5").lan == "e4d5"
    assert chess.parse("Pd4").lan == "d2d4"


def test_a_drop_from_an_empty_hand_says_so_even_after_a_drop():
    p = pos({"d1": "K", "f7": "k", "a3": "P", "i5": "p"}, hand="Pp")
    p = p.play("P@d2").play("i5i4")  # Blue dropped last turn and holds nothing now
    with pytest.raises(NoSuchMoveError) as e:
        p.parse("P@e2")
    assert "you have no Amazon (P) in hand" in str(e.value)  # Blue's P is the Amazon
    assert "twice" not in str(e.value) and "dropped last turn" not in str(e.value)


def test_castling_in_a_game_without_it():
    p = rules.start("kingqueen")
    for text in ("O-O", "0-0-0"):
        with pytest.raises(NoSuchMoveError, match="there is no castling in King and Queen"):
            p.parse(text)
    with pytest.raises(NoSuchMoveError, match="castling that way is not possible now"):
        rules.start("chess").parse("O-O")  # a game with castling keeps its own reason
