"""The computer's levels are a ladder (issue 29, item 5): each level searches at least as
much as the one below and is no faster. The table is checked field by field; the search is
checked by counting nodes, which node budgets make deterministic (a generous time budget,
so that no clock decides). bench/ladder.py measures nodes, depth and time per game."""

from __future__ import annotations

import dataclasses
import random

import pytest

import ai
import ai.engine as engine
import rules
from ai import levels as levels_mod
from ai.search import Searcher

LEVELS = [ai.LEVELS[n] for n in sorted(ai.LEVELS)]
PAIRS = list(zip(LEVELS, LEVELS[1:], strict=False))
UNLIMITED = float("inf")


def budget(lvl) -> float:
    return UNLIMITED if lvl.max_nodes is None else lvl.max_nodes


def test_the_level_table_never_asks_less_of_a_higher_level():
    assert [lv.number for lv in LEVELS] == list(range(1, len(LEVELS) + 1))
    for low, high in PAIRS:
        assert high.max_depth >= low.max_depth, (low, high)
        assert budget(high) >= budget(low), (low, high)
        assert high.time_share >= low.time_share, (low, high)
        # and no more carelessness
        assert high.noise_cp <= low.noise_cp and high.top_n <= low.top_n
        assert high.blunder <= low.blunder and high.miss_capture <= low.miss_capture
        assert high.exact or not low.exact
    assert LEVELS[-1].max_nodes is None and LEVELS[-1].time_share == 1.0


def test_a_level_ends_before_the_next_would_stop_deepening():
    """On a busy machine time decides: a level's hard deadline (its share less the reserve)
    comes before the next level stops beginning iterations (SOFT_SHARE of its share), so
    the next one always searches at least as long."""
    for low, high in PAIRS:
        assert low.time_share * (1 - engine.RESERVE_SHARE) <= high.time_share * engine.SOFT_SHARE, \
            (low, high)


def nodes_of(pos, number: int) -> tuple[int, int]:
    t = ai.think(pos, level=number, seconds=600, rng=random.Random(2), tt={})  # 2: level 1 does not blunder this move
    return t.nodes, t.depth


def positions():
    """Chess from the start, and a King and Queen middle game (drops)."""
    kq = rules.start("kingqueen")
    rng = random.Random(5)
    for _ in range(14):
        kq = kq.play(rng.choice(sorted(kq.legal_moves(), key=lambda m: m.lan)))
    return [rules.start("chess"), kq]


@pytest.fixture
def small_budgets(monkeypatch):
    """The same table with every node budget divided by 32: the ladder's shape, at a cost a
    test can pay (level 4's real budget is 128,000 nodes)."""
    small = {n: dataclasses.replace(lv, max_nodes=None if lv.max_nodes is None else lv.max_nodes // 32)
             for n, lv in ai.LEVELS.items()}
    monkeypatch.setattr(levels_mod, "LEVELS", small)
    return small


def test_nodes_searched_never_go_down_a_level_and_keep_to_the_budget(small_budgets):
    for pos in positions():
        seen = []
        for number in sorted(small_budgets)[:-1]:   # the top level has no node budget
            lvl = small_budgets[number]
            nodes, depth = nodes_of(pos, number)
            assert nodes <= lvl.max_nodes + 1, (pos.game.id, number, nodes)
            seen.append((nodes, depth))
        assert seen == sorted(seen, key=lambda x: x[0]), (pos.game.id, seen)
        assert [d for _n, d in seen] == sorted(d for _n, d in seen), (pos.game.id, seen)
        # the higher levels spend their budget: the ladder is in the nodes, not only in the table
        assert seen[-1][0] > seen[-2][0] > seen[0][0] > 0, (pos.game.id, seen)


def test_the_real_budgets_leave_the_low_levels_their_depth_in_chess():
    """Levels 1-3 reach their full depth from the chess start within their real budgets."""
    pos = rules.start("chess")
    for number in (1, 2, 3):
        t = ai.think(pos, level=number, seconds=600, rng=random.Random(2), tt={})
        lvl = ai.LEVELS[number]
        assert t.depth == lvl.max_depth and t.nodes <= lvl.max_nodes, (number, t.depth, t.nodes)


def test_a_node_budget_stops_the_search_like_a_deadline():
    pos = rules.start("chess")
    s = Searcher(pos, deadline=float("inf"))
    s.node_limit = 50
    with pytest.raises(engine.Timeout):
        s.negamax(6, -engine.INF, engine.INF, 0)
    assert s.nodes == 51
