"""Durations in words, the same for every adapter: '2 days 5 hours', '12 minutes'."""

from __future__ import annotations


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def time_left(seconds: int | None) -> str:
    """'2 days 5 hours', '5 hours 12 minutes', '12 minutes'; 'no clock' for None. Rounded
    to the nearest hour from a day up, else to the nearest minute: a fresh 3-day clock a
    second old is '3 days', not '2 days 23 hours'."""
    if seconds is None:
        return "no clock"
    if seconds <= 0:
        return "no time"
    if seconds >= 24 * 3600 - 1800:
        days, hours = divmod(round(seconds / 3600), 24)
        return plural(days, "day") + (f" {plural(hours, 'hour')}" if hours else "")
    hours, minutes = divmod(round(seconds / 60), 60)
    if hours:
        return plural(hours, "hour") + (f" {plural(minutes, 'minute')}" if minutes else "")
    return plural(minutes, "minute") if minutes else "less than a minute"
