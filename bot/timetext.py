"""Durations in words, the same for every adapter: '2 days 5 hours', '12 minutes'."""

from __future__ import annotations


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def time_left(seconds: int | None) -> str:
    """'2 days 5 hours', '5 hours 12 minutes', '12 minutes'; 'no clock' for None."""
    if seconds is None:
        return "no clock"
    if seconds <= 0:
        return "no time"
    minutes = seconds // 60
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    if days:
        return plural(days, "day") + (f" {plural(hours, 'hour')}" if hours else "")
    if hours:
        return plural(hours, "hour") + (f" {plural(minutes, 'minute')}" if minutes else "")
    return plural(minutes, "minute") if minutes else "less than a minute"
