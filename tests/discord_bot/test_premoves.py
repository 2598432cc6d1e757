"""/premove, move confirmation and the Next game button through the Discord handlers
(issue 23, items 1 and 5), on the spec'd Discord double and a real service."""

from __future__ import annotations

from bot.discord_bot import commands, typed
from bot.discord_bot.views import MoveModal
from bot.discord_bot.waiting import CancelPremoves, ConfirmMove, NextGame

from .conftest import press, run, start_game
from .helpers import custom_ids, is_png, last_answer
from .test_buttons import submission


async def test_premove_set_show_answer_and_cancel(world):
    w = world
    _, thread = await start_game(w)
    await run(commands.move, w.interaction(w.alice, channel=thread), move="e4")
    i = w.interaction(w.alice, channel=thread)
    await run(commands.premove, i, lines="e7e5 Ng1-f3; c5 Nc3 Nc6 Nf3; d5 exd5")
    a = last_answer(i)
    assert a["ephemeral"] is True  # only the player sees their lines
    assert a["content"].splitlines()[1:] == ["· e5 Nf3", "· c5 Nc3 Nc6 Nf3", "· d5 exd5"]
    assert custom_ids(a["view"]) == ["fp:premove-cancel:1"]
    # the opponent sees none of them, and nothing in the thread tells of them
    j = w.interaction(w.bob, channel=thread)
    await run(commands.premove, j)
    assert "You have no conditional lines in game #1" in last_answer(j)["content"]
    assert not any("Nc3" in (kw.get("content") or "") for _, kw in w.sent)

    k = w.interaction(w.bob, channel=thread)
    await run(commands.move, k, move="c5")
    assert last_answer(k)["content"] == ("You played **c5** in game #1. Your opponent's conditional "
                                         "answer **Nc3** was played at once.")
    post = w.sent_to(thread)[-1]
    assert "Alice played **Nc3**" in post["content"] and is_png(post["file"])
    await w.fairy.service.outbox.drain()
    told = w.dms(w.alice)[-1]["content"]
    assert "Bob played **c5**, and your conditional answer **Nc3** was played. 1 line still waits." in told
    assert "Your move in game #1" in w.dms(w.bob)[-1]["content"]

    s = w.interaction(w.alice, channel=thread)
    await run(commands.premove, s)
    assert last_answer(s)["content"].splitlines()[1:] == ["· Nc6 Nf3"]
    c = w.interaction(w.alice, channel=thread, message=w.message(thread, view=last_answer(s)["view"]))
    await press(CancelPremoves, "fp:premove-cancel:1", c)
    assert last_answer(c)["content"] == "Your 1 conditional line in game #1 is cancelled."
    assert (await w.fairy.service.premoves(1, (await w.fairy.player(w.alice)).id)).count == 0


async def test_premove_refusals_name_the_bad_move_privately(world):
    w = world
    _, thread = await start_game(w)
    i = w.interaction(w.alice, channel=thread)
    await run(commands.premove, i, lines="e5 Nf3")  # Alice is to move
    assert "it is your move" in last_answer(i)["content"].lower()
    await run(commands.move, w.interaction(w.alice, channel=thread), move="e4")
    j = w.interaction(w.alice, channel=thread)
    await run(commands.premove, j, lines="e5 Nf3; c5 Qxf7")
    a = last_answer(j)
    assert a["ephemeral"] and "Qxf7 (line 2, move 2, your) is not a legal move there" in a["content"]


async def test_dropped_lines_are_told(world):
    w = world
    _, thread = await start_game(w)
    await run(commands.move, w.interaction(w.alice, channel=thread), move="e4")
    await run(commands.premove, w.interaction(w.alice, channel=thread), lines="e5 Nf3; c5 Nc3")
    await run(commands.move, w.interaction(w.bob, channel=thread), move="d5")
    await w.fairy.service.outbox.drain()
    told = [d["content"] for d in w.dms(w.alice) if "dropped" in (d.get("content") or "")]
    assert told and told[-1].startswith("Game #1: your 2 conditional lines were dropped: Bob played "
                                        "**d5**, which none of them expected. It is your move.")


