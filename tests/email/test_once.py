"""Once and for good: a stop (what SIGTERM does: ``fairypost run`` closes its adapters) at
any moment sends nothing twice and loses nothing; a mail the server will not take is tried
for days with growing pauses, then given up with a log line; handled mails' bodies are
pruned after ``retention_days``, their keys kept."""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta

import pytest

from bot.email.receiving import Receiver
from bot.email.sending import GIVE_UP_AFTER, MAX_PAUSE, Mailer
from bot.email.tables import EmailTables
from bot.email.urls import MailServer

from .conftest import BOT
from .servers import free_port, reply_to_mail, text_of, write_mail
from .test_game_by_mail import start_game


@pytest.mark.parametrize("when", ["just after it came", "while it is handled",
                                  "while the server takes the answer"])
async def test_a_stop_at_any_moment_sends_the_answer_once(bot, servers, clock, when):
    game_id, side = await start_game(bot, servers)
    white = side["w"]
    stopped = asyncio.Event()
    stopping = []

    def stop():
        if not stopping:
            stopping.append(asyncio.ensure_future(bot.adapter.close()))
            stopping[0].add_done_callback(lambda _: stopped.set())

    if when == "while it is handled":
        real_handle = bot.adapter.handler.handle

        async def handle(raw):
            stop()
            await asyncio.sleep(0.05)  # the stop is under way while the move is played
            await real_handle(raw)
        bot.adapter.handler.handle = handle
    elif when == "while the server takes the answer":
        real_data = servers.recorder.handle_DATA

        async def handle_DATA(server, session, envelope):  # noqa: N802
            taken = await real_data(server, session, envelope)  # the server has the mail...
            stop()
            await asyncio.sleep(0.2)  # ...and says so only after the stop came
            return taken
        servers.recorder.handle_DATA = handle_DATA
    await bot.adapter.start()
    await servers.deliver(reply_to_mail(white, servers.last_to(white), "e4"))
    if when == "just after it came":
        await asyncio.sleep(0.01)
        stop()
    await asyncio.wait_for(stopped.wait(), 20)
    await bot.restart()
    clock.advance(timedelta(seconds=Mailer.LEASE_SECONDS + Receiver.LEASE_SECONDS + 1))
    for _ in range(2):
        await bot.step()
    assert [m.san for m in (await bot.service.game(game_id)).moves] == ["e4"]
    answers = [m for m in servers.sent_to(white) if "You played e4" in text_of(m)]
    assert len(answers) == 1, [str(m["Message-ID"]) for m in answers]
    black_boards = [m for m in servers.sent_to(side["b"]) if "played e4" in text_of(m)]
    assert len(black_boards) == 1


async def test_a_mail_is_tried_for_days_with_growing_pauses_then_given_up(bot, servers, clock, caplog):
    mailer = bot.adapter.mailer
    mailer.smtp.server = MailServer("smtp", "127.0.0.1", free_port(), clear=True)  # nobody there
    await servers.deliver(write_mail("alice@a.test", BOT, "help", "help"))
    await bot.step()
    start, tries, pauses = clock.now(), [], []
    with caplog.at_level(logging.INFO, logger="bot.email"):
        while True:
            async with bot.service.store.read() as tx:
                row = await tx.fetch_one("SELECT attempts, next_at, dropped FROM email_outbox")
            if row[2] is not None or clock.now() - start > timedelta(days=6):
                break
            tries.append(row[0])
            if row[0]:
                pauses.append(row[1] - int(clock.now().timestamp()))
            clock.advance(timedelta(seconds=max(1, row[1] - int(clock.now().timestamp()))))
            await mailer.drain()
    assert pauses[:4] == [60, 120, 240, 480] and max(pauses) == MAX_PAUSE  # growing, capped
    given_up_after = clock.now() - start
    assert timedelta(seconds=GIVE_UP_AFTER) <= given_up_after < timedelta(seconds=GIVE_UP_AFTER + MAX_PAUSE + 1)
    assert "given up after" in row[2] and "mail 1 to alice@a.test given up after" in caplog.text
    assert servers.sent_to("alice@a.test") == []
    print(f"\n{len(tries)} tries over {given_up_after}")


async def test_a_server_back_after_four_days_gets_the_mail_once(bot, servers, clock):
    mailer = bot.adapter.mailer
    real = mailer.smtp.server
    mailer.smtp.server = MailServer("smtp", "127.0.0.1", free_port(), clear=True)
    await servers.deliver(write_mail("alice@a.test", BOT, "help", "help"))
    await bot.step()
    for _ in range(4 * 24):
        clock.advance(timedelta(hours=1))
        await mailer.drain()
    mailer.smtp.server = real
    clock.advance(timedelta(hours=1))
    await mailer.drain()
    await mailer.drain()
    assert len(servers.sent_to("alice@a.test")) == 1


async def test_handled_mails_are_pruned_after_retention_days_keeping_their_keys(bot, servers, clock):
    assert bot.settings.retention_days == 30
    big = "help\n\n" + "a long quote\n" * 20000
    raw = write_mail("alice@a.test", BOT, "help", big, message_id="<big.1@a.test>")
    await servers.deliver(raw)
    await bot.step()
    assert len(servers.sent_to("alice@a.test")) == 1

    async def sizes():
        async with bot.service.store.read() as tx:
            inbox = await tx.fetch_one("SELECT LENGTH(raw) FROM email_inbox")
            outbox = await tx.fetch_one("SELECT LENGTH(message) FROM email_outbox")
        return inbox[0], outbox[0]
    before = await sizes()
    clock.advance(timedelta(days=29))
    await bot.step()
    assert await sizes() == before  # not yet
    clock.advance(timedelta(days=2))
    await bot.step()
    after = await sizes()
    assert after[0] < 1000 < before[0] and after[1] < 1000 < before[1]
    async with bot.service.store.read() as tx:
        kept = bytes((await tx.fetch_one("SELECT raw FROM email_inbox"))[0])
    assert b"Message-ID: <big.1@a.test>" in kept and b"a long quote" not in kept
    await servers.deliver(raw)  # the same mail again (a crash before \Seen, a re-delivery)
    await bot.step()
    assert len(servers.sent_to("alice@a.test")) == 1  # known by its key: not answered again
    async with bot.service.store.read() as tx:
        assert await EmailTables(tx).unhandled_mails() == []


async def test_a_stop_as_a_mail_is_claimed_sends_it_then_not_after_the_lease(bot, servers, monkeypatch):
    """The stop lands as the claim of a mail commits (the commit ends, then the stop is
    raised): the mail is sent and marked before the stop is over, not left claimed for the
    next start to send only after its lease (5 minutes later)."""
    await servers.deliver(write_mail("alice@a.test", BOT, "help", "help"))
    await bot.adapter.receiver.poll_once()  # the answer queued
    mailer = bot.adapter.mailer
    real_claim = EmailTables.claim_due_mail
    draining = asyncio.ensure_future(mailer.drain())

    async def claim_then_stop(self, *args):
        claimed = await real_claim(self, *args)
        asyncio.get_running_loop().call_soon(draining.cancel)  # during the claim's COMMIT
        return claimed
    monkeypatch.setattr(EmailTables, "claim_due_mail", claim_then_stop)
    with pytest.raises(asyncio.CancelledError):
        await draining
    await mailer.settle()
    assert len(servers.sent_to("alice@a.test")) == 1
    async with bot.service.store.read() as tx:
        assert await EmailTables(tx).due_mails(2**40) == []  # sent and marked: nothing left
