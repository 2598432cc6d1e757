"""The email adapter: one object that is the service's notifier for mail players (platform
``email``), reads the mailbox, and sends through its own outbox. One adapter of
``fairypost run`` (bot/adapters.py: ``name``, ``notifier``, ``start``, ``wait``, ``stop``):

    adapter = EmailAdapter(settings)
    service = await GameService.open(settings, notifier=Notifiers([adapter, ...]))
    await adapter.start(service)  # bound to the service; the reading and sending tasks
    ...
    await adapter.stop()
"""

from __future__ import annotations

import asyncio
import logging

from bot.identity import account_links, signing
from bot.timekeeping.clock import SystemClock

from .accounts import PLATFORM, Accounts
from .compose import Composer
from .handling import Handler
from .notices import Notices
from .receiving import Receiver
from .sending import Mailer
from .transport import IMAPMailbox, MailboxRefused, SMTPSender
from .urls import check_address, imap_server, smtp_server

log = logging.getLogger("bot.email")


class EmailAdapter:
    name = "email"

    @property
    def notifier(self):
        return self

    def __init__(self, settings, *, clock=None, poll_seconds: float = 60, tls_context=None):
        self.settings = settings
        # mail players' notices; and, beside Discord in one process, those of Discord players
        # who asked for them by mail too (the others are dropped here, Discord's own go on)
        self.platforms = frozenset({PLATFORM} | ({"discord"} if settings.discord_token else set()))
        self.bot_address = check_address(settings.email_address)
        self.secret = signing.load_secret(settings.email_secret, settings.db_path, "email",
                                          "FAIRYPOST_EMAIL_SECRET")
        self.clock = clock
        self.poll_seconds = poll_seconds
        self.tls_context = tls_context
        self.composer = Composer(self.bot_address, self.secret, settings)
        self.notices = Notices(self)
        self.handler = Handler(self)
        self.service = None
        self.computer = None  # bot.computer.player.Computer, for hint and review by mail (the host's)
        self._tasks: list[asyncio.Task] = []

    def bind(self, service) -> None:
        """Attach to the service (made with this adapter among its notifiers)."""
        self.service = service
        account_links.register(service, self)  # for other adapters' /settings email
        self.clock = self.clock or getattr(service, "clock", None) or SystemClock()
        self.accounts = Accounts(service, self.clock)
        self.mailer = Mailer(service.store, SMTPSender(smtp_server(self.settings.smtp_url),
                                                       tls_context=self.tls_context),
                             self.bot_address, self.clock, secret=self.secret,
                             retry_seconds=self.settings.notify_retry_seconds,
                             retention_days=self.settings.retention_days,
                             on_stopped=self.notices.mail_stopped)
        self.mailbox = IMAPMailbox(imap_server(self.settings.imap_url), tls_context=self.tls_context)
        self.receiver = Receiver(service.store, self.mailbox, self.handle, self.clock,
                                 poll_seconds=self.poll_seconds)

    def use_computer(self, computer) -> None:
        self.computer = computer

    async def notify(self, event) -> None:
        await self.notices.notify(event)

    async def handle(self, raw: bytes) -> None:
        await self.handler.handle(raw)

    async def link_address(self, player_id: int, address: str) -> str:
        """Mail a code to ``address`` for linking it to the player; the address. To an
        address whose mail stopped (it bounced) only for its own player (confirming the code
        starts it again): anyone else's asking is no reason to mail it."""
        own_stopped = await self.accounts.check_not_stopped(player_id, address)
        address, code = await self.accounts.start_link(player_id, address)
        m = await self.notices.reader(player_id)
        text = (m.tr("Your code is {code}.", code=code) + "\n\n"
                + m.tr("To link this address to your fairypost player, type in Discord: {command}",
                       command=m.code(f"/settings email_code:{code}")) + "\n\n"
                + m.tr("If you did not ask for this, ignore this mail.") + "\n")
        await self.mailer.queue(f"link:{player_id}:{address}:{code}", address,
                                self.composer.mail(address, "fairypost: " + m.tr("your link code"), text,
                                                   key=f"link:{player_id}:{address}:{code}",
                                                   lang_code=m.lang.code),
                                asked=own_stopped)
        return address

    async def confirm_address(self, player_id: int, code: str) -> str:
        return await self.accounts.confirm_link(player_id, code)

    async def mail_notices(self, player_id: int, on: bool) -> str:
        return await self.accounts.set_notices(player_id, on)

    async def step(self) -> None:
        """One round by hand (tests): read and handle new mail, deliver the service's
        notices, send every mail due."""
        await self.receiver.poll_once()
        await self.service.outbox.drain()
        await self.mailer.drain()
        await self.mailer.prune()

    async def start(self, service=None) -> None:
        """The background tasks: reading the mailbox, sending mail (bound to ``service``
        first, if given)."""
        if service is not None:
            self.bind(service)
        quiet = logging.getLogger("aioimaplib")  # a line for every untagged reply it skips
        if quiet.level == logging.NOTSET:
            quiet.setLevel(logging.WARNING)
        await self._first_login()
        self._tasks = [asyncio.create_task(self.receiver.run(), name="email-receive"),
                       asyncio.create_task(self.mailer.run(), name="email-send")]
        log.info("play by email: %s (IMAP %s, SMTP %s)", self.bot_address,
                 self.mailbox.server.host, self.mailer.smtp.server.host)

    async def _first_login(self) -> None:
        """A refused login or mailbox stops the start (MailboxRefused: wrong settings, said
        at once); a server that is away is only logged, and tried again in the background."""
        try:
            await self.mailbox.connect()
        except MailboxRefused:
            await self.mailbox.close()
            raise
        except (TimeoutError, OSError) as e:
            log.warning("the mailbox cannot be reached yet (%s); trying again in the background",
                        e or type(e).__name__)
            self.receiver.mailbox_up = False
            await self.mailbox.close()

    def healthy(self) -> bool:
        """For ``fairypost health``: reading and sending run, and the mailbox was reached."""
        return bool(self._tasks) and not any(t.done() for t in self._tasks) and self.receiver.mailbox_up

    async def wait(self) -> None:
        """Until a task stops by itself (its error raised): they run until stopped."""
        if self._tasks:
            done, _ = await asyncio.wait(self._tasks, return_when=asyncio.FIRST_COMPLETED)
            for t in done:
                t.result()

    async def stop(self) -> None:
        await self.close()

    async def close(self) -> None:
        for t in self._tasks:
            # cancelled again until it ends: a library that was closing a connection at the
            # first cancellation (an SMTP QUIT) may have swallowed it
            while not t.done():
                t.cancel()
                await asyncio.wait({t}, timeout=1)
            if not t.cancelled() and t.exception() is not None:
                log.error("the %s task had failed: %r", t.get_name(), t.exception())
        self._tasks = []
        if self.service is not None:
            # a mail being handled, a mail being sent: finished and marked, never half done
            await self.receiver.settle()
            await self.mailer.settle()
            await self.mailbox.close()
