"""Answers at the plain address, where anyone can write any From (issue 40, item 3, the
mail part): they have a fixed subject, never the sender's (a forger chose it), and they are
counted apart from a player's answers to signed replies (test_loop_breaker.py shows that
side: forged help mails take nothing from them)."""

from __future__ import annotations

from bot.email.notices import PLAIN_ANSWER_SUBJECT

from .conftest import BOT, as_proven
from .servers import reply_to_mail, text_of, write_mail

ALICE, BOB = "alice@a.test", "bob@b.test"
PHISH = "URGENT: your account is locked, log in at http://evil.test/login"


async def test_a_forged_mail_gets_an_answer_with_the_bots_own_subject(bot, servers):
    for body in ("help", "tournaments", "I am chatting"):
        await servers.deliver(write_mail(BOB, BOT, PHISH, body))
        await bot.step()
        answer = servers.last_to(BOB)
        assert str(answer["Subject"]) == PLAIN_ANSWER_SUBJECT
        assert "evil.test" not in answer.as_string() and "URGENT" not in answer.as_string()
    # a subject that is a command is still read (the body chat), its words not echoed
    await servers.deliver(write_mail(BOB, BOT, "help", "Hello, how does this work?"))
    await bot.step()
    assert str(servers.last_to(BOB)["Subject"]) == PLAIN_ANSWER_SUBJECT
    assert "help" in text_of(servers.last_to(BOB)).lower()


async def test_a_reply_to_the_answer_is_not_read_by_its_subject(bot, servers):
    """The fixed subject is the bot's: an empty reply to it is not read as a command."""
    await servers.deliver(write_mail(ALICE, BOT, "help", "help"))
    await bot.step()
    answer = servers.last_to(ALICE)
    await servers.deliver(reply_to_mail(ALICE, answer, "", quote=True))
    await bot.step()
    assert "help" in text_of(servers.last_to(ALICE)).lower()  # an empty line: help, as before


async def test_an_answer_to_a_signed_reply_keeps_its_thread_subject(bot, servers):
    await as_proven(bot.adapter, ALICE)
    await servers.deliver(write_mail(ALICE, BOT, "challenge", "challenge chess bob@b.test"))
    await bot.step()
    invitation = servers.last_to(BOB, "(#1)")
    await servers.deliver(reply_to_mail(BOB, invitation, "maybe"))
    await bot.step()
    answer = servers.last_to(BOB)
    assert str(answer["Subject"]) == "Re: " + str(invitation["Subject"]).removeprefix("Re: ")
    # what it read, and the two answers a challenge takes (issue #41: not every command)
    assert "I read: `maybe`" in text_of(answer) and "reply accept or decline" in text_of(answer)
