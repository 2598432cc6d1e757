"""Ratings in the service (bot/operations/ratings.py): rated games update both players' Glicko-2
ratings in the transaction that ends them, by bot/operations/glicko.py's maths; casual, aborted and
computer games do not; the deviation grows while a player does not play."""

from __future__ import annotations

import pytest

from bot.domain.errors import ChallengeError
from bot.operations.glicko import Rating, after_inactivity, rate_game
from bot.store import RatingRow

from .conftest import new_game

pytestmark = pytest.mark.contract  # on every database back end (backends.py)


def _close(a: Rating, b: Rating) -> None:
    assert a.rating == pytest.approx(b.rating, abs=1e-9)
    assert a.deviation == pytest.approx(b.deviation, abs=1e-9)
    assert a.volatility == pytest.approx(b.volatility, abs=1e-12)


async def _mine(svc, player, game="fake"):
    return {e.game: e for e in await svc.player_ratings(player.id)}.get(game)


async def test_a_rated_game_won_by_mate_rates_both_players(svc, alice, bob):
    g = await new_game(svc, alice, bob)
    assert g.rated and g.white_rating == g.black_rating == "1500?"
    await svc.move(g.id, alice.id, "mate")
    white, black = rate_game(Rating(), Rating(), 1.0)
    a, b = await _mine(svc, alice), await _mine(svc, bob)
    _close(a.rating, white)
    _close(b.rating, black)
    assert a.games == b.games == 1 and a.rating.rating > 1500 > b.rating.rating
    board = await svc.leaderboard("fake")
    assert [e.player.id for e in board] == [alice.id, bob.id]
    view = await svc.game(g.id)
    assert (view.white_rating, view.black_rating) == (white.shown(), black.shown())
    assert view.white_rating.endswith("?")  # one game: still provisional


async def test_a_casual_game_leaves_the_ratings_alone(svc, alice, bob):
    g = await new_game(svc, alice, bob, rated=False)
    assert not g.rated
    await svc.move(g.id, alice.id, "mate")
    assert await svc.player_ratings(alice.id) == [] and await svc.leaderboard("fake") == []


@pytest.mark.parametrize("how, white_score", [("resign", 0.0), ("draw", 0.5), ("time", 0.0),
                                              ("stale", 0.5)])
async def test_every_way_a_rated_game_ends_is_rated(svc, alice, bob, clock, how, white_score):
    g = await new_game(svc, alice, bob, days=1)
    if how == "resign":
        await svc.resign(g.id, alice.id)
    elif how == "draw":
        await svc.offer_draw(g.id, alice.id)
        await svc.accept_draw(g.id, bob.id)
    elif how == "stale":
        await svc.move(g.id, alice.id, "stale")
    else:
        clock.advance(days=2)
        await svc.sweep()
    view = await svc.game(g.id)
    assert view.status == "finished"
    white, black = rate_game(Rating(), Rating(), white_score)
    # lost on time: rated as of the deadline, a day ago, so a day's growth of the deviation since
    since = (clock.now() - view.ended_at).total_seconds() / 86400
    assert since == (1 if how == "time" else 0)
    _close((await _mine(svc, alice)).rating, after_inactivity(white, since))
    _close((await _mine(svc, bob)).rating, after_inactivity(black, since))


async def test_an_aborted_game_is_not_rated(svc, alice, bob):
    g = await new_game(svc, alice, bob)
    await svc.move(g.id, alice.id, "a1")
    await svc.abort(g.id, bob.id)
    assert await svc.player_ratings(alice.id) == [] and await svc.player_ratings(bob.id) == []


async def test_the_ratings_are_written_with_the_games_end_or_not_at_all(svc, alice, bob, monkeypatch):
    from bot.store import Tx
    g = await new_game(svc, alice, bob)

    async def broken(self, row):
        raise OSError("disk full")
    monkeypatch.setattr(Tx, "put_rating", broken)
    with pytest.raises(OSError):
        await svc.move(g.id, alice.id, "mate")
    view = await svc.game(g.id)
    assert view.status == "active" and view.ply == 0  # the mate was rolled back with the ratings


async def test_the_deviation_grows_while_a_player_does_not_play(svc, alice, bob, carol, clock):
    g = await new_game(svc, alice, bob)
    await svc.move(g.id, alice.id, "mate")
    after_one, _ = rate_game(Rating(), Rating(), 1.0)
    clock.advance(days=100)
    grown = after_inactivity(after_one, 100)
    _close((await _mine(svc, alice)).rating, grown)
    assert grown.deviation > after_one.deviation
    # the next game starts from the grown deviation (Carol is new: 1500 ± 500)
    g2 = await new_game(svc, carol, alice)
    await svc.move(g2.id, carol.id, "mate")
    _, expected = rate_game(Rating(), grown, 1.0)
    mine = await _mine(svc, alice)
    _close(mine.rating, expected)
    assert mine.games == 2


async def test_an_established_rating_shows_without_a_question_mark(svc, alice, bob, clock):
    from bot.timekeeping.clock import to_ts
    g = await new_game(svc, alice, bob, rated=False)
    async with svc.store.write() as tx:
        await tx.put_rating(RatingRow(alice.id, "fake", 1812.4, 80.0, 0.06, 40, to_ts(clock.now())))
    view = await svc.game(g.id)
    assert (view.white_rating, view.black_rating) == ("1812", "1500?")
    board = await svc.leaderboard("fake")
    assert [(e.player.name, e.shown()) for e in board] == [("Alice", "1812")]


async def test_provisional_ratings_rank_below_established_ones(svc, alice, bob, clock):
    from bot.timekeeping.clock import to_ts
    now = to_ts(clock.now())
    async with svc.store.write() as tx:
        await tx.put_rating(RatingRow(alice.id, "fake", 1900.0, 300.0, 0.09, 1, now))
        await tx.put_rating(RatingRow(bob.id, "fake", 1600.0, 60.0, 0.06, 30, now))
    assert [e.shown() for e in await svc.leaderboard("fake")] == ["1600", "1900?"]


async def test_games_against_the_computer_are_never_rated(svc, alice):
    cpu = await svc.player("computer", "level-3", "Computer (level 3)")
    with pytest.raises(ChallengeError, match="never rated"):
        await svc.challenge(alice.id, "fake", opponent_id=cpu.id, rated=True)
    c = await svc.challenge(alice.id, "fake", opponent_id=cpu.id, colour="white")
    assert not c.rated
    g = await svc.accept_challenge(c.id, cpu.id)
    assert not g.rated and g.white_rating is None and g.black_rating is None
    await svc.move(g.id, alice.id, "mate")
    assert await svc.player_ratings(alice.id) == []


async def test_rated_is_a_yes_or_no(svc, alice, bob):
    with pytest.raises(ChallengeError, match="rated is yes or no"):
        await svc.challenge(alice.id, "fake", opponent_id=bob.id, rated="maybe")
    assert await svc.list_challenges(alice.id) == []
