"""People's spellings by mail (issue #41 item 2): replies written as people write them,
through real SMTP and IMAP servers on 127.0.0.1 (tests/email's servers): ``Accept.`` takes
the challenge, each reply's first line is read as the move it writes, and two moves on
one line are answered as two moves, with nothing played."""

from __future__ import annotations

from tests.email.conftest import BOT, as_proven, bot, clock, servers, settings  # noqa: F401 - the mail fixtures
from tests.email.servers import reply_to_mail, text_of, write_mail

ALICE, BOB = "alice@a.test", "bob@b.test"


async def _started(bot, servers, accept: str) -> int:  # noqa: F811 - the fixture, passed in
    await as_proven(bot.adapter, ALICE)  # a From alone never starts a challenge (#40)
    await servers.deliver(write_mail(ALICE, BOT, "challenge", "challenge chess bob@b.test days 3"))
    await bot.step()
    invitation = servers.last_to(BOB)
    assert "alice challenges you to Chess (#1)" in text_of(invitation)
    await servers.deliver(reply_to_mail(BOB, invitation, accept))
    await bot.step()
    view = await bot.service.game(1)
    assert view is not None and view.white.user_id == ALICE or view.black.user_id == ALICE
    return view.id


async def test_a_game_by_mail_in_peoples_spellings(bot, servers):  # noqa: F811
    game_id = await _started(bot, servers, "Yes, accept.")
    view = await bot.service.game(game_id)
    white, black = view.white.user_id, view.black.user_id
    for mover, line in ((white, "1. e4"), (black, "*e5*"), (white, "Ng1 \u2013 f3"), (black, "2... Nc6."),
                        (white, "Bb5!"), (black, "a6?!"), (white, "B\u00d7c6"), (black, "_dxc6_")):
        await servers.deliver(reply_to_mail(mover, servers.last_to(mover), line))
        await bot.step()
    moves = [m.san for m in (await bot.service.game(game_id)).moves]
    assert moves == ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6"]


async def test_two_moves_in_a_reply_are_answered_as_two_and_nothing_is_played(bot, servers):  # noqa: F811
    game_id = await _started(bot, servers, "Accept.")
    view = await bot.service.game(game_id)
    white = view.white.user_id
    await servers.deliver(reply_to_mail(white, servers.last_to(white), "1. e4 e5"))
    await bot.step()
    answer = text_of(servers.last_to(white))
    assert answer.startswith("I read: `1. e4 e5`"), answer  # every answer says what it read (#41 item 3)
    assert "One move at a time: I read e4 and e5. Nothing was played." in answer, answer
    assert "no piece on e4" not in answer  # no hint about one piece: it was two moves
    assert (await bot.service.game(game_id)).ply == 0
