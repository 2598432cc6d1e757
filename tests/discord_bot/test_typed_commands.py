"""Commands typed in a game's thread (bot/discord_bot/typed.py with bot/words/grammar.py and
bot/commands/run.py): answered as replies, in Discord's markdown; chat that only starts
like a command, and anyone not playing there, are left alone."""

from __future__ import annotations

from bot.discord_bot import typed

from .conftest import start_game


def reply_of(msg) -> str:
    msg.reply.assert_awaited()
    args, kwargs = msg.reply.call_args
    return args[0] if args else kwargs["content"]


async def say(w, thread, author, content: str):
    msg = w.message(thread, author=author, content=content)
    handled = await typed.on_message(w.fairy, msg)
    await w.fairy.service.outbox.drain()
    return handled, msg


async def test_a_draw_offered_and_accepted_by_typing(world):
    w = world
    _, thread = await start_game(w)
    handled, msg = await say(w, thread, w.alice, "draw")
    assert handled and reply_of(msg).startswith("Game #1: You offer a draw.")
    assert "Alice offers a draw in game #1" in w.dms(w.bob)[-1]["content"]
    handled, msg = await say(w, thread, w.bob, "draw accept")
    assert handled and "You accept the draw." in reply_of(msg)
    view = await w.fairy.service.game(1)
    assert (view.status, view.result, view.reason) == ("finished", "1/2-1/2", "agreement")
    assert "Drawn by agreement" in w.sent_to(thread)[-1]["content"]  # the final board


async def test_help_moves_and_a_refusal_are_answered(world):
    w = world
    _, thread = await start_game(w)
    handled, msg = await say(w, thread, w.alice, "help")
    assert handled and "`challenge GAME OPPONENT [days N] [casual]`" in reply_of(msg)
    handled, msg = await say(w, thread, w.alice, "moves g1")
    assert handled and reply_of(msg) == "2 moves of the Knight on g1: Nf3 Nh3"
    handled, msg = await say(w, thread, w.bob, "takeback")  # nothing of Bob's to take back
    assert handled and reply_of(msg)  # the service's refusal, said
    assert (await w.fairy.service.game(1)).ply == 0


async def test_chat_and_strangers_are_left_alone(world):
    w = world
    _, thread = await start_game(w)
    carol = w.member("Carol")
    for author, content in ((w.alice, "draw? maybe later"), (w.alice, "games are fun"),
                            (carol, "draw"), (carol, "help")):
        handled, msg = await say(w, thread, author, content)
        assert handled is False, content
        msg.reply.assert_not_called()
    view = await w.fairy.service.game(1)
    assert view.draw_offer is None and view.status == "active"


async def test_rules_piece_and_confirm_typed_in_the_thread(world):
    w = world
    _, thread = await start_game(w)
    handled, msg = await say(w, thread, w.bob, "rules")
    assert handled and reply_of(msg).startswith("Chess (chess): 8 x 8 board")
    assert "**Special rules**:" in reply_of(msg) and "**K** King: " in reply_of(msg)
    handled, msg = await say(w, thread, w.bob, "piece knight")
    assert handled and reply_of(msg).startswith("**N** Knight (Chess)\n") and "Betza: `N`" in reply_of(msg)
    handled, msg = await say(w, thread, w.bob, "piece dragon")
    assert handled and reply_of(msg).startswith("Chess has no piece 'dragon'. Its pieces: K King, ")
    handled, msg = await say(w, thread, w.alice, "confirm on")
    assert handled and reply_of(msg).startswith("Moves you type are asked about")
    alice = await w.fairy.player(w.alice)
    assert (await w.fairy.service.get_player(alice.id)).settings.confirm_moves == "typed"


async def test_a_reply_too_long_for_a_message_comes_whole_as_a_file(world):
    from bot.discord_bot.typed import MESSAGE_CHARS
    from bot.words.game_texts import rules_text
    from bot.words.text import DISCORD
    w = world
    _, thread = await start_game(w)
    handled, msg = await say(w, thread, w.bob, "rules gigachess2")
    whole = rules_text("gigachess2", DISCORD)
    assert handled and len(whole) > MESSAGE_CHARS
    text, file = reply_of(msg), msg.reply.call_args.kwargs["file"]
    assert len(text) <= MESSAGE_CHARS and text.endswith("… (all of it in the file)")
    assert whole.startswith(text.removesuffix("\n… (all of it in the file)"))
    assert file.fp.read().decode() == whole
