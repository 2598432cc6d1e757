"""Background delivery, and claims with an owner and a lease: a second process starting
(an overlapping deploy) never takes a notice that a live process is delivering; once the
holder's lease has run out (it died), the notice is sent once."""

import asyncio

import pytest

from bot.delivery import events as ev
from bot.delivery.outbox import Outbox
from bot.store import MIGRATIONS, Store, lives

pytestmark = pytest.mark.contract  # on every database back end (backends.py)


class GatedNotifier(ev.MemoryNotifier):
    """Keeps each notice until the gate opens (a slow Discord)."""

    def __init__(self):
        super().__init__()
        self.gate = asyncio.Event()
        self.started = asyncio.Event()

    async def notify(self, event):
        self.started.set()
        await self.gate.wait()
        await super().notify(event)


async def event_rows(svc):
    async with svc.store.read() as tx:
        return await tx.events()


async def test_a_live_claim_is_left_alone_and_a_lapsed_one_sent_once(opener, fake_engine, clock):
    slow = GatedNotifier()
    a = await opener(notifier=slow)
    a.outbox.owner = "host-a:100:aaaa"
    alice, bob = await a.player("test", "a", "Alice"), await a.player("test", "b", "Bob")
    a.start_delivery()
    await a.challenge(alice.id, "fake", opponent_id=bob.id, days=3)  # returns: delivery is A's task
    await asyncio.wait_for(slow.started.wait(), 5)  # A has claimed the notice and is sending it
    [row] = [r for r in await event_rows(a) if r.kind == "challenge_received"]
    assert (row.status, row.claimed_by) == ("claimed", "host-a:100:aaaa")
    assert row.lease_until == row.claimed_at + Outbox.LEASE_SECONDS

    b_seen = ev.MemoryNotifier()
    b = await opener(notifier=b_seen)  # process B starts (its recovery runs at open)
    b.outbox.owner = "host-b:200:bbbb"
    clock.advance(seconds=Outbox.LEASE_SECONDS - 1)
    assert await b.outbox.drain() == 0
    assert b_seen.of(ev.ChallengeReceived) == []
    assert [r.status for r in await event_rows(b) if r.id == row.id] == ["claimed"]

    await a.outbox.stop()  # A dies mid-send: its claim stays, until its lease runs out
    clock.advance(seconds=1)
    assert await b.outbox.drain() >= 1
    assert [e.event_id for e in b_seen.of(ev.ChallengeReceived)] == [row.id]
    assert await b.outbox.drain() == 0  # once
    assert [e.event_id for e in b_seen.of(ev.ChallengeReceived)] == [row.id]
    assert slow.events == []
    [after] = [r for r in await event_rows(b) if r.id == row.id]
    assert (after.status, after.attempts) == ("sent", 2)


async def test_a_holder_that_lost_its_claim_does_not_mark_it(opener, fake_engine, clock):
    """A's lease ran out while it was still sending and B took the notice: A's late
    "sent" does not overwrite B's claim."""
    slow = GatedNotifier()
    a = await opener(notifier=slow)
    a.outbox.owner = "host-a:100:aaaa"
    alice, bob = await a.player("test", "a", "Alice"), await a.player("test", "b", "Bob")
    a.start_delivery()
    await a.challenge(alice.id, "fake", opponent_id=bob.id, days=3)
    await asyncio.wait_for(slow.started.wait(), 5)
    b_slow = GatedNotifier()
    b = await opener(notifier=b_slow)
    b.outbox.owner = "host-b:200:bbbb"
    clock.advance(seconds=Outbox.LEASE_SECONDS + 1)
    b_round = asyncio.ensure_future(b.outbox.drain())
    await asyncio.wait_for(b_slow.started.wait(), 5)  # B holds it now
    slow.gate.set()  # A finishes late
    await asyncio.sleep(0)
    await a.outbox.drain()
    rows = {r.kind: r for r in await event_rows(a)}
    assert (rows["challenge_received"].status, rows["challenge_received"].claimed_by) == (
        "claimed", "host-b:200:bbbb")
    b_slow.gate.set()
    await b_round
    rows = {r.kind: r for r in await event_rows(a)}
    assert rows["challenge_received"].status == "sent"


