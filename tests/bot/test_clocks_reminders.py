"""Correspondence clocks, loss on time, reminders, quiet hours, restarts, the digest."""

from datetime import timedelta

import pytest

from bot.delivery import events as ev
from bot.domain.errors import GameOver
from bot.timekeeping.reminders import turn_plan

from .conftest import T0, new_game

pytestmark = pytest.mark.contract  # on every database back end (backends.py)

H = 3600
D = 86400


def warnings(notifier, pid=None):
    return [e.level for e in notifier.of(ev.TimeWarning, pid if pid is not None else ...)]


def test_turn_plan():
    assert turn_plan(None) == [("your_move", None)]
    assert turn_plan(1) == [("your_move", None), ("50%", 12 * H), ("80%", 17280), ("1h", H)]
    # 2 days: half the time is also 24 h before the deadline: one warning for both
    assert turn_plan(2) == [("your_move", None), ("50%", D), ("80%", 34560), ("1h", H)]
    assert turn_plan(3) == [("your_move", None), ("50%", 36 * H), ("80%", 51840), ("24h", D), ("1h", H)]


async def test_loss_on_time_by_sweep(svc, alice, bob, clock, notifier):
    g = await new_game(svc, alice, bob, days=1)
    await svc.move(g.id, alice.id, "a1")
    clock.advance(hours=23, minutes=59)
    assert (await svc.sweep()).games_timed_out == 0
    clock.advance(minutes=1)  # exactly at the deadline
    report = await svc.sweep()
    assert report.games_timed_out == 1
    v = await svc.game(g.id)
    assert (v.status, v.result, v.reason) == ("finished", "1-0", "time")
    assert {e.recipient.id for e in notifier.of(ev.GameOver)} == {alice.id, bob.id}
    assert (await svc.sweep()).games_timed_out == 0  # once


async def test_a_late_move_loses_on_time_even_before_the_sweep(svc, alice, bob, clock, notifier):
    g = await new_game(svc, alice, bob, days=2)
    clock.advance(days=2, seconds=1)
    with pytest.raises(GameOver, match="Alice ran out of time"):
        await svc.move(g.id, alice.id, "a1")
    v = await svc.game(g.id)
    assert (v.result, v.reason, v.ply) == ("0-1", "time", 0)
    assert len(notifier.of(ev.GameOver)) == 2


async def test_each_turn_gets_full_time_and_no_clock_never_expires(svc, alice, bob, clock):
    g = await new_game(svc, alice, bob, days=3)
    clock.advance(days=2, hours=23)  # White uses almost all of the first turn
    v = (await svc.move(g.id, alice.id, "a1")).game
    assert v.seconds_left == 3 * D  # Black's first move: full time
    clock.advance(days=2)
    v = (await svc.move(g.id, bob.id, "b2")).game
    assert v.seconds_left == 3 * D
    g2 = await new_game(svc, alice, bob, days=None)
    clock.advance(days=400)
    await svc.sweep()
    assert (await svc.game(g2.id)).status == "active"


async def test_reminders_each_once_at_their_times(svc, alice, bob, clock, notifier):
    await new_game(svc, alice, bob, days=3)
    # the game's start is the first move's one notice (issue 29): no "your move" after it
    started = notifier.of(ev.GameStarted, alice.id)
    assert len(started) == 1 and started[0].your_move and started[0].deadline == T0 + timedelta(days=3)
    assert not notifier.of(ev.GameStarted, bob.id)[0].your_move
    assert notifier.of(ev.YourMove, alice.id) == []
    steps = [(35 * H, []), (H, ["50%"]), (12 * H, ["50%", "24h"]),
             (int(9.6 * H), ["50%", "24h", "80%"]), (48240, ["50%", "24h", "80%", "1h"])]
    for delta, expected in steps:
        clock.advance(seconds=delta)
        await svc.sweep()
        await svc.sweep()  # a second sweep at the same time sends nothing more
        assert warnings(notifier, alice.id) == expected
    w = notifier.of(ev.TimeWarning)[-1]
    assert (w.seconds_left, w.opponent.name, w.deadline) == (H, "Bob", T0 + timedelta(days=3))
    assert notifier.of(ev.YourMove, alice.id) == []
    assert notifier.of(ev.TimeWarning, bob.id) == []


