"""Notices go where each player's settings say; moves typed in a thread are played only
when they are the mover's legal moves, and anything else is ignored without a word."""

from __future__ import annotations

import logging
from unittest import mock

import discord

from bot.config import Settings
from bot.delivery import events as ev
from bot.discord_bot import commands, typed
from bot.discord_bot.runner import FairyClient

from .conftest import run, start_game
from .helpers import custom_ids, is_png, pinged


def http_error(status: int, cls=discord.HTTPException):
    return cls(mock.MagicMock(status=status, reason="x"), "refused")


async def test_channel_preference_mentions_in_the_thread_or_the_chosen_channel(world):
    w = world
    lobby = w.text_channel("lobby")
    await run(commands.settings, w.interaction(w.bob, channel=lobby), notify="channel")
    _, thread = await start_game(w)
    dm_count = len(w.dms(w.bob))
    await run(commands.move, w.interaction(w.alice, channel=thread), move="e4")
    notice = w.sent_to(thread)[-1]
    assert notice["content"].startswith(f"<@{w.bob.id}> Your move in game #1")
    assert pinged(notice) == [w.bob.id]
    assert len(w.dms(w.bob)) == dm_count  # no DM
    await run(commands.challenge, w.interaction(w.alice), game="kingqueen", opponent=w.bob)
    invite = w.sent_to(lobby)[-1]  # not about a game: the chosen channel, with the buttons
    assert invite["content"].startswith(f"<@{w.bob.id}> Alice challenges you to **King and Queen**")
    assert custom_ids(invite["view"]) == ["fp:accept:2", "fp:decline:2"]


async def test_closed_dms_fall_back_to_the_thread_and_otherwise_are_dropped(world, caplog):
    w = world
    _, thread = await start_game(w)
    w.bob.send.side_effect = http_error(403, discord.Forbidden)
    await run(commands.move, w.interaction(w.alice, channel=thread), move="e4")
    assert w.sent_to(thread)[-1]["content"].startswith(f"<@{w.bob.id}> Your move in game #1")
    with caplog.at_level(logging.WARNING, logger="bot.discord_bot"):
        await run(commands.challenge, w.interaction(w.alice), game="chess", opponent=w.bob)
    assert "DMs are closed" in caplog.text
    async with w.fairy.service.store.read() as tx:
        assert [e.status for e in await tx.events()][-1] == "sent"  # not retried for ever


async def test_a_passing_failure_is_retried_by_the_outbox(world, clock):
    w = world
    _, thread = await start_game(w)
    w.bob.send.side_effect = http_error(500)
    await run(commands.move, w.interaction(w.alice, channel=thread), move="e4")
    async with w.fairy.service.store.read() as tx:
        last = (await tx.events())[-1]
    assert (last.kind, last.status) == ("your_move", "pending") and "HTTPException" in last.last_error
    w.bob.send.side_effect = None
    clock.advance(minutes=5)
    await w.fairy.service.sweep()
    w.bob.send.assert_awaited()
    assert "Your move in game #1" in w.bob.send.call_args.kwargs["content"]


async def test_time_running_out_posts_the_final_board_once(world, clock):
    w = world
    _, thread = await start_game(w, days=1)
    posts = len(w.sent_to(thread))
    clock.advance(days=1, minutes=1)
    await w.fairy.service.sweep()
    new = w.sent_to(thread)[posts:]
    boards = [p for p in new if "file" in p]
    assert len(boards) == 1 and is_png(boards[0]["file"]) and "view" not in boards[0]
    assert "**Bob** (Black) wins on time" in boards[0]["content"]
    assert "wins on time" in w.dms(w.alice)[-1]["content"] and "wins on time" in w.dms(w.bob)[-1]["content"]


async def test_lobby_and_other_platform_notices_are_not_sent(world):
    w = world
    notifier = w.fairy.service.notifier
    other = ev.PlayerRef(9, "terminal", "me", "Me")
    await notifier.notify(ev.ChallengeReceived(challenge_id=1, challenger=other, game="chess", days=3,
                                               colour="random", setup="default", open=True))
    await notifier.notify(ev.DrawOffered(recipient=other, game_id=1, game="chess", by=other))
    assert w.sent == []


async def test_typed_moves_and_quiet_ignoring(world):
    w = world
    _, thread = await start_game(w)
    posted = len(w.sent_to(thread))
    for author, text in ((w.alice, "good luck, have fun!"), (w.bob, "e5"), (w.alice, "e5"),
                         (w.alice, "Qxf7"), (w.member("Carol"), "e4"), (w.alice, "e4\nsecond line")):
        msg = w.message(thread, author=author, content=text)
        assert await typed.on_message(w.fairy, msg) is False
        msg.reply.assert_not_called()
        msg.add_reaction.assert_not_called()
    assert len(w.sent_to(thread)) == posted and (await w.fairy.service.game(1)).ply == 0
    robot = w.member("Robo", bot=True)
    assert await typed.on_message(w.fairy, w.message(thread, author=robot, content="e4")) is False
    assert await typed.on_message(w.fairy, w.message(w.channel, author=w.alice, content="e4")) is False
    assert await typed.on_message(w.fairy, w.message(thread, author=w.alice, content="e4")) is True
    assert "Alice played **e4**" in w.sent_to(thread)[-1]["content"]


async def test_the_client_reads_messages_only_with_the_intent(world, tmp_path):
    w = world
    _, thread = await start_game(w)
    for enabled, ply in ((False, 0), (True, 1)):
        client = FairyClient(Settings(db_path=str(tmp_path / "unused.db"), discord_message_content=enabled),
                             service=w.fairy.service)
        client.fairy = w.fairy
        await client.on_message(w.message(thread, author=w.alice, content="e4"))
        assert (await w.fairy.service.game(1)).ply == ply
