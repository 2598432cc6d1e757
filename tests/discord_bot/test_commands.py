"""Each slash command driven through its handler with spec'd mocks: what is sent
(content, embeds, files, the ephemeral flag, views) and what the service then holds."""

from __future__ import annotations

import logging
from unittest import mock

import discord

from bot.discord_bot import commands
from bot.discord_bot.replies import NO_PINGS
from bot.discord_bot.views import AcceptChallenge, ConfirmResign, DeclineChallenge, challenge_view

from .conftest import press, run, start_game
from .helpers import answers, custom_ids, is_png, last_answer, pinged


async def test_challenge_posts_buttons_mentions_and_tells_the_opponent(world):
    w = world
    i = w.interaction(w.alice)
    await run(commands.challenge, i, game="grandducal", opponent=w.bob, days=5, colour="black")
    a = last_answer(i)
    assert a["_via"] == "send_message" and a.get("ephemeral", False) is False  # public
    assert a["content"].startswith(f"<@{w.bob.id}>, **Alice** challenges you (#1)")
    assert "Grand Ducal Chess" in a["content"] and "5 days per move" in a["content"]
    assert "Alice plays Black" in a["content"]
    assert custom_ids(a["view"]) == ["fp:accept:1", "fp:decline:1"]
    assert pinged(a) == [w.bob.id] and not a["allowed_mentions"].everyone
    row = await w.fairy.links.challenge_message(1)
    assert int(row.message_id) == i.original_response.return_value.id and int(row.channel_id) == w.channel.id
    dm = w.dms(w.bob)[-1]  # the notice, with its own buttons
    assert "Alice challenges you to **Grand Ducal Chess**" in dm["content"]
    assert custom_ids(dm["view"]) == ["fp:accept:1", "fp:decline:1"]


async def test_open_challenge_and_refusals(world):
    w = world
    i = w.interaction(w.alice)
    await run(commands.challenge, i, game="chess")
    assert "open challenge" in last_answer(i)["content"] and "Anyone may accept" in last_answer(i)["content"]
    assert (await w.fairy.service.get_challenge(1)).days == 3  # the configured default
    for opponent, why in ((w.alice, "cannot challenge yourself"), (w.member("Robo", bot=True), "bots do not play")):
        j = w.interaction(w.alice)
        await run(commands.challenge, j, game="chess", opponent=opponent)
        a = last_answer(j)
        assert a["ephemeral"] is True and why in a["content"].lower()
        assert "view" not in a


async def test_accept_opens_a_thread_with_the_first_board(world):
    w = world
    i = w.interaction(w.alice)
    await run(commands.challenge, i, game="chess", opponent=w.bob, days=3, colour="white")
    msg = i.original_response.return_value
    j = w.interaction(w.bob, message=msg)
    await press(AcceptChallenge, "fp:accept:1", j)
    edit, done = answers(j)
    assert edit["_via"] == "edit_original" and edit["view"] is None
    assert "Accepted by **Bob**: game #1" in edit["content"]
    assert done["ephemeral"] is True and "Game #1 has begun in <#" in done["content"]
    msg.create_thread.assert_awaited_once()
    assert msg.create_thread.call_args.kwargs["name"] == "#1 Chess: Alice vs Bob"
    thread = w.threads[0]
    (first,) = w.sent_to(thread)
    assert is_png(first["file"])
    assert custom_ids(first["view"]) == [f"fp:{a}:1" for a in ("move", "mine", "flip", "draw", "resign")]
    assert "**Alice** (White) to move · 3 days left" in first["content"]
    assert f"<@{w.alice.id}> <@{w.bob.id}>" in first["content"] and pinged(first) == [w.alice.id, w.bob.id]
    assert int((await w.fairy.links.thread_of(1)).thread_id) == thread.id
    # pressed again: the challenge is gone
    k = w.interaction(w.bob, message=msg)
    await press(AcceptChallenge, "fp:accept:1", k)
    assert "no longer open" in last_answer(k)["content"] and last_answer(k)["ephemeral"] is True


async def test_accept_from_the_dm_opens_the_thread_in_the_challenge_channel(world):
    w = world
    i = w.interaction(w.alice)
    await run(commands.challenge, i, game="chess", opponent=w.bob)
    j = w.interaction(w.bob, dm=True, message=w.message(None, view=challenge_view(1)))  # the DM's button
    await press(AcceptChallenge, "fp:accept:1", j)
    assert "has begun in <#" in last_answer(j)["content"]
    assert w.threads and w.threads[0].parent is w.channel
    edits = [kw for where, kw in w.sent if isinstance(where, tuple) and where[0] == "edit"]
    assert edits and edits[0]["view"] is None and "Accepted" in edits[0]["content"]  # the channel's copy too


