"""Only the player, answering the current board with a token the bot signed, moves: a forged
sender, a forged token and a replayed old mail move nothing; bad senders get no reply."""

from __future__ import annotations

import logging

from bot.email import tokens

from .conftest import BOT, as_proven
from .servers import reply_to_mail, text_of, write_mail
from .test_game_by_mail import ALICE, BOB, start_game


async def test_a_forged_sender_moves_nothing_and_gets_no_reply(bot, servers, caplog):
    game_id, side = await start_game(bot, servers)
    white_mail = servers.last_to(side["w"])
    mails_before = len(servers.recorder.mails)
    forged = reply_to_mail("mallory@evil.test", white_mail, "e4")
    with caplog.at_level(logging.WARNING, logger="bot.email"):
        await servers.deliver(forged)
        await bot.step()
    assert (await bot.service.game(game_id)).ply == 0
    assert len(servers.recorder.mails) == mails_before  # no backscatter
    assert "mallory@evil.test" in caplog.text and "not theirs" in caplog.text
    # the other player sending White's reply is no better
    await servers.deliver(reply_to_mail(side["b"], white_mail, "e4"))
    await bot.step()
    assert (await bot.service.game(game_id)).ply == 0
    assert len(servers.recorder.mails) == mails_before


async def test_a_forged_token_moves_nothing(bot, servers, caplog):
    game_id, side = await start_game(bot, servers)
    white_mail = servers.last_to(side["w"])
    tag = tokens.parse_tag(str(white_mail["Reply-To"]), BOT)
    forged_to = f"bot+g{game_id}-p{tag.player_id}-{'0' * tokens.TOKEN_CHARS}@fairy.test"
    mails_before = len(servers.recorder.mails)
    with caplog.at_level(logging.WARNING, logger="bot.email"):
        await servers.deliver(write_mail(side["w"], forged_to, "Re: game", "e4"))
        await bot.step()
    assert (await bot.service.game(game_id)).ply == 0
    assert len(servers.recorder.mails) == mails_before
    assert "forged token" in caplog.text
    # a token signed with another key is forged too
    other = tokens.reply_address(BOT, b"another key", "g", game_id, tag.player_id, 0)
    await servers.deliver(write_mail(side["w"], other, "Re: game", "e4"))
    await bot.step()
    assert (await bot.service.game(game_id)).ply == 0


async def test_a_replayed_old_mail_gets_the_board_and_moves_nothing(bot, servers):
    game_id, side = await start_game(bot, servers)
    white, black = side["w"], side["b"]
    first_board = servers.last_to(white)
    await servers.deliver(reply_to_mail(white, first_board, "e4"))
    await bot.step()
    await servers.deliver(reply_to_mail(black, servers.last_to(black), "e5"))
    await bot.step()
    assert (await bot.service.game(game_id)).ply == 2
    # White answers the first board again (an old mail, or the same one replayed)
    await servers.deliver(reply_to_mail(white, first_board, "d4"))
    await bot.step()
    view = await bot.service.game(game_id)
    assert view.ply == 2 and [m.san for m in view.moves] == ["e4", "e5"]
    answer = servers.last_to(white)
    assert "The game changed since the mail you answered" in text_of(answer)
    tag = tokens.parse_tag(str(answer["Reply-To"]), BOT)
    assert tokens.signed_ply(bot.adapter.secret, tag, view.ply) == 2  # signed for the board now
    # the very same mail delivered twice is handled once
    mails = len(servers.recorder.mails)
    await servers.deliver(reply_to_mail(white, answer, "Nf3", message_id="<same@a.test>"))
    await servers.deliver(reply_to_mail(white, answer, "Nf3", message_id="<same@a.test>"))
    await bot.step()
    view = await bot.service.game(game_id)
    assert [m.san for m in view.moves] == ["e4", "e5", "Nf3"]
    assert len([m for r, m in servers.recorder.mails[mails:] if r == white]) == 1


