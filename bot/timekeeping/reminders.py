"""Turn reminders and digests: what is due and when to wake (the scheduler wiring that
wakes the service is :mod:`bot.timekeeping.scheduler`).

The database holds everything: each turn's reminder rows (``reminders``), each
game's deadline (``games.deadline``), vacations, digest days (``digests``) and
undelivered notices (``events``). APScheduler holds nothing but one "wake up at
T" job, rebuilt from the database at start and after every change; a wake runs
``GameService.sweep(now)``, which does what is due and records it. Tests call
``sweep`` with an injected clock instead of waiting.

Per turn, the player to move gets (``turn_plan``): one "your move" notice at the
turn's start (a game's first turn excepted: the notice that the game has begun says
it), and warnings when 50% and 80% of the time is used and 24 hours and
1 hour before the deadline (only those that fall inside the turn, one per
distinct time). Warnings count back from the deadline, so a vacation, which moves
the deadline on, moves them too; while a player is on vacation their clocks are
paused and no warnings come. In a player's quiet hours nothing is sent: what
comes due then waits for their end. If several warnings of one turn are due at
once (after quiet hours, say), only the most urgent is sent and the others are
marked ``superseded``.

Exactly once: a reminder is turned into an outbox event in one transaction that
claims it (with its game), moves it from ``pending`` to ``sent`` and writes the event;
a burst of due turns is written ``Reminders.BATCH`` to a transaction (claimed and written
in a few statements a batch, whatever its size); the outbox then delivers the event (see
:mod:`bot.delivery.outbox` for claim -> send -> mark and what a crash in between does). A
digest day is recorded in ``digests`` (primary key player + local day) in the
same transaction as its event.
"""

from __future__ import annotations

import logging
import time
from datetime import timedelta

from ..delivery import events as ev
from ..delivery.events import ref
from ..identity.players import PlayerSettings
from ..store import PendingReminderRow, Store
from .clock import (
    DAY,
    HOUR,
    effective_deadline,
    from_ts,
    local_date,
    local_ts,
    parse_hhmm,
)

# the APScheduler wiring, once here: re-exported for those who import it from here
from .scheduler import ReminderScheduler, quiet_scheduler_logs  # noqa: F401

log = logging.getLogger(__name__)

WARNING_ORDER = ("50%", "80%", "24h", "1h")

