"""Exactly once across crashes, and mail that cannot be delivered: a crash between fetching
a mail and acting on it, one between keeping it and marking it seen, a server that is away
(retried later, sent once), hard bounces (after a few, no more mail to that address), and
processes sharing one mailbox and database (each mail handled by one, sent by one)."""

from __future__ import annotations

import logging
from datetime import timedelta

from bot.email.sending import STOP_AFTER_BOUNCES
from bot.email.tables import EmailTables
from bot.email.urls import MailServer

from .conftest import BOT, Bot, as_proven
from .servers import free_port, reply_to_mail, text_of, write_mail
from .test_game_by_mail import ALICE, BOB, start_game


class Crash(BaseException):
    """The process dying at this point (not an error the adapter could catch)."""


def crash_once(obj, name):
    real = getattr(obj, name)
    calls = []

    async def dying(*args, **kwargs):
        calls.append(args)
        if len(calls) == 1:
            raise Crash()
        return await real(*args, **kwargs)
    setattr(obj, name, dying)
    return calls


async def test_a_crash_between_fetching_and_acting_loses_no_move(bot, servers):
    game_id, side = await start_game(bot, servers)
    white = side["w"]
    await servers.deliver(reply_to_mail(white, servers.last_to(white), "e4"))
    crash_once(bot.adapter.handler, "handle")
    try:
        await bot.step()
    except Crash:
        pass
    assert (await bot.service.game(game_id)).ply == 0  # not acted on...
    assert await servers.unseen_count() == 0  # ...yet marked seen: only the database has it
    await bot.restart()
    await bot.step()
    view = await bot.service.game(game_id)
    assert [m.san for m in view.moves] == ["e4"]
    await bot.restart()  # and a further start does not act on it again
    await bot.step()
    assert (await bot.service.game(game_id)).ply == 1


async def test_a_crash_before_marking_seen_reads_the_mail_again_and_acts_once(bot, servers):
    game_id, side = await start_game(bot, servers)
    white = side["w"]
    await servers.deliver(reply_to_mail(white, servers.last_to(white), "e4"))
    crash_once(bot.adapter.mailbox, "mark_seen")
    try:
        await bot.step()
    except Crash:
        pass
    assert await servers.unseen_count() == 1  # the server still offers it
    await bot.restart()
    await bot.step()
    assert await servers.unseen_count() == 0
    view = await bot.service.game(game_id)
    assert [m.san for m in view.moves] == ["e4"]
    confirmations = [m for r, m in servers.recorder.mails if r == white and "You played e4" in str(m)]
    assert len(confirmations) == 1


async def test_a_server_that_is_away_is_tried_again_and_the_mail_sent_once(bot, servers, clock):
    real = bot.adapter.mailer.smtp.server
    bot.adapter.mailer.smtp.server = MailServer("smtp", "127.0.0.1", free_port(), clear=True)  # nobody there
    await servers.deliver(write_mail(ALICE, BOT, "help", ""))
    await bot.step()
    assert servers.sent_to(ALICE) == []
    bot.adapter.mailer.smtp.server = real
    assert await bot.adapter.mailer.drain() == 0  # not due yet: the retry waits
    clock.advance(timedelta(seconds=bot.settings.notify_retry_seconds + 1))
    assert await bot.adapter.mailer.drain() == 1
    assert await bot.adapter.mailer.drain() == 0
    assert len(servers.sent_to(ALICE)) == 1


def bounce_report(address: str, to: str = BOT) -> bytes:
    return (f"From: MAILER-DAEMON@b.test\r\nTo: {to}\r\nSubject: Undelivered Mail Returned\r\n"
            f"Message-ID: <bounce.{abs(hash(to))}@b.test>\r\nAuto-Submitted: auto-replied\r\n"
            "Return-Path: <>\r\nMIME-Version: 1.0\r\n"
            "Content-Type: multipart/report; report-type=delivery-status; boundary=\"XX\"\r\n\r\n"
            "--XX\r\nContent-Type: text/plain\r\n\r\nThe mail could not be delivered.\r\n"
            "--XX\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; b.test\r\n\r\n"
            f"Final-Recipient: rfc822; {address}\r\nAction: failed\r\nStatus: 5.1.1\r\n\r\n"
            "--XX--\r\n").encode()


