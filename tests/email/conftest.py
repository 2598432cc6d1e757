from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.config import Settings
from bot.delivery.notifiers import Notifiers
from bot.email.adapter import EmailAdapter
from bot.operations.service import GameService
from bot.timekeeping.clock import ManualClock

from .dovecot import Dovecot, dovecot_missing_reason
from .servers import MailServers

T0 = datetime(2025, 1, 6, 12, 0, tzinfo=UTC)
BOT = "bot@fairy.test"


@pytest.fixture
async def servers():
    s = await MailServers().start()
    yield s
    await s.close()


@pytest.fixture(scope="session")
def dovecot():
    """One real Dovecot for the session (STARTTLS, a test certificate); skipped only where
    Dovecot is not installed and this is not CI."""
    reason = dovecot_missing_reason()
    if reason:
        pytest.skip(reason)
    server = Dovecot().start()
    yield server
    server.stop()


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(T0)


@pytest.fixture
def settings(tmp_path, servers) -> Settings:
    return Settings(db_path=str(tmp_path / "games.db"), email_address=BOT,
                    imap_url=servers.imap_url, smtp_url=servers.smtp_url,
                    email_secret="test-secret", command_rate_per_minute=0)


class Bot:
    """A service with the email adapter (and any other notifiers), opened on the test's
    database; ``restart()`` closes it and opens a new one, as after a crash."""

    def __init__(self, settings, clock, others=(), *, tls_context=None, poll_seconds: float = 60):
        self.settings, self.clock, self.others = settings, clock, list(others)
        self.tls_context, self.poll_seconds = tls_context, poll_seconds
        self.service = self.adapter = None

    async def open(self) -> Bot:
        self.adapter = EmailAdapter(self.settings, clock=self.clock, tls_context=self.tls_context,
                                    poll_seconds=self.poll_seconds)
        self.service = await GameService.open(self.settings, clock=self.clock,
                                              notifier=Notifiers([self.adapter, *self.others]))
        self.adapter.bind(self.service)
        return self

    async def close(self) -> None:
        await self.adapter.close()
        await self.service.close()

    async def restart(self) -> Bot:
        await self.close()
        return await self.open()

    async def step(self) -> None:
        await self.adapter.step()


async def as_proven(adapter, *addresses: str) -> None:
    """These addresses have answered one of the bot's signed mails before: the plain
    address acts on their challenges (a From header alone never starts one: handling.py;
    tests/security/test_mail_challenges.py has the signed reply that proves an address)."""
    for address in addresses:
        await adapter.accounts.player_for(address)
        await adapter.accounts.proven(address)


@pytest.fixture
async def bot(settings, clock):
    b = await Bot(settings, clock).open()
    yield b
    await b.close()