async def test_decline_and_withdraw(world):
    w = world
    i = w.interaction(w.alice)
    await run(commands.challenge, i, game="chess", opponent=w.bob)
    j = w.interaction(w.bob, message=i.original_response.return_value)
    await press(DeclineChallenge, "fp:decline:1", j)
    a = last_answer(j)
    assert a["_via"] == "edit_message" and a["view"] is None and "Declined by **Bob**" in a["content"]
    assert "Bob declined your challenge #1" in w.dms(w.alice)[-1]["content"]
    await run(commands.challenge, i := w.interaction(w.alice), game="chess", opponent=w.bob)
    await press(DeclineChallenge, "fp:decline:2", k := w.interaction(w.alice))
    assert "Withdrawn by **Alice**" in last_answer(k)["content"]
    assert (await w.fairy.service.get_challenge(2)).status == "cancelled"
    await run(commands.challenge, i := w.interaction(w.alice), game="chess", opponent=w.bob)
    await press(DeclineChallenge, "fp:decline:3",
                w.interaction(w.bob, dm=True, message=w.message(None, view=challenge_view(3))))
    edits = [kw for where, kw in w.sent if where == ("edit", i.original_response.return_value.id)]
    assert edits and "Declined by **Bob**" in edits[-1]["content"] and edits[-1]["view"] is None


async def test_move_posts_the_board_in_the_thread(world):
    w = world
    _, thread = await start_game(w)
    i = w.interaction(w.alice, channel=thread)
    await run(commands.move, i, move="e4")
    a = dict(last_answer(i))
    assert custom_ids(a.pop("view")) == ["fp:next"]  # the Next game button
    assert a == {"content": "You played **e4** in game #1.", "ephemeral": True, "_via": "followup",
                 "allowed_mentions": NO_PINGS}
    post = w.sent_to(thread)[-1]
    assert is_png(post["file"]) and post["file"].filename == "game1-1.png"
    assert "Alice played **e4**" in post["content"] and "**Bob** (Black) to move · 3 days left" in post["content"]
    assert custom_ids(post["view"])[0] == "fp:move:1" and post["allowed_mentions"].users is False
    # the old board lost its buttons
    assert ("edit", int((await w.fairy.links.thread_of(1)).board_message_id)) not in [x for x, _ in w.sent]
    assert any(isinstance(x, tuple) and x[0] == "edit" and kw == {"view": None} for x, kw in w.sent)
    # Bob is told (by DM, with a link to the thread)
    dm = w.dms(w.bob)[-1]["content"]
    assert "Your move in game #1" in dm and "Alice played **e4**" in dm and f"/{thread.id}" in dm


async def test_move_refusals_are_private(world):
    w = world
    _, thread = await start_game(w)
    posted = len(w.sent_to(thread))
    for user, text, why in ((w.alice, "e5", "e5"), (w.bob, "e5", "not your turn"),
                            (w.alice, "Ke2", "No King of yours can move to e2")):
        i = w.interaction(user, channel=thread)
        await run(commands.move, i, move=text)
        a = last_answer(i)
        assert a["ephemeral"] is True and why in a["content"], a
    assert len(w.sent_to(thread)) == posted  # nothing public
    elsewhere = w.interaction(w.alice)  # outside the thread, one game: found
    await run(commands.move, elsewhere, move="d4")
    assert "You played **d4**" in last_answer(elsewhere)["content"]
    assert f"/{thread.id}" in last_answer(elsewhere)["content"]  # a link to the board


async def test_board_is_private_with_options(world):
    w = world
    _, thread = await start_game(w)
    i = w.interaction(w.bob, channel=thread)
    await run(commands.board, i, my_side=True)
    a = last_answer(i)
    assert a["ephemeral"] is True and is_png(a["file"]) and "**Alice** (White) to move" in a["content"]
    j = w.interaction(w.alice, channel=thread)
    await run(commands.board, j, piece="g1")
    assert "2 moves of the Knight on g1: Nf3 Nh3" in last_answer(j)["content"] and is_png(last_answer(j)["file"])
    k = w.interaction(w.alice, channel=thread)
    await run(commands.board, k, piece="e5")
    assert last_answer(k)["content"] == "There is no piece on e5" and last_answer(k)["ephemeral"] is True


