"""Super Chess facings named by words that read the same from either side, and the one
sentence that explains facings wherever a player meets them (issue 15, item 3)."""

from __future__ import annotations

import pytest

import rules
from rules.errors import AmbiguousMoveError, InvalidMoveError, NoSuchMoveError
from rules.hooks.superchess import FACING_NOTE, FACING_WORDS, facing_of

GAME = "superchess"


def setup_start():
    return rules.from_fen(GAME, rules.game(GAME).setup_start_fen)


def test_the_words_and_their_letters():
    assert FACING_WORDS == {"forward": "N", "forward-right": "NE", "right": "E",
                            "back-right": "SE", "back": "S", "back-left": "SW", "left": "W",
                            "forward-left": "NW"}
    for word, letters in FACING_WORDS.items():
        assert facing_of(word.upper()) == facing_of(word) == letters
        assert facing_of(letters.lower()) == letters
    assert facing_of("Forward Left") == "NW" and facing_of("back_right") == "SE"
    assert facing_of("up") is None and facing_of("Q") is None


def test_words_in_moves_turns_and_promotions_name_the_same_moves_as_letters():
    p = rules.start(GAME)
    assert p.parse("Cd1d3(forward-right)").lan == p.parse("Cd1d3(NE)").lan == "d1d3(NE)"
    assert p.parse("Cd3(LEFT)").lan == "d1d3(W)"
    assert p.parse("d1(back)").lan == p.parse("Cd1(back)").lan == "d1(S)"
    promo = rules.from_fen(GAME, "k9/4P5/10/10/10/10/10/10/10/9K w - - 0 1")
    assert promo.parse("e10=C(forward)").lan == "e9e10=C(N)"
    assert promo.parse("e9e10=C(back-left)").lan == "e9e10=C(SW)"
    # Black: the same word, the same letters; the board turns them half a circle
    black = rules.start(GAME).play("a4")
    assert black.parse("Cd10d8(forward)").lan == "d10d8(N)"
    # output keeps the letters
    assert black.san(black.parse("Cd10d8(forward)")) == "Cd8(N)"


def test_words_at_the_set_up_facing_choice():
    p = setup_start().play("ef").play("ef")
    for text, lan in (("forward", "d1(N)"), ("Back-Left", "d1(SW)"), ("d1(forward-right)", "d1(NE)"),
                      ("C(back)", "d1(S)"), ("d1 right", "d1(E)")):
        assert p.parse(text).lan == lan
    after = p.play("right").play("forward")  # Black's forward too
    assert after.piece_at("d10").symbol == "c(N)" and after.piece_at("d1").symbol == "C(E)"


def test_facing_errors_say_the_choices_and_the_note():
    p = rules.start(GAME)
    with pytest.raises(InvalidMoveError) as bad:
        p.parse("Cd1d3(up)")
    assert "'up' is not a facing" in str(bad.value) and "forward-left" in str(bad.value)
    with pytest.raises(AmbiguousMoveError) as missing:
        p.parse("Cd1d3")
    assert "Add the facing it ends with, like Cd3(N) or Cd3(forward)" in str(missing.value)
    with pytest.raises(NoSuchMoveError) as same:
        p.parse("d1(forward)")
    assert "the Cyclops on d1 already faces N" in str(same.value)
    with pytest.raises(NoSuchMoveError, match="only a Cyclops turns in place"):
        p.parse("e2(N)")
    face = setup_start().play("ef").play("ef")
    with pytest.raises(InvalidMoveError) as at_setup:
        face.parse("Q")
    for err in (bad, missing, same, at_setup):
        assert FACING_NOTE in str(err.value)


def test_the_note_is_in_the_cyclops_description_and_the_set_up_hint():
    assert FACING_NOTE == ("A facing is seen from the Cyclops's owner: N (forward) is toward the "
                           "opponent, so Black's S (back) points at Black's own side.")
    game = rules.game(GAME)
    assert game.types["C"].description.endswith(FACING_NOTE)
    assert game.types["C"].description.count(FACING_NOTE) == 1
    face = setup_start().play("ef").play("ef")
    hint = game.extension.setup_hint(face)
    assert hint.endswith(FACING_NOTE) and "like d1(N), just N, or forward" in hint
    assert "forward-left" in hint
    assert game.extension.setup_hint(rules.start(GAME)) is None  # the game is under way
