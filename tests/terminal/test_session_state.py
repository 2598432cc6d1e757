"""The terminal session keeps up with the game (issue 15, item 4): after any refusal
it reads the game again (another session moved, the time ran out), and with
``--days N`` it shows the deadline and the time left. In-process, on a ManualClock."""

from __future__ import annotations

import pytest

from bot.config import Settings
from bot.timekeeping.clock import ManualClock
from tests.terminal.session_script import elsewhere, run_session


@pytest.fixture
def settings(tmp_path):
    return Settings(db_path=str(tmp_path / "games.sqlite3"))


def test_after_the_game_changed_elsewhere_it_shows_the_game_as_it_is(settings):
    clock = ManualClock()
    code, out = run_session(settings, clock, [
        elsewhere(settings, clock, 1, "e4"),  # another session plays White's e4
        "d4",                                 # this one, still showing White to move
        "e5"], game="chess")
    assert code == 0
    refusal = out.index("White> d4\n") + len("White> d4\n")
    after = out[refusal:]
    assert after.startswith("The game changed, look again.\n"
                            "The game is no longer as shown; here it is now:\n")
    assert "Last move: e4 (White). Black to move." in after
    assert "\nBlack> e5\nBlack played e5." in after  # the prompt is the side now to move
    assert "White played d4" not in out


def test_a_loss_on_time_is_shown_at_once(settings):
    clock = ManualClock()
    code, out = run_session(settings, clock, [
        "e4", lambda: clock.advance(days=1, minutes=1), "e5", "e6"], game="chess", days="1")
    assert code == 0
    after = out[out.index("> e5\n"):]
    assert after.startswith("> e5\nThe game is over: Black ran out of time.\n"
                            "The game is no longer as shown; here it is now:\n")
    assert "Game over: 1-0, White wins (time)." in after
    assert "\n> e6\nThe game is over: 1-0 (time)." in after  # no side's prompt any more


def test_days_show_the_deadline_and_the_time_left(settings):
    clock = ManualClock()  # Monday 6 January 2025, 12:00 UTC
    code, out = run_session(settings, clock, [
        "e4", lambda: clock.advance(hours=5, minutes=30), "e5"], game="chess", days="3")
    assert code == 0
    assert "White to move. Time: 3 days left, until Thu 09 Jan 2025 12:00 UTC." in out
    assert "\nWhite (3 days left)> e4\n" in out
    # Black's clock starts at White's move, then 5 h 30 min pass before Black moves
    assert "Black to move. Time: 3 days left, until Thu 09 Jan 2025 12:00 UTC." in out
    assert "Black (3 days left)> e5" in out
    assert "White to move. Time: 3 days left, until Thu 09 Jan 2025 17:30 UTC." in out
    untimed = run_session(settings, clock, ["e4"], game="chess")[1]
    assert "Time:" not in untimed and "\nWhite> e4" in untimed