async def test_resign_asks_then_ends_the_game(world):
    w = world
    _, thread = await start_game(w)
    i = w.interaction(w.bob, channel=thread)
    await run(commands.resign, i)
    a = last_answer(i)
    assert a["ephemeral"] is True and "Resign game #1 against Alice?" in a["content"]
    assert custom_ids(a["view"]) == ["fp:resign-yes:1:0"]
    assert (await w.fairy.service.game(1)).status == "active"
    j = w.interaction(w.bob, channel=thread)
    await press(ConfirmResign, "fp:resign-yes:1:0", j)
    assert last_answer(j) == {"content": "You resigned game #1.", "view": None, "_via": "edit_original"}
    final = w.sent_to(thread)[-1]
    assert "1-0 · **Alice** (White) wins by resignation" in final["content"] and "view" not in final
    assert is_png(final["file"])
    assert "is over: 1-0" in w.dms(w.alice)[-1]["content"]


async def test_draw_offer_and_accept(world):
    w = world
    _, thread = await start_game(w)
    i = w.interaction(w.alice, channel=thread)
    await run(commands.draw, i)
    assert "You offered a draw in game #1" in last_answer(i)["content"] and last_answer(i)["ephemeral"]
    dm = w.dms(w.bob)[-1]
    assert "Alice offers a draw in game #1" in dm["content"]
    assert custom_ids(dm["view"]) == ["fp:draw-accept:1", "fp:draw-decline:1"]
    j = w.interaction(w.bob, channel=thread)
    await run(commands.draw, j, answer="accept")
    assert "drawn by agreement" in last_answer(j)["content"]
    assert "Drawn by agreement" in w.sent_to(thread)[-1]["content"]
    k = w.interaction(w.bob, channel=thread)
    await run(commands.draw, k, answer="decline")
    assert "over" in last_answer(k)["content"] and last_answer(k)["ephemeral"] is True


async def test_takeback_ask_and_accept(world):
    w = world
    _, thread = await start_game(w)
    await run(commands.move, w.interaction(w.alice, channel=thread), move="e4")
    i = w.interaction(w.alice, channel=thread)
    await run(commands.takeback, i)
    assert "asked to take back" in last_answer(i)["content"]
    assert "Alice asks to take back **e4**" in w.dms(w.bob)[-1]["content"]
    assert custom_ids(w.dms(w.bob)[-1]["view"]) == ["fp:takeback-accept:1", "fp:takeback-decline:1"]
    j = w.interaction(w.bob, channel=thread)
    await run(commands.takeback, j, answer="accept")
    assert "taken back" in last_answer(j)["content"]
    post = w.sent_to(thread)[-1]
    assert "Move taken back." in post["content"] and "**Alice** (White) to move" in post["content"]
    assert (await w.fairy.service.game(1)).ply == 0


async def test_games_lists_games_and_challenges(world):
    w = world
    await start_game(w)
    await run(commands.challenge, w.interaction(w.bob), game="kingqueen", opponent=w.alice)
    i = w.interaction(w.alice)
    await run(commands.games, i)
    a = last_answer(i)
    assert a["ephemeral"] is True and isinstance(a["embed"], discord.Embed)
    assert a["embed"].description.startswith("▶ #1 Chess vs Bob 1500?: your move, 3 days left")
    assert "#2 Bob challenges you to King and Queen" in a["embed"].fields[0].value


async def test_record_is_a_file(world):
    w = world
    _, thread = await start_game(w)
    await run(commands.move, w.interaction(w.alice, channel=thread), move="Nf3")
    i = w.interaction(w.bob, channel=thread)
    await run(commands.record, i)
    a = last_answer(i)
    assert a["ephemeral"] is True and a["file"].filename == "fairypost-game-1.pgn"
    text = a["file"].fp.read().decode()
    assert '[White "Alice"]' in text and "1. Nf3 *" in text


async def test_rules_and_piece(world):
    w = world
    i = w.interaction(w.alice)
    await run(commands.rules_, i, game="grandducal")
    a = last_answer(i)
    assert a["embed"].title == "Grand Ducal Chess" and "Grand Duke" in a["embed"].description
    assert a["embed"].image.url == "attachment://pieces.png" and is_png(a["file"]) and a["ephemeral"]
    j = w.interaction(w.alice)
    await run(commands.rules_, j)
    assert {f.name for f in last_answer(j)["embed"].fields} >= {"Grand Ducal Chess", "Gigachess II"}
    k = w.interaction(w.alice)
    await run(commands.piece, k, piece="grandducal:G")
    a = last_answer(k)
    assert a["embed"].title == "Grand Duke (G) · Grand Ducal Chess" and "even number" in a["embed"].description
    assert is_png(a["file"]) and a["ephemeral"] is True
    m = w.interaction(w.alice)
    await run(commands.piece, m, piece="Dragon", game="chess")
    assert last_answer(m)["content"] == "Chess has no piece 'Dragon'"


