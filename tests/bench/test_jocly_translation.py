"""The Python side of the Jocly match (bench/jocly.py) against moves Jocly itself gave.

data/jocly_gigachess2.json was recorded with ``python -m bench.jocly --record`` (Jocly
0.9.13 through bench/jocly_driver.js): Jocly's start position and its legal moves before
each ply of a line holding an en passant capture (g9h10), a promotion (k13j14=Q) and both
Kings' jumps (h13h11, h2g4), and 36 plies of a random game (bench/jocly.py's checks
found it) where the two rules part: Jocly lets the White King jump h2-j2 past an attacked
i2 (its tables let a (2,0) jump pass a diagonal neighbour, i1 or i3, for White only);
fairypost's rules, as the rules contract says, require the one square between to be safe.
No node, no network here: the translation and fairypost's rules are checked against what
Jocly said.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import rules
from bench.jocly import GAME, PIECES, board_difference, move_difference, to_jocly, to_lan

DATA = json.loads((Path(__file__).parent / "data" / "jocly_gigachess2.json").read_text())
LINE, PARTING = DATA["lines"]


def test_the_start_positions_are_the_same():
    assert {p["type"] for p in DATA["start_pieces"]} <= set(PIECES)
    assert len(DATA["start_pieces"]) == 96
    assert board_difference(DATA["start_pieces"], rules.start(GAME)) == []


def test_a_moved_piece_is_reported_as_a_difference():
    pieces = [dict(p, sq="h5") if p["sq"] == "h4" else p for p in DATA["start_pieces"]]
    assert board_difference(pieces, rules.start(GAME)) == ["h4: Jocly -, fairypost P",
                                                           "h5: Jocly P, fairypost -"]


def test_both_rules_give_the_same_moves_along_the_line():
    pos = rules.start(GAME)
    for i, ply in enumerate(LINE):
        assert move_difference(ply["jocly_moves"], pos) == ([], []), f"ply {i}"
        if "played" in ply:
            assert ply["played"] in {to_lan(m) for m in ply["jocly_moves"]}
            pos = pos.play(ply["played"])
    assert pos.line()[-5:] == ["k13j14=Q", "h13h11", "h2g4", "l13k11", "g4h5"]


def test_the_rules_part_only_where_jocly_reads_the_kings_jump_otherwise():
    pos = rules.start(GAME)
    for i, ply in enumerate(PARTING[:-1]):
        assert move_difference(ply["jocly_moves"], pos) == ([], []), f"ply {i}"
        pos = pos.play(ply["played"])
    assert move_difference(PARTING[-1]["jocly_moves"], pos) == (["h2j2"], [])
    g = pos.game.geometry
    assert pos.piece_at("i5").key == "D" and pos.is_attacked(g.parse_square("i2"), 1)
    assert not pos.is_attacked(g.parse_square("j2"), 1)
    with pytest.raises(rules.IllegalMoveError):
        pos.play("h2j2")


def test_the_line_has_the_special_moves():
    pos = rules.start(GAME)
    for ply in LINE[:-1]:
        m = pos.parse(ply["played"])
        if ply["played"] == "g9h10":
            assert m.ep and pos.game.geometry.names[m.captures[0]] == "h9"
        if ply["played"] == "k13j14=Q":
            assert m.promotion.key == "Q"
        pos = pos.play(m)


def test_a_promotion_translates_both_ways():
    promotions = [m for ply in LINE for m in ply["jocly_moves"] if m["pr"]]
    assert {"f": "k13", "t": "j14", "pr": "queen"} in promotions
    assert to_lan({"f": "k13", "t": "j14", "pr": "queen"}) == "k13j14=Q"
    assert to_jocly("a13a14=F") == {"f": "a13", "t": "a14", "pr": "Buffalo"}


def test_every_recorded_move_translates_back_to_itself():
    for ply in LINE:
        for m in ply["jocly_moves"]:
            assert to_jocly(to_lan(m)) == m


def test_a_move_only_one_side_has_is_reported():
    pos = rules.start(GAME)
    moves = LINE[0]["jocly_moves"]
    without = [m for m in moves if to_lan(m) != "h4h6"]
    assert move_difference(without, pos) == ([], ["h4h6"])
    bogus = moves + [{"f": "h2", "t": "h4", "pr": None}]
    assert move_difference(bogus, pos) == (["h2h4"], [])


@pytest.mark.parametrize("text, why", [("h2", "not a Gigachess II move"), ("h2h4=K", "promoted to K"),
                                       ("o1o2", "not a Gigachess II move")])
def test_a_bad_move_text_is_a_clear_error(text, why):
    with pytest.raises(ValueError, match=why):
        to_jocly(text)
