"""A bot with the mail adapter on a database of the test's choosing, on the real test mail
servers (tests/email/servers.py): what tests/bot's tests of copying and of dead processes'
mail use."""

from __future__ import annotations

from contextlib import asynccontextmanager

from bot.config import Settings
from bot.delivery.notifiers import Notifiers
from bot.email.adapter import EmailAdapter
from bot.operations.service import GameService
from tests.email.servers import MailServers

BOT = "bot@fairy.test"


@asynccontextmanager
async def mail_servers():
    """The test mail servers, started (a test module's ``servers`` fixture)."""
    s = await MailServers().start()
    try:
        yield s
    finally:
        await s.close()


class MailBot:
    """The service with the mail adapter on one database (its secrets, unless given, left
    to be made beside it), opened as ``async with``."""

    def __init__(self, db: str, servers: MailServers, clock, **settings):
        self.settings = Settings(db_path=db, email_address=BOT, imap_url=servers.imap_url,
                                 smtp_url=servers.smtp_url, command_rate_per_minute=0, **settings)
        self.clock = clock

    async def __aenter__(self) -> MailBot:
        self.adapter = EmailAdapter(self.settings, clock=self.clock)
        self.service = await GameService.open(self.settings, clock=self.clock,
                                              notifier=Notifiers([self.adapter]))
        self.adapter.bind(self.service)
        return self

    async def __aexit__(self, *exc) -> None:
        await self.adapter.close()
        await self.service.close()
