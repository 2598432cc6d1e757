"""Ratings and challenges with a life, through the Discord handlers: /ratings, the rated
option, /settings block, the limits, expiry, and buttons disabled once their offer is
settled elsewhere."""

from __future__ import annotations

import os

from bot.discord_bot import commands
from bot.discord_bot.views import DeclineChallenge
from bot.operations.glicko import Rating, rate_game

from .conftest import press, run, start_game
from .helpers import call_kwargs, custom_ids, last_answer


async def _pid(w, member) -> int:
    return (await w.fairy.player(member)).id


def _edits(w) -> list[tuple[int, dict]]:
    return [(where[1], kw) for where, kw in w.sent if isinstance(where, tuple) and where[0] == "edit"]


def _dm_message_id(w, member, text: str) -> int:
    """The id of the direct message to ``member`` that holds ``text``."""
    (mid,) = [m.id for m in w.messages.values() if m.channel is None and text in m.content]
    return mid


def _disabled(view) -> bool:
    return all(child.item.disabled for child in view.children)


async def test_a_rated_game_shows_in_ratings_and_beside_the_names(world):
    w = world
    gv, thread = await start_game(w)
    assert gv.rated
    first_board = w.sent_to(thread)[0]["content"]
    assert "**Alice** 1500? (White) vs **Bob** 1500? (Black)" in first_board
    await w.fairy.service.resign(gv.id, await _pid(w, w.bob))
    alice, bob = rate_game(Rating(), Rating(), 1.0)
    i = w.interaction(w.alice, channel=thread)  # the thread's game: Chess
    await run(commands.ratings, i)
    e = last_answer(i)["embed"]
    assert e.title == "Ratings · Chess"
    assert e.description.splitlines() == [f"1. Alice {alice.shown()} (1 rated game)",
                                          f"2. Bob {bob.shown()} (1 rated game)"]
    assert e.fields[-1].name == "Your ratings" and e.fields[-1].value == f"Chess: {alice.shown()} (1 rated game)"
    # without a game, outside a thread: each game's leaders
    j = w.interaction(w.bob)
    await run(commands.ratings, j)
    e = last_answer(j)["embed"]
    assert [(f.name, f.value.splitlines()[0]) for f in e.fields] == [
        ("Chess", f"1. Alice {alice.shown()} (1 rated game)"),
        ("Your ratings", f"Chess: {bob.shown()} (1 rated game)")]


async def test_names_on_the_leaderboard_are_escaped(world):
    w = world
    star = w.member("*Star* @everyone")
    gv, _ = await start_game(w, white=star)
    await w.fairy.service.resign(gv.id, await _pid(w, w.bob))
    i = w.interaction(w.bob)
    await run(commands.ratings, i, game="chess")
    first = last_answer(i)["embed"].description.splitlines()[0]
    assert first.startswith("1. \\*Star\\* @\u200beveryone ")


async def test_a_casual_challenge_says_so_and_leaves_the_ratings(world):
    w = world
    i = w.interaction(w.alice)
    await run(commands.challenge, i, game="chess", opponent=w.bob, rated=False)
    assert "· casual ·" in call_kwargs(i.response.send_message)["content"]
    (dm,) = w.dms(w.bob)
    assert "· casual ·" in dm["content"]
    c = await w.fairy.service.get_challenge(1)
    gv = await w.fairy.service.accept_challenge(c.id, await _pid(w, w.bob))
    await w.fairy.service.resign(gv.id, await _pid(w, w.bob))
    j = w.interaction(w.alice)
    await run(commands.ratings, j, game="chess")
    e = last_answer(j)["embed"]
    assert e.description == "No rated game of it has been played yet."
    assert e.fields[-1].value.startswith("None yet")


async def test_600_challenges_to_one_victim_send_3_dms(world, clock):
    """600 with FAIRYPOST_LONG=1 (8 s); else 40, the same refusals (tests/bot has the 600)."""
    w = world
    refused = set()
    for _ in range(600 if os.environ.get("FAIRYPOST_LONG") else 40):
        clock.advance(seconds=2)
        i = w.interaction(w.alice)
        await run(commands.challenge, i, game="chess", opponent=w.bob)
        if i.response.send_message.call_args.kwargs.get("ephemeral"):
            refused.add(last_answer(i)["content"])
    assert len(w.dms(w.bob)) == 3
    assert refused == {"You already have 3 open challenges to Bob, the most allowed: wait for an "
                       "answer. A withdrawn challenge still counts for 24 hours, a declined one "
                       "for 7 days. You can challenge Bob again in 7 days (at 2025-01-13 12:00 "
                       "UTC), or sooner if they accept one"}


