"""Mail reads moves with the engine's one reader (issue #29 item 1): a reply ``Bb4`` is
the Bishop, never the b-pawn; it is refused with the reason and nothing is played. A reply
with nothing of the writer's own is told so (its subject, the bot's, is not read)."""

from __future__ import annotations

from .servers import reply_to_mail, text_of, write_mail
from .test_game_by_mail import start_game


async def test_a_mailed_bb4_is_never_the_b_pawn(bot, servers):
    game_id, side = await start_game(bot, servers)
    white, black = side["w"], side["b"]
    await servers.deliver(reply_to_mail(white, servers.last_to(white), "Bb4"))
    await bot.step()
    text = text_of(servers.last_to(white))
    assert "Nothing was played" in text and "No Bishop of yours can move to b4" in text, text
    assert (await bot.service.game(game_id)).ply == 0
    for mover, move in ((white, "e4"), (black, "e5"), (white, "Bb5")):
        await servers.deliver(reply_to_mail(mover, servers.last_to(mover), move))
        await bot.step()
    assert [m.san for m in (await bot.service.game(game_id)).moves] == ["e4", "e5", "Bb5"]


async def test_a_reply_with_nothing_of_the_players_own_is_told_so_not_read_from_the_subject(bot, servers):
    """The body says nothing (only the quote, or only a phone's signature): the subject is
    then the bot's own ("Re: fairypost game 1: ..."), which is not read as a move."""
    game_id, side = await start_game(bot, servers)
    white = side["w"]
    board = servers.last_to(white)
    for raw in (reply_to_mail(white, board, ""),
                write_mail(white, str(board["Reply-To"]), "Re: " + str(board["Subject"]),
                           "Sent from my iPhone\n\n> Your move\n", reply_to=board)):
        sent = len(servers.sent_to(white))
        await servers.deliver(raw)
        await bot.step()
        answer, = [text_of(m) for m in servers.sent_to(white)[sent:]]
        assert answer.startswith("Your mail has no text of your own, so nothing was done")
        assert "fairypost game" not in answer
    assert (await bot.service.game(game_id)).moves == ()