async def test_hard_bounces_stop_mail_to_an_address(bot, servers, caplog):
    with caplog.at_level(logging.INFO, logger="bot.email"):
        await as_proven(bot.adapter, ALICE)
        await servers.deliver(write_mail(ALICE, BOT, "c", "challenge chess bob@b.test"))
        await bot.step()  # the challenge's mail to Bob goes out...
        verp = servers.last_to(BOB).envelope_sender
        await servers.deliver(bounce_report(BOB, to=verp))  # ...and its report comes back: 1
        await bot.step()
        servers.recorder.refuse.add(BOB)
        for game in ("grandducal", "superchess"):
            await servers.deliver(write_mail(ALICE, BOT, "c", f"challenge {game} bob@b.test"))
            await bot.step()  # refused while sending: bounces 2 and 3, the last
    assert STOP_AFTER_BOUNCES == 3
    assert f"{BOB} bounced 3 times" in caplog.text and "no more mail goes to it" in caplog.text
    servers.recorder.refuse.clear()
    sent = len(servers.recorder.mails)
    with caplog.at_level(logging.INFO, logger="bot.email"):
        assert not await bot.adapter.mailer.queue("a-notice", BOB, servers.last_to(BOB))
        await bot.step()
    assert len(servers.recorder.mails) == sent  # nothing more was even tried
    assert "not mailing bob@b.test" in caplog.text
    assert len(servers.sent_to(ALICE)) == 3  # Alice still hears from the bot


async def test_a_crash_between_acting_and_answering_acts_once_and_answers(bot, servers):
    """The move was played, then the process died before its answer was queued (and before
    the mail was marked handled): at the next start the mail is handled again, sees its
    move played, and sends the answer it owed; the game changed by nothing."""
    game_id, side = await start_game(bot, servers)
    white = side["w"]
    await servers.deliver(reply_to_mail(white, servers.last_to(white), "e4"))
    mails = len(servers.sent_to(white))
    crash_once(bot.adapter.mailer, "queue")  # the first mail queued after the move
    try:
        await bot.step()
    except Crash:
        pass
    assert [m.san for m in (await bot.service.game(game_id)).moves] == ["e4"]
    assert len(servers.sent_to(white)) == mails
    await bot.restart()
    await bot.step()
    assert [m.san for m in (await bot.service.game(game_id)).moves] == ["e4"]
    answers = [text_of(m) for m in servers.sent_to(white)[mails:]]
    assert len(answers) == 1 and "You played e4 in game #1." in answers[0]


async def test_processes_sharing_a_mailbox_handle_and_send_each_mail_once(bot, settings, clock, servers):
    """Two processes on one database and one mailbox (another machine's, so its claims
    stand until their lease runs out): a mail one of them is handling is left alone by the
    other, and a mail one of them took to send is not sent by the other."""
    other = await Bot(settings, clock).open()
    try:
        other.adapter.receiver.owner = "elsewhere:4242:beef"
        await as_proven(bot.adapter, ALICE)
        await servers.deliver(write_mail(ALICE, BOT, "challenge", "challenge chess bob@b.test days 3"))
        assert await other.adapter.receiver.fetch_new() == 1
        async with bot.service.store.read() as tx:
            (key, _), = await EmailTables(tx).unhandled_mails()
        assert await other.adapter.receiver.claim(key)  # the other is handling it...
        assert await bot.adapter.receiver.poll_once() == 0  # ...so this one leaves it
        assert not await bot.adapter.receiver.claim(key)
        assert await other.adapter.receiver.handle_pending() == 1
        async with bot.service.store.read() as tx:
            assert await EmailTables(tx).unhandled_mails() == []
            due = await EmailTables(tx).due_mails(int(clock.now().timestamp()))
        assert sorted(m.recipient for m in due) == [ALICE, BOB]  # the answer, the invitation
        for mail in due:
            assert await bot.adapter.mailer._send(mail) == 1
            assert await other.adapter.mailer._send(mail) == 0  # read as due at once: not sent again
        await other.adapter.step()
        await bot.step()
        assert len(servers.sent_to(ALICE)) == 1 and len(servers.sent_to(BOB)) == 1
        async with bot.service.store.read() as tx:
            assert len(await tx.fetch_all("SELECT id FROM challenges")) == 1
    finally:
        await other.close()


async def test_a_claim_whose_lease_ran_out_is_taken_over(bot, settings, clock, servers):
    """A process that took a mail and then vanished (another machine: not known dead): once
    its lease is over, another process handles the mail."""
    await servers.deliver(write_mail(ALICE, BOT, "help", ""))
    receiver = bot.adapter.receiver
    await receiver.fetch_new()
    async with bot.service.store.write() as tx:
        (key, _), = await EmailTables(tx).unhandled_mails()
        assert await EmailTables(tx).claim_mail(key, None, "elsewhere:4242:beef",
                                                receiver._now() + receiver.LEASE_SECONDS)
    assert await receiver.handle_pending() == 0
    clock.advance(timedelta(seconds=receiver.LEASE_SECONDS + 1))
    await bot.step()
    assert "challenge GAME OPPONENT" in text_of(servers.last_to(ALICE))
