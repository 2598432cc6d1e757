"""Play by email against a real Dovecot (IMAP with STARTTLS and a test certificate that the
bot checks) and an SMTP server requiring STARTTLS: a game played with real mail programs'
mails (tests/email/corpus/), autoresponders in between that get no answer and change
nothing; and the answer to a mail comes within seconds, through IDLE, also for a mail
that came while the bot was fetching another or just before IDLE began (the poll interval
is an hour here, so an answer that came at all came by IDLE); an adversarial sender's
forged bounces and an autoresponder loop change nothing."""

from __future__ import annotations

import asyncio
import logging
import time

import aioimaplib
import pytest

from bot.config import Settings
from bot.email.sending import ANSWERS_PER_HOUR
from bot.email.tables import EmailTables

from .conftest import BOT, Bot, as_proven
from .dovecot import SMTPWithTLS
from .servers import reply_to_mail, text_of, write_mail
from .test_bounces_and_loops import CORPUS_VERP
from .test_corpus import AUTOREPLIES, BOUNCES, REPLIES, corpus
from .test_delivery import bounce_report

ALICE, BOB = "alice@a.test", "bob@b.test"
CORPUS_REPLY_TO = b"bot+g1-p1-0123456789abcdef0123@fairy.test"
# Black's answers to the corpus's moves (White: Nf3, h3, e4, c4, d4, Nc3, g3, Bg2, Bf1)
BLACK = ["h6", "h5", "a6", "a5", "e6", "c6", "d6", "g6", "b6"]


@pytest.fixture
async def real(dovecot, tmp_path, clock):
    await dovecot.empty()
    smtp = await SMTPWithTLS(dovecot).start()
    settings = Settings(db_path=str(tmp_path / "games.db"), email_address=BOT,
                        imap_url=dovecot.url(), smtp_url=smtp.url, email_secret="test-secret",
                        command_rate_per_minute=0)
    bot = await Bot(settings, clock, tls_context=dovecot.client_tls, poll_seconds=3600).open()
    yield bot, smtp
    await bot.close()
    smtp.close()


def last_to(smtp, address: str):
    mails = smtp.sent_to(address)
    assert mails, f"no mail was sent to {address}"
    return mails[-1]


async def test_a_game_with_real_clients_mails_through_dovecot(real, dovecot):
    bot, smtp = real
    await as_proven(bot.adapter, ALICE)
    await dovecot.deliver(write_mail(ALICE, BOT, "challenge", "challenge chess bob@b.test"))
    await bot.step()
    assert "Challenge #1 sent" in text_of(last_to(smtp, ALICE))
    await dovecot.deliver(reply_to_mail(BOB, last_to(smtp, BOB), "accept"))
    await bot.step()
    view = await bot.service.game(1)
    white, black = view.white.user_id, view.black.user_id  # the corpus's writer plays White

    def as_white(raw: bytes, reply_to: bytes) -> bytes:
        return raw.replace(CORPUS_REPLY_TO, reply_to).replace(ALICE.encode(), white.encode())
    autoreplies = iter(AUTOREPLIES)
    for (name, move), answer in zip(REPLIES.items(), BLACK, strict=True):
        board = last_to(smtp, white)
        reply_to = str(board["Reply-To"]).encode()
        await dovecot.deliver(as_white(corpus(name), reply_to))
        auto = next(autoreplies, None)
        if auto:  # an autoresponder answers the same board: nothing played, nothing sent
            await dovecot.deliver(as_white(corpus(auto), reply_to))
        sent = len(smtp.recorder.mails)
        await bot.step()
        view = await bot.service.game(1)
        assert view.moves[-1].san == move, name
        assert len(smtp.recorder.mails) == sent + 2  # the answer to White, Black's board
        assert f"You played {move}" in text_of(last_to(smtp, white))
        await dovecot.deliver(reply_to_mail(black, last_to(smtp, black), answer))
        await bot.step()
        assert (await bot.service.game(1)).moves[-1].san == answer
    assert len((await bot.service.game(1)).moves) == 2 * len(REPLIES)
    assert (await bot.service.game(1)).status == "active"  # no autoreply resigned or drew


async def answered(smtp, address: str, count: int, timeout: float = 20) -> float:
    """When (time.monotonic()) the ``count``-th mail went to ``address`` (fails after
    ``timeout``)."""
    start = time.monotonic()
    while len(smtp.sent_to(address)) < count:
        assert time.monotonic() - start < timeout, f"{address} got no answer in {timeout} s"
        await asyncio.sleep(0.005)
    return time.monotonic()


