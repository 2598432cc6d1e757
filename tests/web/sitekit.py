"""What the site's tests share: a real SMTP server on 127.0.0.1 recording the mails
(tests/email's Recorder under aiosmtpd), the app with a mailer on it, and reading the
sign-in link out of a mail."""

from __future__ import annotations

import asyncio
import re

from aiosmtpd.smtp import SMTP

from bot.web.mailer import Mailer
from tests.email.servers import Recorder

BOT_ADDRESS = "bot@fairy.test"
LINK = re.compile(r"https?://\S+/signin/([A-Za-z0-9_-]+)")


class Smtp:
    """An SMTP server on 127.0.0.1: every mail it takes, by recipient."""

    def __init__(self):
        self.recorder = Recorder()
        self._server = None
        self.port = 0

    async def start(self) -> Smtp:
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(
            lambda: SMTP(self.recorder, hostname="mail.test", ident="test SMTP"), "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}?tls=off"

    def mailer(self) -> Mailer:
        return Mailer(self.url, BOT_ADDRESS)

    def to(self, address: str) -> list:
        return [m for rcpt, m in self.recorder.mails if rcpt == address.lower()]

    def link(self, address: str) -> str:
        """The token of the last sign-in link mailed to ``address``."""
        mails = self.to(address)
        assert mails, f"no mail to {address}"
        text = mails[-1].get_body(preferencelist=("plain",)).get_content() \
            if mails[-1].is_multipart() else mails[-1].get_content()
        found = LINK.search(text)
        assert found, text
        return found.group(1)

    async def close(self) -> None:
        self._server.close()
        await self._server.wait_closed()

