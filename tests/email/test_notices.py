"""The other notices by mail, in the shared words: draw offers and answers, takebacks, a
time warning, a loss on time, the daily digest."""

from __future__ import annotations

from datetime import timedelta

from .servers import reply_to_mail, text_of
from .test_game_by_mail import start_game


async def reply(bot, servers, sender, line):
    await servers.deliver(reply_to_mail(sender, servers.last_to(sender), line))
    await bot.step()


async def test_a_draw_offered_and_accepted_by_mail(bot, servers):
    game_id, side = await start_game(bot, servers)
    white, black = side["w"], side["b"]
    await reply(bot, servers, white, "e4")
    await reply(bot, servers, black, "draw")
    assert "Game #1: You offer a draw." in text_of(servers.last_to(black))
    offer = text_of(servers.last_to(white))
    assert "offers a draw in game #1 (Chess)" in offer and "Reply draw to accept" in offer
    await reply(bot, servers, white, "decline")
    assert "declined your draw offer" in text_of(servers.last_to(black))
    await reply(bot, servers, black, "e5")  # answering the "declined" mail, at the current ply
    await reply(bot, servers, white, "draw")
    await reply(bot, servers, black, "draw accept")
    view = await bot.service.game(game_id)
    assert (view.result, view.reason) == ("1/2-1/2", "agreement")
    assert "Drawn by agreement" in text_of(servers.last_to(white))


async def test_a_takeback_asked_and_refused_by_mail(bot, servers):
    game_id, side = await start_game(bot, servers)
    white, black = side["w"], side["b"]
    await reply(bot, servers, white, "e4")
    await reply(bot, servers, white, "takeback")
    assert "asks to take back e4" in text_of(servers.last_to(black))
    await reply(bot, servers, black, "decline")
    assert "refused to take back" in text_of(servers.last_to(white))
    mails = len(servers.sent_to(black))
    await reply(bot, servers, black, "takeback")  # Black has no move to take back: refused
    assert len(servers.sent_to(black)) == mails + 1
    assert "You can only take back your own last move" in text_of(servers.last_to(black))
    assert (await bot.service.game(game_id)).ply == 1


async def test_time_warnings_a_loss_on_time_and_the_digest(bot, servers, clock):
    game_id, side = await start_game(bot, servers)
    white, black = side["w"], side["b"]
    white_player = await bot.service.get_player((await bot.service.game(game_id)).white.id)
    await bot.service.update_settings(white_player.id, digest_time="13:00")
    clock.advance(timedelta(hours=2))  # past 13:00 UTC: the digest
    await bot.service.sweep()
    await bot.adapter.mailer.drain()
    digest = text_of(servers.last_to(white))
    assert "Your move in 1 game:" in digest and "#1 Chess vs" in digest
    clock.advance(timedelta(days=2, hours=1))  # past 80% and into the last 24 hours
    await bot.service.sweep()
    await bot.adapter.mailer.drain()
    warnings = [text_of(m) for m in servers.sent_to(white) if "left for your move" in text_of(m)]
    assert warnings and all("Game #1 (Chess)" in w for w in warnings)
    assert "Reply to this mail with your move" in warnings[-1]  # with the board to answer
    clock.advance(timedelta(days=1))
    await bot.service.sweep()
    await bot.adapter.mailer.drain()
    view = await bot.service.game(game_id)
    assert (view.result, view.reason) == ("0-1", "time")
    for player in (white, black):
        assert "wins on time" in text_of(servers.last_to(player))
