"""Make/unmake in place (Position.push/pop and the searcher's incremental hash and
evaluation) against the copying path (Position.apply) over random games of every game."""
import random

import pytest

import rules
from ai.evaluation import evaluator
from ai.search import Searcher
from ai.zobrist import position_hash
from tests.rules.randgames import random_game

GAMES = sorted(rules.variants())


def _starts(game_id):
    yield rules.start(game_id)
    g = rules.game(game_id)
    if g.setup_start_fen:  # Super Chess: the set-up phase too
        yield rules.from_fen(game_id, g.setup_start_fen)


@pytest.mark.parametrize("game_id", GAMES)
def test_push_pop_matches_apply_and_restores_exactly(game_id):
    rng = random.Random(7)
    checked = plain = 0
    for start in _starts(game_id):
        for pos, move in random_game(game_id, seed=11, max_plies=70, start=start):
            if move is None:
                break
            s = Searcher(pos, deadline=float("inf"))
            fen, h, score = s.pos.fen(), s.hash, s.score
            moves = s.pos.legal_moves()
            for m in rng.sample(moves, min(4, len(moves))):
                expected = pos.apply({x.lan: x for x in pos.legal_moves()}[m.lan])
                s.make(m)
                # first, before legal_moves() computes the full safety: the quick check test
                assert s.pos.in_check() == expected.in_check()
                assert s.pos.fen() == expected.fen()
                assert s.hash == position_hash(expected)
                assert (s.pos.occ, s.pos.bits, s.pos.royal) == (expected.occ, expected.bits, expected.royal)
                plain += bool(m.memo)   # made in one step by the searcher (Searcher._plain)
                assert s.score == evaluator(pos.game).board_score(expected.board)
                assert sorted(x.lan for x in s.pos.legal_moves()) == sorted(x.lan for x in expected.legal_moves())
                s.unmake()
                assert (s.pos.fen(), s.hash, s.score) == (fen, h, score)
                assert s.pos.occ == expected_occ(s.pos.board) and s.pos.royal == pos.royal
                assert s.pos.bits == [sum(1 << x for x in side) for side in expected_occ(s.pos.board)]
                checked += 1
    assert checked > 150
    assert plain > checked // 2   # drops and captures with hands too (King and Queen)


def expected_occ(board):
    occ = [set(), set()]
    for sq, k in enumerate(board):
        if k is not None:
            occ[k.color].add(sq)
    return occ


@pytest.mark.parametrize("game_id", ["kingqueen"])
def test_a_line_made_in_one_searcher_matches_apply_twice_over(game_id):
    """Moves made one after another in one searcher, then all taken back, twice (the
    second time every hands step comes from the searcher's caches): after each, the same
    position, hands and dropped flags, hash and score as the copying path; drops and
    captures among them."""
    line = [(pos, move) for pos, move in random_game(game_id, seed=4, max_plies=90) if move is not None]
    s = Searcher(line[0][0], deadline=float("inf"))
    start = (s.pos.fen(), s.hash, s.score)
    kinds = set()
    for _ in range(2):
        for pos, move in line:
            m = {x.lan: x for x in s.pos.legal_moves()}[move.lan]
            s.make(m)
            after = pos.apply({x.lan: x for x in pos.legal_moves()}[move.lan])
            assert (s.pos.fen(), s.pos.hands, s.pos.dropped) == (after.fen(), after.hands, after.dropped)
            assert s.hash == position_hash(after)
            assert s.score == evaluator(pos.game).board_score(after.board)
            assert s.pos.in_check() == after.in_check()
            kinds.add("drop" if m.kind == "d" else "capture" if m.captures else "move")
        for _ in line:
            s.unmake()
        assert (s.pos.fen(), s.hash, s.score) == start
    assert kinds == {"drop", "capture", "move"}
