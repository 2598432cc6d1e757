"""Position.capture_moves (what quiescence searches walk): exactly the moves that take
something among the pseudo-legal moves, in the same order (the plans' own Move objects), on the
boards of a random game of every game (Cannons, whose slides only move, among them)."""
import pytest

import rules
from tests.rules.randgames import random_game

GAMES = sorted(rules.variants())


@pytest.mark.parametrize("game_id", GAMES)
def test_the_captures_are_those_of_every_pseudo_legal_move(game_id):
    taken = 0
    for pos, _move in random_game(game_id, seed=21, max_plies=120):
        if pos.setup is not None:
            continue
        every = [m for m in pos._pseudo_list() if m.captures]
        got = pos.capture_moves()
        assert [m.lan for m in got] == [m.lan for m in every], pos.fen()
        if not pos.game.movers:   # the plans' own moves (en passant is made per position)
            assert all(a is b for a, b in zip(got, every) if not a.ep)
        taken += len(got)
    assert taken > 20
