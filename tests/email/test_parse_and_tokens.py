"""Reading mails (the writer's first line, HTML-only mail, bounces, auto-replies) and the
reply tokens, without servers."""

from __future__ import annotations

import pytest

from bot.email import tokens
from bot.email.parse import first_line, html_text, read_mail

BOT = "bot@fairy.test"


@pytest.mark.parametrize("body, line", [
    ("Nf3\n\nThanks!\n", "Nf3"),
    ("\n\n   e4   \n-- \nAnn\n", "e4"),
    ("> Your move\n> e5\nd4\n", "d4"),  # quoted above: skipped
    ("On Mon, 6 Jan 2025 at 12:00, fairypost <bot@fairy.test> wrote:\n> e4\n", ""),  # nothing of theirs
    ("-- \nsent from my phone\n", ""),
    ("moves   e2\n", "moves e2"),
    ("-----Original Message-----\nFrom: bot\n", ""),
    ("Le lun. 6 janv. 2025, fairypost a écrit :\n> e4\n", ""),
    # bottom-posted (Thunderbird): attribution, quote, then the move
    ("On 06/01/2025 12:00, fairypost wrote:\n> Your move\n> e5\n\nh3\n\n-- \nAnn\n", "h3"),
    ("Am 6. Januar 2025 um 12:00 schrieb fairypost <bot@fairy.test>:\n> e5\nNf3\n", "Nf3"),
    ("El lun, 6 ene 2025 a las 12:00, fairypost (<bot@fairy.test>) escribió:\n> e5\nNf3\n", "Nf3"),
    # an attribution wrapped over two lines (Gmail), then the quote, then the move
    ("On Mon, Jan 6, 2025 at 12:00 PM fairypost <bot@\nfairy.test> wrote:\n> e5\n\nd4\n", "d4"),
    # inline: between quoted lines
    ("> Your move in game #1\nc4\n> Reply with your move\nthanks\n", "c4"),
    # the original unquoted after an attribution or Outlook's block: nothing of the writer's
    ("On Mon, 6 Jan 2025, fairypost wrote:\nYour move in game #1\n", ""),
    ("From: fairypost <bot@fairy.test>\nSent: Monday, January 6, 2025 12:00\nTo: ann\n\nYour move\n", ""),
    ("________________________________\nFrom: fairypost\nYour move\n", ""),
    ("Sent from my iPhone\n\n> On 6 Jan 2025, at 12:00, fairypost wrote:\n> e4\n", ""),
    ("Nc3\u00a0\n\nSent from my iPhone\n", "Nc3"),
])
def test_the_first_line_of_the_writers_own_text(body, line):
    assert first_line(body) == line


def test_html_only_mail_is_read_as_its_text_without_quotes_or_styles():
    html = ("<html><head><style>div{}</style><title>t</title></head><body>"
            "<div dir='ltr'>Qh4#&nbsp;</div><div class='gmail_quote'><blockquote>e4 e5</blockquote>"
            "</div><script>x()</script></body></html>")
    assert first_line(html_text(html)) == "Qh4#"


def mail(headers: str, body: str = "e4\n") -> bytes:
    return (headers.strip().replace("\n", "\r\n") + "\r\n\r\n" + body).encode()


def test_a_mail_read():
    m = read_mail(mail("""From: "Ann Smith" <Ann@Example.ORG>
To: Bot <bot+g1-p2-0123456789abcdef0123@fairy.test>
Cc: other@x.test
Subject: RE: Fwd: Re: fairypost game 1
Message-ID: <abc@example.org>
References: <r1@x> <r2@x>"""))
    assert m.sender == "ann@example.org" and m.key == "<abc@example.org>"
    assert m.recipients == ("bot+g1-p2-0123456789abcdef0123@fairy.test", "other@x.test")
    assert m.subject == "fairypost game 1" and m.first_line == "e4"
    assert m.references == ("<r1@x>", "<r2@x>") and not m.automatic and m.bounce is None
    # no Message-ID: the same bytes are the same mail
    a, b = read_mail(mail("From: a@x\nSubject: s")), read_mail(mail("From: a@x\nSubject: s"))
    assert a.key == b.key and a.key.startswith("sha256:")