async def test_settings_notices_quiet_hours_vacation(world, clock):
    w = world
    i = w.interaction(w.alice)
    await run(commands.settings, i, notify="channel", timezone="Europe/Paris", quiet_hours="22:00-07:30")
    a = last_answer(i)
    assert a["ephemeral"] is True and a["content"].startswith(f"Done: notices go to <#{w.channel.id}>")
    fields = {f.name: f.value for f in a["embed"].fields}
    assert fields["Notices"] == f"in <#{w.channel.id}>" and fields["Quiet hours"] == "22:00–07:30"
    assert fields["Time zone"] == "Europe/Paris"
    p = await w.fairy.service.get_player((await w.fairy.player(w.alice)).id)
    assert (p.settings.quiet_start, p.settings.quiet_end) == ("22:00", "07:30")
    j = w.interaction(w.alice)
    await run(commands.settings, j, vacation="start", vacation_days=3)
    assert "vacation started" in last_answer(j)["content"]
    assert "on vacation until" in {f.name: f.value for f in last_answer(j)["embed"].fields}["Vacation"]
    k = w.interaction(w.alice)
    await run(commands.settings, k, notify="dm", vacation="end", quiet_hours="off")
    assert last_answer(k)["content"] == "Done: notices come by direct message; settings saved; vacation ended."
    for bad, why in (({"quiet_hours": "late"}, "22:00-07:00"), ({"timezone": "Mars/Olympus"}, "Mars"),
                     ({"vacation_days": 2}, "vacation: start")):
        m = w.interaction(w.alice)
        await run(commands.settings, m, **bad)
        assert why in last_answer(m)["content"] and last_answer(m)["ephemeral"] is True
    n = w.interaction(w.alice)
    await run(commands.settings, n)  # no options: just show them
    assert "content" not in last_answer(n) and last_answer(n)["embed"].title == "Your settings"


async def test_help(world):
    i = world.interaction(world.alice)
    await run(commands.help_, i)
    a = last_answer(i)
    assert a["ephemeral"] is True and "/challenge" in a["embed"].description and "/move" in a["embed"].description
    assert "Super Chess" in a["embed"].fields[0].value


async def test_an_unexpected_error_is_logged_with_the_game_and_answered_briefly(world, monkeypatch, caplog):
    w = world
    _, thread = await start_game(w)

    async def broken(*args, **kwargs):
        raise RuntimeError("disk on fire")
    monkeypatch.setattr(w.fairy.service, "move", broken)
    i = w.interaction(w.alice, channel=thread)
    with caplog.at_level(logging.ERROR, logger="bot.discord_bot"):
        await run(commands.move, i, move="e4")
    a = last_answer(i)
    assert a["ephemeral"] is True and a["content"].startswith("Sorry, something went wrong (game #1)")
    assert "disk on fire" not in a["content"]
    rec = [r for r in caplog.records if "game #1" in r.getMessage()]
    assert rec and rec[0].exc_info[0] is RuntimeError


async def test_a_spectator_sees_the_threads_game(world):
    w = world
    _, thread = await start_game(w)
    carol = w.member("Carol")
    i = w.interaction(carol, channel=thread)
    await run(commands.board, i)
    assert "**Game #1 · Chess**" in last_answer(i)["content"] and is_png(last_answer(i)["file"])
    j = w.interaction(carol, channel=thread)
    await run(commands.move, j, move="e4")
    assert "Game #1 here is not your game" in last_answer(j)["content"]


async def test_without_a_thread_the_game_is_played_in_the_channel(world):
    w = world
    i = w.interaction(w.alice)
    await run(commands.challenge, i, game="chess", opponent=w.bob, colour="white")
    msg = i.original_response.return_value
    msg.create_thread.side_effect = discord.Forbidden(mock.MagicMock(status=403, reason="x"), "Missing Permissions")
    j = w.interaction(w.bob, message=msg)
    await press(AcceptChallenge, "fp:accept:1", j)
    board = w.sent_to(w.channel)[-1]
    assert "The game begins." in board["content"] and is_png(board["file"])
    await run(commands.move, w.interaction(w.alice), move="e4")
    assert "Alice played **e4**" in w.sent_to(w.channel)[-1]["content"]
