"""Outgoing mail of a process that died (issue #45, item 3), on each database back end: a mail
claimed by a process that is gone (its life's lock free) is sent at once by another, not
after the 5-minute lease; one the dead process had handed to the server already is not sent
again (the same Message-ID twice); one claimed by a process that still runs is left alone."""

from __future__ import annotations

from contextlib import asynccontextmanager
from datetime import timedelta
from email.message import EmailMessage

import pytest

from bot.email import tokens
from bot.email.sending import Mailer
from bot.email.tables import EmailTables

from .mail_bot import BOT, MailBot, mail_servers

pytestmark = pytest.mark.contract

CAROL = "carol@c.test"


@pytest.fixture
async def servers():
    async with mail_servers() as s:
        yield s


def a_mail(n: int) -> EmailMessage:
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = BOT, CAROL, f"mail {n}"
    m["Message-ID"] = f"<dead-sender.{n}@fairy.test>"
    m.set_content(f"the text of mail {n}\n")
    return m


async def queued_and_claimed(bot: MailBot, n: int) -> int:
    """A mail queued and claimed by ``bot``'s process (as its sending begins); its id."""
    assert await bot.adapter.mailer.queue(f"test:{n}", CAROL, a_mail(n))
    now = bot.adapter.mailer._now()
    async with bot.service.store.write() as tx:
        t = EmailTables(tx)
        mail, = [m for m in await t.due_mails(now) if f"mail {n}".encode() in m.message]
        assert await t.claim_due_mail(mail.id, now, now + Mailer.LEASE_SECONDS, bot.service.store.life)
    return mail.id


@asynccontextmanager
async def a_process_that_dies(db_target, servers, clock):
    """A second process on the database; ``await dies()`` ends it (its life's lock let go, as
    when it is killed), and it is ended in any case when the test is over."""
    bot = await MailBot(db_target, servers, clock, email_secret="mail-secret").__aenter__()
    alive = [True]

    async def dies() -> None:
        if alive.pop():
            await bot.__aexit__(None, None, None)
    try:
        yield bot, dies
    finally:
        if alive:
            await dies()


def copies(servers, n: int) -> int:
    return sum(str(m["Message-ID"]) == f"<dead-sender.{n}@fairy.test>" for m in servers.sent_to(CAROL))


async def row(bot: MailBot, mail_id: int):
    async with bot.service.store.read() as tx:
        return await tx.fetch_one("SELECT sent_at, claimed_by, handed_at FROM email_outbox WHERE id = ?",
                                  (mail_id,))


async def test_a_dead_processes_claimed_mail_is_sent_at_once_and_once(db_target, servers, clock):
    async with MailBot(db_target, servers, clock, email_secret="mail-secret") as survivor, \
            a_process_that_dies(db_target, servers, clock) as (dying, dies):
        mail_id = await queued_and_claimed(dying, 1)
        assert await survivor.adapter.mailer.drain() == 0   # its holder runs: left alone
        assert copies(servers, 1) == 0
        # while another holds a claim, the survivor looks again within seconds, not at the lease
        assert await survivor.adapter.mailer.next_due() <= survivor.adapter.mailer._now() + 10
        await dies()               # gone before sending it
        assert await survivor.adapter.mailer.drain() == 1     # at once: the clock has not moved
        assert copies(servers, 1) == 1
        assert (await row(survivor, mail_id))[0] is not None
        clock.advance(timedelta(seconds=Mailer.LEASE_SECONDS + 1))
        assert await survivor.adapter.mailer.drain() == 0
        assert copies(servers, 1) == 1


async def test_a_mail_its_dead_sender_handed_to_the_server_is_not_sent_again(db_target, servers, clock,
                                                                              caplog):
    async with MailBot(db_target, servers, clock, email_secret="mail-secret") as survivor, \
            a_process_that_dies(db_target, servers, clock) as (dying, dies):
        mail_id = await queued_and_claimed(dying, 2)
        mailer = dying.adapter.mailer

        async def handing():   # what the Mailer commits before the text goes
            async with dying.service.store.write() as tx:
                await EmailTables(tx).mail_handed(mail_id, mailer._now())
        envelope = tokens.bounce_address(BOT, mailer.secret, mail_id, CAROL)
        await mailer.smtp.send(bytes(a_mail(2)), envelope, CAROL, handing=handing)
        assert copies(servers, 2) == 1                      # the server has it...
        await dies()             # ...and its sender died unmarked
        assert (await row(survivor, mail_id))[2] is not None
        assert await survivor.adapter.mailer.drain() == 0
        sent_at, _, _ = await row(survivor, mail_id)
        assert sent_at is not None                          # taken as sent
        assert "its sender died as the server took it" in caplog.text
        clock.advance(timedelta(seconds=Mailer.LEASE_SECONDS + 1))
        assert await survivor.adapter.mailer.drain() == 0
        assert copies(servers, 2) == 1                      # never twice


async def test_a_mail_is_marked_handed_before_its_text_goes(db_target, servers, clock):
    """The real send commits ``handed_at`` after the recipient is taken, before the text: the
    server's DATA handler sees the mark already in the database."""
    async with MailBot(db_target, servers, clock, email_secret="mail-secret") as bot:
        seen = []
        real_data = servers.recorder.handle_DATA

        async def handle_data(server, session, envelope):
            async with bot.service.store.read() as tx:
                seen.append(await tx.fetch_one("SELECT handed_at, sent_at FROM email_outbox"))
            return await real_data(server, session, envelope)
        servers.recorder.handle_DATA = handle_data
        assert await bot.adapter.mailer.queue("test:3", CAROL, a_mail(3))
        assert await bot.adapter.mailer.drain() == 1
        (handed_at, sent_at), = seen
        assert handed_at is not None and sent_at is None
        assert copies(servers, 3) == 1
