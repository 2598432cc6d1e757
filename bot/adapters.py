"""Several adapters in one process: ``fairypost run`` starts every adapter that is
configured, all on one :class:`GameService` whose notifier is ``Notifiers`` of theirs (and
the computer's), so each notice goes straight to the adapter of its player's platform.

An adapter kind is registered once in ``KINDS``: ``configured(settings)`` says whether
the server owner set it up, ``make(settings)`` builds the adapter, ``needs`` says what to
set (shown when nothing is configured), ``explain(error)`` turns a known failure into a
sentence. An adapter has ``name``, ``notifier`` (None: it sends no notices, as the web
pages), ``start(service)`` (returns once it runs), ``wait()`` (returns or raises when it
stops by itself) and ``stop()``; ``act`` (optional): how the computer's moves are made
(the Discord adapter posts the board in the game's thread); ``use_computer(computer)``
(optional): the computer that answers hints and reviews asked on the adapter.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from .computer.player import Computer, ComputerUnavailable
from .config import Settings
from .delivery.events import Notifier
from .delivery.notifiers import Notifiers
from .domain.errors import StorageError
from .operations.service import GameService
from .store import printable
from .store.reports import Heartbeat
from .timekeeping.clock import Clock
from .timekeeping.reminders import ReminderScheduler

log = logging.getLogger("bot.adapters")


class AdapterError(Exception):
    """An adapter cannot start or run: ``str()`` says why, for the server owner."""


class Adapter(Protocol):
    name: str
    notifier: Notifier | None

    async def start(self, service: GameService) -> None: ...

    async def wait(self) -> None: ...

    async def stop(self) -> None: ...


@dataclass(frozen=True)
class AdapterKind:
    name: str
    configured: Callable[[Settings], bool]
    make: Callable[[Settings], Adapter]
    needs: str  # what to set to run it, in a sentence or two
    explain: Callable[[BaseException], str | None] = lambda error: None


KINDS: list[AdapterKind] = []


def register(kind: AdapterKind) -> AdapterKind:
    KINDS.append(kind)
    return kind


def configured(settings: Settings) -> list[AdapterKind]:
    return [k for k in KINDS if k.configured(settings)]


# --- the process -------------------------------------------------------------------------

class Host:
    """One process's shared parts: the service, the computer, the reminders, and the
    adapters on them. ``open`` starts it all; ``close`` stops it all."""

    def __init__(self, service: GameService, adapters: list[Adapter], computer: Computer | None,
                 scheduler: ReminderScheduler | None):
        self.service = service
        self.adapters = adapters
        self.computer = computer
        self.scheduler = scheduler
        self.heartbeat: Heartbeat | None = None

    @classmethod
    async def open(cls, settings: Settings, adapters: list[Adapter], *, clock: Clock | None = None,
                   computer: Computer | None = None, reminders: bool = True, rng=None) -> Host:
        notifiers = [a.notifier for a in adapters if a.notifier is not None]
        if computer is not None:
            try:  # first: a worker that cannot start is refused now, not at the first turn
                await computer.start()
            except ComputerUnavailable as e:
                raise AdapterError(str(e)) from None
            notifiers.append(computer)
        service = await GameService.open(settings, clock=clock, notifier=Notifiers(notifiers), rng=rng)
        host = cls(service, [], computer, None)
        try:
            for adapter in adapters:
                await adapter.start(service)
                host.adapters.append(adapter)
            if computer is not None:
                acts = [a.act for a in adapters if getattr(a, "act", None) is not None]
                computer.bind(service, act=acts[0] if acts else None)
                await computer.resume()
                for adapter in host.adapters:  # for hints and reviews asked on it
                    if hasattr(adapter, "use_computer"):
                        adapter.use_computer(computer)
            service.start_delivery()  # commands answer at once; notices follow, each to its platform
            if reminders:
                host.scheduler = ReminderScheduler(service)
                await host.scheduler.start()
            host.heartbeat = Heartbeat(service.store, host.health)  # for fairypost health
            await host.heartbeat.start()
        except BaseException:
            await host.close()
            raise
        return host

    async def wait(self) -> None:
        """Until an adapter stops by itself (its error raised)."""
        waits = [asyncio.ensure_future(a.wait()) for a in self.adapters]
        try:
            done, _ = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                task.result()
        finally:
            for task in waits:
                task.cancel()

    def health(self) -> dict[str, bool]:
        """Its parts, up or not: the store's connections, and each adapter (up while it runs,
        or as its own ``healthy()`` says)."""
        parts = self.service.store.health()
        for adapter in self.adapters:
            healthy = getattr(adapter, "healthy", None)
            parts[adapter.name] = bool(healthy()) if healthy is not None else True
        return parts

    async def close(self) -> None:
        if self.heartbeat is not None:
            await self.heartbeat.stop()
        if self.scheduler is not None:
            self.scheduler.shutdown()
        for adapter in reversed(self.adapters):
            try:
                await adapter.stop()
            except Exception:  # stop the others all the same
                log.exception("stopping the %s adapter failed", adapter.name)
        if self.computer is not None:
            await self.computer.close()
        await self.service.close()


def nothing_configured() -> str:
    lines = ["fairypost run starts every adapter that is configured; none is. Set one or more:", ""]
    for kind in KINDS:
        lines += [f"{kind.name}:", kind.needs.rstrip(), ""]
    lines.append("To try the games offline, without any of them:\n    fairypost play")
    return "\n".join(lines)


async def run(settings: Settings, kinds: list[AdapterKind]) -> None:
    """Run the adapters of ``kinds`` until a signal (or one of them stops)."""
    # the signals are caught before anything starts: an adapter's tasks work from its start
    # on (a mail handled, a notice sent), and a SIGTERM during the rest of the start must
    # let them finish as a later one does, not end the process mid-way
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError):  # not on this platform / not the main thread
            pass
    host = await Host.open(settings, [k.make(settings) for k in kinds], computer=Computer())
    # the life names this process on its claims (events.claimed_by, email_inbox.claimed_by)
    log.info("running: %s (process life %s)", ", ".join(a.name for a in host.adapters),
             host.service.store.life)
    stopped = asyncio.ensure_future(stop.wait())
    ended = asyncio.ensure_future(host.wait())
    try:
        await asyncio.wait({stopped, ended}, return_when=asyncio.FIRST_COMPLETED)
        if ended.done():
            ended.result()
    finally:
        stopped.cancel()
        ended.cancel()
        await host.close()


def main(settings: Settings, kinds: list[AdapterKind] | None = None) -> int:
    """``fairypost run``: 2 if nothing is configured (nothing started); 1 if an adapter is
    refused or breaks; 0 when stopped."""
    kinds = configured(settings) if kinds is None else kinds
    if not kinds:
        print(nothing_configured(), file=sys.stderr)
        return 2
    if not logging.getLogger().handlers:
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        asyncio.run(run(settings, kinds))
    except StorageError as e:
        print(f"fairypost: cannot use the game database {printable(settings.db_path)}: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    except AdapterError as e:
        print(f"fairypost: {e}", file=sys.stderr)
        return 1
    except Exception as e:  # an adapter's failure, in its own words if it knows it
        for kind in kinds:
            said = kind.explain(e)
            if said:
                print(said, file=sys.stderr)
                return 1
        raise
    return 0


# --- the adapters -----------------------------------------------------------------------------

def _discord(settings: Settings) -> Adapter:
    from .discord_bot.runner import DiscordAdapter
    return DiscordAdapter(settings)


def _discord_explains(error: BaseException) -> str | None:
    if "discord" not in sys.modules:
        return None
    from .discord_bot.runner import explain
    return explain(error)


class WebPages:
    """The game pages (bot/web/) beside the others: no notices of their own."""

    name = "web"
    notifier = None

    def __init__(self, settings: Settings):
        self.settings = settings
        self.runner = None
        self._stopped = asyncio.Event()

    async def start(self, service: GameService) -> None:
        from .web.server import start
        try:
            self.runner = await start(service, self.settings)
        except OSError as e:
            raise AdapterError(f"cannot serve the game pages on {self.settings.web_host}:"
                               f"{self.settings.web_port}: {e.strerror or e}") from None

    async def wait(self) -> None:
        await self._stopped.wait()

    async def stop(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()
        self._stopped.set()


DISCORD_NEEDS = """\
  DISCORD_TOKEN=<the bot's token> (or discord_token in the FAIRYPOST_CONFIG file). To get one:
  https://discord.com/developers/applications, New Application, Bot, Reset Token; invite
  the bot with the scopes "bot" and "applications.commands"."""

DISCORD = register(AdapterKind("discord", lambda s: bool(s.discord_token), _discord, DISCORD_NEEDS,
                               _discord_explains))
WEB = register(AdapterKind("web", lambda s: s.web_port is not None, WebPages,
                           "  FAIRYPOST_WEB_PORT=<port> (web_port): the game pages, on FAIRYPOST_WEB_HOST "
                           "(default 127.0.0.1)."))


def _email(settings: Settings) -> Adapter:
    from .email.adapter import EmailAdapter
    return EmailAdapter(settings)


EMAIL_NEEDS = """\
  FAIRYPOST_EMAIL_ADDRESS=<the bot's address>, FAIRYPOST_IMAP_URL=imaps://user:password@host/INBOX,
  FAIRYPOST_SMTP_URL=smtps://user:password@host (email_address, imap_url, smtp_url), and
  FAIRYPOST_EMAIL_SECRET=<a long random key>: play by email (docs/mail.md)."""

def _email_explain(error: BaseException) -> str | None:
    from .email.transport import MailboxRefused
    if isinstance(error, MailboxRefused):
        return (f"fairypost: the mailbox refused the bot: {error}. Check the user, password and "
                "mailbox in FAIRYPOST_IMAP_URL (many providers want an app password).")
    return None


EMAIL = register(AdapterKind("email", lambda s: s.email_enabled, _email, EMAIL_NEEDS, _email_explain))
