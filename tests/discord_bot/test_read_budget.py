"""Reads have a budget per player: /board, /record and Flip beyond it are refused at once
(no picture drawn, a clear answer), autocomplete goes quiet; other players are not
affected, and the budget comes back with time."""

from __future__ import annotations

from datetime import timedelta

from bot.discord_bot import commands
from bot.discord_bot.views import FlipButton

from .conftest import press, run, start_game
from .helpers import last_answer


async def test_a_player_cycling_boards_is_refused_and_others_are_not(world, clock):
    w = world
    svc = w.fairy.service
    gv, thread = await start_game(w)
    drawn = []
    board_file = w.fairy.board_file

    async def counting(*args, **kwargs):
        drawn.append(1)
        return await board_file(*args, **kwargs)
    w.fairy.board_file = counting

    for _ in range(svc.READ_BURST):
        i = w.interaction(w.alice)
        await run(commands.board, i, game=gv.id)
        assert "file" in last_answer(i)
    before = len(drawn)
    for cmd, kwargs in ((commands.board, {"game": gv.id}), (commands.record, {"game": gv.id})):
        i = w.interaction(w.alice)
        await run(cmd, i, **kwargs)
        answer = last_answer(i)
        assert "too fast" in answer["content"] and "file" not in answer
    i = w.interaction(w.alice, channel=thread)
    await press(FlipButton, f"fp:flip:{gv.id}", i)
    assert "too fast" in last_answer(i)["content"]
    assert len(drawn) == before  # nothing was drawn for the refused reads

    j = w.interaction(w.bob)  # Bob's budget is his own
    await run(commands.board, j, game=gv.id)
    assert "file" in last_answer(j)

    clock.advance(timedelta(seconds=60 / svc.READS_PER_MINUTE))  # one read back
    k = w.interaction(w.alice)
    await run(commands.record, k, game=gv.id)
    assert "file" in last_answer(k)


async def test_autocomplete_goes_quiet_beyond_its_budget(world):
    w = world
    svc = w.fairy.service
    gv, thread = await start_game(w)
    for _ in range(svc.LOOKUP_BURST):
        assert await commands.move_autocomplete(w.interaction(w.alice, channel=thread), "e")
    refused = await commands.move_autocomplete(w.interaction(w.alice, channel=thread), "e")
    assert len(refused) == 1 and "Slow down" in refused[0].name
    assert await commands.game_autocomplete(w.interaction(w.alice), "") == []
    assert await commands.piece_square_autocomplete(w.interaction(w.alice, channel=thread), "") == []
    assert await commands.game_autocomplete(w.interaction(w.bob), "") != []
