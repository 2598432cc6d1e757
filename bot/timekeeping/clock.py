"""Time: the Clock protocol, deadline arithmetic, vacations and quiet hours.

All times inside the service are whole seconds since the Unix epoch (UTC), the
form the database stores. Datetimes (always timezone-aware, UTC) appear only at
the edges: ``Clock.now()`` and the values handed to adapters.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Protocol
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from language.text import T

MINUTE = 60
HOUR = 60 * MINUTE
DAY = 24 * HOUR


class Clock(Protocol):
    def now(self) -> datetime:
        """The current time, timezone-aware."""


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


class ManualClock:
    """A clock that moves only when told to (tests, the terminal adapter's replay)."""

    def __init__(self, start: datetime | None = None):
        start = start or datetime(2025, 1, 6, 12, 0, tzinfo=UTC)
        if start.tzinfo is None:
            raise ValueError("ManualClock needs a timezone-aware datetime")
        self._now = start.astimezone(UTC)

    def now(self) -> datetime:
        return self._now

    def set(self, when: datetime) -> None:
        if when.tzinfo is None:
            raise ValueError("ManualClock needs a timezone-aware datetime")
        self._now = when.astimezone(UTC)

    def advance(self, delta: timedelta | None = None, **kwargs) -> datetime:
        self._now += delta if delta is not None else timedelta(**kwargs)
        return self._now


def to_ts(when: datetime) -> int:
    if when.tzinfo is None:
        raise ValueError("naive datetimes are not accepted; give a timezone")
    return int(when.timestamp())


def from_ts(ts: int | None) -> datetime | None:
    return None if ts is None else datetime.fromtimestamp(ts, UTC)


#: The dates the service keeps time in: from the Unix epoch to the end of 9990. Past that,
#: what it works out from "now" (a deadline 14 days on, a vacation that moves it on, the
#: next year's start, tomorrow's digest) could leave the dates Python represents (year 9999).
FIRST_TS = 0
LAST_TS = to_ts(datetime(9991, 1, 1, tzinfo=UTC)) - 1


def in_range(ts: int) -> bool:
    return FIRST_TS <= ts <= LAST_TS


# --- deadlines ---------------------------------------------------------------

def deadline_for(turn_start: int, days: int | None) -> int | None:
    """Every turn (the first of each side included) gets the full time."""
    return None if days is None else turn_start + days * DAY


def effective_deadline(deadline: int | None, turn_started_at: int,
                       vacation_start: int | None, vacation_until: int | None,
                       now: int) -> int | None:
    """The deadline of the player to move, their vacation (if any) counted in.

    While a vacation runs, the time left is frozen: the stored deadline moves
    on by the time paused so far, counted from the vacation's start or the
    turn's start, whichever is later, and up to the vacation's limit. A deadline
    that had passed before the vacation began is not revived.
    """
    if deadline is None or vacation_start is None:
        return deadline
    if deadline <= vacation_start:
        return deadline
    pause_from = max(vacation_start, turn_started_at)
    pause_to = now if vacation_until is None else min(now, vacation_until)
    return deadline + max(0, pause_to - pause_from)


def paused_deadline(deadline: int | None, turn_started_at: int,
                    vacation_start: int, vacation_end: int) -> int | None:
    """The deadline to store when a vacation that ran to ``vacation_end`` ends."""
    return effective_deadline(deadline, turn_started_at, vacation_start, vacation_end, vacation_end)


def year_bounds(ts: int) -> tuple[int, int]:
    """Start of the UTC calendar year holding ts, and of the next one."""
    y = from_ts(ts).year
    start = datetime(y, 1, 1, tzinfo=UTC)
    return to_ts(start), to_ts(datetime(y + 1, 1, 1, tzinfo=UTC))


# --- local time: zones, quiet hours, digest times -----------------------------

def zone(name: str) -> ZoneInfo:
    """The IANA time zone; ValueError with a readable message if unknown."""
    if not isinstance(name, str):
        raise ValueError(unknown_zone(name))
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        # OSError: a name that is a folder of the zone database ("Europe") or too long
        raise ValueError(unknown_zone(name)) from None


def unknown_zone(name: object):
    """The refusal of a time zone name (a Text: ``str()`` is its English)."""
    return T("unknown time zone {zone} (use a name like Europe/Paris or UTC)", zone=repr(name))


_HHMM = re.compile(r"\s*(\d{1,2}):(\d{2})\s*", re.ASCII)


def parse_hhmm(text: str) -> time:
    """'7:30', '07:30' -> time(7, 30). ValueError if not a time of day (digits are
    ASCII and at most two, so a huge hour is refused as text, never overflows)."""
    match = _HHMM.fullmatch(text) if isinstance(text, str) else None
    if match is None or int(match[1]) > 23 or int(match[2]) > 59:
        shown = text[:40] + "..." if isinstance(text, str) and len(text) > 40 else text
        raise ValueError(T("{text} is not a time of day like {example}", text=repr(shown), example="07:30"))
    return time(int(match[1]), int(match[2]))


def local_date(ts: int, tz: str) -> date:
    return from_ts(ts).astimezone(zone(tz)).date()


def local_ts(day: date, at: time, tz: str) -> int:
    """The moment when the wall clock in tz shows ``at`` on ``day``."""
    return to_ts(datetime.combine(day, at, tzinfo=zone(tz)))


@dataclass(frozen=True)
class QuietHours:
    """A daily window of local time, possibly across midnight, with no reminders.

    ``start == end`` means no quiet time at all.
    """

    start: time
    end: time
    tz: str = "UTC"

    def contains(self, ts: int) -> bool:
        if self.start == self.end:
            return False
        t = from_ts(ts).astimezone(zone(self.tz)).time().replace(tzinfo=None)
        if self.start < self.end:
            return self.start <= t < self.end
        return t >= self.start or t < self.end

    def end_after(self, ts: int) -> int:
        """The first moment at or after ts when the window ends."""
        local = from_ts(ts).astimezone(zone(self.tz))
        day = local.date()
        for offset in range(3):
            candidate = local_ts(day + timedelta(days=offset), self.end, self.tz)
            if candidate > ts:
                return candidate
        raise AssertionError("unreachable")  # pragma: no cover

    def defer(self, ts: int) -> int:
        """ts itself, or the end of the quiet window that holds it."""
        return self.end_after(ts) if self.contains(ts) else ts
