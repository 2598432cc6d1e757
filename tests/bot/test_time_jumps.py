"""Issue 17, items 6 and 7: refusals change nothing; time after downtime and clock jumps.

- ``start_vacation`` refused (an unknown player, one already on vacation, no allowance
  left) used to end every overdue game first; now every row stays as it was.
- A game lost on time records its deadline as its end, however late it was noticed.
- The scheduler's timers run on the monotonic clock; when the wall clock gets ahead
  (set forward, a sleeping machine) the watch job sweeps at once instead of waiting for
  the safety sweep. Tested with a ManualClock and a hand-moved monotonic clock.
"""

from __future__ import annotations

import logging
from datetime import UTC, timedelta

import pytest

from bot.domain.errors import GameOver, NotFound, VacationError
from bot.timekeeping.reminders import ReminderScheduler
from tests.robustness.helpers import Unchanged

from .conftest import T0, new_game


async def _overdue_game(svc, alice, bob, clock):
    """Alice to move in a 1-day game, two days on, no sweep yet: lost on time, not recorded."""
    g = await new_game(svc, alice, bob, days=1)
    clock.advance(days=2)
    return g


async def test_refused_vacations_change_nothing(svc, alice, bob, carol, clock, notifier):
    await svc.start_vacation(carol.id, 1)
    g = await _overdue_game(svc, alice, bob, clock)
    async with Unchanged(svc, notifier):
        with pytest.raises(NotFound):
            await svc.start_vacation(999)
        with pytest.raises(VacationError, match="already on vacation"):
            await svc.start_vacation(carol.id)
        with pytest.raises(VacationError, match="whole number of days"):
            await svc.start_vacation(alice.id, 0)
    assert (await svc.game(g.id)).status == "active"  # the sweep records the loss, not a refusal
    await svc.sweep()
    assert (await svc.game(g.id)).reason == "time"


async def test_no_vacation_left_changes_nothing(opener, fake_engine, settings, alice, bob, clock, notifier):
    svc = await opener(settings=settings.with_(vacation_days_per_year=0))
    g = await _overdue_game(svc, alice, bob, clock)
    async with Unchanged(svc, notifier):
        with pytest.raises(VacationError, match="no vacation left"):
            await svc.start_vacation(bob.id)
    assert (await svc.game(g.id)).status == "active"


async def test_an_accepted_vacation_still_does_not_save_a_lost_game(svc, alice, bob, clock):
    g = await _overdue_game(svc, alice, bob, clock)
    await svc.start_vacation(alice.id, 3)
    v = await svc.game(g.id)
    assert (v.status, v.reason, v.ended_at) == ("finished", "time", T0 + timedelta(days=1))


async def test_a_loss_on_time_found_after_downtime_ends_at_the_deadline(opener, fake_engine, clock):
    svc = await opener()
    alice, bob = await svc.player("test", "a", "Alice"), await svc.player("test", "b", "Bob")
    g1 = await new_game(svc, alice, bob, days=1)
    g2 = await new_game(svc, alice, bob, days=2)
    await svc.move(g2.id, alice.id, "a1")
    await opener.close(svc)
    clock.advance(days=5, hours=3)  # the program was down
    svc = await opener()
    assert (await svc.sweep()).games_timed_out == 2
    v1, v2 = await svc.game(g1.id), await svc.game(g2.id)
    assert (v1.reason, v1.ended_at) == ("time", T0 + timedelta(days=1))
    assert (v2.reason, v2.ended_at) == ("time", T0 + timedelta(days=2))
    assert "[EndDate \"2025.01.07\"]" in await svc.record(g1.id)


async def test_a_late_command_records_the_deadline_as_the_end(svc, alice, bob, clock):
    g = await new_game(svc, alice, bob, days=1)
    clock.advance(days=3)
    with pytest.raises(GameOver, match="ran out of time"):
        await svc.move(g.id, alice.id, "a1")
    assert (await svc.game(g.id)).ended_at == T0 + timedelta(days=1)


class Monotonic:
    """A monotonic clock that moves when told to."""

    def __init__(self):
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
async def paused_scheduler(svc):
    """A ReminderScheduler whose jobs never run by themselves (the test calls them)."""
    from apscheduler.schedulers.asyncio import AsyncIOScheduler

    mono = Monotonic()
    scheduler = AsyncIOScheduler(timezone=UTC)
    scheduler.start(paused=True)
    sched = ReminderScheduler(svc, scheduler, safety_minutes=10, monotonic=mono)
    await sched.start(catch_up=False)
    yield sched, mono
    sched.shutdown()


async def test_the_watch_sweeps_when_the_wall_clock_jumps(svc, alice, bob, clock, paused_scheduler):
    sched, mono = paused_scheduler
    g = await new_game(svc, alice, bob, days=1)
    watch = sched.scheduler.get_job(sched.WATCH_JOB)
    assert watch.trigger.interval <= timedelta(minutes=1)  # far under the 10-minute safety sweep
    wakes = sched.wakes
    # time passing normally: both clocks move together; nothing to do
    clock.advance(seconds=30)
    mono.t += 30
    assert await sched.watch() is False and sched.wakes == wakes
    # the machine slept two days (the monotonic clock saw 30 s): the loss is recorded now
    clock.advance(days=2)
    mono.t += 30
    assert await sched.watch() is True and sched.wakes == wakes + 1
    v = await svc.game(g.id)
    assert (v.reason, v.ended_at) == ("time", T0 + timedelta(days=1))
    # the wall clock set back: nothing to do (the wake job, on the wall clock, waits)
    clock.set(clock.now() - timedelta(hours=5))
    mono.t += 30
    assert await sched.watch() is False


async def test_a_refused_sweep_is_one_log_line(svc, alice, bob, clock, paused_scheduler, caplog):
    from datetime import datetime
    sched, _ = paused_scheduler
    await new_game(svc, alice, bob, days=1)
    clock.set(datetime(9999, 12, 30, tzinfo=UTC))
    with caplog.at_level(logging.WARNING, logger="bot.timekeeping.reminders"):
        await sched.wake()  # no exception for APScheduler to log with a traceback
    lines = [r for r in caplog.records if r.name == "bot.timekeeping.reminders"]
    assert [r.exc_info for r in lines] == [None, None]
    assert all("outside the dates" in r.getMessage() and "\n" not in r.getMessage() for r in lines)


async def test_apscheduler_chatter_is_quiet_by_default(svc, alice, bob, caplog):
    from apscheduler.schedulers.asyncio import AsyncIOScheduler

    aps = logging.getLogger("apscheduler")
    saved = aps.level
    try:
        aps.setLevel(logging.NOTSET)
        caplog.set_level(logging.INFO)
        sched = ReminderScheduler(svc, AsyncIOScheduler(timezone=UTC), safety_minutes=10)
        await sched.start(catch_up=False)
        try:
            await new_game(svc, alice, bob, days=1)
            await sched.reschedule()
            await sched.reschedule()
        finally:
            sched.shutdown()
        chatter = [r for r in caplog.records if r.name.startswith("apscheduler")]
        assert chatter == []
        # debug logging asked for: the library speaks again
        aps.setLevel(logging.NOTSET)
        caplog.clear()
        caplog.set_level(logging.DEBUG)
        sched = ReminderScheduler(svc, AsyncIOScheduler(timezone=UTC), safety_minutes=10)
        await sched.start(catch_up=False)
        sched.shutdown()
        assert any("Added job" in r.getMessage() for r in caplog.records if r.name.startswith("apscheduler"))
    finally:
        aps.setLevel(saved)
