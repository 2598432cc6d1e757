"""Bounces that prove themselves (a report counts only back at the bot's signed bounce
address, for a mail it sent, against the address it sent it to), that recover (time, a
signed reply, a confirmed link), and that are told by another route (Discord); no loops
with autoresponders (none is answered; an unmarked one is cut off by the loop breaker);
and everything the mail help lists works at the address it says."""

from __future__ import annotations

import logging
import re
from datetime import timedelta

from bot.delivery import mail_status
from bot.email import tokens
from bot.email.sending import ANSWERS_PER_HOUR, RETRY_STOPPED_AFTER, STOP_AFTER_BOUNCES
from bot.email.tables import EmailTables
from bot.web import page

from .conftest import BOT, as_proven
from .servers import reply_to_mail, text_of, write_mail
from .test_corpus import BOUNCES, corpus
from .test_delivery import bounce_report
from .test_mail_vs_discord import BOB_MAIL, link_bob, step, world  # noqa: F401 - a fixture

ALICE, BOB = "alice@a.test", "bob@b.test"
CORPUS_VERP = b"bot+b-1-0123456789abcdef0123@fairy.test"


async def bounces_of(bot, address: str) -> tuple[int, bool]:
    async with bot.service.store.read() as tx:
        row = await EmailTables(tx).email_address(address)
    return row.hard_bounces, row.stopped_at is not None


async def challenge_bob(bot, servers, game: str = "chess") -> str:
    """Alice challenges Bob by mail: the envelope sender of the bot's mail to Bob."""
    await as_proven(bot.adapter, ALICE)
    await servers.deliver(write_mail(ALICE, BOT, "c", f"challenge {game} {BOB}"))
    await bot.step()
    return servers.last_to(BOB).envelope_sender


async def test_a_bounce_counts_only_at_the_signed_address_of_a_mail_sent(bot, servers, caplog):
    verp = await challenge_bob(bot, servers)
    alices = servers.last_to(ALICE).envelope_sender  # the answer to Alice's challenge
    assert verp.startswith("bot+b-") and verp.endswith("@fairy.test") and verp != alices
    tag = tokens.parse_bounce_tag(verp, BOT)
    assert tokens.bounce_verifies(bot.adapter.secret, tag, BOB)
    other_id = f"bot+b-{tag.mail_id + 7}-{tag.token}@fairy.test"
    forged = [bounce_report(BOB),  # to the plain address: anyone can write that
              bounce_report(BOB, to=other_id),  # a token not made for that mail
              bounce_report(BOB, to=verp.replace(tag.token, "0" * len(tag.token))),
              bounce_report(BOB, to=alices)]  # Alice's mail's address, naming Bob
    sent = len(servers.recorder.mails)
    with caplog.at_level(logging.INFO, logger="bot.email"):
        for raw in forged:
            await servers.deliver(raw)
        # an autoresponder (RFC 3834 answers the envelope sender) and a delay are no failure
        await servers.deliver(write_mail(BOB, verp, "Out of Office", "back monday")
                              .replace(b"Subject:", b"Auto-Submitted: auto-replied\r\nSubject:"))
        await servers.deliver(bounce_report(BOB, to=verp).replace(b"Status: 5.1.1", b"Status: 4.4.1")
                              .replace(b"<bounce.", b"<delay."))
        await bot.step()
    assert await bounces_of(bot, BOB) == (0, False) and await bounces_of(bot, ALICE) == (0, False)
    assert caplog.text.count("counts for nothing") == 4 and caplog.text.count("not counted") == 2
    assert len(servers.recorder.mails) == sent  # none of them answered
    verps = [verp] + [await challenge_bob(bot, servers, game) for game in ("grandducal", "superchess")]
    sent = len(servers.recorder.mails)
    for n, (name, to) in enumerate(zip(BOUNCES, verps, strict=False), 1):  # real MTAs' reports to the real
        await servers.deliver(corpus(name).replace(CORPUS_VERP, to.encode()))  # address: counted
        await bot.step()
        assert await bounces_of(bot, BOB) == (n, n >= STOP_AFTER_BOUNCES)
        if n == 1:  # a second report of the same mail (another MTA's, a copy): counted once
            with caplog.at_level(logging.INFO, logger="bot.email"):
                await servers.deliver(corpus(BOUNCES[-1]).replace(CORPUS_VERP, to.encode()))
                await bot.step()
            assert await bounces_of(bot, BOB) == (1, False) and "counted already" in caplog.text
    assert len(servers.recorder.mails) == sent


