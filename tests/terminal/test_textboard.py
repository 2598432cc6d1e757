"""The text board, in-process: exact layout, holes, hands, states, orientation."""

from __future__ import annotations

import re

import rules
from bot.words.textboard import cell_width, hand_lines, legend_lines, text_board

CHESS_START = """\
   a b c d e f g h
8  r n b q k b n r  8
7  p p p p p p p p  7
6  . . . . . . . .  6
5  . . . . . . . .  5
4  . . . . . . . .  4
3  . . . . . . . .  3
2  P P P P P P P P  2
1  R N B Q K B N R  1
   a b c d e f g h"""


def test_chess_start_exactly():
    assert text_board(rules.start("chess")) == CHESS_START


def test_flipped_is_seen_from_black():
    lines = text_board(rules.start("chess"), flip=True).splitlines()
    assert lines[0] == "   h g f e d c b a"
    assert lines[1] == "1  R N B K Q B N R  1"
    assert lines[8] == "8  r n b k q b n r  8"


def test_king_and_queen_holes_hands_and_promoted_pieces():
    pos = rules.start("kingqueen")
    for m in ("Cd6", "Bf5", "e4", "Bg4", "exe5=+P#"):
        pos = pos.play(m)
    text = text_board(pos)
    lines = text.splitlines()
    assert cell_width(pos) == 2  # "+P", "+K"
    assert lines[1] == "7           n  k  c            7"  # six blank holes around the castle
    assert lines[3] == "5  p  .  p  .  +P .  p  .  p   5"
    assert lines[-2:] == ["Blue in hand: P", "Red in hand: -"]
    assert hand_lines(pos) == ["Blue in hand: P", "Red in hand: -"]
    assert "+P Valkyrie / Veteran" in legend_lines(pos)


def test_states_keep_the_grid_even():
    pos = rules.start("superchess")
    assert cell_width(pos) == 5  # "C(NE)" fits, though the board only shows C(N)
    rows = text_board(pos).splitlines()[1:-1]
    assert len({len(re.sub(r"\d+$", "", r)) for r in rows}) == 1  # the right-hand numbers line up
    assert "c(N)  k" in rows[0]
    gany = text_board(rules.start("ganymede")).splitlines()
    assert gany[2].startswith("11  w(E) w(W) .    d    n")
    assert "S(V) S(V)" in gany[10]
    assert "Spearman, in brackets one of V R L" in " ".join(legend_lines(rules.start("ganymede")))


def test_no_hands_line_for_a_game_without_drops():
    assert "in hand" not in text_board(rules.start("grandducal"))


def test_each_hand_is_in_its_sides_case():
    # Red's pieces are lower case on the board, so in hand too (issue 15)
    pos = rules.from_fen("kingqueen", "***nkc***/***3***/9/9/9/***3***/***1K1*** w - - 0 1 "
                                      "hand=PNpcc;dropped=-")
    assert hand_lines(pos) == ["Blue in hand: P, N", "Red in hand: p, c x2"]
