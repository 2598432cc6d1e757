"""People's spellings typed in a Discord game's thread (issue #41 item 2): each message is
read by the one grammar and the engine's one reader, so ``1. e4``, Discord's bold
``**e5**`` and italics ``_Nf3_``, ``Nc6!`` and an en dash between squares are played as
the moves they write; two moves in one message are not joined into one (a thread's chat
that is not a move is ignored quietly there); a spelled command (``Draw.``) is run."""

from __future__ import annotations

from bot.discord_bot import typed
from tests.discord_bot.conftest import clock, settings, start_game, world  # noqa: F401 - the Discord fixtures


async def test_typed_moves_in_peoples_spellings_are_played(world):  # noqa: F811
    w = world
    _, thread = await start_game(w)
    for author, content in ((w.alice, "1. e4"), (w.bob, "**e5**"), (w.alice, "_Nf3_"), (w.bob, "2... Nc6!"),
                            (w.alice, "f1\u2013b5"), (w.bob, "a6?!"), (w.alice, "B\u00d7c6"), (w.bob, "dxc6.")):
        assert await typed.on_message(w.fairy, w.message(thread, author=author, content=content)) is True, content
    moves = [m.san for m in (await w.fairy.service.game(1)).moves]
    assert moves == ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6"]


async def test_two_typed_moves_are_never_joined_into_one(world):  # noqa: F811
    w = world
    _, thread = await start_game(w)
    for content in ("e4 e5", "1. e4 e5", "d4 d5"):
        assert await typed.on_message(w.fairy, w.message(thread, author=w.alice, content=content)) is False
    assert (await w.fairy.service.game(1)).ply == 0
    assert await typed.on_message(w.fairy, w.message(thread, author=w.alice, content="e2 e4")) is True
    assert [m.san for m in (await w.fairy.service.game(1)).moves] == ["e4"]


async def test_a_typed_command_with_a_full_stop_is_run(world):  # noqa: F811
    w = world
    _, thread = await start_game(w)
    assert await typed.on_message(w.fairy, w.message(thread, author=w.alice, content="Draw.")) is True
    view = await w.fairy.service.game(1)
    assert view.draw_offer is not None and view.ply == 0
