"""Position.check_zone: the contents of a square outside the zone of (colour, target)
never decide whether a piece of that colour attacks target - the searcher's quick check
test rests on it. Every game, boards from random games, a random piece of either colour
(royals and special movers too) put on or taken off squares outside the zone."""
import random

import pytest

import rules
from rules.attacks import attacked_on, check_sources, check_zone
from tests.rules.randgames import random_game

GAMES = sorted(rules.variants())


def royals_under_watch(game_id, seed, every):
    """(position, colour, the other colour's royal square) every few plies of a random game."""
    for i, (pos, _move) in enumerate(random_game(game_id, seed=seed, max_plies=60)):
        if i % every == 0:
            for by in (0, 1):
                if pos.royal[1 - by] is not None:
                    yield pos, by, pos.royal[1 - by]


def changed(board, s, kinds, rng):
    """The board with square s emptied or given a random piece."""
    board = list(board)
    board[s] = None if board[s] is not None and rng.random() < 0.5 else rng.choice(kinds)
    return board


@pytest.mark.parametrize("game_id", GAMES)
def test_squares_outside_the_zone_never_decide_an_attack(game_id):
    rng = random.Random(5)
    game = rules.game(game_id)
    squares = list(game.geometry.squares)
    kinds = game.all_kinds(0) + game.all_kinds(1)
    tried = 0
    for pos, by, target in royals_under_watch(game_id, 3, 6):
        zone = check_zone(game, by, target)
        outside = [s for s in squares if s != target and not zone >> s & 1]
        before = attacked_on(pos.board, squares, target, by)
        for s in rng.sample(outside, min(12, len(outside))):
            board = changed(pos.board, s, kinds, rng)
            assert attacked_on(board, squares, target, by) == before, (pos.fen(), s, board[s])
            tried += 1
    assert tried > 100


def test_the_zone_holds_the_squares_that_decide():
    # chess: a rook on a1 attacks a king on a8 through a2-a7; a knight's squares count
    game = rules.game("chess")
    geo = game.geometry
    zone = check_zone(game, 0, geo.parse_square("a8"))
    for name in ("a1", "a4", "a7", "b6", "c7", "h1", "h8", "b7"):
        assert zone >> geo.parse_square(name) & 1, name
    assert not zone >> geo.parse_square("c5") & 1


@pytest.mark.parametrize("game_id", GAMES)
def test_a_piece_attacks_only_through_the_squares_check_sources_names_for_it(game_id):
    # the searcher tests after a move only the pieces whose sources entry a touched square
    # names: the contents of a square whose entry does not name x never decide x's attack
    rng = random.Random(9)
    game = rules.game(game_id)
    squares = list(game.geometry.squares)
    kinds = game.all_kinds(0) + game.all_kinds(1)
    tried = 0
    for pos, by, target in royals_under_watch(game_id, 4, 10):
        sources = check_sources(game, by, target)
        if sources is None:
            continue
        for x in sorted(pos.occ[by] & game.attack_sources(by, target)):
            before = attacked_on(pos.board, (x,), target, by)
            for s in squares:
                if s not in (x, target) and not sources[s] >> x & 1:
                    board = changed(pos.board, s, kinds, rng)
                    assert attacked_on(board, (x,), target, by) == before, (pos.fen(), x, s, board[s])
                    tried += 1
    assert tried > 1000
