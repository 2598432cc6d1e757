"""Real mail programs' mails, kept as files in tests/email/corpus/ (their header shapes and
MIME structures: Gmail, Outlook desktop in English and German, Outlook on the web, Apple
Mail on a Mac and an iPhone, Thunderbird bottom-posted and inline, K-9 on Android;
autoresponders; the bounces of Postfix, Exim, Exchange and qmail), each read as the bot
reads it. test_real_servers.py plays a game with them through Dovecot."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.email.parse import read_mail

CORPUS = Path(__file__).parent / "corpus"

# file: the writer's own first line (each a move of one game, in this order: see
# test_real_servers.py), after top-posting, bottom-posting, inline quoting, attributions in
# four languages, Outlook's header block, signatures, and HTML alone
REPLIES = {
    "gmail_top_posted.eml": "Nf3",
    "thunderbird_bottom_posted.eml": "h3",
    "outlook_top_posted.eml": "e4",
    "thunderbird_inline_fr.eml": "c4",
    "outlook_de_original_message.eml": "d4",
    "apple_iphone_top_posted.eml": "Nc3",
    "k9_android_de.eml": "g3",
    "apple_mail_mac_html.eml": "Bg2",
    "outlook_web_html_only.eml": "Bf1",
}
AUTOREPLIES = ["autoreply_exchange_ooo.eml", "autoreply_gmail_vacation.eml",
               "autoreply_x_autoreply.eml", "autoreply_precedence.eml",
               "autoreply_null_sender.eml", "autoreply_x_autorespond.eml"]
BOUNCES = ["bounce_postfix.eml", "bounce_exim.eml", "bounce_exchange.eml", "bounce_qmail_plain.eml"]


def corpus(name: str) -> bytes:
    return (CORPUS / name).read_bytes()


def test_the_corpus_is_all_here():
    assert sorted(p.name for p in CORPUS.glob("*.eml")) == sorted([*REPLIES, *AUTOREPLIES, *BOUNCES])


@pytest.mark.parametrize("name", REPLIES)
def test_a_real_clients_reply_is_read_as_its_writers_first_line(name):
    mail = read_mail(corpus(name))
    assert mail.first_line == REPLIES[name]
    assert mail.sender == "alice@a.test" and mail.automatic is None and mail.bounce is None
    assert "bot+g1-p1-0123456789abcdef0123@fairy.test" in mail.recipients
    assert mail.subject == "fairypost game 1: Chess, alice - bob"  # RE:, AW:, Re: taken off


@pytest.mark.parametrize("name", AUTOREPLIES)
def test_an_autoresponders_mail_is_known_for_what_it_is(name):
    mail = read_mail(corpus(name))
    assert mail.automatic and mail.bounce is None


@pytest.mark.parametrize("name", BOUNCES)
def test_a_real_mta_bounce_is_a_permanent_failure_to_the_bounce_address(name):
    mail = read_mail(corpus(name))
    assert mail.bounce is not None and mail.bounce.permanent and mail.automatic
    assert mail.bounce.recipient in ("bob@b.test", "")  # qmail writes no report
    assert "bot+b-1-0123456789abcdef0123@fairy.test" in mail.recipients
