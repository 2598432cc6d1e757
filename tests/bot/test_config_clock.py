from datetime import UTC, datetime, time

import pytest

from bot.config import ALLOWED_DAYS, ConfigError, Settings, parse_days
from bot.timekeeping.clock import (
    DAY,
    HOUR,
    ManualClock,
    QuietHours,
    deadline_for,
    effective_deadline,
    from_ts,
    local_ts,
    paused_deadline,
    to_ts,
)


def test_settings_defaults_file_and_env(tmp_path):
    assert Settings().db_path == "fairypost.db"
    f = tmp_path / "fp.toml"
    f.write_text('[fairypost]\ndb = "/x/games.db"\nvacation_days_per_year = 20\ndefault_days = "none"\n')
    s = Settings.load(env={"FAIRYPOST_CONFIG": str(f)})
    assert (s.db_path, s.vacation_days_per_year, s.default_days) == ("/x/games.db", 20, None)
    s = Settings.load(env={"FAIRYPOST_CONFIG": str(f), "FAIRYPOST_DB": "/y.db",
                           "FAIRYPOST_DEFAULT_DAYS": "7", "FAIRYPOST_VACATION_DAYS": "5"})
    assert (s.db_path, s.default_days, s.vacation_days_per_year) == ("/y.db", 7, 5)


def test_settings_refusals(tmp_path):
    with pytest.raises(ConfigError, match="days per move"):
        Settings.load(env={"FAIRYPOST_DEFAULT_DAYS": "4"})
    with pytest.raises(ConfigError, match="whole number"):
        Settings.load(env={"FAIRYPOST_VACATION_DAYS": "lots"})
    f = tmp_path / "bad.toml"
    f.write_text("colour = 'red'\n")
    with pytest.raises(ConfigError, match="unknown setting"):
        Settings.load(file=f, env={})
    with pytest.raises(ConfigError, match="cannot read"):
        Settings.load(file=tmp_path / "missing.toml", env={})


def test_parse_days():
    assert [parse_days(str(d)) for d in ALLOWED_DAYS if d] == [1, 2, 3, 5, 7, 10, 14]
    assert parse_days("none") is None and parse_days(None) is None
    for bad in ("0", "4", "15", "x", 6):
        with pytest.raises(ConfigError):
            parse_days(bad)


def test_manual_clock():
    c = ManualClock(datetime(2025, 3, 1, tzinfo=UTC))
    c.advance(hours=5)
    assert c.now() == datetime(2025, 3, 1, 5, tzinfo=UTC)
    with pytest.raises(ValueError):
        ManualClock(datetime(2025, 3, 1))


def test_deadlines_and_vacation_pause():
    start = 1_000_000
    assert deadline_for(start, None) is None
    d = deadline_for(start, 3)
    assert d == start + 3 * DAY
    # no vacation: unchanged
    assert effective_deadline(d, start, None, None, start + 10) == d
    # vacation from start+1 day: at start+2 days, one day paused so far
    v = start + DAY
    assert effective_deadline(d, start, v, v + 10 * DAY, start + 2 * DAY) == d + DAY
    # capped at the vacation's limit
    assert effective_deadline(d, start, v, v + HOUR, start + 5 * DAY) == d + HOUR
    # a turn that started during the vacation pauses from its own start
    t = v + 5 * HOUR
    assert effective_deadline(t + 3 * DAY, t, v, v + 10 * DAY, t + 2 * HOUR) == t + 3 * DAY + 2 * HOUR
    # a deadline already passed when the vacation began is not revived
    assert effective_deadline(d, start, d + 1, d + DAY, d + 5) == d
    assert paused_deadline(d, start, v, v + 2 * DAY) == d + 2 * DAY


def test_quiet_hours_across_midnight_in_a_zone():
    q = QuietHours(time(22, 0), time(7, 0), "Europe/Paris")  # UTC+1 in January

    def at(h: int, m: int = 0, day: int = 6) -> int:  # h:m UTC on that day of January 2025
        return to_ts(datetime(2025, 1, day, h, m, tzinfo=UTC))

    assert not q.contains(at(20, 59))  # 21:59 Paris
    assert q.contains(at(21, 0))  # 22:00 Paris
    assert q.contains(at(5, 59))  # 06:59 Paris
    assert not q.contains(at(6, 0))  # 07:00 Paris
    assert q.end_after(at(21, 30)) == at(6, 0, day=7)
    assert q.end_after(at(3, 0)) == at(6, 0)
    assert q.defer(at(12, 0)) == at(12, 0)
    assert q.defer(at(23, 0)) == at(6, 0, day=7)
    assert not QuietHours(time(8), time(8)).contains(at(8))


def test_quiet_hours_same_day_window_and_dst():
    q = QuietHours(time(1, 0), time(6, 30), "Europe/Paris")
    # 2025-03-30: clocks go forward at 02:00 Paris; 06:30 Paris is 04:30 UTC that day
    assert from_ts(q.end_after(to_ts(datetime(2025, 3, 30, 0, 30, tzinfo=UTC)))) == \
        datetime(2025, 3, 30, 4, 30, tzinfo=UTC)
    assert local_ts(datetime(2025, 3, 31).date(), time(8), "UTC") == \
        to_ts(datetime(2025, 3, 31, 8, tzinfo=UTC))


def test_a_zone_database_folder_is_an_unknown_zone_not_a_crash():
    import pytest

    from bot.timekeeping.clock import zone
    for name in ("Europe", "America", "x" * 300):
        with pytest.raises(ValueError, match="unknown time zone"):
            zone(name)
