"""Small things seen over the wire (issue 17, item 11): a fresh clock's time left, the
answer to an outsider's /move in a game's thread, the /rules piece legend."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest

import rules
from bot.discord_bot import commands, format, images

from .conftest import run, start_game
from .helpers import is_png, last_answer

DAY = 24 * 3600


@pytest.mark.parametrize(("seconds", "shown"), [
    (3 * DAY, "3 days"), (3 * DAY - 1, "3 days"), (3 * DAY - 29 * 60, "3 days"),
    (3 * DAY - 31 * 60, "2 days 23 hours"), (DAY + 3600, "1 day 1 hour"), (DAY - 60, "1 day"),
    (5 * 3600 + 12 * 60 + 40, "5 hours 13 minutes"), (3599, "1 hour"), (90, "2 minutes"),
    (20, "less than a minute"), (0, "no time"), (None, "no clock"),
])
def test_time_left_rounds_to_the_nearest_unit_it_shows(seconds, shown):
    assert format.time_left(seconds) == shown


async def test_a_fresh_three_day_clock_shows_three_days(world, clock):
    w = world
    _, thread = await start_game(w, days=3)
    clock.advance(timedelta(seconds=2))  # the wire takes a moment
    i = w.interaction(w.bob, channel=thread)
    await run(commands.board, i)
    assert "**Alice** (White) to move · 3 days left" in last_answer(i)["content"]


async def test_an_outsiders_move_in_a_games_thread_says_it_is_not_theirs(world):
    w = world
    _, thread = await start_game(w)
    carol = w.member("Carol")
    await start_game(w, white=carol, black=w.member("Dave"))  # Carol has a game, elsewhere
    i = w.interaction(carol, channel=thread)
    await run(commands.move, i, move="e4")
    assert last_answer(i)["content"].startswith("Game #1 here is not your game")
    assert [m.san for m in (await w.fairy.service.game(2)).moves] == []  # not played in her own game


@pytest.mark.parametrize("game", rules.variants())
def test_the_rules_legend_lists_every_piece_of_the_game(game):
    keys = [e.key for e in images.every_piece(game)]
    assert sorted(keys) == sorted(rules.game(game).types) and len(set(keys)) == len(keys)


async def test_rules_for_grand_ducal_shows_the_mann(world):
    w = world
    assert "M" not in {p.key for p in rules.start("grandducal").board if p is not None}  # only by promotion
    i = w.interaction(w.alice)
    with mock.patch.object(images, "draw_legend", wraps=images.draw_legend) as drawn:
        await run(commands.rules_, i, game="grandducal")
    (game, entries), _ = drawn.call_args
    assert game.id == "grandducal" and "Mann" in [e.name_text(game.side_names) for e in entries]
    assert is_png(last_answer(i)["file"]) and last_answer(i)["embed"].title == "Grand Ducal Chess"
