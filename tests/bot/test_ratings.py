"""Glicko-2 against Glickman's worked example, and Lichess's parameters."""
from __future__ import annotations

import pytest

from bot.operations.glicko import MAX_DEVIATION, MIN_DEVIATION, Rating, after_inactivity, rate, rate_game


def test_glickmans_worked_example():
    # "Example of the Glicko-2 system" (2013): tau 0.5; 1500/200/0.06 beats 1400/30, loses
    # to 1550/100 and to 1700/300 -> 1464.06, 151.52, 0.05999
    player = Rating(1500, 200, 0.06)
    results = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]
    new = rate(player, results, tau=0.5, min_deviation=0)
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert new.deviation == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=1e-5)


def test_a_new_player_is_lichess_1500_provisional():
    r = Rating()
    assert (r.rating, r.deviation, r.volatility) == (1500, 500, 0.09)
    assert r.provisional and r.shown() == "1500?"
    assert not Rating(1612.4, 80).provisional and Rating(1612.4, 80).shown() == "1612"


def test_a_game_moves_both_ratings_the_opposite_ways_and_a_draw_between_equals_none():
    w, b = rate_game(Rating(), Rating(), 1.0)
    assert w.rating > 1500 > b.rating
    assert w.rating - 1500 == pytest.approx(1500 - b.rating)
    assert w.deviation < 500 and b.deviation < 500
    dw, db = rate_game(Rating(1500, 100), Rating(1500, 100), 0.5)
    assert dw.rating == pytest.approx(1500) and db.rating == pytest.approx(1500)


def test_an_upset_moves_more_than_an_expected_win():
    strong, weak = Rating(1900, 80), Rating(1500, 80)
    expected_win, _ = rate_game(strong, weak, 1.0)
    _, upset = rate_game(strong, weak, 0.0)
    assert upset.rating - 1500 > expected_win.rating - 1900 > 0


def test_deviation_grows_while_idle_up_to_the_start_and_never_below_the_floor():
    r = Rating(1700, 60, 0.06)
    assert after_inactivity(r, 0) == r
    month, year = after_inactivity(r, 30), after_inactivity(r, 365)
    assert 60 < month.deviation < year.deviation <= MAX_DEVIATION
    assert month.rating == 1700
    assert after_inactivity(Rating(1700, 480, 0.5), 10_000).deviation == MAX_DEVIATION
    settled = Rating(1500, 50, 0.01)
    for _ in range(200):  # draws with an equal, settled opponent: as much information as a game gives
        settled, _ = rate_game(settled, Rating(1500, 30, 0.01), 0.5)
    assert settled.deviation == pytest.approx(MIN_DEVIATION)


def test_no_games_in_a_period_only_widens_the_deviation():
    r = Rating(1650, 120, 0.06)
    new = rate(r, [])
    assert new.rating == 1650 and new.volatility == 0.06 and new.deviation > 120
