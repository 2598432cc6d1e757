"""Position.capture_moves and Position.piece_moves, which the searcher generates from
instead of pseudo_moves: the same moves in the same order, over random games of every
game (Cannons, Walls, Cyclops runs, Archer shots and en passant included)."""
import pytest

import rules
from rules.movegen import castling_moves, drop_moves
from tests.rules.randgames import random_game

GAMES = sorted(rules.variants())


@pytest.mark.parametrize("game_id", GAMES)
def test_captures_and_a_pieces_moves_are_pseudo_moves_own(game_id):
    taken = 0
    for pos, _move in random_game(game_id, seed=17, max_plies=120):
        pseudo = [m.lan for m in pos.pseudo_moves()]
        captures = [m.lan for m in pos.capture_moves()]
        assert captures == [m.lan for m in pos.pseudo_moves() if m.captures], pos.fen()
        taken += len(captures)
        if pos.setup is None:
            # castlings, the King's jump and drops come after every piece's own moves
            others = len(castling_moves(pos)) + len(list(drop_moves(pos)))
            by_piece = [m.lan for sq in sorted(pos.occ[pos.side]) for m in pos.piece_moves(sq)]
            assert by_piece == pseudo[:len(pseudo) - others], pos.fen()
    assert taken > 50
