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
    if rules.game(game_id).drop_zone is None:   # with hands every move goes through push
        assert plain > checked // 2


def expected_occ(board):
    occ = [set(), set()]
    for sq, k in enumerate(board):
        if k is not None:
            occ[k.color].add(sq)
    return occ
