"""The APScheduler wiring: one "wake up at T" job that runs the service's sweep.

What is due and when is :mod:`bot.timekeeping.reminders`' business (and the database's); this
module only keeps a timer set to the next wake. It needs of the service no more than
:class:`Sweepable` says, so it imports neither the service nor the reminders.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Protocol

from ..domain.errors import DatabaseUnavailable, ServiceError
from .clock import Clock

log = logging.getLogger("bot.timekeeping.reminders")  # its name before the split: log set-ups filter on it


class Sweepable(Protocol):
    """What the scheduler asks of the service (``GameService`` is one)."""

    clock: Clock

    @property
    def settings(self): ...  # its ``safety_sweep_minutes``

    async def sweep(self) -> object: ...

    async def next_wake(self) -> datetime | None: ...

    def add_listener(self, callback: Callable[[], None]) -> None: ...

    def remove_listener(self, callback: Callable[[], None]) -> None: ...


def quiet_scheduler_logs() -> None:
    """APScheduler logs every job it adds or runs at INFO ("Added job", "Running job"),
    which is nearly every command here: its loggers go to WARNING, unless their level
    was set already or debug logging was asked for (the root logger at DEBUG)."""
    logger = logging.getLogger("apscheduler")
    if logger.level == logging.NOTSET and logging.getLogger().getEffectiveLevel() > logging.DEBUG:
        logger.setLevel(logging.WARNING)


class ReminderScheduler:
    """Wakes the service when the database says something is due.

    Holds one date job (``WAKE_JOB``) at the next wake time, and a safety
    interval job; both with ``misfire_grace_time=None`` (a late wake still runs)
    and ``coalesce=True`` (missed runs make one). Nothing lives only here: at
    ``start()`` everything is computed from the database, and a sweep runs at
    once to catch up on what came due while the program was stopped.

    The jobs' timers run on the event loop's monotonic clock, which does not move while
    the machine sleeps and does not follow the wall clock when it is set: after either, a
    wake would come late (up to the safety interval). A watch job (``WATCH_JOB``, every
    ``watch_seconds``) compares how far the wall clock and the monotonic clock moved
    since its last look and sweeps at once when the wall clock got ahead.
    """

    WAKE_JOB = "fairypost-wake"
    SAFETY_JOB = "fairypost-safety"
    WATCH_JOB = "fairypost-watch"
    WATCH_SECONDS = 30
    JUMP_SECONDS = 5  # the wall clock ahead of the monotonic one by more: a jump

    def __init__(self, service: Sweepable, scheduler=None, safety_minutes: int | None = None,
                 watch_seconds: float | None = None, monotonic: Callable[[], float] = time.monotonic):
        from apscheduler.schedulers.asyncio import AsyncIOScheduler

        quiet_scheduler_logs()
        self.watch_seconds = self.WATCH_SECONDS if watch_seconds is None else watch_seconds
        self._monotonic = monotonic
        self._mark: tuple[float, float] | None = None  # (wall, monotonic) at the last look
        self.service = service
        self.scheduler = scheduler or AsyncIOScheduler(timezone=UTC)
        self.safety_minutes = (service.settings.safety_sweep_minutes
                               if safety_minutes is None else safety_minutes)
        self._lock = asyncio.Lock()
        self._tasks: set[asyncio.Task] = set()
        self._listener: Callable[[], None] | None = None
        self._poke_waiting = False
        self.wakes = 0

    async def start(self, catch_up: bool = True) -> None:
        if not self.scheduler.running:
            self.scheduler.start()
        if self.safety_minutes:
            self.scheduler.add_job(self.wake, "interval", minutes=self.safety_minutes,
                                   id=self.SAFETY_JOB, replace_existing=True,
                                   misfire_grace_time=None, coalesce=True, max_instances=1)
        if self.watch_seconds:
            self.scheduler.add_job(self.watch, "interval", seconds=self.watch_seconds,
                                   id=self.WATCH_JOB, replace_existing=True,
                                   misfire_grace_time=None, coalesce=True, max_instances=1)
        self._mark = self._clocks()
        self._listener = self.poke
        self.service.add_listener(self._listener)
        if catch_up:
            await self.wake()
        else:
            await self.reschedule()

    def shutdown(self) -> None:
        if self._listener is not None:
            self.service.remove_listener(self._listener)
            self._listener = None
        for task in self._tasks:
            task.cancel()
        if self.scheduler.running:
            self.scheduler.shutdown(wait=False)

    def _clocks(self) -> tuple[float, float]:
        return self.service.clock.now().timestamp(), self._monotonic()

    async def watch(self) -> bool:
        """Sweep now if the wall clock moved on further than the monotonic clock since the
        last look (set forward, or the machine slept): what came due meanwhile is done
        now, not when the monotonic timers run out. True if it swept."""
        wall, mono = now = self._clocks()
        last, self._mark = self._mark, now
        if last is None:
            return False
        ahead = (wall - last[0]) - (mono - last[1])
        if ahead <= self.JUMP_SECONDS:
            return False
        log.info("the wall clock moved %d s further than the time that passed (set forward, or "
                 "the machine slept): sweeping now", ahead)
        await self.wake()
        return True

    async def wake(self) -> None:
        async with self._lock:
            self.wakes += 1
            try:
                await self.service.sweep()
            except ServiceError as e:  # expected (a clock out of range): one line, no traceback
                log.warning("the sweep was refused: %s", e)
            except DatabaseUnavailable:  # the store logged it; its coming back wakes us
                log.debug("no sweep: the database is unavailable")
            finally:
                await self._reschedule_locked()

    async def reschedule(self) -> None:
        async with self._lock:
            await self._reschedule_locked()

    async def _reschedule_locked(self) -> None:
        try:
            when = await self.service.next_wake()
        except ServiceError as e:
            log.warning("no wake could be worked out: %s", e)
            return
        except DatabaseUnavailable:  # the store logged it; its coming back wakes us again
            return
        if when is not None:
            # never a wake in the past twice over: what the sweep could not do now
            # (a conflict, a failing adapter) is looked at again a little later
            floor = self.service.clock.now() + timedelta(seconds=1)
            when = max(when, floor)
        if when is None:
            if self.scheduler.get_job(self.WAKE_JOB):
                self.scheduler.remove_job(self.WAKE_JOB)
            return
        # max_instances > 1: this may run inside the wake job itself, which still counts
        # as running; the lock above keeps sweeps one at a time.
        self.scheduler.add_job(self.wake, "date", run_date=when, id=self.WAKE_JOB,
                               replace_existing=True, misfire_grace_time=None, coalesce=True,
                               max_instances=4)

    def poke(self) -> None:
        """The service changed something: recompute the wake time soon.

        At most one recomputation waits: a burst of commands makes one or two, not one
        each (a waiting one will see every change made before it starts)."""
        if self._poke_waiting:
            return
        self._poke_waiting = True
        task = asyncio.get_running_loop().create_task(self._poked())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _poked(self) -> None:
        async with self._lock:
            self._poke_waiting = False
            await self._reschedule_locked()

    def next_run_time(self) -> datetime | None:
        job = self.scheduler.get_job(self.WAKE_JOB)
        return None if job is None else job.next_run_time
