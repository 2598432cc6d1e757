"""Grand Ducal Chess cross-checked against Fairy-Stockfish (pyffish), an independent engine.

How the Grand Duke is covered: Fairy-Stockfish cannot say "any even number of squares along
a rank or file without jumping" in Betza (BnDD, DD and the like give it no orthogonal move),
so the oracle (tests/oracle/ffish.py) gives it a superset piece (BR, which already needs every
square on the way empty) and drops the odd-distance orthogonal moves in Python; legality of the
moves in between is decided by the contract's Legality 2 over the oracle's own pseudo-legal
moves. The comparison is therefore exact in every position, and the rule is also pinned by the
hand-made positions in test_grandducal.py. Everything else (Sage, Prince, Mann, Pawns, en
passant, promotion to Mann only, no castling) is Fairy-Stockfish's own generation.

Sizes: 200 seeded random games of up to 24 plies (about 5,000 positions) plus perft 3 from
the start. FAIRYPOST_ORACLE_PLIES raises the game length.
"""
import os

import pytest

import rules
from tests.oracle import ffish
from tests.rules.randgames import random_game

GAMES = 200
PLIES = int(os.environ.get("FAIRYPOST_ORACLE_PLIES", "24"))


def test_perft_3_from_the_start_agrees():
    start = rules.start("grandducal")
    assert ffish.perft("grandducal", start.fen(), 3) == start.perft(3) == 46882


@pytest.mark.parametrize("block", range(10))
def test_legal_moves_agree_at_every_ply_of_random_games(block):
    positions = 0
    for seed in range(block * GAMES // 10, (block + 1) * GAMES // 10):
        for pos, mv in random_game("grandducal", 1000 + seed, PLIES):
            fen = pos.fen()
            ours = {m.lan for m in pos.legal_moves()}
            theirs = ffish.legal_lans("grandducal", fen)
            assert ours == theirs, (seed, fen, sorted(ours - theirs), sorted(theirs - ours))
            assert rules.from_fen("grandducal", fen).fen() == fen     # VFEN round trip
            if mv is not None and positions % 10 == 0:
                assert ffish.fen_after("grandducal", fen, [mv.lan]) == pos.play(mv).fen()
            positions += 1
    assert positions >= GAMES // 10 * 2


def test_grand_duke_positions_agree():
    """Sparse positions with Grand Dukes among blockers on odd and even squares."""
    fens = [
        "11k/12/12/4P7/1N2G1p5/4n7/12/K11 w - - 0 1",
        "11k/12/4g7/12/4G7/12/12/K11 w - - 0 1",
        "3k8/12/12/12/4G7/12/12/4K7 w - - 0 1",
        "g10k/12/12/12/12/12/12/G10K b - - 0 1",
        "4k7/12/4p7/12/4G7/12/12/4K7 w - - 0 1",
    ]
    for fen in fens:
        pos = rules.from_fen("grandducal", fen)
        assert {m.lan for m in pos.legal_moves()} == ffish.legal_lans("grandducal", fen), fen
