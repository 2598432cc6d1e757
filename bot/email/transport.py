"""The mail servers: sending over SMTP (aiosmtplib), reading a mailbox over IMAP (aioimaplib).

SMTP: ``smtps://`` is TLS from the start; ``smtp://`` upgrades with STARTTLS whenever the
server offers it. A recipient refused with a 5xx code is a hard bounce (``HardBounce``);
anything else that fails is worth another try later (``TransientFailure``).

IMAP: the mailbox named in the URL (default INBOX); new mail is what is not yet \\Seen.
``wait`` waits with IDLE when the server has it, else simply for the poll interval.
"""

from __future__ import annotations

import asyncio
import logging
import re
import ssl

import aioimaplib
import aiosmtplib

from .urls import MailServer

log = logging.getLogger("bot.email")


class TransientFailure(Exception):
    """Not sent now; try again later."""


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

    async def send(self, message: bytes, sender: str, recipient: str) -> None:
        s = self.server
        try:
            await aiosmtplib.send(message, sender=sender, recipients=[recipient], hostname=s.host,
                                  port=s.port, username=s.user, password=s.password,
                                  use_tls=s.tls, start_tls=None if not s.tls else False,
                                  tls_context=self.tls_context, timeout=self.timeout)
        except aiosmtplib.SMTPRecipientsRefused as e:
            refusal = e.recipients[0] if e.recipients else None
            if refusal is not None and 500 <= refusal.code < 600:
                raise HardBounce(recipient, f"{refusal.code} {refusal.message}") from None
            raise TransientFailure(str(e)) from None
        except aiosmtplib.SMTPResponseException as e:
            if 500 <= e.code < 600 and isinstance(e, aiosmtplib.SMTPRecipientRefused):
                raise HardBounce(recipient, f"{e.code} {e.message}") from None
            raise TransientFailure(f"{e.code} {e.message}") from None
        except (aiosmtplib.SMTPException, OSError, asyncio.TimeoutError) as e:
            raise TransientFailure(str(e) or type(e).__name__) from None


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
        _ok(await client.login(s.user or "", s.password or ""), "log in", MailboxRefused)
        _ok(await client.select(s.mailbox), f"open the mailbox {s.mailbox}", MailboxRefused)
        return client

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
        # mail that came since the last search, before IDLE began, would wait for the
        # next round: a NOOP first says so (EXISTS), and then there is no waiting
        r = await client.noop()
        if any(isinstance(line, (bytes, bytearray)) and line.endswith((b"EXISTS", b"RECENT"))
               for line in r.lines):
            return
        idle = await client.idle_start(timeout=seconds)
        try:
            await client.wait_server_push(timeout=seconds)
        except asyncio.TimeoutError:
            pass
        finally:
            client.idle_done()
            try:
                await asyncio.wait_for(idle, self.timeout)
            except asyncio.TimeoutError:
                self._client = None  # a connection that does not end IDLE is dropped

    async def close(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            try:
                await asyncio.wait_for(client.logout(), 5)
            except Exception:  # noqa: BLE001 - closing a broken connection: nothing to do
                pass


class MailboxRefused(OSError):
    """The server answered but refused the login or the mailbox: the settings are wrong,
    and trying again will not help."""


def _ok(response, what: str, refused: type[OSError] = OSError):
    if response.result != "OK":
        raise refused(f"IMAP: could not {what}: {response.result} "
                      f"{b' '.join(l for l in response.lines if isinstance(l, bytes)).decode('utf-8', 'replace')}")
    return response
