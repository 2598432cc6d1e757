"""The mail servers: sending over SMTP (aiosmtplib), reading a mailbox over IMAP (aioimaplib).

Secrets never cross the network in clear: ``smtps://`` and ``imaps://`` are TLS from the
start; ``smtp://`` and ``imap://`` upgrade with STARTTLS before logging in, and a server that
does not offer it is refused (``NoTLS``: no login, nothing sent), unless the URL says
``?tls=off`` (a test server on this machine; bot/email/urls.py). Certificates are checked
(the system's CAs, or the ``tls_context`` given).

SMTP: a recipient refused with a 5xx code is a hard bounce (``HardBounce``); anything else
that fails is worth another try later (``TransientFailure``). A mail with 8-bit text goes
with ``BODY=8BITMIME`` where the server offers it, else re-encoded (quoted-printable) to
7 bits; an address that is not ASCII asks for ``SMTPUTF8``.

IMAP: the mailbox named in the URL (default INBOX); new mail is what is not yet \\Seen.
``wait`` waits with IDLE when the server has it, else simply for the poll interval.
"""

from __future__ import annotations

import asyncio
import logging
import quopri
import re
import ssl
from email import message_from_bytes, policy

import aioimaplib
import aiosmtplib
from aioimaplib import Command

from .urls import MailServer

log = logging.getLogger("bot.email")


class TransientFailure(Exception):
    """Not sent now; try again later."""


class MailboxRefused(OSError):
    """The server answered but refused the login or the mailbox, or offers no STARTTLS: the
    settings (or the server) are wrong, and trying again will not help."""


class NoTLS(MailboxRefused):
    """The server does not offer STARTTLS: the bot does not log in (its password would go
    in clear)."""


class HardBounce(Exception):
    """The server refused the recipient for good (a 5xx reply)."""

    def __init__(self, recipient: str, reason: str):
        super().__init__(f"{recipient}: {reason}")
        self.recipient = recipient
        self.reason = reason


class SMTPSender:
    def __init__(self, server: MailServer, *, tls_context: ssl.SSLContext | None = None,
                 timeout: float = 30):
        self.server = server
        self.tls_context = tls_context
        self.timeout = timeout

    async def send(self, message: bytes, sender: str, recipient: str, *, handing=None) -> None:
        """Send one mail; ``sender`` is the envelope sender (where bounces go). ``handing``
        (async, no arguments) is awaited once the server has taken the recipient, just before
        the mail's text goes: what the caller marks then, the server may have."""
        s = self.server
        try:
            smtp = aiosmtplib.SMTP(hostname=s.host, port=s.port, use_tls=s.tls,
                                   start_tls=s.starttls, tls_context=self.tls_context,
                                   timeout=self.timeout)
            try:
                await smtp.connect()
            except aiosmtplib.SMTPException as e:
                if s.starttls and "STARTTLS" in str(e):
                    raise NoTLS(f"the SMTP server {s.host} offers no STARTTLS: nothing sent, "
                                "no password given (use smtps://, or a server that offers it)") from None
                raise
            try:
                if s.user:
                    await smtp.login(s.user, s.password or "")
                if smtp.is_ehlo_or_helo_needed:  # (the extensions are known after EHLO)
                    await smtp.ehlo()
                options = []
                if not message.isascii():
                    if smtp.supports_extension("8bitmime"):
                        options.append("BODY=8BITMIME")
                    else:
                        message = seven_bit(message)
                if not (sender + recipient).isascii() and smtp.supports_extension("smtputf8"):
                    options.append("SMTPUTF8")
                # sendmail's steps, one by one: ``handing`` goes between the envelope and the text
                encoding = "utf-8" if "SMTPUTF8" in options else "ascii"
                if smtp.supports_extension("size"):
                    options.insert(0, f"size={len(_crlf(message))}")
                await smtp.mail(sender, options=options, encoding=encoding)
                await smtp.rcpt(recipient, encoding=encoding)
                if handing is not None:
                    await handing()
                await smtp.data(message)
            finally:
                smtp.close()
        except NoTLS as e:
            raise TransientFailure(str(e)) from None
        except aiosmtplib.SMTPRecipientsRefused as e:
            refusal = e.recipients[0] if e.recipients else None
            if refusal is not None and 500 <= refusal.code < 600:
                raise HardBounce(recipient, f"{refusal.code} {refusal.message}") from None
            raise TransientFailure(str(e)) from None
        except aiosmtplib.SMTPResponseException as e:
            if 500 <= e.code < 600 and isinstance(e, aiosmtplib.SMTPRecipientRefused):
                raise HardBounce(recipient, f"{e.code} {e.message}") from None
            raise TransientFailure(f"{e.code} {e.message}") from None
        except (TimeoutError, aiosmtplib.SMTPException, OSError) as e:
            raise TransientFailure(str(e) or type(e).__name__) from None


def _crlf(message: bytes) -> bytes:
    """The mail as it goes on the wire: every line ending CRLF (what SIZE counts)."""
    return re.sub(rb"\r\n|\r|\n", b"\r\n", message)


def seven_bit(message: bytes) -> bytes:
    """The mail with every 8-bit part re-encoded as quoted-printable (for a server without
    8BITMIME)."""
    msg = message_from_bytes(message, policy=policy.default)
    for part in msg.walk():
        if part.is_multipart() or str(part.get("Content-Transfer-Encoding", "")).lower() != "8bit":
            continue
        payload = part.get_payload(decode=True)
        del part["Content-Transfer-Encoding"]
        part.set_payload(quopri.encodestring(payload).decode("ascii"))
        part["Content-Transfer-Encoding"] = "quoted-printable"
    return msg.as_bytes(policy=policy.default.clone(cte_type="7bit"))