async def bounce_three(bot, servers, to: str, verps: list[str]) -> None:
    """Real MTAs' failure reports of three mails to ``to`` (their envelope senders): stopped."""
    for name, verp in zip(BOUNCES, verps, strict=False):  # one report per mail (the corpus holds one more)
        await servers.deliver(corpus(name).replace(CORPUS_VERP, verp.encode()))
    await bot.step()
    assert await bounces_of(bot, to) == (STOP_AFTER_BOUNCES, True)


async def test_stopped_mail_recovers_with_time_and_with_a_signed_reply(bot, servers, clock, caplog):
    verp = await challenge_bob(bot, servers)
    invitation = servers.last_to(BOB)
    verps = [verp] + [await challenge_bob(bot, servers, game) for game in ("grandducal", "kingqueen")]
    await bounce_three(bot, servers, BOB, verps)
    with caplog.at_level(logging.INFO, logger="bot.email"):  # (Carol: Alice has her 3 open)
        await as_proven(bot.adapter, "carol@c.test")
        await servers.deliver(write_mail("carol@c.test", BOT, "c", f"challenge ganymede {BOB}"))
        await bot.step()
    assert "Challenge #4 sent" in text_of(servers.last_to("carol@c.test"))
    assert "not mailing bob@b.test (stopped after 3 hard bounces)" in caplog.text
    assert len(servers.sent_to(BOB)) == 3  # stopped: the fourth challenge's mail not sent
    clock.advance(timedelta(seconds=RETRY_STOPPED_AFTER + 60))
    with caplog.at_level(logging.INFO, logger="bot.email"):
        await challenge_bob(bot, servers, "superchess")
    assert "mailing bob@b.test again, 7 days after it was stopped" in caplog.text
    assert len(servers.sent_to(BOB)) == 4  # one more try...
    assert await bounces_of(bot, BOB) == (STOP_AFTER_BOUNCES - 1, False)  # ...one bounce from stopping
    await servers.deliver(reply_to_mail(BOB, invitation, "decline"))  # signed: it reaches Bob
    await bot.step()
    assert await bounces_of(bot, BOB) == (0, False)


async def test_a_player_whose_mail_stopped_is_told_in_discord(world, servers, clock):  # noqa: F811
    from bot.discord_bot import commands
    from tests.discord_bot.conftest import run
    w = world
    await link_bob(w, servers)
    servers.recorder.refuse.add(BOB_MAIL)  # the server refuses it while sending: 5xx
    for n in range(STOP_AFTER_BOUNCES):
        await w.adapter.mailer.queue(f"test:{n}", BOB_MAIL, servers.last_to(BOB_MAIL))
        await step(w)
    await step(w)  # the notice the last bounce wrote, delivered
    told = w.dms(w.bob)[-1]["content"].replace("\u200b", "")  # (escaped: no mention)
    assert "Mail to bob@b.test bounced 3 times" in told and "/settings email" in told
    bob = await w.fairy.player(w.bob)
    notes = page.mail_stopped_notes(bob, await mail_status.stopped_mail(w.fairy.service.store, bob.id))
    assert f"no longer mails you at {BOB_MAIL}" in notes and "link it again (/settings email" in notes
    servers.recorder.refuse.clear()
    clock.advance(timedelta(hours=1))  # an address gets one code an hour (account_links.py)
    i = w.interaction(w.bob)  # linking the address again: the code is mailed (Bob asked
    await run(commands.settings, i, email=BOB_MAIL)  # for it), though other mail is stopped
    await step(w)
    code = re.search(r"Your code is (\d{6})", text_of(servers.last_to(BOB_MAIL)))[1]
    assert await bounces_of(w.fairy, BOB_MAIL) == (STOP_AFTER_BOUNCES, True)  # until confirmed
    j = w.interaction(w.bob)
    await run(commands.settings, j, email_code=code)
    async with w.fairy.service.store.read() as tx:
        row = await EmailTables(tx).email_address(BOB_MAIL)
    assert (row.hard_bounces, row.stopped_at) == (0, None)


