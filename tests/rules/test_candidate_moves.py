"""Position.candidate_moves: in check only the moves that can answer it are generated (the
royal's, those of pieces on or able to reach a checker's square or ways, drops onto
them), and most are judged without being made (Position._legal_in_check); the legal moves
are exactly those of every pseudo-legal move made on the board, in the same order, and
is_legal says the same of each. Every game, the positions in check one move after the boards of
a random game (King and Queen, with its drops and facing royals, checks most)."""
import pytest

import rules
from rules.movegen import pseudo_list
from tests.rules.randgames import random_game

GAMES = sorted(rules.variants())


@pytest.mark.parametrize("game_id", GAMES)
def test_the_legal_moves_in_check_are_those_of_every_pseudo_legal_move(game_id):
    checks = fewer = 0
    for i, (pos, _move) in enumerate(random_game(game_id, seed=9, max_plies=80)):
        if i % 3:
            continue
        for m in pos.legal_moves():
            child = pos.apply(m)
            if not child.in_check():
                continue
            # every pseudo-legal move made on the board and the royal looked at: no shortcut
            every = [x for x in pseudo_list(child) if child._legal_after(x, None)]
            candidates = child.candidate_moves()
            assert [x.lan for x in child.legal_among(candidates)] == [x.lan for x in every], child.fen()
            assert [x.lan for x in child.legal_moves()] == [x.lan for x in every]
            fresh = pos.apply(m)   # no cached safety or moves: is_legal move by move
            assert [x.lan for x in pseudo_list(fresh) if fresh.is_legal(x)] == [x.lan for x in every]
            checks += 1
            fewer += len(candidates) < len(pseudo_list(child))
    assert checks >= 10
    if not rules.game(game_id).spans:   # a Wall (Ganymede) may be taken from anywhere
        assert fewer >= checks // 2   # in check most pieces' moves are passed over unmade


def test_out_of_check_every_pseudo_legal_move_is_a_candidate():
    pos = rules.start("kingqueen")
    assert not pos.in_check()
    assert [m.lan for m in pos.candidate_moves()] == [m.lan for m in pseudo_list(pos)]
