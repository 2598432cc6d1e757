"""Background delivery, and claims with an owner and a lease: a second process starting
(an overlapping deploy) never takes a notice that a live process is delivering; once the
holder's lease has run out (it died), the notice is sent once."""

import asyncio

import pytest

from bot import events as ev
from bot.outbox import Outbox, known_dead, process_name
from bot.store import MIGRATIONS

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
    a = await opener()
    alice, bob = await a.player("test", "a", "Alice"), await a.player("test", "b", "Bob")
    async with a.outbox.held():
        await a.challenge(alice.id, "fake", opponent_id=bob.id, days=3)
    me = process_name()
    host, pid = me.split(":")[:2]
    async with a.store.write() as tx:  # an earlier life of this pid (a restarted container) claimed it
        await tx._exec("UPDATE events SET status = 'pending'")
        row = await tx.claim_event(a._now(), None, f"{host}:{pid}:0ld0", a._now() + 300)
    b_seen = ev.MemoryNotifier()
    b = await opener(notifier=b_seen)
    assert await b.outbox.drain() >= 1  # no wait for the lease
    assert [e.event_id for e in b_seen.events] == [row.id]


def test_who_is_known_dead():
    me = "box:4242:beef"
    assert known_dead(None, me)
    assert known_dead("box:4242:0000", me)  # this pid, an earlier life
    assert not known_dead(me, me)
    assert not known_dead("elsewhere:1:abcd", me)  # another host: its lease decides
    assert not known_dead("box:1:abcd", me)  # pid 1 runs
    assert known_dead("box:999999999:abcd", me)  # no such pid


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