async def test_confirm_moves_asks_first_with_a_confirm_button(world):
    w = world
    _, thread = await start_game(w)
    s = w.interaction(w.alice, channel=thread)
    await run(commands.settings, s, confirm_moves="typed")
    fields = {f.name: f.value for f in last_answer(s)["embed"].fields}
    assert fields["Confirm moves"].startswith("typed moves")
    # a typed move (the Move button's form) is asked about, not played
    modal = MoveModal(1, 0)
    i = w.interaction(w.alice, channel=thread)
    await modal._scheduled_task(i, submission(modal, "Ng1f3"), {})
    a = last_answer(i)
    assert a["content"].startswith("Play **Nf3** in game #1?") and a["ephemeral"]
    assert custom_ids(a["view"]) == ["fp:play:1:0:g1f3"]
    assert (await w.fairy.service.game(1)).ply == 0
    # the Confirm button plays it
    c = w.interaction(w.alice, channel=thread, message=w.message(thread, view=a["view"]))
    await press(ConfirmMove, "fp:play:1:0:g1f3", c)
    assert last_answer(c)["content"] == "You played **Nf3** in game #1."
    assert [m.san for m in (await w.fairy.service.game(1)).moves] == ["Nf3"]
    # pressed again, it is refused: the game has moved on
    again = w.interaction(w.alice, channel=thread, message=w.message(thread, view=a["view"]))
    await press(ConfirmMove, "fp:play:1:0:g1f3", again)
    assert last_answer(again)["content"] == "The game changed, look again"
    assert (await w.fairy.service.game(1)).ply == 1
    # /move picks from a list: with "typed", it plays at once; with "all", it asks too
    await run(commands.settings, w.interaction(w.bob, channel=thread), confirm_moves="all")
    b = w.interaction(w.bob, channel=thread)
    await run(commands.move, b, move="e5")
    assert last_answer(b)["content"].startswith("Play **e5** in game #1?")
    assert (await w.fairy.service.game(1)).ply == 1
    await run(commands.settings, w.interaction(w.bob, channel=thread), confirm_moves="off")
    b2 = w.interaction(w.bob, channel=thread)
    await run(commands.move, b2, move="e5")
    assert last_answer(b2)["content"] == "You played **e5** in game #1."
    m = w.interaction(w.alice, channel=thread)
    await run(commands.move, m, move="d4")  # Alice: "typed" does not cover /move
    assert last_answer(m)["content"] == "You played **d4** in game #1."


async def test_a_typed_message_is_asked_about_in_the_thread(world):
    w = world
    _, thread = await start_game(w)
    await run(commands.settings, w.interaction(w.alice, channel=thread), confirm_moves="typed")
    msg = w.message(thread, author=w.alice, content="e4")
    assert await typed.on_message(w.fairy, msg) is False
    (args, kwargs) = msg.reply.call_args
    assert args[0].startswith("Play **e4** in game #1?")
    assert custom_ids(kwargs["view"]) == ["fp:play:1:0:e2e4"]
    assert (await w.fairy.service.game(1)).ply == 0
    # someone else pressing it is refused; Alice's press plays it
    q = w.interaction(w.bob, channel=thread, message=w.message(thread, view=kwargs["view"]))
    await press(ConfirmMove, "fp:play:1:0:e2e4", q)
    assert (await w.fairy.service.game(1)).ply == 0 and last_answer(q)["ephemeral"]
    p = w.interaction(w.alice, channel=thread, message=w.message(thread, view=kwargs["view"]))
    await press(ConfirmMove, "fp:play:1:0:e2e4", p)
    assert (await w.fairy.service.game(1)).moves[-1].san == "e4"


async def test_next_game_shows_the_most_urgent_game_where_it_is_my_move(world):
    w = world
    carol = w.member("Carol")
    _, t1 = await start_game(w, days=7)                          # game 1: Alice to move
    _, t2 = await start_game(w, white=carol, black=w.alice, days=2)  # game 2: Carol to move
    await run(commands.move, w.interaction(carol, channel=t2), move="e4")  # now Alice's, 2 days
    i = w.interaction(w.alice, channel=t1)
    await run(commands.move, i, move="d4")  # Alice plays in game 1
    n = w.interaction(w.alice, channel=t1, message=w.message(t1, view=last_answer(i)["view"]))
    await press(NextGame, "fp:next", n)
    a = last_answer(n)
    assert a["content"].startswith("Your most urgent game:\n**Game #2 · Chess**")
    assert "**Alice** (Black) to move · 2 days left" in a["content"]
    assert is_png(a["file"]) and a["ephemeral"]
    assert custom_ids(a["view"]) == ["fp:move:2", "fp:next"]
    assert str(t2.id) in a["content"]  # its thread's link
    await run(commands.move, w.interaction(w.alice, channel=t2), move="e5")
    none = w.interaction(w.alice, channel=t2, message=w.message(t2, view=a["view"]))
    await press(NextGame, "fp:next", none)
    assert last_answer(none)["content"] == "No game waits for your move."


async def test_lines_autocomplete_completes_the_move_being_typed(world):
    from bot.discord_bot.waiting import lines_autocomplete
    w = world
    gv, thread = await start_game(w)
    # Alice is to move: no lines to leave, so nothing is offered
    assert await lines_autocomplete(w.interaction(w.alice, channel=thread), "e") == []
    await run(commands.move, w.interaction(w.alice, channel=thread), move="e4")
    i = w.interaction(w.alice, channel=thread)
    choices = await lines_autocomplete(i, "e")  # the opponent's move comes first
    assert [c.value for c in choices] == ["e5", "e6"] and choices[0].name == "e5 · their move"
    k = w.interaction(w.alice, namespace={"game": gv.id})  # outside the thread, the game named
    choices = await lines_autocomplete(k, "e5 Nf3; 1... c5 N")
    assert "e5 Nf3; 1... c5 Nf3" in [c.value for c in choices]
    assert all(c.name.endswith("your answer") and len(c.value) <= 100 for c in choices)
    assert await lines_autocomplete(k, "Ke7 N") == []  # a move before it is not legal
    # Bob, to move, gets nothing either
    assert await lines_autocomplete(w.interaction(w.bob, channel=thread), "N") == []
