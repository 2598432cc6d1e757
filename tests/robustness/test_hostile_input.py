"""Issue 17, item 1: inputs that used to crash the service get a ServiceError with a reason.

A huge hour (``99999999999999999999:00``) raised OverflowError; text with a lone surrogate
(bytes that were not UTF-8, as the OS hands over ``$'\\xff'``) raised UnicodeEncodeError
from the store; a clock near the year 9999 made ``challenge``, ``accept_challenge`` and
``start_vacation`` raise ValueError. Each is now a refusal that changes nothing; a display
name is cleaned instead (what a user would expect of a name from the OS or a chat).
"""
from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta

import pytest

from bot.domain.errors import ClockOutOfRange, ServiceError, UnstorableText

from .helpers import Unchanged, new_game

HUGE_TIMES = ["99999999999999999999:00", "7:99999999999999999999", "9" * 5000 + ":00", "٠٧:٣٠",
              "1_0:00", "+7:00", " 7:0 ", "24:00", "23:60", "\udcff7:00", "07:00\x00"]


REASON = "is not a time of day like 07:30|cannot be stored|too long to be a setting"


@pytest.mark.parametrize("text", HUGE_TIMES)
async def test_a_bad_time_of_day_is_refused_and_changes_nothing(svc, people, notifier, text):
    alice, *_ = people
    async with Unchanged(svc, notifier):
        with pytest.raises(ServiceError, match=REASON):
            await svc.update_settings(alice.id, digest_time=text)
        with pytest.raises(ServiceError, match=REASON):
            await svc.update_settings(alice.id, quiet_hours=(text, "07:00"))
        with pytest.raises(ServiceError, match=REASON):
            await svc.update_settings(alice.id, quiet_hours=("22:00", text))


async def test_a_good_time_of_day_still_works(svc, people):
    alice, *_ = people
    s = await svc.update_settings(alice.id, digest_time=" 7:05 ", quiet_hours=("22:00", "07:30"))
    assert s.quiet_hours().start.hour == 22 and s.digest_time == " 7:05 "


SURROGATE = "\udcff"


async def test_lone_surrogates_are_refused_where_they_would_be_stored(svc, people, notifier):
    alice, bob, _ = people
    g = await new_game(svc, alice, bob)
    async with Unchanged(svc, notifier):
        for call in (lambda: svc.player("test", "x" + SURROGATE, "X"),
                     lambda: svc.player("te" + SURROGATE, "x", "X"),
                     lambda: svc.move(g.id, alice.id, "e4" + SURROGATE),
                     lambda: svc.setup_action(g.id, alice.id, SURROGATE),
                     lambda: svc.update_settings(alice.id, timezone="Europe/" + SURROGATE),
                     lambda: svc.update_settings(alice.id, digest_time=SURROGATE)):
            with pytest.raises(ServiceError) as refused:
                await call()
            assert "cannot be stored" in str(refused.value) or "set-up" in str(refused.value)
        with pytest.raises(UnstorableText, match="cannot be stored"):
            await svc.player("test", SURROGATE, "Z")
    # the refusal's message itself can be printed and stored
    assert str(refused.value).encode("utf-8")


async def test_a_display_name_is_cleaned_not_refused(svc, people):
    alice, bob, _ = people
    renamed = await svc.player("test", "a", "Al" + SURROGATE + "ice\n[White \"x\"]\x1b[31m")
    assert renamed.id == alice.id
    assert renamed.name == "Al\ufffdice\ufffd[White \"x\"]\ufffd[31m"
    new = await svc.player("test", "z", SURROGATE)
    assert new.name == "\ufffd"
    g = await new_game(svc, renamed, bob)
    record = await svc.record(g.id)
    assert record.encode("utf-8")
    white_tags = [line for line in record.splitlines() if line.startswith("[White ")]
    assert white_tags == ['[White "Al\ufffdice\ufffd[White \\"x\\"]\ufffd[31m"]']


