"""When no thread can be opened, several games are played in one channel: a typed move or
a /move without a game goes to the one game it fits, and the player is asked when it fits
several (issue 17, item 5). The refusal to open a thread is an expected condition: one
log line, no traceback (item 10)."""

from __future__ import annotations

import logging
from unittest import mock

import discord

from bot.discord_bot import commands, typed
from bot.discord_bot.views import AcceptChallenge

from .conftest import press, run
from .helpers import last_answer, pings_no_one


def no_threads(w) -> None:
    """Discord refuses every thread (the bot lacks the permission)."""
    async def refuse(channel, kw):
        raise discord.Forbidden(mock.MagicMock(status=403, reason="Forbidden"), "Missing Permissions")
    w._thread_for = refuse


async def start_in_channel(w, white, black) -> int:
    i = w.interaction(white)
    await run(commands.challenge, i, game="chess", opponent=black, colour="white")
    cid = int(i.response.send_message.call_args.kwargs["view"].children[0].custom_id.split(":")[-1])
    j = w.interaction(black, message=i.original_response.return_value)
    await press(AcceptChallenge, f"fp:accept:{cid}", j)
    assert "has begun" in last_answer(j)["content"]
    return (await w.fairy.service.get_challenge(cid)).game_id


async def two_games_in_the_channel(w):
    no_threads(w)
    carol = w.member("Carol")
    g1 = await start_in_channel(w, w.alice, w.bob)
    g2 = await start_in_channel(w, w.alice, carol)
    assert await w.fairy.links.games_in(w.channel.id) == [g1, g2] and not w.threads
    return g1, g2, carol


async def plies(w, *gids) -> list[int]:
    return [(await w.fairy.service.game(g)).ply for g in gids]


async def test_a_typed_move_that_fits_two_games_asks_which(world):
    w = world
    g1, g2, _ = await two_games_in_the_channel(w)
    msg = w.message(w.channel, author=w.alice, content="e4")
    assert await typed.on_message(w.fairy, msg) is False
    assert await plies(w, g1, g2) == [0, 0]
    (text,), kwargs = msg.reply.call_args
    assert f"(#{g1}, #{g2})" in text and "say which" in text and pings_no_one(kwargs["allowed_mentions"])


async def test_a_typed_move_goes_to_the_game_where_it_is_legal(world):
    w = world
    g1, g2, _ = await two_games_in_the_channel(w)
    await run(commands.move, w.interaction(w.alice), move="e4", game=g1)
    await run(commands.move, w.interaction(w.bob), move="e5", game=g1)
    # e4 is illegal in game 1 (the pawn is there) and legal in game 2
    msg = w.message(w.channel, author=w.alice, content="e4")
    assert await typed.on_message(w.fairy, msg) is True
    assert await plies(w, g1, g2) == [2, 1]
    msg.reply.assert_not_called()


async def test_slash_move_without_a_game_asks_when_several_fit(world):
    w = world
    g1, g2, carol = await two_games_in_the_channel(w)
    i = w.interaction(w.alice)
    await run(commands.move, i, move="e4")
    assert f"several of your games here (#{g1}, #{g2}): say which with the game option" \
        in last_answer(i)["content"]
    assert await plies(w, g1, g2) == [0, 0]
    await run(commands.move, w.interaction(w.alice), move="d4", game=g2)
    i = w.interaction(w.alice)  # only game 1 is Alice's move now
    await run(commands.move, i, move="Nf3")
    assert last_answer(i)["content"] == f"You played **Nf3** in game #{g1}."
    i = w.interaction(carol)  # Carol has one game here: no question
    await run(commands.move, i, move="d5")
    assert last_answer(i)["content"] == f"You played **d5** in game #{g2}."


async def test_no_thread_is_one_line_in_the_log(world, caplog):
    w = world
    no_threads(w)
    with caplog.at_level(logging.DEBUG, logger="bot.discord_bot"):
        await start_in_channel(w, w.alice, w.bob)
    (record,) = [r for r in caplog.records if "thread" in r.getMessage()]
    assert record.levelno == logging.INFO and record.exc_info is None
    assert record.getMessage() == ("no thread for game #1 (403 Missing Permissions); "
                                   f"it is played in channel {w.channel.id}")
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
