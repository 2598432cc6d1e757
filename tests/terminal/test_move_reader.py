"""The terminal reads moves with the engine's one reader (issue #29 item 1): a capital
piece letter is that piece, never a pawn's file; Super Chess's ``e4`` is the Super Pawn."""

from __future__ import annotations


def test_bb4_is_the_bishop_never_the_b_pawn(fairypost):
    r = fairypost.play("chess",
                       lines=["Bb4", "Bxb3", "B4", "e4", "e5", "Bb5", "record"])
    assert r.code == 0, r.err
    assert "No Bishop of yours can move to b4." in r.out
    assert "No Bishop of yours can move to b3." in r.out
    assert "For the b-pawn's move write b4" in r.out
    played = [line for line in r.out.splitlines() if " played " in line]
    assert played == ["White played e4.", "Black played e5.", "White played Bb5."]
    assert "1. e4 e5 2. Bb5" in r.out


def test_super_chess_e4_plays_the_super_pawn(fairypost):
    r = fairypost.play("superchess", "--setup", "default", lines=["e4", "record"])
    assert r.code == 0, r.err
    assert "White played Se4." in r.out and "1. Se4" in r.out
