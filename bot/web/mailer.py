"""The sign-in mails: sent at once over SMTP (``FAIRYPOST_SMTP_URL``, from
``FAIRYPOST_EMAIL_ADDRESS``), not through the play-by-mail queue: a link that comes an hour
late has expired. TLS as the mail adapter has it: ``smtps://`` from the start, ``smtp://``
with STARTTLS, ``?tls=off`` only for a test server on this machine."""

from __future__ import annotations

from email.message import EmailMessage
from email.utils import make_msgid
from urllib.parse import parse_qs, unquote, urlsplit

import aiosmtplib


class MailFailed(Exception):
    """The mail server did not take the mail."""


class Mailer:
    def __init__(self, smtp_url: str, sender: str):
        parts = urlsplit(smtp_url)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise ValueError("FAIRYPOST_SMTP_URL: smtp[s]://user:password@host:port")
        self.host = parts.hostname
        self.port = parts.port or (465 if parts.scheme == "smtps" else 587)
        self.user = unquote(parts.username) if parts.username else None
        self.password = unquote(parts.password) if parts.password else None
        self.tls = parts.scheme == "smtps"
        clear = "tls" in parse_qs(parts.query) and self.host in ("127.0.0.1", "::1", "localhost")
        self.starttls = not self.tls and not clear
        self.sender = sender

    async def send(self, to: str, subject: str, text: str, language: str = "en") -> None:
        msg = EmailMessage()
        msg["From"] = f"fairypost <{self.sender}>"
        msg["To"] = to
        msg["Subject"] = subject
        msg["Message-ID"] = make_msgid(domain=self.sender.rpartition("@")[2] or None)
        msg["Auto-Submitted"] = "auto-generated"  # no autoresponder answers it
        msg.set_content(text)
        msg["Content-Language"] = language   # after set_content, which sets the Content-* headers anew
        try:
            await aiosmtplib.send(msg, hostname=self.host, port=self.port, use_tls=self.tls,
                                  start_tls=self.starttls, username=self.user, password=self.password,
                                  timeout=30)
        except (aiosmtplib.SMTPException, OSError, TimeoutError) as e:
            raise MailFailed(str(e) or type(e).__name__) from None
