"""The reminder sweep and the scheduler do work in proportion to what is due, not to the
games held (bench/RESULTS.md measured the difference at 10,000 games)."""
import asyncio
from datetime import timedelta

import pytest

from bot.timekeeping.clock import to_ts
from bot.timekeeping.reminders import ReminderScheduler

from .conftest import new_game

pytestmark = pytest.mark.contract  # on every database back end (backends.py)


async def test_the_sweep_reads_only_reminders_nominally_due(svc, clock):
    players = [await svc.player("test", str(i), f"P{i}") for i in range(8)]
    games = [await new_game(svc, players[2 * i], players[2 * i + 1], days=3) for i in range(4)]
    await svc.sweep()                       # the "your move" notices go out
    now = to_ts(clock.now())
    async with svc.store.read() as tx:
        assert await tx.pending_reminders(due_by=now) == []
        assert len(await tx.pending_reminders()) == 4 * 4   # 50%, 80%, 24h, 1h per game
        first = await tx.next_reminder_due(now)
    assert first == now + 36 * 3600          # the 50% warning of a three-day turn
    clock.advance(timedelta(hours=36))
    async with svc.store.read() as tx:
        due = await tx.pending_reminders(due_by=to_ts(clock.now()))
    assert sorted(r.kind for r in due) == ["50%"] * len(games)


async def test_a_moved_deadline_moves_its_reminders(svc, alice, bob, clock):
    g = await new_game(svc, alice, bob, days=3)
    async with svc.store.write() as tx:
        row = await tx.game(g.id)
        await tx.set_deadline(g.id, row.deadline + 3600)
    async with svc.store.read() as tx:
        kinds = {r.kind: r for r in await tx.reminders(g.id) if r.status == "pending"}
        row = await tx.game(g.id)
        due = {r.kind: r.due_at for r in await tx.reminders(g.id) if r.status == "pending"}
    assert due["1h"] == row.deadline - 3600 and due["24h"] == row.deadline - 24 * 3600
    assert set(kinds) >= {"50%", "80%", "24h", "1h"}


async def test_a_burst_of_changes_reschedules_at_most_twice(svc, alice, bob, clock):
    await new_game(svc, alice, bob, days=3)
    await svc.sweep()
    sched = ReminderScheduler(svc, safety_minutes=0)
    await sched.start(catch_up=False)
    calls, wakes = 0, []
    real = svc.next_wake

    async def counting(now=None):
        nonlocal calls
        calls += 1
        wakes.append(await real(now))
        return wakes[-1]

    svc.next_wake = counting
    try:
        for _ in range(50):
            sched.poke()
        while sched._tasks:
            await asyncio.gather(*list(sched._tasks))
        assert 1 <= calls <= 2
        # (the job itself runs on the wall clock, which the injected clock is not)
        assert wakes[-1] == clock.now() + timedelta(hours=36)
    finally:
        sched.shutdown()


async def test_the_digest_check_reads_only_players_whose_digest_may_be_due(svc, clock):
    """Each player's next digest time is kept, indexed: a sweep reads the players whose time
    has come, not every player with a digest time; each digest still comes once a day."""
    players = [await svc.player("test", str(i), f"P{i}") for i in range(12)]
    for i, p in enumerate(players):  # digests at 13:00, 14:00, ... 24 hours round (T0 is noon UTC)
        await svc.update_settings(p.id, digest_time=f"{(13 + i) % 24:02d}:00")
    for i in range(0, 12, 2):
        await new_game(svc, players[i], players[i + 1], days=3)
    now = to_ts(clock.now())
    async with svc.store.read() as tx:  # a change of settings: worked out at the next sweep
        assert len(await tx.players_digest_due(now)) == 12
    assert await svc.next_wake() <= clock.now() + timedelta(hours=1)
    await svc.sweep()
    async with svc.store.read() as tx:
        assert await tx.players_digest_due(now) == []
        assert await tx.next_digest(now) == now + 3600  # P0's 13:00
    clock.advance(timedelta(hours=1, minutes=30))
    async with svc.store.read() as tx:
        assert [p.name for p in await tx.players_digest_due(to_ts(clock.now()))] == ["P0"]
    report = await svc.sweep()
    assert report.digests == 1  # P0 is to move in one game
    async with svc.store.read() as tx:
        assert await tx.players_digest_due(to_ts(clock.now())) == []
        # P0's next is tomorrow's 13:00; the earliest now P1's 14:00
        assert (await tx.player(players[0].id)).next_digest_at == now + 25 * 3600
        assert await tx.next_digest(to_ts(clock.now())) == now + 2 * 3600
