"""Durations in words, the same for every adapter: '2 days 5 hours', '12 minutes' (in a
reader's language: Babel's units, '2 jours 5 heures')."""

from __future__ import annotations

from language import ENGLISH, Language

_UNITS = ("day", "hour", "minute", "second", "week")


def plural(n: int, word: str, lang: Language = ENGLISH) -> str:
    """'2 days'; a unit of time in ``lang`` as Babel writes it."""
    if lang is not ENGLISH and word in _UNITS:
        return lang.unit(n, word)
    return f"{n} {word}{'' if n == 1 else 's'}"


def time_left(seconds: int | None, lang: Language = ENGLISH) -> str:
    """'2 days 5 hours', '5 hours 12 minutes', '12 minutes'; 'no clock' for None. Rounded
    to the nearest hour from a day up, else to the nearest minute: a fresh 3-day clock a
    second old is '3 days', not '2 days 23 hours'."""
    if seconds is None:
        return lang.tr("no clock")
    if seconds <= 0:
        return lang.tr("no time")
    if seconds >= 24 * 3600 - 1800:
        days, hours = divmod(round(seconds / 3600), 24)
        return plural(days, "day", lang) + (f" {plural(hours, 'hour', lang)}" if hours else "")
    hours, minutes = divmod(round(seconds / 60), 60)
    if hours:
        return plural(hours, "hour", lang) + (f" {plural(minutes, 'minute', lang)}" if minutes else "")
    return plural(minutes, "minute", lang) if minutes else lang.tr("less than a minute")