async def test_withdrawing_and_challenging_again_is_refused_saying_until_when(world, clock):
    """Issue #32: withdrawing the oldest challenge at the cap no longer makes room at once."""
    w = world
    for n in (1, 2, 3):
        clock.advance(minutes=1)
        i = w.interaction(w.alice)
        await run(commands.challenge, i, game="chess", opponent=w.bob)
        j = w.interaction(w.alice, message=i.original_response.return_value)
        await press(DeclineChallenge, f"fp:decline:{n}", j)  # the challenger's press withdraws
    assert len([d for d in w.dms(w.bob) if "challenges you" in d["content"]]) == 3
    clock.advance(minutes=1)
    i = w.interaction(w.alice)
    await run(commands.challenge, i, game="chess", opponent=w.bob)
    assert call_kwargs(i.response.send_message).get("ephemeral")
    assert last_answer(i)["content"] == (
        "You have challenged Bob 3 times lately (3 withdrawn), the most allowed. A withdrawn "
        "challenge still counts for 24 hours, a declined one for 7 days. You can challenge Bob "
        "again in 1 day (at 2025-01-07 12:01 UTC)")
    assert len([d for d in w.dms(w.bob) if "challenges you" in d["content"]]) == 3


async def test_settings_block_refuses_their_challenges_without_a_dm(world):
    w = world
    i = w.interaction(w.bob)
    await run(commands.settings, i, block=w.alice)
    a = last_answer(i)
    assert a["content"] == "Done: blocked Alice."
    assert {f.name: f.value for f in a["embed"].fields}["Blocked"] == "Alice"
    j = w.interaction(w.alice)
    await run(commands.challenge, j, game="chess", opponent=w.bob)
    assert last_answer(j)["content"] == "You cannot challenge this player"
    assert w.dms(w.bob) == []
    k = w.interaction(w.bob)
    await run(commands.settings, k, unblock=w.alice)
    assert {f.name: f.value for f in last_answer(k)["embed"].fields}["Blocked"] == "no one"
    await run(commands.challenge, w.interaction(w.alice), game="chess", opponent=w.bob)
    assert len(w.dms(w.bob)) == 1


async def test_a_challenges_dm_buttons_are_disabled_once_it_is_withdrawn(world):
    w = world
    i = w.interaction(w.alice)
    await run(commands.challenge, i, game="chess", opponent=w.bob)
    (dm,) = w.dms(w.bob)
    assert not _disabled(dm["view"])
    mid = _dm_message_id(w, w.bob, "challenges you")
    # Alice withdraws it from the channel's message: Bob's DM keeps its text, its buttons go grey
    j = w.interaction(w.alice, message=i.original_response.return_value)
    await press(DeclineChallenge, "fp:decline:1", j)
    (edit,) = [kw for m, kw in _edits(w) if m == mid]
    assert set(edit) == {"view"} and _disabled(edit["view"])
    assert custom_ids(edit["view"]) == ["fp:accept:1", "fp:decline:1"]


async def test_a_draw_offers_buttons_are_disabled_when_a_move_makes_it_moot(world):
    w = world
    gv, thread = await start_game(w)
    await run(commands.draw, w.interaction(w.alice, channel=thread))
    mid = _dm_message_id(w, w.bob, "offers a draw")
    assert not [kw for m, kw in _edits(w) if m == mid]
    await w.fairy.play(await _pid(w, w.alice), gv.id, "e4")  # her offer lapses with her move
    (edit,) = [kw for m, kw in _edits(w) if m == mid]
    assert _disabled(edit["view"]) and custom_ids(edit["view"]) == ["fp:draw-accept:1", "fp:draw-decline:1"]


async def test_an_expired_challenge_says_so_where_it_was_made(world, clock):
    w = world
    i = w.interaction(w.alice)
    await run(commands.challenge, i, game="chess")  # open to anyone, in the channel
    posted = i.original_response.return_value
    clock.advance(days=7)
    assert (await w.fairy.service.sweep()).challenges_expired == 1
    (edit,) = [kw for m, kw in _edits(w) if m == posted.id]
    assert edit["content"].endswith("⌛ Expired: no one answered it in time.")
    assert _disabled(edit["view"])
    (told,) = w.dms(w.alice)
    assert told["content"] == "Your challenge #1 expired: no one answered it in time."


async def test_a_challenge_accepted_elsewhere_loses_its_buttons_in_the_channel(world):
    w = world
    i = w.interaction(w.alice)
    await run(commands.challenge, i, game="chess")  # open to anyone
    posted = i.original_response.return_value
    # Bob accepts it by another way than its button (a typed accept, another adapter)
    await w.fairy.service.accept_challenge(1, await _pid(w, w.bob))
    (edit,) = [kw for m, kw in _edits(w) if m == posted.id]
    assert set(edit) == {"view"} and _disabled(edit["view"])


async def test_a_pressed_button_is_not_greyed_back_under_the_handlers_words(world):
    from bot.discord_bot.views import AcceptChallenge
    w = world
    i = w.interaction(w.alice)
    await run(commands.challenge, i, game="chess", opponent=w.bob)
    mid = _dm_message_id(w, w.bob, "challenges you")
    dm_message = w.messages[mid]
    j = w.interaction(w.bob, dm=True, message=dm_message)  # Bob accepts in his DM
    await press(AcceptChallenge, "fp:accept:1", j)
    await w.fairy.service.outbox.drain()
    # the DM pressed and the channel's copy were rewritten by the handler, buttons gone; the
    # notifier left them so (no edit of the DM, only the handler's of the channel copy)
    assert [kw for m, kw in _edits(w) if m == mid] == []
    channel_copy = i.original_response.return_value.id
    assert [kw["view"] for m, kw in _edits(w) if m == channel_copy] == [None]