async def test_commands_return_before_delivery_and_drain_waits_for_it(svc, notifier):
    slow = GatedNotifier()
    svc.outbox.notifier = slow
    alice, bob = await svc.player("test", "a", "Alice"), await svc.player("test", "b", "Bob")
    svc.start_delivery()
    c = await asyncio.wait_for(svc.challenge(alice.id, "fake", opponent_id=bob.id, days=3), 5)
    await asyncio.wait_for(svc.accept_challenge(c.id, bob.id), 5)  # while the first notice hangs
    assert slow.events == []
    slow.gate.set()
    await svc.outbox.drain()
    kinds = [type(e).__name__ for e in slow.events]
    assert kinds[0] == "ChallengeReceived" and kinds.count("GameStarted") == 2  # the first mover's says it all
    assert all(r.status == "sent" for r in await event_rows(svc))


async def test_held_delivery_goes_out_when_the_hold_ends(svc, notifier):
    alice, bob = await svc.player("test", "a", "Alice"), await svc.player("test", "b", "Bob")
    async with svc.outbox.held():
        await svc.challenge(alice.id, "fake", opponent_id=bob.id, days=3)
        assert notifier.events == []
        assert await svc.outbox.drain() == 0
    assert [type(e).__name__ for e in notifier.events] == ["ChallengeReceived"]


async def test_a_restart_takes_back_the_claims_of_a_dead_process_at_once(opener, fake_engine, clock):
    """A process life that ended (its lock let go) leaves claims that the next start takes
    back at once, without waiting for their lease."""
    a = await opener()
    alice, bob = await a.player("test", "a", "Alice"), await a.player("test", "b", "Bob")
    async with a.outbox.held():
        await a.challenge(alice.id, "fake", opponent_id=bob.id, days=3)
    earlier = lives.new_life()  # an earlier life (a restarted container: same host, same pid)
    await a.store.hold_life(earlier)
    async with a.store.write() as tx:
        await tx._exec("UPDATE events SET status = 'pending'")
        row = await tx.claim_event(a._now(), None, earlier, a._now() + 300)
    await a.store.end_life(earlier)  # it died
    b_seen = ev.MemoryNotifier()
    b = await opener(notifier=b_seen)
    assert await b.outbox.drain() >= 1  # no wait for the lease
    assert [e.event_id for e in b_seen.events] == [row.id]


async def test_a_claim_of_a_live_process_with_the_same_host_and_pid_is_left_alone(opener, fake_engine, clock):
    """Issue #32: two containers with one host name, both pid 1, are two lives. The other's
    claim (its lock held) is not taken back at start, nor before its lease runs out."""
    a = await opener()
    alice, bob = await a.player("test", "a", "Alice"), await a.player("test", "b", "Bob")
    async with a.outbox.held():
        await a.challenge(alice.id, "fake", opponent_id=bob.id, days=3)
    other = lives.new_life()  # the other container: alive, same host name and pid as ours
    await a.store.hold_life(other)
    async with a.store.write() as tx:
        await tx._exec("UPDATE events SET status = 'pending'")
        row = await tx.claim_event(a._now(), None, other, a._now() + Outbox.LEASE_SECONDS)
    b_seen = ev.MemoryNotifier()
    b = await opener(notifier=b_seen)  # its recovery runs at open
    clock.advance(seconds=Outbox.LEASE_SECONDS - 1)
    assert await b.outbox.drain() == 0
    assert b_seen.events == []
    async with b.store.read() as tx:
        assert not await tx.life_ended(other) and await tx.life_ended(lives.new_life())
        [held] = [e for e in await tx.events() if e.id == row.id]
    assert (held.status, held.claimed_by) == ("claimed", other)
    clock.advance(seconds=1)  # its lease is out: taken back, sent once
    assert await b.outbox.drain() == 1
    assert [e.event_id for e in b_seen.events] == [row.id]
    await a.store.end_life(other)


