"""The board's buttons and their modals, driven through their callbacks; and the same
buttons resolving their game after a simulated restart, through discord.py's own
dispatch of DynamicItems (ViewStore) on a message that only holds their custom ids."""

from __future__ import annotations

import asyncio

import discord

from bot.discord_bot import commands
from bot.discord_bot.replies import NO_PINGS
from bot.discord_bot.runner import FairyClient
from bot.discord_bot.views import (
    DYNAMIC_ITEMS,
    Answer,
    ConfirmResign,
    DrawButton,
    FlipButton,
    MoveButton,
    MoveModal,
    MyMovesButton,
    PieceModal,
    ResignButton,
)

from .conftest import open_world, press, run, start_game
from .helpers import custom_ids, is_png, last_answer, spec_mock


def submission(modal, value: str) -> list[dict]:
    """The components of a modal submit interaction, as Discord sends them."""
    (field,) = [c for c in modal.walk_children() if isinstance(c, discord.ui.TextInput)]
    return [{"type": 1, "components": [{"type": 4, "custom_id": field.custom_id, "value": value}]}]


async def test_move_button_opens_a_modal_that_plays_the_move(world):
    w = world
    _, thread = await start_game(w)
    i = w.interaction(w.alice, channel=thread)
    await press(MoveButton, "fp:move:1", i)
    modal = last_answer(i)["modal"]
    assert isinstance(modal, MoveModal) and (modal.game_id, modal.ply) == (1, 0)
    assert modal.title == "Your move in game #1" and modal.move.placeholder.startswith("for example ")
    j = w.interaction(w.alice, channel=thread)
    await modal._scheduled_task(j, submission(modal, "Nf3"), {})  # what discord.py does on submit
    answer = dict(last_answer(j))
    assert custom_ids(answer.pop("view")) == ["fp:next"]  # the Next game button
    assert answer == {"content": "You played **Nf3** in game #1.", "ephemeral": True, "_via": "followup",
                      "allowed_mentions": NO_PINGS}
    post = w.sent_to(thread)[-1]
    assert "Alice played **Nf3**" in post["content"] and is_png(post["file"])
    k = w.interaction(w.bob, channel=thread)  # an illegal move in the modal: a private refusal
    await press(MoveButton, "fp:move:1", k)
    modal = last_answer(k)["modal"]
    m = w.interaction(w.bob, channel=thread)
    await modal._scheduled_task(m, submission(modal, "Ke7"), {})
    assert last_answer(m)["ephemeral"] is True and "e7" in last_answer(m)["content"]


async def test_move_button_refuses_the_wrong_people(world):
    w = world
    _, thread = await start_game(w)
    for user, why in ((w.bob, "not your move: Alice is to move"), (w.member("Carol"), "not a player")):
        i = w.interaction(user, channel=thread)
        await press(MoveButton, "fp:move:1", i)
        a = last_answer(i)
        assert a["_via"] == "send_message" and a["ephemeral"] is True and why in a["content"], a
        i.response.send_modal.assert_not_called()


async def test_my_moves_shows_one_piece_privately(world):
    w = world
    _, thread = await start_game(w)
    i = w.interaction(w.alice, channel=thread)
    await press(MyMovesButton, "fp:mine:1", i)
    modal = last_answer(i)["modal"]
    assert isinstance(modal, PieceModal)
    j = w.interaction(w.alice, channel=thread)
    await modal._scheduled_task(j, submission(modal, "g1"), {})
    a = last_answer(j)
    assert a["content"] == "2 moves of the Knight on g1: Nf3 Nh3" and a["ephemeral"] is True and is_png(a["file"])
    k = w.interaction(w.alice, channel=thread)
    await modal._scheduled_task(k, submission(modal, "knight"), {})
    assert last_answer(k)["content"] == "Several pieces are called that (b1, g1): give its square"


async def test_flip_is_a_private_picture_from_the_other_side(world):
    w = world
    _, thread = await start_game(w)
    i = w.interaction(w.bob, channel=thread)
    await press(FlipButton, "fp:flip:1", i)
    a = last_answer(i)
    assert a["ephemeral"] is True and is_png(a["file"])
    assert a["content"].startswith("Game #1 · Chess, seen from Black's side.")


