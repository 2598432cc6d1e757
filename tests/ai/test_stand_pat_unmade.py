"""Searcher._stands_after: the score a horizon child would return by standing pat, told
without making the move, is the one the child made and searched returns (or None), over
random games of every game, windows around the child's evaluation."""
import random

import pytest

import rules
from ai.search import Searcher
from tests.rules.randgames import random_game

GAMES = sorted(rules.variants())


@pytest.mark.parametrize("game_id", GAMES)
def test_a_stand_pat_told_unmade_is_the_childs_own(game_id):
    rng = random.Random(3)
    told = searched = 0
    for i, (pos, move) in enumerate(random_game(game_id, seed=21, max_plies=60)):
        if move is None or i % 3:  # both sides to move
            continue
        s = Searcher(pos, deadline=float("inf"))
        if not s.quick_check:
            continue
        for m in rng.sample(s.pos.legal_moves(), min(8, len(s.pos.legal_moves()))):
            memo = m.memo if m.memo is not None else s._plain(m)
            m.memo = memo
            if not memo:
                continue
            s.make(m)
            stand = s.evaluate() if not s.pos.in_check() else None
            s.unmake()
            for beta in (None if stand is None else stand - 1, stand, (stand or 0) + 1, -50, 50):
                if beta is None:
                    continue
                nodes = s.nodes
                got = s._stands_after(m, memo, beta)
                counted = s.nodes - nodes
                s.make(m)
                child = s.negamax(0, beta - 1, beta, 1)
                s.unmake()
                searched += 1
                if got is not None:
                    assert (got, counted) == (child, 2), (pos.fen(), m.lan, beta)
                    assert got >= beta
                    told += 1
                else:
                    assert counted == 0
    assert told > 50 and told < searched
