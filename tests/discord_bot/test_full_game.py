"""A whole game between two mocked members, from the challenge to mate, through every way
of moving: autocomplete + /move, the Move button's modal, and a move typed in the thread."""

from __future__ import annotations

from bot.discord_bot import commands, typed
from bot.discord_bot.views import MoveButton

from .conftest import press, run, start_game
from .helpers import is_png, last_answer
from .test_buttons import submission

# Grand Ducal Chess: the Sage leaves j8, the Knight comes to g5, the Bishop takes h7 with mate
MOVES = ["g2g4", "j8k6", "i1h3", "k6l5", "h3g5", "a7a6", "f1j5", "a6a5", "j5h7"]


async def test_challenge_to_mate(world):
    w = world
    gv, thread = await start_game(w, game="grandducal", days=2)
    assert gv.white.name == "Alice" and gv.black.name == "Bob"
    players = [w.alice, w.bob]
    for ply, lan in enumerate(MOVES):
        who = players[ply % 2]
        way = ply % 3
        if way == 0:  # pick from autocomplete, then /move
            i = w.interaction(who, channel=thread)
            choices = await commands.move_autocomplete(i, lan)
            san = choices[0].value
            await run(commands.move, i, move=san)
            assert last_answer(i)["content"].startswith(f"You played **{san}**")
        elif way == 1:  # the Move button and its modal, with the move from-to
            i = w.interaction(who, channel=thread)
            await press(MoveButton, f"fp:move:{gv.id}", i)
            modal = last_answer(i)["modal"]
            assert modal.ply == ply
            j = w.interaction(who, channel=thread)
            await modal._scheduled_task(j, submission(modal, lan), {})
            san = last_answer(j)["content"].split("**")[1]
        else:  # typed in the thread
            msg = w.message(thread, author=who, content=f"`{lan}`")
            assert await typed.on_message(w.fairy, msg) is True
            san = (await w.fairy.service.game(gv.id)).moves[-1].san
        post = w.sent_to(thread)[-1]
        assert f"played **{san}**" in post["content"] and is_png(post["file"])
        assert post["file"].filename == f"game{gv.id}-{ply + 1}.png"
        if ply < len(MOVES) - 1:
            nxt = ["Alice", "Bob"][(ply + 1) % 2]
            assert f"**{nxt}** ({['White', 'Black'][(ply + 1) % 2]}) to move · 2 days left" in post["content"]
            assert "view" in post
    final = w.sent_to(thread)[-1]
    assert final["content"].endswith("1-0 · **Alice** (White) wins by checkmate") and "view" not in final
    assert san.endswith("#")
    for member in players:
        assert "is over: 1-0 · **Alice** (White) wins by checkmate" in w.dms(member)[-1]["content"]
    i = w.interaction(w.bob, channel=thread)
    await run(commands.record, i)
    record = last_answer(i)["file"].fp.read().decode()
    assert '[Result "1-0"]' in record and '[Termination "checkmate"]' in record and f"{san} 1-0" in record
    j = w.interaction(w.bob, channel=thread)
    await run(commands.move, j, move="a4")
    assert "the game is over" in last_answer(j)["content"].lower() and last_answer(j)["ephemeral"] is True
    k = w.interaction(w.alice)
    await run(commands.games, k, finished=True)
    assert "1-0 (checkmate)" in last_answer(k)["embed"].description