_FETCHED = re.compile(rb"UID (\d+)")


class IMAPMailbox:
    """One logged-in connection to the mailbox, made again when it breaks."""

    def __init__(self, server: MailServer, *, tls_context: ssl.SSLContext | None = None,
                 timeout: float = 30):
        self.server = server
        self.tls_context = tls_context
        self.timeout = timeout
        self._client: aioimaplib.IMAP4 | None = None

    async def _connected(self) -> aioimaplib.IMAP4:
        if self._client is not None and self._client.protocol is not None \
                and self._client.protocol.state in ("AUTH", "SELECTED"):
            return self._client
        s = self.server
        if s.tls:
            client = aioimaplib.IMAP4_SSL(host=s.host, port=s.port, timeout=self.timeout,
                                          ssl_context=self.tls_context)
        else:
            client = aioimaplib.IMAP4(host=s.host, port=s.port, timeout=self.timeout)
        self._client = client  # closed by close() if what follows fails
        await client.wait_hello_from_server()
        if s.starttls:
            await self._start_tls(client)
        _ok(await client.login(s.user or "", s.password or ""), "log in", MailboxRefused)
        _ok(await client.select(s.mailbox), f"open the mailbox {s.mailbox}", MailboxRefused)
        return client

    async def _start_tls(self, client: aioimaplib.IMAP4) -> None:
        """STARTTLS (RFC 3501 6.2.1), then the capabilities asked again (those said in clear
        are not to be trusted); NoTLS if the server does not offer it."""
        s = self.server
        if not client.has_capability("STARTTLS"):
            raise NoTLS(f"the IMAP server {s.host} offers no STARTTLS: the bot does not log in "
                        "(its password would go in clear); use imaps://, or a server that offers it")
        protocol = client.protocol
        r = await asyncio.wait_for(protocol.execute(
            Command("STARTTLS", protocol.new_tag(), loop=protocol.loop)), self.timeout)
        _ok(r, "start TLS", NoTLS)
        context = self.tls_context or ssl.create_default_context()
        protocol.transport = await asyncio.wait_for(asyncio.get_running_loop().start_tls(
            protocol.transport, protocol, context, server_hostname=s.host), self.timeout)
        await asyncio.wait_for(protocol.capability(), self.timeout)

    async def connect(self) -> None:
        """Log in and open the mailbox now (MailboxRefused if the server says no)."""
        await self._connected()

    @property
    def has_idle(self) -> bool:
        return self._client is not None and self._client.has_capability("IDLE")

    @property
    def idling(self) -> bool:
        """Whether the connection is in IDLE now, waiting for the server to speak."""
        return self._client is not None and self._client.has_pending_idle()

    async def unseen(self) -> list[int]:
        """The UIDs of the mails not yet seen, oldest first."""
        client = await self._connected()
        await client.noop()  # a selected mailbox's view of new mail is brought up to date
        r = _ok(await client.uid_search("UNSEEN"), "search the mailbox")
        return sorted(int(u) for line in r.lines[:-1] for u in line.split() if u.isdigit())

    async def fetch(self, uid: int) -> bytes | None:
        """The whole mail (not marking it seen); None if it is gone."""
        client = await self._connected()
        r = _ok(await client.uid("fetch", str(uid), "(UID BODY.PEEK[])"), "read a mail")
        for i, line in enumerate(r.lines):
            if isinstance(line, (bytes, bytearray)) and _FETCHED.search(line) and i + 1 < len(r.lines):
                body = r.lines[i + 1]
                if isinstance(body, bytearray):
                    return bytes(body)
        return None

    async def mark_seen(self, uid: int) -> None:
        client = await self._connected()
        _ok(await client.uid("store", str(uid), "+FLAGS.SILENT (\\Seen)"), "mark a mail seen")

    async def wait(self, seconds: float) -> None:
        """Until the server says something changed (IDLE) or ``seconds`` pass."""
        client = await self._connected()
        if not client.has_capability("IDLE"):
            await asyncio.sleep(seconds)
            return
        # a mail that came since the last search (while others were fetched and handled)
        # would wait for the next push or poll: its EXISTS may have come with any reply
        # since, so the mailbox is asked, and there is no waiting while anything is unseen;
        # one that comes after this search and before IDLE begins is announced by IDLE
        if await self.unseen():
            return
        idle = await client.idle_start(timeout=seconds)
        try:
            await client.wait_server_push(timeout=seconds)
        except TimeoutError:
            pass
        finally:
            client.idle_done()
            try:
                await asyncio.wait_for(idle, self.timeout)
            except TimeoutError:
                self._client = None  # a connection that does not end IDLE is dropped

    async def close(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            try:
                await asyncio.wait_for(client.logout(), 5)
            except Exception:  # noqa: BLE001 - closing a broken connection: nothing to do
                pass




def _ok(response, what: str, refused: type[OSError] = OSError):
    if response.result != "OK":
        said = b" ".join(line for line in response.lines if isinstance(line, bytes)).decode("utf-8", "replace")
        raise refused(f"IMAP: could not {what}: {response.result} {said}")
    return response