async def test_next_turn_gets_its_own_reminders_and_old_ones_are_cancelled(svc, alice, bob, clock, notifier):
    g = await new_game(svc, alice, bob, days=1)
    clock.advance(hours=1)
    await svc.move(g.id, alice.id, "a1")
    clock.advance(hours=12)
    await svc.sweep()
    assert warnings(notifier, alice.id) == [] and warnings(notifier, bob.id) == ["50%"]
    async with svc.store.read() as tx:
        statuses = {(r.turn_no, r.kind): r.status for r in await tx.reminders(g.id)}
    assert (1, "your_move") not in statuses  # the game's start said it
    assert statuses[(2, "your_move")] == "sent"
    assert statuses[(1, "50%")] == statuses[(1, "1h")] == "cancelled"
    assert statuses[(2, "50%")] == "sent" and statuses[(2, "1h")] == "pending"


async def test_quiet_hours_defer_reminders_and_coalesce_warnings(svc, alice, bob, clock, notifier):
    # Bob sleeps 22:00-08:00 UTC; it is noon
    await svc.update_settings(bob.id, quiet_hours=("22:00", "08:00"))
    g = await new_game(svc, alice, bob, days=1)
    clock.set(T0 + timedelta(hours=11))  # 23:00: Alice moves, Bob is asleep
    await svc.move(g.id, alice.id, "a1")
    assert notifier.of(ev.YourMove, bob.id) == []
    assert await svc.next_wake() == T0 + timedelta(hours=20)  # 08:00 next day
    clock.set(T0 + timedelta(hours=19, minutes=59))
    await svc.sweep()
    assert notifier.of(ev.YourMove, bob.id) == []
    clock.set(T0 + timedelta(hours=20))
    await svc.sweep()
    assert len(notifier.of(ev.YourMove, bob.id)) == 1
    # 50% (11:00 next day) is outside quiet hours; 80% (18:12) too; 1h is at 22:00, in them:
    # it would wait past the deadline (23:00), when the game is lost anyway
    clock.set(T0 + timedelta(hours=23))
    await svc.sweep()
    assert warnings(notifier, bob.id) == ["50%"]
    clock.set(T0 + timedelta(hours=30, minutes=12))
    await svc.sweep()
    assert warnings(notifier, bob.id) == ["50%", "80%"]
    clock.set(T0 + timedelta(hours=34))  # 22:00, quiet
    await svc.sweep()
    assert warnings(notifier, bob.id) == ["50%", "80%"]
    clock.set(T0 + timedelta(hours=35))
    await svc.sweep()
    assert (await svc.game(g.id)).reason == "time"
    assert warnings(notifier, bob.id) == ["50%", "80%"]


async def test_warnings_held_by_quiet_hours_come_as_one(svc, alice, bob, clock, notifier):
    # quiet 13:00-09:00 Paris = 12:00-08:00 UTC in January
    await svc.update_settings(alice.id, timezone="Europe/Paris", quiet_hours=("13:00", "09:00"))
    g = await new_game(svc, alice, bob, days=1)  # noon UTC: quiet already
    assert notifier.of(ev.YourMove, alice.id) == []
    clock.advance(hours=19)  # 07:00 UTC: still quiet; your move, 50% (00:00), 80% (07:12)... due
    clock.advance(minutes=30)
    await svc.sweep()
    assert notifier.of(ev.YourMove, alice.id) == [] and warnings(notifier) == []
    assert await svc.next_wake() == T0 + timedelta(hours=20)
    clock.advance(minutes=30)  # 08:00 UTC = 09:00 Paris
    await svc.sweep()
    assert notifier.of(ev.YourMove, alice.id) == []  # the game's start said it
    assert warnings(notifier, alice.id) == ["80%"]  # the most urgent one; 50% superseded
    async with svc.store.read() as tx:
        statuses = {r.kind: r.status for r in await tx.reminders(g.id)}
    assert statuses == {"50%": "superseded", "80%": "sent", "1h": "pending"}
    clock.advance(hours=3)  # 11:00 UTC, one hour left
    await svc.sweep()
    assert warnings(notifier, alice.id) == ["80%", "1h"]


