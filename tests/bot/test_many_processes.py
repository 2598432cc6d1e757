"""Several processes on one database: each notice claimed once, and one process's commit
waking the others at once (PostgreSQL's LISTEN/NOTIFY) instead of at their next sweep.

Two services on one database stand for two processes: they share nothing but the database
(each has its own connections, and so its own place in the database's locking)."""

import asyncio

import pytest

from bot.delivery import events as ev
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
        # Alice moves first: the game's start is her notice that it is her move
        started = lambda: [e for e in delivering.of(ev.GameStarted, alice.id) if e.your_move]  # noqa: E731
        await _until(delivering, started)
        assert [e.game_id for e in started()] == [g.id]


async def test_two_processes_sweeping_at_once_do_each_due_job_once(opener, fake_engine, clock):
    """Reminders, timeouts and expiring challenges due at one moment, swept by two processes
    at the same time: each game times out once, each warning and each expiry is written
    once (the sweeps' writes take turns across processes and see each other's)."""
    from datetime import timedelta
    seen = [ev.MemoryNotifier(), ev.MemoryNotifier()]
    here = await opener(notifier=seen[0])
    there = await opener(notifier=seen[1])
    alice = await here.player("test", "a", "Alice")
    bob = await here.player("test", "b", "Bob")
    carol = await here.player("test", "c", "Carol")
    expiring = await here.challenge(bob.id, "fake", opponent_id=carol.id, days=3)
    warned = [await new_game(here, alice, bob, days=14) for _ in range(4)]  # half used at 7 days
    timing_out = [await new_game(here, alice, carol, days=5) for _ in range(4)]
    clock.advance(timedelta(days=7, hours=1))  # the challenge's 7 days over too
    reports = await asyncio.gather(here.sweep(), there.sweep())
    assert sum(r.games_timed_out for r in reports) == len(timing_out)
    assert sum(r.challenges_expired for r in reports) == 1
    await here.outbox.drain()
    await there.outbox.drain()
    events = [e for n in seen for e in n.events]
    over = [(e.game_id, e.recipient.name) for e in events if isinstance(e, ev.GameOver)]
    assert sorted(over) == sorted((g.id, p) for g in timing_out for p in ("Alice", "Carol"))
    warnings = [e.game_id for e in events if isinstance(e, ev.TimeWarning)]
    assert sorted(warnings) == sorted(g.id for g in warned)  # one each, to Alice
    assert sum(r.reminders for r in reports) == len(warned)
    closed = [e for e in events if isinstance(e, ev.ChallengeClosed)]
    assert [(e.challenge_id, e.how) for e in closed] == [(expiring.id, "expired")]
    ids = [e.event_id for e in events]
    assert len(ids) == len(set(ids))  # no notice delivered by both