async def test_draw_button_and_the_answer_buttons(world):
    w = world
    _, thread = await start_game(w)
    i = w.interaction(w.alice, channel=thread)
    await press(DrawButton, "fp:draw:1", i)
    assert last_answer(i)["content"] == "You offered a draw; Bob has been told."
    dm = w.dms(w.bob)[-1]
    decline_id = custom_ids(dm["view"])[1]
    j = w.interaction(w.bob, channel=None)
    await press(Answer, decline_id, j)
    assert last_answer(j) == {"content": "Game #1: you declined the draw offer.", "view": None, "_via": "edit_original"}
    assert "Bob declined your draw offer" in w.dms(w.alice)[-1]["content"]
    await press(DrawButton, "fp:draw:1", w.interaction(w.bob, channel=thread))
    k = w.interaction(w.alice, channel=None)
    await press(Answer, custom_ids(w.dms(w.alice)[-1]["view"])[0], k)
    assert "you accepted the draw offer" in last_answer(k)["content"]
    assert (await w.fairy.service.game(1)).result == "1/2-1/2"
    final = w.sent_to(thread)[-1]
    assert "Drawn by agreement" in final["content"] and "view" not in final


async def test_resign_button_confirms_and_a_stale_confirmation_is_refused(world):
    w = world
    _, thread = await start_game(w)
    i = w.interaction(w.alice, channel=thread)
    await press(ResignButton, "fp:resign:1", i)
    confirm_id = custom_ids(last_answer(i)["view"])[0]
    assert confirm_id == "fp:resign-yes:1:0" and last_answer(i)["ephemeral"] is True
    await run(commands.move, w.interaction(w.alice, channel=thread), move="e4")
    j = w.interaction(w.alice, channel=thread)
    await press(ConfirmResign, confirm_id, j)
    assert last_answer(j)["content"] == "The game changed, look again" and last_answer(j)["ephemeral"] is True
    assert (await w.fairy.service.game(1)).status == "active"


async def _dispatch(store, interaction, custom_id: str) -> None:
    """discord.py's own path for a component press: match the registered templates, build
    the item from the message's component, run the callback."""
    store.dispatch_view(discord.ComponentType.button.value, custom_id, interaction)
    tasks = [t for t in asyncio.all_tasks() if t.get_name().startswith("discord-ui-dynamic-item")]
    assert tasks, f"no registered item matched {custom_id}"
    await asyncio.gather(*tasks)


async def test_buttons_resolve_their_game_after_a_restart(settings, clock):
    w = await open_world(settings, clock)
    w.alice, w.bob = w.member("Alice"), w.member("Bob")
    await start_game(w, game="grandducal")
    _, thread = await start_game(w)  # game 2, so that the id in the custom id matters
    await run(commands.move, w.interaction(w.alice, channel=thread), move="e4")
    board = w.sent_to(thread)[-1]
    components = [discord.ActionRow(row) for row in board["view"].to_components()]  # all Discord keeps
    await w.fairy.service.close()

    # the restart: a new service on the same file, a new adapter, a new client whose
    # ViewStore knows nothing but the registered DynamicItem classes
    w = await open_world(settings, clock, world=w)
    client = FairyClient(settings)
    client.add_dynamic_items(*DYNAMIC_ITEMS)
    store = client._connection._view_store
    message = spec_mock(discord.Message, id=424242, components=components,
                        flags=discord.MessageFlags(), channel=thread)
    try:
        i = w.interaction(w.bob, channel=thread, message=message)
        await _dispatch(store, i, "fp:move:2")
        modal = last_answer(i)["modal"]
        assert isinstance(modal, MoveModal) and (modal.game_id, modal.ply) == (2, 1)
        j = w.interaction(w.bob, channel=thread)
        await modal._scheduled_task(j, submission(modal, "e5"), {})
        assert last_answer(j)["content"] == "You played **e5** in game #2."
        assert "Bob played **e5**" in w.sent_to(thread)[-1]["content"]
        k = w.interaction(w.alice, channel=thread, message=message)
        await _dispatch(store, k, "fp:flip:2")
        assert "Game #2 · Chess, seen from Black's side" in last_answer(k)["content"]
        assert is_png(last_answer(k)["file"])
    finally:
        await w.fairy.service.close()
        await client.close()