async def test_claims_are_made_under_a_random_life_id_not_host_and_pid(opener, fake_engine):
    import os
    import socket
    svc = await opener()
    life = svc.store.life
    assert lives.is_life(life) and svc.outbox.owner == life  # 128 random bits, hex
    assert socket.gethostname() not in life and str(os.getpid()) not in life
    other = await opener()  # another process (its own store)
    assert other.store.life != life and lives.new_life() != lives.new_life()
    assert not lives.is_life("box:1:abcd") and not lives.is_life(None)
    async with svc.store.write() as tx:  # a notice, claimed as delivery claims it
        await tx.insert_event("x", None, None, None, "{}", svc._now())
        await tx.claim_event(svc._now(), None, svc.outbox.owner, svc._now() + 300)
    assert [r.claimed_by for r in await event_rows(svc)] == [life]
    async with other.store.read() as tx:
        assert not await tx.life_ended(life)
    await opener.close(svc)  # the process stops: its life ends
    async with other.store.read() as tx:
        assert await tx.life_ended(life)


async def test_only_a_life_nobody_holds_is_known_dead(db_target, tmp_path):
    """Across real processes: a child process holds its life while it runs; once it is
    killed the lock is gone, and only then is the life known dead."""
    import subprocess
    import sys
    store = await Store.open(db_target)
    child = subprocess.Popen(
        [sys.executable, "-c", _HOLD_LIFE, str(db_target)], stdout=subprocess.PIPE, text=True)
    try:
        life = child.stdout.readline().strip()
        assert lives.is_life(life) and life != store.life
        async with store.read() as tx:
            assert not await lives.known_dead(tx, life)  # it runs
            assert await lives.known_dead(tx, None)  # a claim from before holders were named
            assert not await lives.known_dead(tx, "box:1:abcd")  # named by host and pid: the lease decides
            assert not await lives.known_dead(tx, store.life)  # this process
        child.kill()
        child.wait(timeout=30)
        async with asyncio.timeout(30):  # the server ends a killed client's session a moment later
            while True:
                async with store.read() as tx:
                    if await lives.known_dead(tx, life):
                        break
                await asyncio.sleep(0.05)
    finally:
        if child.poll() is None:
            child.kill()
        child.wait(timeout=30)
        await store.close()


# a process that opens the database (its store holds its life), says which, and waits
_HOLD_LIFE = """
import asyncio, sys
from bot.store import Store
async def main():
    store = await Store.open(sys.argv[1])
    print(store.life, flush=True)
    await asyncio.sleep(600)
asyncio.run(main())
"""


def test_the_lease_columns_came_with_one_migration():
    steps = [m for m in MIGRATIONS if any("lease_until" in sql or "claimed_by" in sql for sql in m)]
    assert len(steps) == 1


async def test_a_notify_that_hangs_counts_as_failed_within_the_lease(svc, monkeypatch):
    """The holder finishes within its lease: a notify that outlasts NOTIFY_SECONDS is
    given up (and tried again later), so the claim never outlives a live holder."""
    hung = GatedNotifier()  # its gate never opens
    svc.outbox.notifier = hung
    monkeypatch.setattr(Outbox, "NOTIFY_SECONDS", 0.05)
    assert Outbox.LEASE_SECONDS > 120  # the real timeout, well inside the lease
    alice, bob = await svc.player("test", "a", "Alice"), await svc.player("test", "b", "Bob")
    await asyncio.wait_for(svc.challenge(alice.id, "fake", opponent_id=bob.id, days=3), 5)
    [row] = [r for r in await event_rows(svc) if r.kind == "challenge_received"]
    assert (row.status, row.claimed_by, row.lease_until) == ("pending", None, None)
    assert "TimeoutError" in row.last_error and row.next_try_at > row.created_at