@pytest.mark.parametrize("header", [
    "Auto-Submitted: auto-replied", "Auto-Submitted: auto-generated", "X-Autoreply: yes",
    "X-Autorespond: away", "Precedence: bulk", "Precedence: junk", "Precedence: list",
    "Precedence: auto_reply", "List-Id: <games.lists.example.org>", "Return-Path: <>",
    "Subject: Automatic reply: your move", "Subject: Out of Office: back Monday"])
def test_automatic_mail_is_known(header):
    assert read_mail(mail(f"From: a@x\n{header}\nSubject: away")).automatic


@pytest.mark.parametrize("header", ["Auto-Submitted: no", "Precedence: first-class",
                                    "Return-Path: <a@x>", "Subject: Re: auto moves"])
def test_a_persons_mail_is_not_automatic(header):
    assert read_mail(mail(f"From: a@x\n{header}")).automatic is None


def test_a_soft_bounce_is_not_a_hard_one():
    raw = ("From: MAILER-DAEMON@x\r\nTo: bot@fairy.test\r\nSubject: delayed\r\nMIME-Version: 1.0\r\n"
           "Content-Type: multipart/report; report-type=delivery-status; boundary=B\r\n\r\n"
           "--B\r\nContent-Type: text/plain\r\n\r\ndelayed\r\n--B\r\n"
           "Content-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; x\r\n\r\n"
           "Final-Recipient: rfc822; Ann@X.test\r\nAction: delayed\r\nStatus: 4.4.1\r\n\r\n--B--\r\n")
    b = read_mail(raw.encode()).bounce
    assert b is not None and b.recipient == "ann@x.test" and not b.permanent


def test_reply_tokens():
    secret = b"k"
    address = tokens.reply_address(BOT, secret, "g", 42, 7, 5)
    assert address.startswith("bot+g42-p7-") and address.endswith("@fairy.test")
    tag = tokens.parse_tag(address, BOT)
    assert (tag.kind, tag.id, tag.player_id) == ("g", 42, 7)
    assert tokens.signed_ply(secret, tag, 9) == 5  # found among the plies up to now
    assert tokens.signed_ply(secret, tag, 4) is None  # a ply still to come: forged
    assert tokens.signed_ply(b"other", tag, 9) is None
    upper = tokens.parse_tag(address.upper(), BOT)  # a mail system that changed the case
    assert tokens.signed_ply(secret, upper, 9) == 5
    other_player = tokens.parse_tag(address.replace("-p7-", "-p8-"), BOT)
    assert tokens.signed_ply(secret, other_player, 9) is None
    for not_ours in ("bot@fairy.test", "bot+g42-p7-zz@fairy.test", "eve+" + address.split("+")[1],
                     address.replace("fairy.test", "evil.test")):
        assert tokens.parse_tag(not_ours, BOT) is None


def test_bounce_addresses():
    secret = b"k"
    address = tokens.bounce_address(BOT, secret, 42, "Ann@x.test")
    assert address.startswith("bot+b-42-") and address.endswith("@fairy.test")
    tag = tokens.parse_bounce_tag(address.upper(), BOT)
    assert tag.mail_id == 42 and tokens.bounce_verifies(secret, tag, "ann@x.test")
    assert not tokens.bounce_verifies(secret, tag, "bob@x.test")  # another recipient
    assert not tokens.bounce_verifies(b"other", tag, "ann@x.test")
    forged = tokens.parse_bounce_tag(address.replace("b-42-", "b-43-"), BOT)
    assert not tokens.bounce_verifies(secret, forged, "ann@x.test")
    assert tokens.parse_tag(address, BOT) is None and tokens.parse_bounce_tag(BOT, BOT) is None


def test_the_html_version_escapes_every_word():
    from bot.email.compose import board_html
    html = board_html('Eve <script>alert(1)</script> & "Bob" played e4', "<board.1@fairy.test>")
    assert "<script>" not in html and "&lt;script&gt;" in html and "&amp;" in html
    assert 'src="cid:board.1@fairy.test"' in html
