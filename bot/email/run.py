"""``fairypost run`` with play by email and no Discord token: the service, the computer
player, the reminders and the email adapter, until SIGINT or SIGTERM."""

from __future__ import annotations

import asyncio
import logging
import signal
import sqlite3
import sys

from bot.errors import StorageError

log = logging.getLogger("bot.email")


async def serve(settings, stop: asyncio.Event | None = None) -> None:
    from bot.computer import Computer
    from bot.notifiers import Notifiers
    from bot.reminders import ReminderScheduler
    from bot.service import GameService

    from .adapter import EmailAdapter
    stop = stop or asyncio.Event()
    adapter, computer = EmailAdapter(settings), Computer()
    service = await GameService.open(settings, notifier=Notifiers([adapter, computer]))
    adapter.bind(service)
    computer.bind(service)
    scheduler = ReminderScheduler(service)
    web = None
    try:
        await computer.resume()
        service.start_delivery()
        await scheduler.start()
        await adapter.start()
        if settings.web_port:  # the game pages beside the mail
            from bot.web.server import start as start_web
            web = await start_web(service, settings)
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            try:
                loop.add_signal_handler(sig, stop.set)
            except (NotImplementedError, RuntimeError):
                pass
        await stop.wait()
    finally:
        scheduler.shutdown()
        if web is not None:
            await web.cleanup()
        await adapter.close()
        await computer.close()
        await service.close()


def main(settings) -> int:
    """Run the email adapter alone. 1 if the database cannot be used."""
    if not logging.getLogger().handlers:
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        asyncio.run(serve(settings))
    except (StorageError, sqlite3.Error) as e:
        print(f"fairypost: cannot use the game database {settings.db_path}: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0
