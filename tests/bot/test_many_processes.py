"""Several processes on one database: each notice claimed once, and one process's commit
waking the others at once (PostgreSQL's LISTEN/NOTIFY) instead of at their next sweep.

Two services on one database stand for two processes: they share nothing but the database
(each has its own connections, and so its own place in the database's locking)."""

import asyncio

import pytest

from bot import events as ev
from bot.store import Store

from .backends import BACKENDS
from .conftest import new_game

pytestmark = pytest.mark.contract


class Waiting(ev.MemoryNotifier):
    """Records notices, and lets a test wait for one (with a time limit, never a sleep)."""

    def __init__(self, platforms=None):
        super().__init__()
        if platforms is not None:
            self.platforms = platforms
        self.arrived = asyncio.Event()

    async def notify(self, event):
        await super().notify(event)
        self.arrived.set()


async def test_each_notice_is_claimed_once_by_processes_claiming_at_once(db_target):
    stores = [await Store.open(db_target) for _ in range(3)]
    try:
        async with stores[0].write() as tx:
            for i in range(30):
                await tx.insert_event("x", None, None, None, "{}", i)
        claimed: list[int] = []

        async def claim_all(store, owner):
            while True:
                async with store.write() as tx:
                    row = await tx.claim_event(100, owner=owner, lease_until=200)
                if row is None:
                    return
                claimed.append(row.id)

        await asyncio.gather(*(claim_all(s, f"p{i}") for i, s in enumerate(stores)))
        assert sorted(claimed) == list(range(1, 31))  # every one, none twice
    finally:
        for s in stores:
            await s.close()


async def _until(notifier: Waiting, seen) -> None:
    """Wait (at most 10 s) until ``seen()`` is true, looking again at each notice."""
    async with asyncio.timeout(10):
        while not seen():
            notifier.arrived.clear()
            await notifier.arrived.wait()


if "postgres" in BACKENDS:  # SQLite has no notifications between processes (the sweeps run)
    @pytest.mark.parametrize("backend", ["postgres"], indirect=True)
    async def test_a_commit_in_one_process_wakes_delivery_in_another(opener, fake_engine, backend):
        delivering = Waiting()
        here = await opener(notifier=delivering)  # delivers every platform's notices
        here.start_delivery()
        await here.outbox.drain()
        elsewhere = await opener(notifier=Waiting(platforms={"nobody"}))  # delivers none of them
        alice = await elsewhere.player("test", "a", "Alice")
        bob = await elsewhere.player("test", "b", "Bob")
        await elsewhere.challenge(alice.id, "fake", opponent_id=bob.id, days=3, colour="white")
        # no sweep, no poke here: only the other process's commit can wake this delivery
        await _until(delivering, lambda: delivering.of(ev.ChallengeReceived, bob.id))
        g = await new_game(elsewhere, alice, bob)
        await _until(delivering, lambda: delivering.of(ev.YourMove, alice.id))
        assert [e.game_id for e in delivering.of(ev.YourMove, alice.id)] == [g.id]
