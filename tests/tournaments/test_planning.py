"""A Swiss round paired before its transaction (bot/tournaments/planning.py): a big event's
in the worker process, with the same pairing as on the spot; a plan is used only for the
very inputs it was paired from."""

from __future__ import annotations

import pytest

from bot.tournaments import planning
from bot.tournaments.pairing import PairingImpossible, SwissPlayer, pair_swiss


async def test_a_big_round_is_paired_in_the_worker_as_on_the_spot():
    players = [SwissPlayer(i, score=float(i % 3), colours=("w",) if i % 2 else ("b",)) for i in range(300)]
    assert len(players) > planning.INLINE_PLAYERS
    plan = await planning.paired(players)
    assert plan.round == pair_swiss(players)
    assert plan.for_(list(players)) == plan.round


async def test_a_plan_is_not_used_for_other_inputs():
    players = [SwissPlayer(i) for i in range(10)]
    plan = await planning.paired(players)
    changed = players[:-1] + [SwissPlayer(9, score=1.0)]  # a result came in between
    assert plan.for_(changed) is None
    assert plan.for_(players[:-1]) is None  # a player withdrew


async def test_an_impossible_round_is_said_when_its_plan_is_used():
    a, b = SwissPlayer(1, 1, ("w",), frozenset({2})), SwissPlayer(2, 0, ("b",), frozenset({1}))
    plan = await planning.paired([a, b])
    assert plan.round is None
    with pytest.raises(PairingImpossible):
        plan.for_([a, b])
