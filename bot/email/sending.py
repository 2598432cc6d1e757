"""The mails the bot sends: queued in the database (``email_outbox``) in order, each under a
key that makes queueing it twice a no-op, then sent by a background task, retried with a
doubling wait when the server fails, and given up after ``max_attempts``. Each is taken
before it is sent (``LEASE_SECONDS``), so that of several processes on one database only one
sends it. A recipient the server refuses for good (a hard bounce, at sending or by a bounce
mail read later) counts against its address; after ``STOP_AFTER_BOUNCES`` the bot mails it
no more, and says so in the log."""

from __future__ import annotations

import asyncio
import logging
from email.message import EmailMessage

from .tables import EmailTables
from .transport import HardBounce, TransientFailure

log = logging.getLogger("bot.email")

STOP_AFTER_BOUNCES = 3


class Mailer:
    # a mail taken for sending is not due again for this long: another process reading the
    # same outbox (PostgreSQL) leaves it alone; one that stopped mid-send is sent again after
    LEASE_SECONDS = 300

    def __init__(self, store, smtp, bot_address: str, clock, *, max_attempts: int = 5,
                 retry_seconds: int = 60):
        self.store = store
        self.smtp = smtp
        self.bot_address = bot_address
        self.clock = clock
        self.max_attempts = max_attempts
        self.retry_seconds = retry_seconds
        self._wake = asyncio.Event()
        self._lock = asyncio.Lock()  # one sending round at a time: each mail sent once

    def _now(self) -> int:
        return int(self.clock.now().timestamp())

    async def queue(self, dedupe_key: str, recipient: str, message: EmailMessage) -> bool:
        """Queue a mail (False: one with this key was queued before, or the address is
        stopped after its bounces). The sending task is woken."""
        async with self.store.write() as tx:
            row = await EmailTables(tx).email_address(recipient)
            if row is not None and row.stopped_at is not None:
                log.info("not mailing %s (stopped after %d hard bounces): %s", recipient,
                         row.hard_bounces, message.get("Subject"))
                return False
            added = await EmailTables(tx).queue_mail(dedupe_key, recipient, bytes(message), self._now())
        self._wake.set()
        return added

    async def drain(self) -> int:
        """Send every mail that is due now; how many were sent."""
        sent = 0
        async with self._lock:
            while True:
                async with self.store.read() as tx:
                    due = await EmailTables(tx).due_mails(self._now())
                if not due:
                    return sent
                for mail in due:
                    sent += await self._send(mail)

    async def _send(self, mail) -> int:
        now = self._now()
        async with self.store.write() as tx:  # another process may be sending it
            if not await EmailTables(tx).claim_due_mail(mail.id, now, now + self.LEASE_SECONDS):
                return 0
        try:
            await self.smtp.send(mail.message, self.bot_address, mail.recipient)
        except HardBounce as e:
            await self.bounced(mail.recipient, e.reason)
            async with self.store.write() as tx:
                await EmailTables(tx).mail_failed(mail.id, None, f"refused: {e.reason}")
            return 0
        except TransientFailure as e:
            tries = mail.attempts + 1
            give_up = tries >= self.max_attempts
            next_at = None if give_up else self._now() + self.retry_seconds * 2 ** (tries - 1)
            async with self.store.write() as tx:
                await EmailTables(tx).mail_failed(mail.id, next_at, f"failed {tries} times: {e}" if give_up else None)
            (log.error if give_up else log.warning)(
                "mail to %s not sent (try %d of %d): %s", mail.recipient, tries, self.max_attempts, e)
            return 0
        async with self.store.write() as tx:
            await EmailTables(tx).mail_sent(mail.id, self._now())
        return 1

    async def bounced(self, address: str, reason: str) -> None:
        """A hard bounce of ``address``: counted; the last one allowed stops mail to it."""
        async with self.store.write() as tx:
            count, stopped = await EmailTables(tx).hard_bounce(address, STOP_AFTER_BOUNCES, self._now())
        if stopped:
            log.warning("%s bounced %d times (%s): no more mail goes to it", address, count, reason)
        else:
            log.info("%s bounced (%s): %d of %d before mail to it stops", address, reason, count,
                     STOP_AFTER_BOUNCES)

    async def next_due(self) -> int | None:
        async with self.store.read() as tx:
            return await EmailTables(tx).next_mail_at()

    async def run(self) -> None:
        """The background task: send what is due, then sleep until woken or the next retry."""
        while True:
            self._wake.clear()
            try:
                await self.drain()
            except Exception:  # noqa: BLE001 - the database or a bug: logged, tried again
                log.exception("sending mail failed")
            due = await self.next_due()
            wait = 300.0 if due is None else max(1.0, due - self._now())
            woken = asyncio.ensure_future(self._wake.wait())
            try:  # asyncio.wait, not wait_for: a stop meanwhile must cancel this task at once
                await asyncio.wait({woken}, timeout=min(wait, 300.0))
            finally:
                woken.cancel()
