"""Secrets never in clear (#30): ``imap://`` and ``smtp://`` upgrade with STARTTLS before
logging in, and refuse to log in when the server does not offer it; only ``?tls=off`` (a
test server on this machine) talks in clear. Shown on the wire: a relay in front of the
real servers (Dovecot for IMAP, aiosmtpd with STARTTLS for SMTP) keeps every byte the bot
sent, and a relay that hides STARTTLS (a downgrade attack) gets no LOGIN and no password."""

from __future__ import annotations

import base64
import ssl

import pytest

from bot.email.transport import IMAPMailbox, NoTLS, SMTPSender, TransientFailure
from bot.email.urls import MailSettingError, imap_server, smtp_server

from .dovecot import PASSWORD, SMTP_PASSWORD, SMTPWithTLS, WireTap


async def test_imap_logs_in_only_after_starttls(dovecot):
    tap = await WireTap(dovecot.port).start()
    box = IMAPMailbox(imap_server(dovecot.url(tap.port)), tls_context=dovecot.client_tls, timeout=5)
    try:
        await box.connect()
        assert await box.unseen() is not None and box.has_idle
    finally:
        await box.close()
        await tap.close()
    wire = bytes(tap.from_client)
    assert b"STARTTLS" in wire  # asked for in clear, then everything is TLS
    assert PASSWORD.encode() not in wire and b"LOGIN" not in wire and b"SELECT" not in wire


async def test_imap_refuses_a_server_without_starttls(dovecot):
    tap = await WireTap(dovecot.port, strip=(b" STARTTLS",)).start()  # a downgrade attack
    box = IMAPMailbox(imap_server(dovecot.url(tap.port)), tls_context=dovecot.client_tls, timeout=5)
    try:
        with pytest.raises(NoTLS, match="offers no STARTTLS"):
            await box.connect()
    finally:
        await box.close()
        await tap.close()
    wire = bytes(tap.from_client)
    assert PASSWORD.encode() not in wire and b"LOGIN" not in wire and b"AUTHENTICATE" not in wire


async def test_imap_checks_the_certificate(dovecot):
    """The test certificate is trusted only when the test says so: by default (the system's
    CAs) the upgrade fails and nothing is sent."""
    box = IMAPMailbox(imap_server(dovecot.url()), timeout=5)
    try:
        with pytest.raises(ssl.SSLCertVerificationError):
            await box.connect()
    finally:
        await box.close()


def _secret_on_wire(wire: bytes) -> bool:
    """The password in clear, or in AUTH PLAIN/LOGIN's base64."""
    encoded = [base64.b64encode(SMTP_PASSWORD.encode()),
               base64.b64encode(b"\0bot\0" + SMTP_PASSWORD.encode())]
    return SMTP_PASSWORD.encode() in wire or any(e in wire for e in encoded)


async def test_smtp_sends_only_after_starttls(dovecot):
    server = await SMTPWithTLS(dovecot, tls=True).start()
    tap = await WireTap(server.port).start()
    sender = SMTPSender(smtp_server(f"smtp://bot:{SMTP_PASSWORD}@127.0.0.1:{tap.port}"),
                        tls_context=dovecot.client_tls, timeout=5)
    try:
        await sender.send(b"From: bot@fairy.test\nTo: ann@x.test\nSubject: hi\n\nhello\n",
                          "bot@fairy.test", "ann@x.test")
    finally:
        await tap.close()
        server.close()
    assert [r for r, _m in server.recorder.mails] == ["ann@x.test"]
    wire = bytes(tap.from_client)
    assert b"STARTTLS" in wire and b"AUTH" not in wire and b"MAIL FROM" not in wire
    assert not _secret_on_wire(wire)


@pytest.mark.parametrize("offered", ["nothing", "hidden"])
async def test_smtp_refuses_a_server_without_starttls(dovecot, offered):
    """A server that offers no STARTTLS, and one whose offer is hidden on the way: no AUTH,
    no mail, a failure worth trying again (the mail stays queued) that says why."""
    server = await SMTPWithTLS(dovecot, tls=offered == "hidden").start()
    tap = await WireTap(server.port, strip=(b"250-STARTTLS\r\n",)).start()
    sender = SMTPSender(smtp_server(f"smtp://bot:{SMTP_PASSWORD}@127.0.0.1:{tap.port}"),
                        tls_context=dovecot.client_tls, timeout=5)
    try:
        with pytest.raises(TransientFailure, match="offers no STARTTLS"):
            await sender.send(b"Subject: hi\n\nhello\n", "bot@fairy.test", "ann@x.test")
    finally:
        await tap.close()
        server.close()
    wire = bytes(tap.from_client)
    assert b"EHLO" in wire and b"AUTH" not in wire and b"MAIL FROM" not in wire
    assert not _secret_on_wire(wire) and server.recorder.mails == []


def test_tls_off_only_for_this_machine():
    assert not imap_server("imap://u:p@127.0.0.1:1143/INBOX?tls=off").starttls
    assert smtp_server("smtp://127.0.0.1:2525").starttls  # the default: STARTTLS required
    assert not smtp_server("smtps://u:p@mail.example.org").starttls  # TLS from the start
    with pytest.raises(MailSettingError, match="in clear to mail.example.org"):
        smtp_server("smtp://u:p@mail.example.org:587?tls=off")
    with pytest.raises(MailSettingError, match=r"\?tls=off goes with imap://"):
        imap_server("imaps://u:p@127.0.0.1/INBOX?tls=off")
    with pytest.raises(MailSettingError, match="the only option is"):
        imap_server("imap://u:p@127.0.0.1/INBOX?starttls=no")


def _eight_bit_mail() -> bytes:
    from email.message import EmailMessage
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = "bot@fairy.test", "ann@x.test", "Partie gagnée"
    m.set_content("Les Blancs gagnent: échec et mat. Zürich – Kraków ♞\n")
    return bytes(m)


@pytest.mark.parametrize("offered", [True, False])
async def test_8bit_text_goes_with_8bitmime_or_encoded_to_7_bits(dovecot, offered):
    raw = _eight_bit_mail()
    assert not raw.isascii()  # the mail as composed has 8-bit text
    server = await SMTPWithTLS(dovecot, tls=False).start()
    tap = await WireTap(server.port, strip=() if offered else (b"250-8BITMIME\r\n",)).start()
    sender = SMTPSender(smtp_server(f"smtp://127.0.0.1:{tap.port}?tls=off"), timeout=5)
    try:
        await sender.send(raw, "bot@fairy.test", "ann@x.test")
        await sender.send(raw, "bot@fairy.test", "jöran@x.test")  # a UTF-8 address
    finally:
        await tap.close()
        server.close()
    (_, first), (_, second) = server.recorder.mails
    assert first.get_content().replace("\r\n", "\n") == "Les Blancs gagnent: échec et mat. Zürich – Kraków ♞\n"
    wire = bytes(tap.from_client)
    if offered:
        assert "BODY=8BITMIME" in first.mail_options and "échec".encode() in wire
    else:  # re-encoded: nothing 8-bit crosses but the UTF-8 address SMTPUTF8 allows
        assert "BODY=8BITMIME" not in first.mail_options and "échec".encode() not in wire
        assert first["Content-Transfer-Encoding"] == "quoted-printable"
    assert "SMTPUTF8" in second.mail_options and second.get_content() == first.get_content()
