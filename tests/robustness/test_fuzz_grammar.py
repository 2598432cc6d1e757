"""Fuzzing the text grammar of settings (issue 17, item 1): times of day, days per move,
time zones, and the ``/settings`` quiet-hours text, with lone surrogates, control
characters and huge numbers. Each reader returns a value or raises its own ValueError;
what the Discord command makes of the text, given to the service, is done or refused
with a ServiceError. Examples: 250 by default, more with ``FAIRYPOST_LONG=1``.
"""
from __future__ import annotations

import asyncio
import random
from datetime import time

from hypothesis import given
from hypothesis import strategies as st

from bot.config import ALLOWED_DAYS, ConfigError, Settings, parse_days
from bot.delivery.events import MemoryNotifier
from bot.domain.errors import ServiceError
from bot.identity.players import PlayerSettings
from bot.timekeeping.clock import ManualClock, parse_hhmm, zone

from .common import T0, profile

PROFILE = profile()

PIECES = ["99999999999999999999", "9" * 5000, "07", "7", "00", "30", "23", "59", "24", ":", "-", "–",
          " to ", " ", "\udcff", "\ud800", "\x00", "\n", "\x1b", "٠٧", "１２", "_", "+", "-1", "off",
          "none", "UTC", "Europe/Paris", "Europe", "../", "1e9"]
grammar_texts = st.one_of(
    st.lists(st.sampled_from(PIECES), max_size=6).map("".join),
    st.text(st.characters(min_codepoint=0, max_codepoint=0xDFFF), max_size=24),
    st.text(max_size=40))


@PROFILE
@given(grammar_texts)
def test_times_of_day_days_and_zones_read_or_refuse(text):
    try:
        t = parse_hhmm(text)
    except ValueError as e:
        assert "time of day" in str(e)
    else:
        assert isinstance(t, time)
        assert text.strip() in (f"{t.hour}:{t.minute:02d}", f"{t.hour:02d}:{t.minute:02d}")
    try:
        days = parse_days(text)
    except ConfigError as e:
        assert "days per move" in str(e)
    else:
        assert days in ALLOWED_DAYS
    try:
        zone(text)
    except ValueError as e:
        assert "unknown time zone" in str(e)
    try:
        PlayerSettings(timezone="UTC", quiet_start=text, quiet_end="07:00", digest_time=text)
    except ValueError:
        pass


def test_the_settings_command_text_reaches_the_service_safely(tmp_path):
    """The Discord ``/settings`` quiet hours and digest, as its command reads them, then
    given to the service: done, or a ServiceError with a message."""
    from bot.discord_bot.commands import _times  # the adapter's reader (tested, not changed)
    from bot.operations.service import GameService

    async def open_service():
        svc = await GameService.open(Settings(db_path=str(tmp_path / "g.db"), command_rate_per_minute=0),
                                     clock=ManualClock(T0), notifier=MemoryNotifier(),
                                     rng=random.Random(1))
        return svc, await svc.player("test", "a", "Alice")

    with asyncio.Runner() as runner:
        svc, alice = runner.run(open_service())

        @PROFILE
        @given(grammar_texts, grammar_texts)
        def one(quiet, digest):
            async def go():
                try:
                    await svc.update_settings(alice.id, quiet_hours=_times(quiet), digest_time=digest)
                except ServiceError as e:
                    assert str(e).strip() and str(e).encode("utf-8")
            runner.run(go())

        try:
            one()
        finally:
            runner.run(svc.close())
