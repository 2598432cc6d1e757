"""Real mail servers on 127.0.0.1 for the email tests, in the test's own event loop: an SMTP
server (aiosmtpd) that records every mail the bot sends, and an IMAP server (pymap with its
in-memory back end) holding the bot's mailbox, into which the tests deliver the players'
mails (IMAP APPEND, as a mail server's delivery would)."""

from __future__ import annotations

import argparse
import asyncio
from contextlib import AsyncExitStack
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import formatdate

import aioimaplib
from aiosmtpd.smtp import SMTP
from pymap.backend.dict import DictBackend
from pymap.backend.dict.mailbox import MailboxData
from pymap.imap import IMAPService
from pysasl.hashing import BuiltinHash

from tests.ports import free_port  # noqa: F401 - named here too (dovecot.py, the tests)

BOT_USER, BOT_PASSWORD = "bot", "imap-password"


def _idle_reports_what_came_before() -> None:
    """pymap's IDLE waits for the next change only: a mail that came after the client's
    last command and before its IDLE is not reported until another one comes. Dovecot
    (tests/email/test_real_servers.py) and other servers report it when IDLE begins, which
    the bot counts on (bot/email/transport.py: ``wait``): the test server does as they do."""
    wait_for_change = MailboxData.update_selected
    if getattr(wait_for_change, "reports_earlier", False):
        return

    async def update_selected(self, selected, *, wait_on=None):
        if wait_on is not None and selected.mod_sequence is not None and \
                self._mod_sequences.highest != selected.mod_sequence:
            wait_on = None  # changed since the client last heard: said at once
        return await wait_for_change(self, selected, wait_on=wait_on)
    update_selected.reports_earlier = True
    MailboxData.update_selected = update_selected


_idle_reports_what_came_before()


class Recorder:
    """aiosmtpd's handler: keeps (recipient, message) of each mail; refuses the
    addresses in ``refuse`` with a 550 (a hard bounce)."""

    def __init__(self):
        self.mails: list[tuple[str, EmailMessage]] = []
        self.refuse: set[str] = set()
        self.arrived = asyncio.Event()

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):  # noqa: N802
        if address.lower() in self.refuse:
            return "550 5.1.1 no such user here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):  # noqa: N802
        msg = message_from_bytes(envelope.original_content, policy=policy.default)
        msg.envelope_sender = envelope.mail_from  # where its bounces go
        msg.mail_options = list(envelope.mail_options)
        for rcpt in envelope.rcpt_tos:
            self.mails.append((rcpt.lower(), msg))
        self.arrived.set()
        return "250 Message accepted"


class MailServers:
    def __init__(self):
        self.smtp_port = 0
        self.imap_port = free_port()
        self.recorder = Recorder()
        self._stack = AsyncExitStack()
        self._smtp = None
        self._client = None  # the players' side: one login (each costs a password hash)

    @property
    def imap_url(self) -> str:
        return f"imap://{BOT_USER}:{BOT_PASSWORD}@127.0.0.1:{self.imap_port}/INBOX?tls=off"

    @property
    def smtp_url(self) -> str:
        return f"smtp://127.0.0.1:{self.smtp_port}?tls=off"

    async def start(self) -> MailServers:
        loop = asyncio.get_running_loop()
        self._smtp = await loop.create_server(
            lambda: SMTP(self.recorder, hostname="mail.test", ident="test SMTP"), "127.0.0.1", 0)
        self.smtp_port = self._smtp.sockets[0].getsockname()[1]
        parser = argparse.ArgumentParser()
        DictBackend.add_subparser("dict", parser.add_subparsers(dest="backend"))
        IMAPService.add_arguments(parser)
        parser.set_defaults(skip_services=[], passlib_cfg=None, inherited_sockets=None,
                            debug=False, proxy_protocol=None)
        args = parser.parse_args(["--host", "127.0.0.1", "--port", str(self.imap_port), "--no-tls",
                                  "dict", "--demo-user", BOT_USER, "--demo-password", BOT_PASSWORD])
        # few hash rounds: the test's password needs no protection, and each login costs them
        backend, config = await DictBackend.init(args, hash_context=BuiltinHash(rounds=1000))
        config.apply_context()
        await backend.start(self._stack)
        await IMAPService(backend, config).start(self._stack)
        return self

    async def close(self) -> None:
        if self._client is not None:
            await self._client.logout()
        await self._stack.aclose()
        self._smtp.close()
        await self._smtp.wait_closed()

    # --- the players' side ---

    async def _delivery(self) -> aioimaplib.IMAP4:
        if self._client is None:
            client = aioimaplib.IMAP4(host="127.0.0.1", port=self.imap_port, timeout=5)
            await client.wait_hello_from_server()
            await client.login(BOT_USER, BOT_PASSWORD)
            self._client = client
        return self._client

    async def deliver(self, raw: bytes) -> None:
        """Put a mail in the bot's mailbox, unseen."""
        r = await (await self._delivery()).append(raw, mailbox="INBOX")
        assert r.result == "OK", r

    async def unseen_count(self) -> int:
        client = await self._delivery()
        await client.select("INBOX")  # (a search changes no flag)
        r = await client.uid_search("UNSEEN")
        await client.close()
        return len(r.lines[0].split())

    def sent_to(self, address: str) -> list[EmailMessage]:
        return [m for rcpt, m in self.recorder.mails if rcpt == address.lower()]

    def last_to(self, address: str, containing: str = "") -> EmailMessage:
        """The last mail sent to ``address`` (whose text holds ``containing``)."""
        mails = [m for m in self.sent_to(address) if containing in text_of(m)]
        assert mails, f"no mail was sent to {address}" + (f" with {containing!r}" if containing else "")
        return mails[-1]


_counter = iter(range(1, 10**9))


def write_mail(sender: str, to: str, subject: str, body: str, *, reply_to: EmailMessage | None = None,
               html: str | None = None, message_id: str | None = None) -> bytes:
    """A player's mail: to ``to``; answering ``reply_to`` (threading headers, quoted text)."""
    m = EmailMessage()
    m["From"] = sender
    m["To"] = to
    m["Subject"] = subject
    m["Date"] = formatdate()
    m["Message-ID"] = message_id or f"<player.{next(_counter)}@{sender.split('@')[1]}>"
    if reply_to is not None:
        m["In-Reply-To"] = reply_to["Message-ID"]
        m["References"] = " ".join(filter(None, [str(reply_to.get("References", "")),
                                                 reply_to["Message-ID"]]))
    if html is not None:
        m.set_content(html, subtype="html")
    else:
        m.set_content(body)
    return bytes(m)


def reply_to_mail(sender: str, to_msg: EmailMessage, first_line: str, *, quote: bool = True,
                  message_id: str | None = None) -> bytes:
    """A reply as a mail program writes it: the line, a signature, the quoted original."""
    quoted = ""
    if quote:
        original = to_msg.get_body(preferencelist=("plain",)).get_content()
        quoted = "\nOn Mon, 6 Jan 2025, fairypost wrote:\n" + "".join(
            f"> {line}\n" for line in original.splitlines())
    body = f"{first_line}\n\n-- \nsent from my phone\n{quoted}"
    target = str(to_msg.get("Reply-To") or to_msg["From"])
    return write_mail(sender, target, "Re: " + str(to_msg["Subject"]), body, reply_to=to_msg,
                      message_id=message_id)


def text_of(msg: EmailMessage) -> str:
    return msg.get_body(preferencelist=("plain",)).get_content()
