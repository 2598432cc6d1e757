"""Durations and counts of time inside a refusal, said later in the reader's language.

A refusal is made before anyone knows who reads it, so "2 days 5 hours" cannot be written
out yet: these give ``Text`` values (``Tn`` per unit) that the front end says with the rest
of the sentence. The English is ``bot.words.timetext``'s, word for word."""

from __future__ import annotations

from language.text import T, Text, Tn


def days(n: int) -> Text:
    return Tn("{n} day", "{n} days", n)


def hours(n: int) -> Text:
    return Tn("{n} hour", "{n} hours", n)


def minutes(n: int) -> Text:
    return Tn("{n} minute", "{n} minutes", n)


def times(n: int) -> Text:
    return Tn("{n} time", "{n} times", n)


def duration(seconds: int | None) -> Text:
    """As ``timetext.time_left``: '2 days 5 hours', '5 hours 12 minutes', '12 minutes'."""
    if seconds is None:
        return T("no clock")
    if seconds <= 0:
        return T("no time")
    if seconds >= 24 * 3600 - 1800:
        d, h = divmod(round(seconds / 3600), 24)
        return T("{days} {hours}", days=days(d), hours=hours(h)) if h else days(d)
    h, m = divmod(round(seconds / 60), 60)
    if h:
        return T("{hours} {minutes}", hours=hours(h), minutes=minutes(m)) if m else hours(h)
    return minutes(m) if m else T("less than a minute")