FAR = [datetime(9999, 12, 25, tzinfo=UTC), datetime(9991, 1, 1, tzinfo=UTC),
       datetime(1969, 12, 31, 23, 59, tzinfo=UTC)]


@pytest.mark.parametrize("when", FAR, ids=lambda d: d.strftime("%Y-%m-%d"))
async def test_a_clock_out_of_range_is_refused_and_changes_nothing(svc, people, clock, notifier, when):
    alice, bob, carol = people
    g = await new_game(svc, alice, bob)
    c = await svc.challenge(carol.id, "chess", opponent_id=alice.id)
    clock.set(when)
    async with Unchanged(svc, notifier):
        for call in (lambda: svc.challenge(alice.id, "chess", opponent_id=bob.id, days=14),
                     lambda: svc.accept_challenge(c.id, alice.id),
                     lambda: svc.start_vacation(alice.id),
                     lambda: svc.move(g.id, alice.id, "e4"),
                     lambda: svc.update_settings(alice.id, digest_time="08:00"),
                     lambda: svc.sweep(),
                     lambda: svc.next_wake(),
                     lambda: svc.game(g.id)):
            with pytest.raises(ClockOutOfRange, match=r"outside the dates fairypost can keep"):
                await call()


async def test_the_last_day_in_range_still_works(svc, people, clock, notifier):
    """The end of 9990: a 14-day game, a vacation, a digest and a sweep all work out."""
    alice, bob, _ = people
    clock.set(datetime(9990, 12, 31, 23, 0, tzinfo=UTC))
    await svc.update_settings(alice.id, digest_time="23:30", timezone="Pacific/Kiritimati")
    g = await new_game(svc, alice, bob, days=14)
    info = await svc.start_vacation(alice.id)
    assert info.until.year == 9991
    assert (await svc.game(g.id)).deadline.year == 9991
    await svc.sweep()
    assert (await svc.next_wake()) is not None


def test_the_terminal_refuses_a_name_that_is_not_utf8(tmp_path):
    """``fairypost play chess --white $'\\xff'``: a clear refusal, no traceback."""
    env = {**os.environ, "FAIRYPOST_DB": str(tmp_path / "t.db"), "LC_ALL": "C.UTF-8",
           "PYTHONIOENCODING": "utf-8"}
    env.pop("FAIRYPOST_CONFIG", None)
    done = subprocess.run([sys.executable, "-m", "bot.cli", "play", "chess", "--white", b"\xff",
                           "--black", "bob", "--no-images"], env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, timeout=120)
    out = (done.stdout + done.stderr).decode("utf-8", "replace")
    assert done.returncode == 1, out
    assert "Traceback" not in out
    assert "cannot be stored" in out, out


async def test_far_future_vacation_allowance_is_bounded():
    from bot.config import ConfigError, Settings
    with pytest.raises(ConfigError, match="at most 366"):
        Settings(vacation_days_per_year=10**9)
    assert Settings(vacation_days_per_year=366).vacation_days_per_year == 366
    assert timedelta(days=366) < datetime(9999, 1, 1, tzinfo=UTC) - datetime(9991, 1, 1, tzinfo=UTC)


@pytest.mark.parametrize("days", [2.5, float("nan"), True, b"3", ["3"]])
async def test_days_of_the_wrong_type_are_refused(svc, people, notifier, days):
    alice, *_ = people
    async with Unchanged(svc, notifier):
        with pytest.raises(ServiceError, match="days per move must be one of"):
            await svc.challenge(alice.id, "chess", days=days)
        with pytest.raises(ServiceError, match="whole number of days"):
            await svc.start_vacation(alice.id, days)


@pytest.mark.parametrize("zone", [123, ["UTC"], b"UTC", 1.5])
async def test_a_time_zone_that_is_not_text_is_refused(svc, people, notifier, zone):
    alice, *_ = people
    async with Unchanged(svc, notifier):
        with pytest.raises(ServiceError, match="unknown time zone"):
            await svc.update_settings(alice.id, timezone=zone)