def batched(items, size: int, seconds: float | None = None):
    """``items`` in lists of at most ``size``, in order. With ``seconds``, paced: a list
    whose handling (the caller's work between two lists: one transaction) took longer
    than that makes the next ones smaller in proportion, and a quick one lets them grow
    back, so a move waiting behind a sweep waits about ``seconds`` at most, on a busy
    machine as on an idle one."""
    items = list(items)
    first, n = 0, size
    while first < len(items):
        chunk = items[first:first + n]
        first += len(chunk)
        started = time.monotonic()
        yield chunk
        took = time.monotonic() - started
        if seconds and took > seconds:
            n = max(1, int(n * seconds / took))
        elif seconds and took < seconds / 2:
            n = min(size, n * 2)


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

    #: the due turns (or digests, or timeouts, or vacations' ends) one sweep transaction
    #: writes: a burst of 1,000 due games costs 20 commits, not 1,000 (an fsync each on
    #: SQLite), and a move that comes during the sweep waits behind one batch at most (a
    #: few tens of milliseconds; bench/RESULTS.md)
    BATCH = 50
    #: ... and takes about this long at most (a busy machine, a remote database): batches
    #: shrink until one does (``batched``); None: always BATCH
    BATCH_SECONDS: float | None = 0.02

    def __init__(self, store: Store):
        self.store = store

    async def collect(self, now: int, game_id: int | None = None) -> int:
        """Write the events of every reminder due at ``now`` (of one game, if given);
        returns how many. The turns are written ``BATCH`` to a transaction."""
        async with self.store.read() as tx:
            # only what is nominally due: the work grows with reminders due, not games held
            rows = await tx.pending_reminders(game_id, due_by=now)
        groups: dict[tuple[int, int], list[PendingReminderRow]] = {}
        for r in rows:
            groups.setdefault((r.game_id, r.turn_no), []).append(r)
        turns = []
        for (gid, turn_no), group in groups.items():
            due = [r for r in group if (t := reminder_due(r, now)) is not None and t <= now]
            if not due:
                continue
            quiet = _settings(due[0].settings).quiet_hours()
            if quiet and quiet.contains(now):
                continue
            turns.append((gid, turn_no, due, group))
        made = 0
        for batch in batched(turns, self.BATCH, self.BATCH_SECONDS):
            async with self.store.row_write() as tx:
                made += await self._send_turns(tx, batch, now)
        return made

    async def _send_turns(self, tx, batch, now: int) -> int:
        """One batch of due turns, in the caller's transaction: the games and their pending
        reminders claimed (those a move under way, or another process's sweep, holds are
        theirs), what the notices say read, each turn's notices written."""
        games = await tx.claim_games(gid for gid, *_ in batch)
        live = [(games[gid], turn_no, due, group) for gid, turn_no, due, group in batch
                if gid in games and games[gid].status == "active" and games[gid].turn_no == turn_no]
        claimed = await tx.claim_turn_reminders(g.id for g, *_ in live)
        people = await tx.players_by_id(pid for g, *_ in live for pid in (g.white_id, g.black_id))
        last_moves = await tx.last_moves(g.id for g, *_ in live)
        notices, closes = [], []
        for g, turn_no, due, group in live:
            due = [r for r in due if r.id in claimed]
            group = [r for r in group if r.id in claimed]
            if due:
                self._turn_notices(g, turn_no, due, group, people, last_moves.get(g.id), now,
                                   notices, closes)
        # the batch's writes, a statement each: the notices, then their reminders closed
        ids = await tx.insert_events([(event.kind, player_id, event.game_id, turn_no, ev.encode(event))
                                      for _rid, event, player_id, turn_no in notices], now)
        await tx.close_reminders(closes + [(rid, "sent", eid) for (rid, *_), eid
                                           in zip(notices, ids, strict=True)], now)
        return len(notices)

    @staticmethod
    def _turn_notices(g, turn_no: int, due: list[PendingReminderRow], group: list[PendingReminderRow],
                      people, last, now: int, notices: list, closes: list) -> None:
        """What one turn's due reminders send (``notices``: reminder id, event, recipient,
        turn) and which of its reminders are closed unsent (``closes``): of several warnings
        due at once only the most urgent is sent, the others superseded."""
        player = people[due[0].player_id]
        opponent = ref(people[g.black_id if player.id == g.white_id else g.white_id])
        deadline = effective_deadline(g.deadline, g.turn_started_at, player.vacation_start,
                                      player.vacation_until, now)
        for r in due:
            if r.kind == "your_move":
                event = ev.YourMove(game_id=g.id, game=g.game, opponent=opponent, ply=g.ply,
                                    last_move=last.san if last else None, deadline=from_ts(deadline))
                notices.append((r.id, event, player.id, turn_no))
        warnings = [r for r in due if r.kind != "your_move"]
        if warnings and deadline is not None and deadline > now:
            chosen = min(warnings, key=lambda r: (r.before_deadline, WARNING_ORDER.index(r.kind)))
            for r in group:  # less urgent ones still pending: never worth sending now
                if (r is not chosen and r.kind != "your_move"
                        and r.before_deadline >= chosen.before_deadline):
                    closes.append((r.id, "superseded", None))
            event = ev.TimeWarning(game_id=g.id, game=g.game, opponent=opponent, level=chosen.kind,
                                   deadline=from_ts(deadline), seconds_left=deadline - now)
            notices.append((chosen.id, event, player.id, turn_no))

    async def digests(self, now: int) -> int:
        """Write the digest of every player whose digest is due and not yet done; each such
        player's next digest time is worked out again (only those are read: indexed)."""
        async with self.store.read() as tx:
            players = await tx.players_digest_due(now)
        made = 0
        for batch in batched(players, self.BATCH, self.BATCH_SECONDS):
            async with self.store.row_write() as tx:
                for p in batch:
                    if await tx.claim_player(p.id) is None:
                        continue  # another process's sweep holds them: theirs
                    s = _settings(p.settings)
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
