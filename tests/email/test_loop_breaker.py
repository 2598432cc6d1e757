"""Mail that loops is stopped, mail from a player never is (issue 40, item 7), with the real
in-process SMTP and IMAP servers and the injected clock: a signed reply from the player's
own address never counts toward the loop breaker (30 replies in an hour in three games get
30 answers, after ten forged ``help`` mails too); an answer at the plain address beyond the
hour's is delayed to when the hour allows, never dropped; Exchange's and procmail's marks
and the auto-reply subjects in German, English and French are never answered."""

from __future__ import annotations

import logging
from datetime import timedelta

import pytest

from bot.email.parse import read_mail
from bot.email.sending import ANSWERS_PER_HOUR

from .conftest import BOT, as_proven
from .servers import reply_to_mail, text_of, write_mail

ALICE, BOB = "alice@a.test", "bob@b.test"


async def three_games(bot, servers) -> list[int]:
    """Alice challenges Bob three times by mail; Bob accepts each by replying."""
    await as_proven(bot.adapter, ALICE)
    for n in (1, 2, 3):
        await servers.deliver(write_mail(ALICE, BOT, "challenge", "challenge chess bob@b.test days 3"))
        await bot.step()
        invitation = servers.last_to(BOB, f"(#{n})")
        await servers.deliver(reply_to_mail(BOB, invitation, "accept"))
        await bot.step()
    return [1, 2, 3]


def last_game_mail(servers, address: str, game_id: int):
    """The last mail about ``game_id`` to ``address`` (its signed Reply-To names the game)."""
    return next(m for m in reversed(servers.sent_to(address))
                if str(m.get("Reply-To", "")).startswith(f"bot+g{game_id}-"))


def signed_answers(servers) -> list:
    """The mails to Alice about a game (their Reply-To is signed for it)."""
    return [m for m in servers.sent_to(ALICE) if str(m.get("Reply-To", "")).startswith("bot+g")]


async def test_thirty_signed_replies_in_an_hour_in_three_games_get_thirty_answers(bot, servers, clock,
                                                                                  caplog):
    """The issue's attack first: ten forged ``help`` mails in Alice's name at the plain address
    spend its answers for the hour; her own signed replies (reads, an illegal move, a
    refused word) are each answered at once all the same, and count for nothing."""
    games = await three_games(bot, servers)
    for _ in range(ANSWERS_PER_HOUR):
        await servers.deliver(write_mail(ALICE, BOT, "help", "help"))
        await bot.step()
    before = len(signed_answers(servers))
    lines = ["board", "Zz9", "moves", "hello there", "record"]
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="bot.email"):
        for i in range(30):
            game_id = games[i % 3]
            await servers.deliver(reply_to_mail(ALICE, last_game_mail(servers, ALICE, game_id),
                                                lines[i % len(lines)]))
            await bot.step()
            assert len(signed_answers(servers)[before:]) == i + 1, f"reply {i + 1} got no answer now"
            clock.advance(timedelta(minutes=2))  # 30 replies in an hour
    answers = signed_answers(servers)[before:]
    assert {str(m["Reply-To"]).split("-")[0] for m in answers} == {"bot+g1", "bot+g2", "bot+g3"}
    assert "mail loop" not in caplog.text
    # the signed answers took nothing from the plain address's hour either
    clock.advance(timedelta(hours=1))
    await servers.deliver(write_mail(ALICE, BOT, "help", "help"))
    await bot.step()
    assert "help" in text_of(servers.sent_to(ALICE)[-1]).lower()


async def test_an_answer_beyond_the_hour_is_delayed_never_dropped(bot, servers, clock, caplog):
    """Fifteen mails at the plain address in a minute: ten answered now, five queued (a log
    line says when), each sent once the hour allows, in order; none is lost."""
    with caplog.at_level(logging.INFO, logger="bot.email"):
        for n in range(ANSWERS_PER_HOUR + 5):
            await servers.deliver(write_mail(ALICE, BOT, "rules", "rules", message_id=f"<rules{n}@a.test>"))
            await bot.step()
    assert len(servers.sent_to(ALICE)) == ANSWERS_PER_HOUR
    assert "answering alice@a.test at" in caplog.text and "(a mail loop?)" in caplog.text
    clock.advance(timedelta(minutes=59))
    await bot.step()
    assert len(servers.sent_to(ALICE)) == ANSWERS_PER_HOUR  # not before the hour is over
    clock.advance(timedelta(minutes=1, seconds=1))
    await bot.step()
    sent = servers.sent_to(ALICE)
    assert len(sent) == ANSWERS_PER_HOUR + 5
    assert [str(m["In-Reply-To"]) for m in sent] == [f"<rules{n}@a.test>" for n in range(ANSWERS_PER_HOUR + 5)]


async def test_an_unmarked_autoresponder_is_paced_to_the_hours_answers(bot, servers, clock):
    """An autoresponder that marks nothing writes every minute for half an hour: no hour
    holds more than ANSWERS_PER_HOUR answers to it; each is sent, paced as it came."""
    start = clock.now()
    for _ in range(3 * ANSWERS_PER_HOUR):  # minutes 0 to 29
        await servers.deliver(write_mail(ALICE, BOT, "Re: fairypost", "I'm away until Monday."))
        await bot.step()
        clock.advance(timedelta(minutes=1))
    for minute, answered in ((59, 10), (60, 11), (69, 20), (119, 20), (129, 30)):
        clock.advance(start + timedelta(minutes=minute) - clock.now())
        await bot.step()
        assert len(servers.sent_to(ALICE)) == answered, f"minute {minute}"


AUTOMATIC = [("X-Auto-Response-Suppress", "All", "Out of reach"),
             ("X-MS-Exchange-Inbox-Rules-Loop", ALICE, "Away"),
             ("X-Loop", "alice@a.test", "Re: your mail"),
             (None, None, "Automatische Antwort: help"),
             (None, None, "Automatic reply: help"),
             (None, None, "Réponse automatique : help")]


def marked(header, value, subject: str, to: str = BOT, reply_to=None) -> bytes:
    raw = write_mail(ALICE, to, subject, "help", reply_to=reply_to)
    return raw.replace(b"Subject:", f"{header}: {value}\r\nSubject:".encode()) if header else raw


@pytest.mark.parametrize(("header", "value", "subject"), AUTOMATIC)
def test_exchange_procmail_and_auto_reply_subjects_are_automatic(header, value, subject):
    assert read_mail(marked(header, value, subject)).automatic is not None


async def test_an_exchange_or_procmail_auto_reply_is_not_answered(bot, servers):
    """The issue's two autoresponders (Exchange's out-of-office with its two headers and no
    Auto-Submitted; procmail's reply marked only X-Loop) and the subjects: no answer at the
    plain address, nor in a game."""
    games = await three_games(bot, servers)
    sent = len(servers.recorder.mails)
    for header, value, subject in AUTOMATIC:
        await servers.deliver(marked(header, value, subject))
        board = last_game_mail(servers, ALICE, games[0])
        await servers.deliver(marked(header, value, subject, str(board["Reply-To"]), board))
        await bot.step()
    assert len(servers.recorder.mails) == sent
