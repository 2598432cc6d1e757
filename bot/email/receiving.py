"""Reading the mailbox, each mail handled exactly once.

A new (unseen) mail is first written to the database (``email_inbox``, keyed by its
Message-ID), and only after that commit marked \\Seen on the server; it is then handled, and
marked handled. So a crash before the commit leaves it unseen (read again next time), one
after it leaves it in the database (handled at the next start), and a mail read twice (the
crash came before \\Seen) is kept once. Nothing read is lost, nothing is acted on twice.

Several processes may read one mailbox (on PostgreSQL): each kept mail is handled by the
one that claims it, for ``LEASE_SECONDS``, as the service's notices are claimed
(bot/delivery/outbox.py), under its process life's id (``bot.store.lives``); a claim whose holder is
known dead (no process holds that life) or whose lease ran out is taken over.
"""

from __future__ import annotations

import asyncio
import logging

from bot.domain.errors import DatabaseUnavailable
from bot.store import lives

from .parse import mail_key
from .tables import EmailTables

log = logging.getLogger("bot.email")


class Receiver:
    LEASE_SECONDS = 300  # how long a claim keeps other processes off a mail
    DATABASE_RETRY_SECONDS = 2  # the pause before a mail met by a database outage is tried again

    def __init__(self, store, mailbox, handle, clock, *, poll_seconds: float = 60):
        self.owner = store.life
        self.store = store
        self.mailbox = mailbox
        self.handle = handle  # async (raw: bytes) -> None
        self.clock = clock
        self.poll_seconds = poll_seconds
        self.mailbox_up = True  # whether the last round reached the mailbox (fairypost health)
        self._handling: set[asyncio.Future] = set()  # what a stop lets finish

    def _now(self) -> int:
        return int(self.clock.now().timestamp())

    async def fetch_new(self) -> int:
        """Keep every unseen mail in the database, then mark it seen; how many were new."""
        new = 0
        for uid in await self.mailbox.unseen():
            raw = await self.mailbox.fetch(uid)
            if raw is not None:
                key = await asyncio.to_thread(mail_key, raw)  # parsed off the event loop
                async with self.store.write() as tx:
                    new += await EmailTables(tx).record_mail(key, raw, self._now())
            await self.mailbox.mark_seen(uid)
        return new

    async def claim(self, key: str) -> bool:
        """Whether this process may handle the kept mail (now claimed by it)."""
        now = self._now()
        async with self.store.write() as tx:
            held = await EmailTables(tx).mail_holder(key)
            if held is None:
                return False  # handled meanwhile
            holder, until = held
            if holder not in (None, self.owner) and (until or 0) > now \
                    and not await lives.known_dead(tx, holder):
                return False  # another process is handling it
            return await EmailTables(tx).claim_mail(key, holder, self.owner, now + self.LEASE_SECONDS)

    async def handle_pending(self) -> int:
        """Handle every kept mail not yet handled that no other process handles, oldest
        first; how many."""
        done = 0
        while True:
            async with self.store.read() as tx:
                pending = await EmailTables(tx).unhandled_mails()
            took = 0
            for key, raw in pending:
                if not await self.claim(key):  # one at a time: the others may take the next
                    continue
                took += 1
                # a stop (SIGTERM) mid-way lets this mail be handled and marked (settle):
                # its answer is queued once, not left to be worked out again at the start
                handling = asyncio.ensure_future(self._handle_and_mark(key, raw))
                self._handling.add(handling)
                handling.add_done_callback(self._handling.discard)
                await asyncio.shield(handling)
            if not took:
                return done
            done += took

    async def _handle_and_mark(self, key: str, raw: bytes) -> None:
        try:
            await self.handle(raw)
        except DatabaseUnavailable:  # not marked: it stays this process's, handled again later
            raise
        except Exception:  # noqa: BLE001 - one bad mail must not stop the others
            log.exception("handling the mail %s failed; it is not tried again", key)
        async with self.store.write() as tx:
            await EmailTables(tx).mail_handled(key, self._now())

    async def settle(self, timeout: float = 60) -> None:
        """Wait for the mail being handled (a stop lets it finish and be marked)."""
        if self._handling:
            await asyncio.wait(set(self._handling), timeout=timeout)

    async def poll_once(self) -> int:
        await self.fetch_new()
        return await self.handle_pending()

    async def run(self) -> None:
        """The background task: what a stopped run left first, then each new mail, waiting
        with IDLE where the server has it (else polling every ``poll_seconds``). After each
        round the wait begins at once, and begins only when no unseen mail is left (a mail
        that came during the round is fetched, not left for the next push or poll)."""
        await self.handle_pending()
        while True:
            try:
                await self.poll_once()
                self.mailbox_up = True
                await self.mailbox.wait(self.poll_seconds)
            except asyncio.CancelledError:
                raise
            except DatabaseUnavailable:  # the store logged it: the mail waits (unseen, or kept)
                await asyncio.sleep(min(self.poll_seconds, self.DATABASE_RETRY_SECONDS))
            except Exception as e:  # noqa: BLE001 - the server is away: try again later
                self.mailbox_up = False
                log.warning("reading the mailbox failed (%s); trying again in %d s", e,
                            self.poll_seconds)
                await self.mailbox.close()
                await asyncio.sleep(self.poll_seconds)