async def test_restart_in_the_middle_of_a_game(opener, fake_engine, clock, notifier):
    svc = await opener()
    alice = await svc.player("test", "a", "Alice")
    bob = await svc.player("test", "b", "Bob")
    g = await new_game(svc, alice, bob, days=3)
    await svc.move(g.id, alice.id, "a1")
    clock.advance(hours=37)
    await svc.sweep()
    assert warnings(notifier, bob.id) == ["50%"]
    sent_before = len(notifier.events)
    await opener.close(svc)

    # the program is stopped for a while; time passes beyond the 24h warning
    clock.advance(hours=12)
    svc = await opener()
    assert len(notifier.events) == sent_before  # opening sends nothing by itself
    assert await svc.next_wake() == clock.now()  # something is due now
    await svc.sweep()
    await svc.sweep()
    assert warnings(notifier, bob.id) == ["50%", "24h"]  # the missed one, once
    # the game goes on
    r = await svc.move(g.id, bob.id, "b2", expected_ply=1)
    assert r.game.ply == 2
    assert len(notifier.of(ev.YourMove, alice.id)) == 1  # the first was the game's start

    await opener.close(svc)
    svc = await opener()
    clock.advance(hours=71)
    await svc.sweep()
    kinds = warnings(notifier, alice.id)
    assert kinds == ["1h"]  # after a long stop only the most urgent is worth sending
    assert len(notifier.of(ev.YourMove, alice.id)) == 1
    ids = [e.event_id for e in notifier.events]
    assert len(ids) == len(set(ids))  # nothing sent twice


async def test_restart_after_a_crash_between_claim_and_send(opener, fake_engine, clock, notifier):
    class Dies:
        async def notify(self, event):
            if isinstance(event, ev.GameStarted):
                raise SystemExit("power cut")  # not an Exception: the run just stops here

    svc = await opener(notifier=Dies())
    alice = await svc.player("test", "a", "Alice")
    bob = await svc.player("test", "b", "Bob")
    with pytest.raises(SystemExit):
        await new_game(svc, alice, bob, days=3)  # committed, then died while notifying
    await opener.close(svc)
    svc = await opener()  # the recording notifier
    assert len(await svc.list_games(alice.id)) == 1
    await svc.sweep()
    kinds = sorted(type(e).__name__ for e in notifier.events)
    assert kinds == ["GameStarted", "GameStarted"]  # the first mover's says it is their move
    await svc.sweep()
    assert len(notifier.events) == 2


async def test_scheduler_is_rebuilt_from_the_database(opener, fake_engine, clock, notifier):
    from bot.timekeeping.reminders import ReminderScheduler

    svc = await opener()
    alice = await svc.player("test", "a", "Alice")
    bob = await svc.player("test", "b", "Bob")
    g = await new_game(svc, alice, bob, days=3)
    sched = ReminderScheduler(svc, safety_minutes=0)
    await sched.start()
    try:
        # the next wake is the 50% warning
        assert sched.next_run_time() == T0 + timedelta(hours=36)
        job = sched.scheduler.get_job(sched.WAKE_JOB)
        assert job.misfire_grace_time is None and job.coalesce is True
        await svc.move(g.id, alice.id, "a1")
        await sched.reschedule()
        assert sched.next_run_time() == clock.now() + timedelta(hours=36)
    finally:
        sched.shutdown()
    await opener.close(svc)
    # a new program: nothing remembered but the database
    svc = await opener()
    sched = ReminderScheduler(svc, safety_minutes=5)
    await sched.start()
    try:
        assert sched.next_run_time() == clock.now() + timedelta(hours=36)
        safety = sched.scheduler.get_job(sched.SAFETY_JOB)
        assert safety.misfire_grace_time is None and safety.coalesce is True
    finally:
        sched.shutdown()