async def test_an_illegal_move_is_answered_with_the_reason_and_the_pieces_moves(bot, servers):
    game_id, side = await start_game(bot, servers)
    white = side["w"]
    await servers.deliver(reply_to_mail(white, servers.last_to(white), "Nf6"))
    await bot.step()
    text = text_of(servers.last_to(white))
    assert "Nothing was played" in text
    assert "4 moves of your Knight (N): Na3 Nc3 Nf3 Nh3" in text
    await servers.deliver(reply_to_mail(white, servers.last_to(white), "e2e5"))
    await bot.step()
    text = text_of(servers.last_to(white))
    assert "2 moves of the Pawn on e2: e3 e4" in text
    assert (await bot.service.game(game_id)).ply == 0


async def test_html_only_mail_and_help(bot, servers):
    game_id, side = await start_game(bot, servers)
    white = side["w"]
    board = servers.last_to(white)
    html = ("<html><head><style>p {color: red}</style></head><body><div>e4</div><div><br></div>"
            "<blockquote>Your move ... Reply to this mail</blockquote></body></html>")
    await servers.deliver(write_mail(white, str(board["Reply-To"]), "Re: x", "", html=html,
                                     reply_to=board))
    await bot.step()
    assert [m.san for m in (await bot.service.game(game_id)).moves] == ["e4"]
    await servers.deliver(write_mail(ALICE, BOT, "help", ""))
    await bot.step()
    assert "challenge GAME ADDRESS [days N]" in text_of(servers.last_to(ALICE))


async def test_bounce_mail_and_auto_replies_get_no_answer(bot, servers):
    await start_game(bot, servers)
    mails = len(servers.recorder.mails)
    auto = write_mail(BOB, BOT, "Out of office", "I am away").replace(
        b"Subject:", b"Auto-Submitted: auto-replied\r\nSubject:", 1)
    await servers.deliver(auto)
    await bot.step()
    assert len(servers.recorder.mails) == mails


async def test_help_in_the_subject_with_other_words_in_the_body(bot, servers):
    await servers.deliver(write_mail(ALICE, BOT, "help", "Hello, how does this work?\n"))
    await bot.step()
    assert "challenge GAME OPPONENT [days N]" in text_of(servers.last_to(ALICE))


async def test_the_record_and_a_pieces_rules_by_mail(bot, servers):
    game_id, side = await start_game(bot, servers)
    white = side["w"]
    await servers.deliver(reply_to_mail(white, servers.last_to(white), "e4"))
    await bot.step()
    await servers.deliver(reply_to_mail(white, servers.last_to(white), "record"))
    await bot.step()
    text = text_of(servers.last_to(white))
    assert '[Result "*"]' in text and "1. e4" in text
    await servers.deliver(write_mail(ALICE, BOT, "x", "rules grandducal"))
    await bot.step()
    assert "Grand Duke" in text_of(servers.last_to(ALICE))


async def test_the_bots_own_address_acts_for_nobody(bot, servers):
    """A From line proves nothing: mailed to the plain address, vacation, accepting and
    blocking are refused with where to send them (a reply to a signed game mail)."""
    await as_proven(bot.adapter, ALICE)
    await servers.deliver(write_mail(ALICE, BOT, "c", f"challenge chess {BOB}"))
    await bot.step()
    bob = await bot.adapter.accounts.player_of(BOB)
    for line in ("vacation 5", "accept 1", "block alice@a.test"):
        await servers.deliver(write_mail(BOB, BOT, "x", line))  # anyone may have written it
        await bot.step()
        assert "reply" in text_of(servers.last_to(BOB)).lower()
    assert not (await bot.service.vacation(bob.id)).on_vacation
    assert (await bot.service.get_challenge(1)).status == "open"


async def test_hints_and_reviews_by_mail_ask_the_hosts_computer(bot):
    from bot.computer.player import Computer
    player = await bot.service.player("email", "ann@example.org", "ann@example.org")
    assert bot.adapter.handler.context(player).computer is None  # none lent: "not playing here"
    computer = Computer()
    bot.adapter.use_computer(computer)  # as bot/adapters.py's host does
    assert bot.adapter.handler.context(player).computer is computer
