"""The search finds mates in one and two in every game, checked by brute force
against the engine's own outcome (King and Queen's rules included)."""
import pytest

import ai
import rules
from rules.move import DROP, SHOT, WALL

from .mates import forces_win_in_two, winning_moves
from .positions import MATE_IN_ONE, MATE_IN_TWO

KIND_OF_WIN = {
    "wall": lambda m: m.kind == WALL,
    "cyclops": lambda m: m.piece.type.key == "C" and m.frm != m.to,
    "shot": lambda m: m.kind == SHOT,
    "drop": lambda m: m.kind == DROP,
    "cannon": lambda m: m.piece.type.key == "C",
}


@pytest.mark.parametrize("game_id,fen,what", MATE_IN_ONE, ids=[f"{g}-{w}" for g, _f, w in MATE_IN_ONE])
def test_mate_in_one(game_id, fen, what):
    pos = rules.from_fen(game_id, fen)
    winners = winning_moves(pos)
    assert winners, "the position is meant to have a mate in one"
    if what in KIND_OF_WIN:  # the position is honest: only that kind of move wins
        assert all(KIND_OF_WIN[what](m) for m in winners), [m.lan for m in winners]
    t = ai.think(pos, seconds=5)
    assert t.lan in {m.lan for m in winners}
    assert t.mate_in == 1 and t.depth >= 1
    assert pos.apply(t.move).outcome()[1] in ("checkmate", "stalemate")


@pytest.mark.parametrize("game_id,fen", MATE_IN_TWO, ids=[g for g, _f in MATE_IN_TWO])
def test_mate_in_two(game_id, fen):
    pos = rules.from_fen(game_id, fen)
    assert not winning_moves(pos), "the position is meant to have no mate in one"
    t = ai.think(pos, seconds=10)
    assert t.mate_in == 2, (t.lan, t.score_cp, t.depth)
    assert forces_win_in_two(pos, t.move), t.lan
    assert len(t.pv) >= 1 and t.pv[0] == t.lan


def test_the_mated_side_sees_it_coming():
    """Every move of the side to move allows a mate: its score says mated in one."""
    pos = rules.from_fen("chess", "k7/8/1K6/8/8/8/8/7R b - - 0 1")
    assert all(winning_moves(pos.apply(m)) for m in pos.legal_moves())
    t = ai.think(pos, seconds=5)
    assert t.mate_in == -1, t.score_cp
