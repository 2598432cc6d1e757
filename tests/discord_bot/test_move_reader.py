"""Discord reads moves with the engine's one reader (issue #29 item 1): ``Bb4`` is the
Bishop, never the b-pawn, whether typed in the game's thread or sent with /move, and a
conditional answer is read the same way."""

from __future__ import annotations

from bot.discord_bot import commands, typed

from .conftest import run, start_game
from .helpers import last_answer


async def test_a_typed_bb4_is_never_the_b_pawn(world):
    w = world
    _, thread = await start_game(w)
    for text in ("Bb4", "Bb3", "Bxb3"):
        msg = w.message(thread, author=w.alice, content=text)
        assert await typed.on_message(w.fairy, msg) is False  # not a legal move: chat, ignored
    assert (await w.fairy.service.game(1)).ply == 0
    for author, text in ((w.alice, "e4"), (w.bob, "e5"), (w.alice, "Bb5")):
        assert await typed.on_message(w.fairy, w.message(thread, author=author, content=text)) is True
    assert [m.san for m in (await w.fairy.service.game(1)).moves] == ["e4", "e5", "Bb5"]
    assert "Alice played **Bb5**" in w.sent_to(thread)[-1]["content"]


async def test_slash_move_refuses_bb4_with_the_readers_reason(world):
    w = world
    _, thread = await start_game(w)
    i = w.interaction(w.alice, channel=thread)
    await run(commands.move, i, move="B4")
    answer = last_answer(i)["content"]
    assert "B is the Bishop's letter" in answer and "write b4" in answer
    assert (await w.fairy.service.game(1)).ply == 0
    await run(commands.move, w.interaction(w.alice, channel=thread), move="b4")
    assert [m.san for m in (await w.fairy.service.game(1)).moves] == ["b4"]


async def test_a_conditional_answer_is_read_by_the_same_reader(world):
    w = world
    _, thread = await start_game(w)
    await run(commands.move, w.interaction(w.alice, channel=thread), move="e4")
    # Alice leaves an answer in advance: if Black plays e5, Bb4: refused (no Bishop goes
    # there), never read as the b-pawn's b4; Bb5 is taken and played when e5 comes
    i = w.interaction(w.alice, channel=thread)
    await run(commands.premove, i, lines="e5 Bb4")
    refused = last_answer(i)["content"]
    assert "no Bishop of yours can move to b4" in refused, refused
    i = w.interaction(w.alice, channel=thread)
    await run(commands.premove, i, lines="e5 Bb5")
    await run(commands.move, w.interaction(w.bob, channel=thread), move="e5")
    assert [m.san for m in (await w.fairy.service.game(1)).moves] == ["e4", "e5", "Bb5"]
