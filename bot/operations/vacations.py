"""Vacations: a player pauses all their clocks for some days of a yearly allowance.

A vacation ends when its player moves (``_play``), when they end it, or when its time
runs out (the sweep: ``_end_due_vacations``); its end moves the player's deadlines on by
the time paused.
"""

from __future__ import annotations

from language.text import T

from ..domain.errors import NotFound, VacationError
from ..store import PlayerRow, Tx
from ..timekeeping.clock import DAY, from_ts, paused_deadline, year_bounds
from ..timekeeping.reminders import batched
from .results import VacationInfo


class VacationOps:
    """The service's vacations (mixed into ``GameService``)."""

    async def vacation(self, player_id: int) -> VacationInfo:
        now = self._now()
        async with self.store.read() as tx:
            p = await tx.player(player_id)
            if p is None:
                raise NotFound(T("there is no player #{id}", id=player_id))
            used = await tx.vacation_used(player_id, *year_bounds(now), now)
        return VacationInfo(p.vacation_start is not None, from_ts(p.vacation_start),
                            from_ts(p.vacation_until), used,
                            self.settings.vacation_days_per_year * DAY)

    async def start_vacation(self, player_id: int, days: int | None = None) -> VacationInfo:
        """Pause all the player's clocks, for ``days`` or all the allowance left this
        year. It ends when they move, when they end it, or when the time runs out."""
        async with self._command(player_id) as cmd:
            now = cmd.now
            if days is not None and (not isinstance(days, int) or isinstance(days, bool) or days < 1):
                raise VacationError(T("a vacation lasts a whole number of days, at least 1"))
            async with self.store.read() as tx:  # refusals first: a refusal changes nothing
                await self._vacation_left(tx, player_id, now)
            await self._expire_due_games(now)  # a vacation does not save a game already lost
            async with self.store.write() as tx:
                left = await self._vacation_left(tx, player_id, now)
                length = left if days is None else min(days * DAY, left)
                await tx.start_vacation(player_id, now, now + length)
        return await self.vacation(player_id)

    async def _vacation_left(self, tx: Tx, player_id: int, now: int) -> int:
        """Seconds of vacation the player may start now; the refusals if none."""
        p = await tx.player(player_id)
        if p is None:
            raise NotFound(T("there is no player #{id}", id=player_id))
        if p.vacation_start is not None:
            raise VacationError(T("you are already on vacation, until {moment} UTC",
                                   moment=from_ts(p.vacation_until).strftime("%Y-%m-%d %H:%M")))
        left = (self.settings.vacation_days_per_year * DAY
                - await tx.vacation_used(player_id, *year_bounds(now), now))
        if left <= 0:
            raise VacationError(T("you have no vacation left this year"))
        return left

    async def end_vacation(self, player_id: int) -> VacationInfo:
        async with self._command(player_id) as cmd:
            now = cmd.now
            async with self.store.write() as tx:
                p = await tx.player(player_id)
                if p is None:
                    raise NotFound(T("there is no player #{id}", id=player_id))
                if p.vacation_start is None:
                    raise VacationError(T("you are not on vacation"))
                await self._end_vacation(tx, p, min(now, p.vacation_until))
        return await self.vacation(player_id)

    async def _end_vacation(self, tx: Tx, player: PlayerRow, end: int) -> None:
        """End a vacation at ``end``: the paused time moves the player's deadlines on."""
        for g in await tx.games_to_move(player.id):
            if g.deadline is not None:
                await tx.set_deadline(g.id, paused_deadline(g.deadline, g.turn_started_at,
                                                            player.vacation_start, end))
        await tx.end_vacation(player.id, end)

    async def _end_due_vacations(self, now: int) -> int:
        async with self.store.read() as tx:
            due = await tx.vacations_due(now)
        n = 0
        for batch in batched(due, self.reminders.BATCH, self.reminders.BATCH_SECONDS):
            async with self.store.write() as tx:  # a vacation's end moves deadlines: the whole database
                for p in batch:
                    p = await tx.player(p.id)
                    if p.vacation_until is None or p.vacation_until > now:
                        continue
                    await self._end_vacation(tx, p, p.vacation_until)
                    n += 1
        return n
