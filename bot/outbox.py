"""Delivering the events the service wrote to its outbox (the ``events`` table).

Each event is written in the same transaction as the change that caused it, so
a change and its notices are committed together or not at all. Delivery is
claim -> send -> mark:

1. a write transaction takes the oldest deliverable ``pending`` row and marks it
   ``claimed`` (only one dispatcher can win a row: the update is conditional);
2. the adapter's ``Notifier.notify`` is called, outside any transaction;
3. a second transaction marks it ``sent`` (or, if notify raised, puts it back to
   ``pending`` with a later ``next_try_at``, up to ``notify_max_attempts`` tries,
   then ``failed``).

A run that stops between 1 and 3 leaves the row ``claimed``; the next run's
:meth:`Outbox.recover` puts such rows back to ``pending`` and they are sent
again. We prefer that (a possible repeat, in a window of one UPDATE after a
delivery) to losing a notice; every event carries its outbox id (``event_id``),
stable across the repeat, so an adapter that must never show a repeat can drop
ids it has seen. Without a crash, each event is delivered exactly once.

A turn reminder (your move, time warning) whose turn has ended before delivery
is marked ``obsolete`` instead of being sent.
"""

from __future__ import annotations

import logging

from . import events as ev
from .config import Settings
from .players import ref
from .store import Store

log = logging.getLogger(__name__)

MAX_BACKOFF = 6 * 3600


class Outbox:
    def __init__(self, store: Store, notifier: ev.Notifier, settings: Settings):
        self.store = store
        self.notifier = notifier
        self.settings = settings

    @property
    def platforms(self):
        """The platforms whose players this outbox's notifier serves (None: all)."""
        return getattr(self.notifier, "platforms", None)

    async def recover(self) -> int:
        """Put back events that a stopped run had claimed but not marked sent."""
        async with self.store.write() as tx:
            n = await tx.release_claimed_events(self.platforms)
        if n:
            log.warning("re-sending %d notification(s) claimed by a run that stopped", n)
        return n

    async def dispatch(self, now: int, limit: int = 10_000) -> int:
        """Deliver every event deliverable at ``now``; returns how many were sent."""
        sent = 0
        for _ in range(limit):
            async with self.store.write() as tx:
                row = await tx.claim_event(now, self.platforms)
                if row is None:
                    return sent
                if row.turn_no is not None and row.game_id is not None:
                    state = await tx.game_turn(row.game_id)
                    if state != ("active", row.turn_no):
                        await tx.finish_event(row.id, "obsolete", now)
                        continue
                recipient = None
                if row.player_id is not None:
                    recipient = ref(await tx.player(row.player_id))
            event = ev.decode(row.kind, row.payload, recipient=recipient, event_id=row.id)
            try:
                await self.notifier.notify(event)
            except Exception as e:  # noqa: BLE001 - any adapter failure: keep the event, try later
                error = f"{type(e).__name__}: {e}"
                log.warning("notifying event %d (%s) failed: %s", row.id, row.kind, error)
                async with self.store.write() as tx:
                    if row.attempts >= self.settings.notify_max_attempts:
                        await tx.finish_event(row.id, "failed", now, error)
                    else:
                        delay = min(MAX_BACKOFF,
                                    self.settings.notify_retry_seconds * 2 ** (row.attempts - 1))
                        await tx.retry_event(row.id, now + max(1, delay), error)
                continue
            async with self.store.write() as tx:
                await tx.finish_event(row.id, "sent", now)
            sent += 1
        return sent