async def test_an_unmarked_autoresponder_loop_is_broken(bot, servers, clock, caplog):
    """An autoresponder that marks nothing answers every mail the bot sends it; the bot
    answers it (its mail is chat) at most ANSWERS_PER_HOUR times an hour, with a log line;
    the answers beyond wait for the next hour (test_loop_breaker.py: never dropped)."""
    with caplog.at_level(logging.INFO, logger="bot.email"):
        for _ in range(ANSWERS_PER_HOUR + 5):
            await servers.deliver(write_mail(ALICE, BOT, "Re: fairypost", "I'm away until Monday."))
            await bot.step()
    assert len(servers.sent_to(ALICE)) == ANSWERS_PER_HOUR
    assert "answering alice@a.test at " in caplog.text and "(a mail loop?)" in caplog.text
    clock.advance(timedelta(hours=1, seconds=1))
    await servers.deliver(write_mail(ALICE, BOT, "help", "help"))
    await bot.step()
    assert len(servers.sent_to(ALICE)) == ANSWERS_PER_HOUR + 5 + 1  # an hour on: the rest, and help


async def test_every_autoresponder_mark_goes_unanswered_in_a_game(bot, servers):
    from .test_corpus import AUTOREPLIES
    from .test_game_by_mail import start_game
    game_id, side = await start_game(bot, servers)
    white = side["w"]
    board = servers.last_to(white)
    sent = len(servers.recorder.mails)
    for name in AUTOREPLIES:
        raw = corpus(name).replace(b"bot+g1-p1-0123456789abcdef0123@fairy.test",
                                   str(board["Reply-To"]).encode()).replace(b"alice@a.test", white.encode())
        await servers.deliver(raw)
    own = write_mail(BOT, BOT, "fairypost game 1", "resign")  # the bot's own mail come back
    await servers.deliver(own)
    await bot.step()
    assert len(servers.recorder.mails) == sent
    view = await bot.service.game(game_id)
    assert view.status == "active" and view.ply == 0 and not view.draw_offer


async def test_what_the_mail_help_lists_works_at_the_plain_address(bot, servers):
    await servers.deliver(write_mail(ALICE, BOT, "help", ""))
    await bot.step()
    help_mail = text_of(servers.last_to(ALICE))
    assert "piece GAME NAME" in help_mail and "rules GAME" in help_mail
    asked = {"games": "No games yet.", "rules chess": "Chess", "ratings": "rating",
             "piece superchess cyclops": "Cyclops (Super Chess)",
             "piece chess knight": "Knight (Chess)",
             "challenge chess bob@b.test": "To send this challenge, reply to this mail"}  # unproven
    for line, answer in asked.items():
        await servers.deliver(write_mail(ALICE, BOT, "q", line))  # the body before the subject
        await bot.step()
        assert answer in text_of(servers.last_to(ALICE)), (line, text_of(servers.last_to(ALICE)))
    await servers.deliver(write_mail(ALICE, BOT, "q", "piece superchess"))
    await bot.step()
    assert "which game's piece? Write piece GAME NAME" in text_of(servers.last_to(ALICE))
    await servers.deliver(write_mail(ALICE, BOT, "piece chess queen", ""))  # the body says nothing
    await bot.step()
    assert "Queen (Chess)" in text_of(servers.last_to(ALICE))
