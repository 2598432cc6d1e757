"""Ganymede Chess: the engine's shortcuts checked against plain generation.

* legal moves = pseudo-legal moves after which no enemy pseudo-legal move takes the royal
  (the engine skips most of that work through attack maps, the Wall's ``attacks`` and its
  ``watch`` squares);
* check = some enemy pseudo-legal move would take the royal;
* the Wall's ``attacks(target)`` = one of its pseudo-legal moves would take a piece put on
  target; and a square outside ``watch(target)`` never changes that answer.

Positions come from seeded random games, from the start and from an open middle game
with Walls of both orientations near both Kings.
"""
import random

import pytest

import rules
from rules.position import Position
from tests.rules.randgames import random_game
from tests.rules.test_ganymede import board, wall

GAME = "ganymede"


def _middle():
    """An open middle game: Walls of both orientations and colours near both Kings."""
    pieces = {
        "g1": "K", "d1": "Q", "l1": "R", "a1": "R", "b2": "G", "d2": "S(R)", "k2": "I",
        "a3": "P", "b3": "P", "g3": "O", "l3": "D", **wall("e4", "f4"), **wall("h4", "h5"),
        "c7": "+N", "j6": "P",
        "g12": "k", "e12": "q", "a12": "r", "l12": "r", "b11": "i", "d11": "d", "j11": "g",
        "h10": "s(L)", "f7": "o", "e8": "n", "l8": "p", "a7": "p", "b7": "p",
        **wall("c8", "c9", white=False), **wall("f9", "g9", white=False), "i6": "+p",
    }
    return board(pieces, side="w", rights="ALal")


MIDDLE = _middle()


def naive_legal(pos):
    us = pos.side
    out = set()
    for m in pos.pseudo_moves():
        child = pos.apply(m)
        r = child.royal[us]
        if r is None or not any(r in m2.captures for m2 in child.pseudo_moves()):
            out.add(m.lan)
    return out


def naive_check(pos):
    r = pos.royal[pos.side]
    if r is None:
        return False
    flipped = Position(pos.game, pos.board, 1 - pos.side)
    return any(r in m.captures for m in flipped.pseudo_moves() if m.kind != "c")


def positions(seeds, plies, start=None):
    for seed in seeds:
        p0 = rules.from_fen(GAME, start) if start else None
        for pos, _mv in random_game(GAME, seed, plies, start=p0):
            yield pos


@pytest.mark.parametrize("start,seeds,plies", [
    (None, [1], 40),
    (MIDDLE, [1, 2], 30),
])
def test_legal_moves_and_check_match_plain_generation(start, seeds, plies):
    n = 0
    for pos in positions(seeds, plies, start):
        assert {m.lan for m in pos.legal_moves()} == naive_legal(pos), pos.fen()
        assert pos.in_check() == naive_check(pos), pos.fen()
        n += 1
    assert n > 30


def _wall_anchors(pos):
    for sq, k in enumerate(pos.board):
        if k is not None and k.type.key == "W" and k.state in ("E", "N"):
            yield sq, k


def test_wall_attacks_and_watch_match_its_moves():
    rng = random.Random(7)
    game = rules.game(GAME)
    checked = 0
    for pos in positions([4, 5], 40, MIDDLE):
        board = pos.board
        for a, k in _wall_anchors(pos):
            hook = k.hook
            mine = {a, hook.partner(a, k)}
            enemy_pawn = game.kind("P", 1 - k.color)
            for t in range(len(board)):
                q = board[t]
                if q is not None and q.color == k.color:
                    continue
                b2 = list(board)
                if q is None:
                    b2[t] = enemy_pawn
                probe = Position(game, b2, k.color)
                # a move that lands on t (taking a Wall through its other square does not
                # take a single piece standing on t)
                takes = any(t in m.captures and t in dict(m.put) for m in hook.pseudo_moves(probe, a, k))
                got = hook.attacks(board, a, k, t)
                assert got == takes, (pos.fen(), a, t)
                watch = set(hook.watch(board, a, k, t))
                others = [s for s in range(len(board)) if s not in watch and s != t and s not in mine]
                for s in rng.sample(others, 6):
                    b3 = list(board)
                    b3[s] = None if b3[s] is not None else game.kind("P", rng.randrange(2))
                    assert hook.attacks(b3, a, k, t) == got, (pos.fen(), a, t, s)
                checked += 1
    assert checked > 1000


def test_only_the_anchor_of_a_wall_generates_and_attacks():
    pos = rules.from_fen(GAME, MIDDLE)
    for a, k in _wall_anchors(pos):
        b = k.hook.partner(a, k)
        kb = pos.board[b]
        assert list(kb.hook.pseudo_moves(pos, b, kb)) == []
        assert not any(kb.hook.attacks(pos.board, b, kb, t) for t in range(len(pos.board)))
        assert kb.hook.watch(pos.board, b, kb, 0) == ()
