"""Delivering the events the service wrote to its outbox (the ``events`` table).

Each event is written in the same transaction as the change that caused it, so
a change and its notices are committed together or not at all. Delivery is
claim -> send -> mark:

1. a write transaction takes the oldest deliverable ``pending`` rows, up to ``BATCH``, and
   marks them ``claimed`` in one statement (only one dispatcher can win a row: the update
   is conditional, and on PostgreSQL passes over rows another holds);
2. the adapter's ``Notifier.notify`` is called for each, outside any transaction;
3. one more transaction marks those delivered ``sent`` (or, if notify raised, puts one back
   to ``pending`` with a later ``next_try_at``, up to ``notify_max_attempts`` tries, then
   ``failed``): at the batch's end, or as soon as the oldest unwritten mark is
   ``MARK_SECONDS`` old, so that a slow notifier has each marked about when it is sent.

A claim carries its holder's process life (``Store.life``, ``bot.store.lives``: a random id
made once per process, never host and pid, which two containers can share) and a lease
(``LEASE_SECONDS``); a notify that outlasts ``NOTIFY_SECONDS`` (well inside the lease)
counts as failed, so a live holder always finishes within its lease. A run that stops
between 1 and 3 leaves the row ``claimed``; any process puts it back to ``pending``
(:meth:`Outbox.recover`, and before each delivery round) once its lease has run out, or
at once if its holder is known dead (no process holds that life's lock on the database:
``bot.store.lives``), and it is sent again. A second process starting while another delivers (an
overlapping deploy) leaves that one's claims alone. We prefer that (a possible repeat of what
was delivered and not yet marked: at most ``MARK_SECONDS`` of deliveries, or one batch) to
losing a notice; a stop that is not a kill marks what was delivered before it ends. Every
event carries its outbox id (``event_id``),
stable across the repeat, so an adapter that must never show a repeat can drop
ids it has seen. Without a crash, each event is delivered exactly once.

Delivery runs in the background (:meth:`Outbox.start`, by the service's owner: the
Discord runner, the terminal): a command commits, pokes the delivery task and
returns; it never waits for anyone's notices. Without the task (tests, one-shot
commands) the service delivers after each commit itself; either way
:meth:`Outbox.drain` delivers what is due now and returns once it is done.
:meth:`Outbox.held` keeps delivery back for a moment (the Discord adapter opens a
new game's thread first, so that the first notices link to it).

A turn reminder (your move, time warning) whose turn has ended before delivery
is marked ``obsolete`` instead of being sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable

from ..config import Settings
from ..domain.errors import DatabaseUnavailable
from ..store import EventRow, Store, lives
from . import events as ev
from .events import ref

log = logging.getLogger(__name__)

MAX_BACKOFF = 6 * 3600


class Outbox:
    LEASE_SECONDS = 300  # how long a claim keeps others off an event
    BATCH = 50  # the events claimed in one transaction (and at most marked in one)
    MARK_SECONDS = 0.1  # the longest a delivered event waits for its mark to be written
    NOTIFY_SECONDS = 120  # the longest one notify may take (real time), well inside the lease

    def __init__(self, store: Store, notifier: ev.Notifier, settings: Settings, *,
                 owner: str | None = None, now: Callable[[], int] | None = None):
        self.store = store
        self.notifier = notifier
        self.settings = settings
        self.owner = owner or store.life
        self._now = now
        self._lock = asyncio.Lock()  # one delivery round at a time in this process
        self._round: asyncio.Task | None = None  # the task delivering a round now
        self._holds = 0
        self._wake = asyncio.Event()
        self._task: asyncio.Task | None = None

    @property
    def platforms(self):
        """The platforms whose players this outbox's notifier serves (None: all)."""
        return getattr(self.notifier, "platforms", None)

    async def recover(self, now: int | None = None) -> int:
        """At start: put back the events that a stopped run had claimed but not marked
        sent: those whose lease has run out by ``now`` or whose holder is known dead
        (``now`` None: every claim, whoever holds it)."""
        async with self.store.write() as tx:
            dead = [h for h in await tx.claim_holders(self.platforms)
                    if h != self.owner and await lives.known_dead(tx, h)]
            n = await tx.release_claimed_events(self.platforms, now, dead)
        if n:
            log.warning("re-sending %d notification(s) claimed by a run that stopped", n)
        return n

    # --- in the background ---

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self) -> None:
        """Deliver in a background task, woken by :meth:`poke` (and at once)."""
        if not self.running:
            self._task = asyncio.get_running_loop().create_task(self._deliver_forever(),
                                                                 name="fairypost-outbox")
            self._wake.set()

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def poke(self) -> None:
        """Something was committed: the background task looks at the outbox again."""
        self._wake.set()

    async def _deliver_forever(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            try:
                await self.drain()
            except DatabaseUnavailable:  # the store logged it; its coming back pokes us
                log.debug("no delivery: the database is unavailable")
            except Exception:  # a broken database or adapter must not end delivery for good
                log.exception("delivering notifications failed")

    async def drain(self, now: int | None = None) -> int:
        """Deliver what is deliverable now (the service's clock), once any delivery under
        way in this process is done; how many were sent."""
        if now is None:
            if self._now is None:
                raise ValueError("this outbox has no clock: say when")
            now = self._now()
        return await self.dispatch(now)

    def leave_to_others(self) -> None:
        """Deliver nothing from this process, ever: a command-line process beside a running
        bot (``fairypost tournament start``) writes notices that the bot sends."""
        self._holds += 1

    @contextlib.asynccontextmanager
    async def held(self) -> AsyncIterator[None]:
        """Deliver nothing until the block ends; then what it committed goes out (in the
        background if delivery runs there, else before the block is left)."""
        self._holds += 1
        try:
            yield
        finally:
            self._holds -= 1
            if not self._holds:
                if self.running:
                    self.poke()
                elif self._now is not None:
                    try:
                        await self.drain()
                    except DatabaseUnavailable:  # the block's work stands: the reconnection pokes
                        log.debug("no delivery: the database is unavailable")
                    except Exception:  # the block's work is done and stands: the sweep retries
                        log.exception("delivering notifications failed")

    # --- one round ---

    async def dispatch(self, now: int, limit: int = 10_000) -> int:
        """Deliver every event deliverable at ``now``; returns how many were sent."""
        if self._holds:
            return 0
        if self._round is not None and self._round is asyncio.current_task():
            # a notifier acting on its notice (the computer accepting a challenge) commits,
            # and the service delivers after the commit: the round under way takes the new
            # notices in its next claims; waiting for the lock here would wait for itself
            return 0
        async with self._lock:
            self._round = asyncio.current_task()
            try:
                async with self.store.row_write() as tx:  # a holder that died meanwhile: once its lease is out
                    lapsed = await tx.release_claimed_events(self.platforms, now)
                if lapsed:
                    log.warning("re-sending %d notification(s) whose claim lapsed", lapsed)
                return await self._dispatch(now, limit)
            finally:
                self._round = None

    async def _dispatch(self, now: int, limit: int) -> int:
        sent = 0
        while sent < limit:
            if self._holds:
                return sent
            # a batch claimed in one statement (on PostgreSQL: SKIP LOCKED, so the outboxes of
            # several processes share the notices out and never wait for each other)
            async with self.store.row_write() as tx:
                rows = await tx.claim_events(now, self.platforms, self.owner,
                                             now + self.LEASE_SECONDS, min(self.BATCH, limit - sent))
                if not rows:
                    return sent
                turns = await tx.game_turns(r.game_id for r in rows if r.turn_no is not None)
                obsolete = [r.id for r in rows if r.turn_no is not None and r.game_id is not None
                            and turns.get(r.game_id) != ("active", r.turn_no)]
                await tx.finish_events(obsolete, "obsolete", now, owner=self.owner)
                people = await tx.players_by_id(r.player_id for r in rows if r.player_id is not None)
            marks = _Marks(self)
            try:
                for row in rows:
                    if row.id in obsolete:
                        continue
                    person = people.get(row.player_id) if row.player_id is not None else None
                    event = ev.decode(row.kind, row.payload, recipient=person and ref(person),
                                      event_id=row.id)
                    try:
                        async with asyncio.timeout(self.NOTIFY_SECONDS):
                            await self.notifier.notify(event)
                    except Exception as e:  # noqa: BLE001 - any adapter failure: keep it, try later
                        error = f"{type(e).__name__}: {e}"
                        log.warning("notifying event %d (%s) failed: %s", row.id, row.kind, error)
                        marks.failed(row, error)
                    else:
                        marks.sent(row)
                        sent += 1
                    await marks.flush_if_due(now)
            except BaseException:
                # stopped mid-batch (a stop, a cancellation): what was delivered is marked,
                # the rest of the claims lapse and are sent again by whoever runs next
                await marks.flush_on_the_way_out(now)
                raise
            await marks.flush(now)
        return sent


class _Marks:
    """A delivery round's results, written together: at the end of the batch, or as soon as
    the oldest unwritten one is ``Outbox.MARK_SECONDS`` old (a slow notifier, Discord's API,
    so writes each mark about as soon as it is delivered)."""

    def __init__(self, outbox: Outbox):
        self.outbox = outbox
        self.delivered: list[int] = []
        self.failures: list[tuple[EventRow, str]] = []
        self.since: float | None = None

    def _noted(self) -> None:
        if self.since is None:
            self.since = time.monotonic()

    def sent(self, row: EventRow) -> None:
        self.delivered.append(row.id)
        self._noted()

    def failed(self, row: EventRow, error: str) -> None:
        self.failures.append((row, error))
        self._noted()

    async def flush_if_due(self, now: int) -> None:
        if self.since is not None and time.monotonic() - self.since >= self.outbox.MARK_SECONDS:
            await self.flush(now)

    async def flush_on_the_way_out(self, now: int) -> None:
        try:
            await asyncio.shield(self.flush(now))
        except BaseException:  # noqa: BLE001 - the error that stopped the round is the one raised
            log.exception("marking %d delivered event(s) failed: they will be sent again",
                          len(self.delivered))

    async def flush(self, now: int) -> None:
        if self.since is None:
            return
        outbox, owner = self.outbox, self.outbox.owner
        settings = outbox.settings
        async with outbox.store.row_write() as tx:
            marked = await tx.finish_events(self.delivered, "sent", now, owner=owner)
            for row, error in self.failures:
                if row.attempts >= settings.notify_max_attempts:
                    await tx.finish_event(row.id, "failed", now, error, owner=owner)
                else:
                    delay = min(MAX_BACKOFF, settings.notify_retry_seconds * 2 ** (row.attempts - 1))
                    await tx.retry_event(row.id, now + max(1, delay), error, owner=owner)
        if marked < len(self.delivered):
            log.warning("%d event(s) were sent after their claim had lapsed: they may be sent twice",
                        len(self.delivered) - marked)
        self.delivered, self.failures, self.since = [], [], None
