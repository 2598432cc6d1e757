"""A burst of due work costs a batch, not a transaction per game (issue #34): reminders,
timeouts, digests and the outbox's claims and marks are written many to a transaction, on
every back end, and two processes' sweeps share a burst out with nothing done twice."""
import asyncio
import contextlib
from datetime import timedelta

import pytest

from bot.delivery import events as ev
from bot.timekeeping.clock import HOUR

from .conftest import new_game

pytestmark = pytest.mark.contract  # on every database back end (backends.py)

BURST = 40  # games: eight batches of five
BATCHES = BURST // 5
FIXED = 8  # what a sweep writes whatever is due: the lapsed claims' release, the hourly prune...


@pytest.fixture
def small_batches(monkeypatch):
    from bot.delivery.outbox import Outbox
    from bot.timekeeping.reminders import Reminders
    monkeypatch.setattr(Reminders, "BATCH", 5)
    monkeypatch.setattr(Reminders, "BATCH_SECONDS", None)  # fixed sizes, whatever the load: countable
    monkeypatch.setattr(Outbox, "BATCH", 5)
    monkeypatch.setattr(Outbox, "MARK_SECONDS", 3600)  # marks at a batch's end only: countable


class Counted:
    """Counts the write transactions a store opens (whole-database and row writes)."""

    def __init__(self, store):
        self.store, self.n, self.depth = store, 0, 0
        for name in ("write", "row_write"):
            setattr(self, f"_real_{name}", getattr(store, name))
            setattr(store, name, self._counting(getattr(store, name)))

    def _counting(self, real):
        @contextlib.asynccontextmanager
        async def counted():
            self.n += self.depth == 0  # a row write made as a whole-database one counts once
            self.depth += 1
            try:
                async with real() as tx:
                    yield tx
            finally:
                self.depth -= 1
        return counted

    def close(self):
        for name in ("write", "row_write"):
            setattr(self.store, name, getattr(self, f"_real_{name}"))


async def pairs(svc, n, tag=""):
    players = [await svc.player("test", f"{tag}{i}", f"P{tag}{i}") for i in range(2 * n)]
    return [(players[2 * i], players[2 * i + 1]) for i in range(n)]


async def test_a_burst_of_due_reminders_is_written_and_delivered_in_batches(svc, clock, notifier, small_batches):
    games = [await new_game(svc, w, b, days=3) for w, b in await pairs(svc, BURST)]
    await svc.sweep()
    notifier.events.clear()
    clock.advance(timedelta(hours=36))        # every game's 50% warning is due
    count = Counted(svc.store)
    try:
        report = await svc.sweep()
    finally:
        count.close()
    warned = sorted(e.game_id for e in notifier.events if isinstance(e, ev.TimeWarning))
    assert report.reminders == BURST and warned == sorted(g.id for g in games)
    # the reminders' batches, the outbox's claims and marks (a transaction per game, a claim
    # and a mark per notice, were 3 x 40)
    assert count.n <= 3 * BATCHES + FIXED, count.n
    async with svc.store.read() as tx:
        events = [e for e in await tx.events() if e.kind == "time_warning"]
    assert len(events) == BURST and {e.status for e in events} == {"sent"}
    await svc.sweep()
    assert len(notifier.events) == BURST     # nothing twice


async def test_a_burst_of_timeouts_ends_every_game_once_in_batches(svc, clock, notifier, small_batches):
    games = [await new_game(svc, w, b, days=1, rated=True) for w, b in await pairs(svc, BURST)]
    await svc.sweep()
    notifier.events.clear()
    clock.advance(timedelta(days=1, hours=1))
    count = Counted(svc.store)
    try:
        report = await svc.sweep()
    finally:
        count.close()
    assert report.games_timed_out == BURST
    for g in games:
        view = await svc.game(g.id)
        assert (view.status, view.result, view.reason) == ("finished", "0-1", "time")
    over = [e for e in notifier.events if isinstance(e, ev.GameOver)]
    assert sorted(e.game_id for e in over) == sorted(g.id for g in games for _ in range(2))
    # the timeouts' batches; each game's two notices: twice as many claims and marks
    assert count.n <= 5 * BATCHES + FIXED, count.n
    async with svc.store.read() as tx:   # every rated game counted for both players
        rated = [await tx.rating(p, "fake") for g in games for p in (g.white.id, g.black.id)]
    assert all(r is not None and r.games == 1 for r in rated)


async def test_a_burst_of_digests_is_written_in_batches(svc, clock, notifier, small_batches):
    games = [await new_game(svc, w, b, days=3) for w, b in await pairs(svc, BURST)]
    for g in games:
        await svc.update_settings(g.white.id, digest_time="13:00")
    await svc.sweep()
    notifier.events.clear()
    clock.advance(timedelta(hours=1))          # 13:00 UTC: every White's digest is due
    count = Counted(svc.store)
    try:
        report = await svc.sweep()
    finally:
        count.close()
    digests = [e for e in notifier.events if isinstance(e, ev.Digest)]
    assert report.digests == BURST and sorted(e.recipient.id for e in digests) == sorted(g.white.id for g in games)
    assert count.n <= 3 * BATCHES + FIXED, count.n   # the digests' batches, the claims, the marks


async def test_two_processes_sweeping_one_burst_at_once_do_each_game_once(opener, fake_engine, clock, notifier,
                                                                        small_batches):
    one, two = await opener(), await opener()
    games = [await new_game(one, w, b, days=3) for w, b in await pairs(one, BURST)]
    await one.sweep()
    notifier.events.clear()
    clock.advance(timedelta(hours=36))
    reports = await asyncio.gather(one.sweep(), two.sweep())
    assert sum(r.reminders for r in reports) == BURST
    warned = sorted(e.game_id for e in notifier.events if isinstance(e, ev.TimeWarning))
    assert warned == sorted(g.id for g in games)
    clock.advance(timedelta(seconds=HOUR))
    await asyncio.gather(one.sweep(), two.sweep())
    assert len([e for e in notifier.events if isinstance(e, ev.TimeWarning)]) == BURST


def test_batches_shrink_to_their_time_and_grow_back(monkeypatch):
    from bot.timekeeping import reminders
    now = [0.0]
    monkeypatch.setattr(reminders.time, "monotonic", lambda: now[0])
    sizes = []
    for chunk in reminders.batched(range(100), 10, 0.02):
        sizes.append(len(chunk))
        now[0] += (0.003 if len(sizes) < 4 else 0.0005) * len(chunk)  # 3 ms a game, then 0.5 ms
    assert sizes[:4] == [10, 6, 6, 6]          # 30 ms: cut to what fits in 20 ms
    assert sizes[4:6] == [10, 10] and sum(sizes) == 100   # quick again: back to the most