async def test_scheduler_wakes_the_service(opener, fake_engine, clock, notifier):
    """A wake time already past runs at once (misfire_grace_time=None): no sleeping,
    the test waits for the sweep to report."""
    import asyncio

    from bot.timekeeping.reminders import ReminderScheduler

    svc = await opener()
    alice = await svc.player("test", "a", "Alice")
    bob = await svc.player("test", "b", "Bob")
    await new_game(svc, alice, bob, days=1)
    sched = ReminderScheduler(svc, safety_minutes=0)
    await sched.start(catch_up=False)
    swept = asyncio.Event()
    real_sweep = svc.sweep

    async def sweep(now=None):
        report = await real_sweep(now)
        swept.set()
        return report

    svc.sweep = sweep
    try:
        clock.advance(hours=12)  # the 50% warning is due; the wake job runs about a second from now
        await sched.reschedule()
        await asyncio.wait_for(swept.wait(), timeout=10)
        assert warnings(notifier, alice.id) == ["50%"]
    finally:
        sched.shutdown()


async def test_digest(svc, alice, bob, carol, clock, notifier):
    await svc.update_settings(alice.id, digest_time="08:00", timezone="Europe/Paris",
                              quiet_hours=("22:00", "07:00"))
    g1 = await new_game(svc, alice, bob, days=7)
    g2 = await new_game(svc, alice, carol, days=2)
    g3 = await new_game(svc, bob, alice, days=1)   # Bob to move: not in Alice's digest
    g4 = await new_game(svc, carol, alice, days=None)
    await svc.move(g4.id, carol.id, "a1")
    # noon UTC = 13:00 Paris: today's 08:00 has passed, so the first digest is today's
    await svc.sweep()
    (d,) = notifier.of(ev.Digest)
    assert d.day == "2025-01-06" and d.recipient.id == alice.id
    assert [e.game_id for e in d.games] == [g2.id, g1.id, g4.id]
    assert d.games[0].opponent == "Carol" and d.games[0].seconds_left == 2 * D
    await svc.sweep()
    assert len(notifier.of(ev.Digest)) == 1
    # next: tomorrow 08:00 Paris = 07:00 UTC
    assert await svc.next_wake() <= T0 + timedelta(hours=19)
    clock.set(T0 + timedelta(hours=18, minutes=59))
    await svc.sweep()
    assert len(notifier.of(ev.Digest)) == 1
    clock.set(T0 + timedelta(hours=19))
    await svc.move(g3.id, bob.id, "a1")  # now g3 is Alice's move too (1 day)
    await svc.sweep()
    d = notifier.of(ev.Digest)[-1]
    assert d.day == "2025-01-07" and [e.game_id for e in d.games] == [g3.id, g2.id, g1.id, g4.id]
    # a day with nothing to move: no digest, but the day is done
    for g in (g1, g2, g3, g4):
        await svc.resign(g.id, alice.id)
    clock.set(T0 + timedelta(days=1, hours=19))
    await svc.sweep()
    assert len(notifier.of(ev.Digest)) == 2


async def test_digest_in_quiet_hours_waits_for_their_end(svc, alice, bob, clock, notifier):
    await svc.update_settings(alice.id, digest_time="23:30", quiet_hours=("23:00", "07:00"))
    await new_game(svc, alice, bob, days=7)
    clock.set(T0 + timedelta(hours=11, minutes=45))  # 23:45 UTC: quiet
    await svc.sweep()
    assert notifier.of(ev.Digest) == []
    assert await svc.next_wake() == T0 + timedelta(hours=19)
    clock.set(T0 + timedelta(hours=19))  # 07:00 next day: yesterday's digest, deferred
    await svc.sweep()
    (d,) = notifier.of(ev.Digest)
    assert d.day == "2025-01-06"
    await svc.sweep()
    assert len(notifier.of(ev.Digest)) == 1
