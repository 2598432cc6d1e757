"""Time passing: the sweep does what is due (vacations' ends, games lost on time,
challenges expired, reminders and digests, other parts' due work, delivery) and prunes
what ``retention_days`` lets go; ``next_wake`` says when it is next needed. The scheduler
(``bot.timekeeping.scheduler``) calls both.
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from ..domain.kinds import GameStatus, Outcome
from ..timekeeping.clock import DAY, HOUR, effective_deadline, from_ts
from ..timekeeping.reminders import batched
from .challenges import earliest
from .results import SweepReport


class Sweeper(Protocol):
    """Work of another part's that the sweep does when due (``GameService.add_sweeper``)."""

    async def sweep_due(self, now: int) -> int: ...  # does what is due at ``now``; how many

    def next_due(self) -> int | None: ...  # when the next of it is due


class SweepOps:
    """The service's sweep (mixed into ``GameService``, which holds ``_sweepers`` and
    ``_next_prune``)."""

    PRUNE_EVERY = HOUR  # the sweep prunes at most this often
    PRUNE_BATCH = 2000  # rows of each kind a write transaction deletes
    DIGEST_DAYS_KEPT = 3  # a digest looks back one local day: its record must outlive that

    async def sweep(self, now: datetime | None = None) -> SweepReport:
        """Do everything due at ``now`` (default: the clock's): end vacations whose
        time is up, end games whose deadline has passed (ended at the deadline), send
        due reminders and digests, deliver the outbox, and at most hourly prune what
        ``retention_days`` lets go. Safe to call at any time, any number of times."""
        t = self._now() if now is None else self._ts(now)
        vacations = await self._end_due_vacations(t)
        timed_out = await self._expire_due_games(t)
        expired = await self._expire_due_challenges(t)
        reminders = await self.reminders.collect(t)
        digests = await self.reminders.digests(t)
        retried = sum([await sweeper.sweep_due(t) for sweeper in self._sweepers])
        delivered = await self.outbox.dispatch(t)
        pruned = 0
        if t >= self._next_prune:
            self._next_prune = t + self.PRUNE_EVERY
            pruned = await self.prune(from_ts(t))
        return SweepReport(vacations, timed_out, reminders, digests, delivered, pruned, expired, retried)

    async def prune(self, now: datetime | None = None) -> int:
        """Delete the notices delivered and the reminders spent more than ``retention_days``
        ago (none if it is 0): about six rows a move that no game's record needs. Games,
        moves, players, challenges and vacations are kept. Returns the rows deleted."""
        if not self.settings.retention_days:
            return 0
        t = self._now() if now is None else self._ts(now)
        before = t - self.settings.retention_days * DAY
        digests_before = min(before, t - self.DIGEST_DAYS_KEPT * DAY)
        total = 0
        for table, cutoff in (("reminders", before), ("digests", digests_before), ("events", before)):
            # in batches, each beside other writes: only rows long done, which none locks
            while True:
                async with self.store.row_write() as tx:
                    n = await tx.prune(table, cutoff, self.PRUNE_BATCH)
                total += n
                if n < self.PRUNE_BATCH:
                    break
        return total

    async def next_wake(self, now: datetime | None = None) -> datetime | None:
        """When the next sweep has something to do, from the database alone."""
        t = self._now() if now is None else self._ts(now)
        await self.tournament_sweeper.refresh()  # an event made or a round begun since (by any process)
        return from_ts(earliest(await self.reminders.next_wake(t), await self._next_challenge_expiry(),
                                *(sweeper.next_due() for sweeper in self._sweepers)))

    async def _expire_due_games(self, now: int) -> int:
        async with self.store.read() as tx:
            candidates = await tx.clocked_games(due_by=now)
        lost = []
        for c in candidates:
            deadline = effective_deadline(c.deadline, c.turn_started_at, c.vacation_start,
                                          c.vacation_until, now)
            if deadline <= now:
                lost.append((c, deadline))
        n = 0
        for batch in batched(lost, self.reminders.BATCH, self.reminders.BATCH_SECONDS):
            async with self.store.row_write() as tx:
                claimed = []
                for c, deadline in batch:
                    g = await tx.claim_game(c.id)
                    if g is None:
                        continue  # another process's sweep, or a move, holds it: theirs
                    if g.status != GameStatus.ACTIVE or g.version != c.version or g.deadline != c.deadline:
                        continue  # it changed since: the next sweep looks again
                    claimed.append((g, deadline))
                # every rated game's players at once, in id order, before any is written: the
                # batch then waits for players in the one order every transaction keeps
                await tx.lock_players(pid for g, _ in claimed if g.rated for pid in (g.white_id, g.black_id))
                for g, deadline in claimed:
                    if not await tx.bump_version(g.id, g.version):
                        continue
                    await self._finish(tx, g, Outcome.loss(g.to_move, "time"), now, ended_at=deadline)
                    n += 1
        if n:
            await self._deliver(now)
        return n

    def add_sweeper(self, sweeper: Sweeper) -> None:
        """Have every sweep do ``sweeper``'s due work too, and wake for it (the computer's
        turns to try again: bot/computer/player.py)."""
        self._sweepers.append(sweeper)

    def remove_sweeper(self, sweeper: Sweeper) -> None:
        if sweeper in self._sweepers:
            self._sweepers.remove(sweeper)
