"""Turn reminders and digests: what is due, when to wake, and the scheduler wiring.

The database holds everything: each turn's reminder rows (``reminders``), each
game's deadline (``games.deadline``), vacations, digest days (``digests``) and
undelivered notices (``events``). APScheduler holds nothing but one "wake up at
T" job, rebuilt from the database at start and after every change; a wake runs
``GameService.sweep(now)``, which does what is due and records it. Tests call
``sweep`` with an injected clock instead of waiting.

Per turn, the player to move gets (``turn_plan``): one "your move" notice at the
turn's start, and warnings when 50% and 80% of the time is used and 24 hours and
1 hour before the deadline (only those that fall inside the turn, one per
distinct time). Warnings count back from the deadline, so a vacation, which moves
the deadline on, moves them too; while a player is on vacation their clocks are
paused and no warnings come. In a player's quiet hours nothing is sent: what
comes due then waits for their end. If several warnings of one turn are due at
once (after quiet hours, say), only the most urgent is sent and the others are
marked ``superseded``.

Exactly once: a reminder is turned into an outbox event in one transaction that
moves it from ``pending`` to ``sent`` (a conditional update: of two sweeps, one
wins) and writes the event; the outbox then delivers the event (see
:mod:`bot.outbox` for claim -> send -> mark and what a crash in between does). A
digest day is recorded in ``digests`` (primary key player + local day) in the
same transaction as its event.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from . import events as ev
from .clock import (
    DAY,
    HOUR,
    effective_deadline,
    from_ts,
    local_date,
    local_ts,
    parse_hhmm,
)
from .errors import ServiceError
from .players import PlayerSettings, ref
from .store import PendingReminderRow, Store

if TYPE_CHECKING:  # pragma: no cover
    from .service import GameService

log = logging.getLogger(__name__)

WARNING_ORDER = ("50%", "80%", "24h", "1h")


def turn_plan(days: int | None) -> list[tuple[str, int | None]]:
    """(kind, seconds before the deadline) for one turn; None: at the turn's start."""
    plan: list[tuple[str, int | None]] = [("your_move", None)]
    if days is None:
        return plan
    total = days * DAY
    seen: set[int] = set()
    for kind, before in (("50%", total // 2), ("80%", total // 5), ("24h", DAY), ("1h", HOUR)):
        if 0 < before < total and before not in seen:
            plan.append((kind, before))
            seen.add(before)
    return plan


def _settings(text: str) -> PlayerSettings:
    try:
        return PlayerSettings.from_json(text)
    except (ValueError, TypeError):
        log.warning("ignoring unreadable player settings %r", text)
        return PlayerSettings()


def on_vacation(vacation_start: int | None, vacation_until: int | None, now: int) -> bool:
    return vacation_start is not None and (vacation_until is None or now < vacation_until)


def reminder_due(r: PendingReminderRow, now: int) -> int | None:
    """When a pending reminder comes due; None while it cannot (clock paused)."""
    if r.before_deadline is None:
        return r.turn_started_at
    if r.deadline is None or on_vacation(r.vacation_start, r.vacation_until, now):
        return None
    deadline = effective_deadline(r.deadline, r.turn_started_at, r.vacation_start,
                                  r.vacation_until, now)
    return deadline - r.before_deadline


def digest_due(settings: PlayerSettings, day) -> int:
    """When the digest of a local day is due, after quiet-hours deferral."""
    at = local_ts(day, parse_hhmm(settings.digest_time), settings.timezone)
    quiet = settings.quiet_hours()
    return quiet.defer(at) if quiet else at


def digest_days(settings: PlayerSettings, now: int) -> list:
    """The local days whose digest may be due now or next, earliest first:
    yesterday only when quiet hours pushed its digest past midnight, today, tomorrow."""
    today = local_date(now, settings.timezone)
    yesterday = today - timedelta(days=1)
    days = [today, today + timedelta(days=1)]
    raw = local_ts(yesterday, parse_hhmm(settings.digest_time), settings.timezone)
    if digest_due(settings, yesterday) > raw:
        days.insert(0, yesterday)
    return days


class Reminders:
    """Turns due reminders and digests into outbox events; computes the next wake."""

    def __init__(self, store: Store):
        self.store = store

    async def collect(self, now: int, game_id: int | None = None) -> int:
        """Write the events of every reminder due at ``now`` (of one game, if given);
        returns how many."""
        async with self.store.read() as tx:
            # only what is nominally due: the work grows with reminders due, not games held
            rows = await tx.pending_reminders(game_id, due_by=now)
        groups: dict[tuple[int, int], list[PendingReminderRow]] = {}
        for r in rows:
            groups.setdefault((r.game_id, r.turn_no), []).append(r)
        made = 0
        for (gid, turn_no), group in groups.items():
            due = [r for r in group if (t := reminder_due(r, now)) is not None and t <= now]
            if not due:
                continue
            quiet = _settings(due[0].settings).quiet_hours()
            if quiet and quiet.contains(now):
                continue
            made += await self._send_turn(gid, turn_no, due, group, now)
        return made

    async def _send_turn(self, game_id: int, turn_no: int, due: list[PendingReminderRow],
                         group: list[PendingReminderRow], now: int) -> int:
        made = 0
        async with self.store.write() as tx:
            g = await tx.game(game_id)
            if g is None or g.status != "active" or g.turn_no != turn_no:
                return 0
            player = await tx.player(due[0].player_id)
            opp_id = g.black_id if player.id == g.white_id else g.white_id
            opponent = ref(await tx.player(opp_id))
            deadline = effective_deadline(g.deadline, g.turn_started_at, player.vacation_start,
                                          player.vacation_until, now)
            for r in due:
                if r.kind != "your_move":
                    continue
                if not await tx.close_reminder(r.id, "sent", now):
                    continue
                last = await tx.last_move(game_id)
                event = ev.YourMove(game_id=game_id, game=g.game, opponent=opponent, ply=g.ply,
                                    last_move=last.san if last else None, deadline=from_ts(deadline))
                eid = await tx.insert_event(event.kind, player.id, game_id, turn_no,
                                            ev.encode(event), now)
                await tx.link_reminder_event(r.id, eid)
                made += 1
            warnings = [r for r in due if r.kind != "your_move"]
            if warnings and deadline is not None and deadline > now:
                chosen = min(warnings, key=lambda r: (r.before_deadline, WARNING_ORDER.index(r.kind)))
                for r in group:  # less urgent ones still pending: never worth sending now
                    if (r is not chosen and r.kind != "your_move"
                            and r.before_deadline >= chosen.before_deadline):
                        await tx.close_reminder(r.id, "superseded", now)
                if await tx.close_reminder(chosen.id, "sent", now):
                    event = ev.TimeWarning(game_id=game_id, game=g.game, opponent=opponent,
                                           level=chosen.kind, deadline=from_ts(deadline),
                                           seconds_left=deadline - now)
                    eid = await tx.insert_event(event.kind, player.id, game_id, turn_no,
                                                ev.encode(event), now)
                    await tx.link_reminder_event(chosen.id, eid)
                    made += 1
        return made

    async def digests(self, now: int) -> int:
        """Write the digest of every player whose digest is due and not yet done; each such
        player's next digest time is worked out again (only those are read: indexed)."""
        async with self.store.read() as tx:
            players = await tx.players_digest_due(now)
        made = 0
        for p in players:
            s = _settings(p.settings)
            async with self.store.write() as tx:
                if await self._digest(tx, p.id, s, now):
                    made += 1
                await tx.set_next_digest(p.id, await _next_digest(tx, p.id, s, now))
        return made

    async def _digest(self, tx, player_id: int, s: PlayerSettings, now: int) -> bool:
        """The player's digest, if one is due now and not done; whether one was written."""
        if s.digest_time is None:
            return False
        # the latest local day whose (deferred) digest time has come; only that one
        ready = [d for d in digest_days(s, now) if digest_due(s, d) <= now]
        if not ready:
            return False
        day = ready[-1]
        quiet = s.quiet_hours()
        if quiet and quiet.contains(now):
            return False
        if await tx.digest_done(player_id, day.isoformat()):
            return False
        player = await tx.player(player_id)
        entries = []
        for g in await tx.games_to_move(player_id):
            opp = await tx.player(g.black_id if g.white_id == player_id else g.white_id)
            deadline = effective_deadline(g.deadline, g.turn_started_at, player.vacation_start,
                                          player.vacation_until, now)
            entries.append(ev.DigestEntry(
                game_id=g.id, game=g.game, opponent=opp.name, deadline=from_ts(deadline),
                seconds_left=None if deadline is None else deadline - now))
        entries.sort(key=lambda e: (e.seconds_left is None, e.seconds_left or 0, e.game_id))
        if not entries:
            await tx.record_digest(player_id, day.isoformat(), "empty", None, now)
            return False
        event = ev.Digest(day=day.isoformat(), games=tuple(entries))
        eid = await tx.insert_event(event.kind, player_id, None, None, ev.encode(event), now)
        await tx.record_digest(player_id, day.isoformat(), "sent", eid, now)
        return True

    async def next_wake(self, now: int) -> int | None:
        """The earliest time after which a sweep would have something to do."""
        times: list[int] = []
        async with self.store.read() as tx:
            # Reminders and deadlines whose nominal time has passed are held back (vacation,
            # quiet hours): work those out exactly. For the rest the nominal times are lower
            # bounds, so the indexed minimum is a safe wake (at worst a little early).
            for r in await tx.pending_reminders(due_by=now):
                t = reminder_due(r, now)
                if t is None:
                    continue
                t = max(t, now)
                quiet = _settings(r.settings).quiet_hours()
                times.append(quiet.defer(t) if quiet else t)
            nominal = await tx.next_reminder_due(now)
            if nominal is not None:
                times.append(nominal)
            for g in await tx.clocked_games(due_by=now):
                if not on_vacation(g.vacation_start, g.vacation_until, now):
                    times.append(g.deadline)
            upcoming = await tx.next_deadline(now)
            if upcoming is not None:
                times.append(upcoming)
            times.extend(await tx.vacation_limits())
            retry = await tx.next_event_try()
            if retry is not None:
                times.append(retry)
            # each player's next digest time is kept, indexed; one that has passed (a change
            # of settings, a digest not yet written) is worked out exactly, as reminders are
            for p in await tx.players_digest_due(now):
                t = await _next_digest(tx, p.id, _settings(p.settings), now)
                if t is not None:
                    times.append(t)
            upcoming = await tx.next_digest(now)
            if upcoming is not None:
                times.append(upcoming)
        return min(times) if times else None


async def _next_digest(tx, player_id: int, s: PlayerSettings, now: int) -> int | None:
    """When the player's next digest not yet done is due (quiet hours deferred), or None."""
    if s.digest_time is None:
        return None
    days = digest_days(s, now)
    ready = [d for d in days if digest_due(s, d) <= now]
    for d in days:
        if ready and d < ready[-1]:
            continue  # an older day is never sent once a later one is due
        if not await tx.digest_done(player_id, d.isoformat()):
            t = max(digest_due(s, d), now)
            quiet = s.quiet_hours()
            return quiet.defer(t) if quiet else t
    return None


# --- APScheduler -------------------------------------------------------------------

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

    def __init__(self, service: GameService, scheduler=None, safety_minutes: int | None = None,
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
