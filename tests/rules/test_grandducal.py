"""Grand Ducal Chess: every rule of docs/rules/grandducal.md on hand-made positions.

The Fairy-Stockfish cross-check is in test_grandducal_oracle.py.
"""
import pytest

import rules
from rules.errors import FenError, NoSuchMoveError


def dests(fen, square):
    pos = rules.from_fen("grandducal", fen)
    return {m.lan[len(square):] for m in pos.moves_from(square)}


def test_grand_duke_open_board():
    # G on e4; Kings out of its lines
    got = dests("11k/12/12/12/4G7/12/12/K11 w - - 0 1", "e4")
    diagonal = {"d3", "c2", "b1", "d5", "c6", "b7", "a8", "f5", "g6", "h7", "i8", "f3", "g2", "h1"}
    even_orthogonal = {"e6", "e8", "e2", "c4", "a4", "g4", "i4", "k4"}
    assert got == diagonal | even_orthogonal


def test_grand_duke_never_jumps_and_stops_only_on_even_squares():
    # friendly P on e5 (odd) blocks e6 e8; enemy p on g4 (even) is taken, nothing beyond;
    # friendly N on b4 (odd, 3 away) leaves c4 but blocks a4; enemy n on e3 (odd) blocks e2
    # and cannot be taken by the orthogonal move (odd distance)
    fen = "11k/12/12/4P7/1N2G1p5/4n7/12/K11 w - - 0 1"
    got = dests(fen, "e4")
    orth = {d for d in got if d[0] == "e" or d[1:] == "4"}
    assert orth == {"c4", "g4"}
    assert "e3" not in got and "e2" not in got


def test_sage_moves():
    got = dests("11k/12/12/12/4S7/12/12/K11 w - - 0 1", "e4")
    king = {"d3", "d4", "d5", "e3", "e5", "f3", "f4", "f5"}
    knight = {"c3", "c5", "d2", "d6", "f2", "f6", "g3", "g5"}
    assert got == king | knight


def test_prince_reaches_the_second_ring():
    got = dests("11k/12/12/12/4I7/12/12/K11 w - - 0 1", "e4")
    ring = {"c2", "c3", "c4", "c5", "c6", "d2", "d6", "e2", "e6", "f2", "f6", "g2", "g3", "g4", "g5", "g6"}
    assert got == ring
    # it leaps: surrounded by its own Pawns it still reaches every empty ring square
    walled = dests("11k/12/12/3PPP6/3PIP6/3PPP6/12/K11 w - - 0 1", "e4")
    assert walled == ring


def test_mann_is_a_non_royal_king():
    pos = rules.from_fen("grandducal", "11k/12/12/12/4M7/12/12/K11 w - - 0 1")
    assert {m.lan[2:] for m in pos.moves_from("e4")} == {"d3", "d4", "d5", "e3", "e5", "f3", "f4", "f5"}
    # a Mann may be left attacked and may walk into attack: it is not royal
    pos = rules.from_fen("grandducal", "11k/12/12/3r8/4M7/12/12/K11 w - - 0 1")
    assert "e4d4" in {m.lan for m in pos.legal_moves()}


def test_pawn_promotes_only_to_mann():
    pos = rules.from_fen("grandducal", "11k/4P7/12/12/12/12/12/K11 w - - 0 1")
    assert {m.lan for m in pos.moves_from("e7")} == {"e7e8=M"}
    assert pos.san(pos.parse("e8=M")) == "e8=M"
    assert pos.play("e8").piece_at("e8").name == "Mann"
    with pytest.raises(NoSuchMoveError):
        pos.parse("e8=Q")


def test_pawn_double_step_and_en_passant():
    pos = rules.from_fen("grandducal", "11k/12/12/12/5p6/12/4P7/K11 w - - 0 1")
    after = pos.play("e4")
    assert after.fen().split()[3] == "e3"
    taken = after.play("fxe3")
    assert taken.piece_at("e4") is None and taken.piece_at("e3").symbol == "p"


def test_no_castling():
    pos = rules.from_fen("grandducal", "r5k4r/12/12/12/12/12/12/R5K4R w - - 0 1")
    king_moves = {m.lan for m in pos.moves_from("g1")}
    assert king_moves == {"g1f1", "g1h1", "g1f2", "g1g2", "g1h2"}
    with pytest.raises(FenError):
        rules.from_fen("grandducal", "r5k4r/12/12/12/12/12/12/R5K4R w ALal - 0 1")


def test_start_position_and_first_moves():
    pos = rules.start("grandducal")
    lans = {m.lan for m in pos.legal_moves()}
    assert len(lans) == 35
    assert {"c1a3", "c1e3", "c1c3", "c1b3", "c1d3"} <= lans    # Prince
    assert {"j1i3", "j1k3"} <= lans                             # Sage's Knight leaps
    assert not any(m.startswith("b1") or m.startswith("k1") for m in lans)  # Grand Dukes shut in