async def test_answered_in_seconds_through_idle_even_for_a_mail_that_came_during_a_fetch(real, dovecot):
    bot, smtp = real
    box = bot.adapter.mailbox
    real_fetch, came = box.fetch, []

    async def fetch_while_another_comes(uid):
        if not came:  # a second mail arrives while the first is fetched
            await dovecot.deliver(write_mail(BOB, BOT, "games", "games"))
            came.append(time.monotonic())
        return await real_fetch(uid)
    box.fetch = fetch_while_another_comes
    await bot.adapter.start()
    try:
        waits = []
        for n in range(1, 4):
            await asyncio.sleep(0.2)  # the bot is in IDLE, waiting
            sent = time.monotonic()
            await dovecot.deliver(write_mail(ALICE, BOT, "help", "help"))
            waits.append(await answered(smtp, ALICE, n) - sent)
            if n == 1:
                bob_wait = await answered(smtp, BOB, 1) - came[0]
    finally:
        await bot.adapter.close()
    assert "challenge GAME OPPONENT" in text_of(last_to(smtp, ALICE))
    assert "No games yet." in text_of(last_to(smtp, BOB))
    print(f"\nanswered through Dovecot's IDLE in {', '.join(f'{w:.2f}' for w in waits)} s; "
          f"a mail that came during a fetch in {bob_wait:.2f} s (poll interval: 3600 s)")


async def test_a_mail_that_comes_just_before_idle_begins_is_answered_through_it(real, dovecot,
                                                                                monkeypatch):
    """Nothing is missed between the last search and IDLE: a mail that comes in that gap is
    reported by the server as IDLE begins (the poll interval is an hour)."""
    bot, smtp = real
    real_idle_start, came = aioimaplib.IMAP4.idle_start, []

    async def idle_start(self, *args, **kwargs):
        if not came:  # the bot searched and found nothing; now a mail comes, then IDLE
            await dovecot.deliver(write_mail(BOB, BOT, "games", "games"))
            came.append(time.monotonic())
        return await real_idle_start(self, *args, **kwargs)
    monkeypatch.setattr(aioimaplib.IMAP4, "idle_start", idle_start)
    await bot.adapter.start()
    try:
        wait = await answered(smtp, BOB, 1) - came[0]
    finally:
        await bot.adapter.close()
    assert "No games yet." in text_of(last_to(smtp, BOB))
    print(f"\na mail that came just before IDLE answered in {wait:.2f} s (poll interval: 3600 s)")


async def test_forged_bounces_and_an_autoresponder_loop_through_dovecot(real, dovecot, caplog):
    """An adversarial sender through a real server: bounce reports forged three ways count
    for nothing, a real MTA's report to the signed address counts once (and a copy of it
    not again); an autoresponder that marks nothing is cut off by the loop breaker."""
    bot, smtp = real
    await as_proven(bot.adapter, ALICE)
    await dovecot.deliver(write_mail(ALICE, BOT, "c", f"challenge chess {BOB}"))
    await bot.step()
    verp = last_to(smtp, BOB).envelope_sender
    tag = verp.split("@")[0].rsplit("-", 1)[1]

    async def bobs_bounces() -> int:
        async with bot.service.store.read() as tx:
            return (await EmailTables(tx).email_address(BOB)).hard_bounces
    sent = len(smtp.recorder.mails)
    for raw in (bounce_report(BOB), bounce_report(BOB, to=verp.replace(tag, "0" * len(tag))),
                bounce_report(BOB, to=last_to(smtp, ALICE).envelope_sender)):
        await dovecot.deliver(raw)
    await bot.step()
    assert await bobs_bounces() == 0 and len(smtp.recorder.mails) == sent
    for name in BOUNCES[:2]:  # two MTAs report the same mail: it bounced once
        await dovecot.deliver(corpus(name).replace(CORPUS_VERP, verp.encode()))
        await bot.step()
    assert await bobs_bounces() == 1
    with caplog.at_level(logging.WARNING, logger="bot.email"):
        for _ in range(ANSWERS_PER_HOUR + 3):  # it answers every answer; nothing marks it
            await dovecot.deliver(write_mail(ALICE, BOT, "Re: fairypost", "I am away until Monday."))
            await bot.step()
    # the challenge's answer and 9 to the autoresponder: 10 answers in the hour, then none
    assert len(smtp.sent_to(ALICE)) == ANSWERS_PER_HOUR
    assert "a mail loop?" in caplog.text and len(smtp.recorder.mails) == sent + ANSWERS_PER_HOUR - 1
