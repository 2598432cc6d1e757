"""The terminal's premove, next and confirm (issue 23, items 1 and 5): in-process
sessions on a ManualClock, as a player types them."""

from __future__ import annotations

import asyncio

import pytest

from bot.config import Settings
from bot.operations.service import GameService
from bot.timekeeping.clock import ManualClock
from tests.terminal.session_script import run_session


@pytest.fixture
def settings(tmp_path):
    return Settings(db_path=str(tmp_path / "games.sqlite3"))


def test_premove_lines_are_left_shown_answered_and_dropped(settings):
    clock = ManualClock()
    code, out = run_session(settings, clock, [
        "e4",
        "premove",
        "premove e5 Nf3; Ke7 d4",
        "premove e7e5 Ng1f3; c5 Nc3 Nc6 Nf3; c5 Nc3 d6 d4",
        "premove",
        "c5",      # Black: White's Nc3 answers at once
        "e6",      # in none of the lines left: dropped
        "premove"], game="chess")
    assert code == 0
    assert "White has no conditional lines." in out
    assert ("Ke7 (line 2, move 1, your opponent's) is not a legal move there: no King of theirs "
            "can move to e7.") in out
    assert "White answers Black's next move so:\n  e5 Nf3\n  c5 Nc3 Nc6 Nf3\n  c5 Nc3 d6 d4\n" in out
    assert "Black played c5.\nWhite's conditional answer Nc3 was played at once." in out
    assert "Last move: Nc3 (White). Black to move." in out
    assert ("Black played e6.\nThat move was in none of the other side's 2 conditional lines: "
            "they are dropped.") in out
    assert "White> premove\nBlack has no conditional lines." in out  # White to move: Black waits


def test_premove_cancel_and_refusals(settings):
    clock = ManualClock()
    code, out = run_session(settings, clock, [
        "e4", "premove e5 Nf3", "premove cancel", "premove cancel", "e5",
        "premove Nc6 Nf3"], game="chess")
    assert code == 0
    assert "White's 1 conditional line dropped." in out
    assert "White has no conditional lines." in out
    assert "Black played e5.\n\n" in out  # no answer, nothing dropped: the lines had gone
    # Black waits now: Black's lines are read from White's move on, so Nc6 is not White's
    assert "Nc6 (the line, move 1, your opponent's) is not a legal move there" in out


def test_confirm_asks_before_a_typed_move(settings):
    clock = ManualClock()
    code, out = run_session(settings, clock, [
        "confirm on", "e4", "n", "d4", "y", "Qz9", "confirm off", "e5"], game="chess")
    assert code == 0
    assert "White> e4\nPlay e4? [y/n] n\nNot played.\n" in out
    assert "White played e4" not in out
    assert "Play d4? [y/n] " in out and "White played d4." in out
    assert "Play Qz9?" not in out  # what the engine cannot read is refused, not asked about
    assert "Play e5?" not in out and "Black played e5." in out


def test_next_goes_on_with_the_most_urgent_game(settings):
    clock = ManualClock()

    async def two_more_games():
        svc = await GameService.open(settings, clock=clock)
        try:
            white = await svc.player("terminal", "white", "White")
            black = await svc.player("terminal", "black", "Black")
            for days in (7, 2):
                c = await svc.challenge(black.id, "chess", opponent_id=white.id, days=days,
                                        colour="white")
                g = await svc.accept_challenge(c.id, white.id)
                await svc.move(g.id, black.id, "d4")  # White (Black's player) to move there
        finally:
            await svc.close()

    asyncio.run(two_more_games())  # games 1 (7 days a move) and 2 (2 days): White to move there
    code, out = run_session(settings, clock, ["e4", "next", "d5", "next"], game="chess")
    assert code == 0
    # after White's e4 here (game 3), White is to move in games 1 and 2: game 2 is more urgent
    assert "White played e4." in out and "On to game #2 against Black, 2 days left." in out
    assert "\nWhite (Black) (2 days left)> d5\nWhite (Black) played d5." in out
    assert "On to game #1 against Black, 7 days left." in out


def test_next_says_when_no_game_waits(settings):
    code, out = run_session(settings, ManualClock(), ["e4", "next"], game="chess")
    assert code == 0 and "No other game waits for White's move." in out
