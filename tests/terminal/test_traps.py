"""The small traps of issue 41 (item 5), as a newcomer meets them: ``quit`` at "Play Nf3?
[y/n]", ``confirm`` following into every new game, Black against the computer shown
upside down, ``--help`` leaving out mail and the web, ``M`` alone."""

from __future__ import annotations

import re

import pytest

from bot.config import Settings
from bot.timekeeping.clock import ManualClock
from tests.terminal.session_script import run_session

from .test_play import BOARD_ROW, boards


@pytest.fixture
def settings(tmp_path):
    return Settings(db_path=str(tmp_path / "games.sqlite3"))


@pytest.mark.parametrize("word", ["quit", "q", "exit", "QUIT", " Quit "])
def test_a_word_that_quits_quits_at_the_confirm_question(settings, word):
    code, out = run_session(settings, ManualClock(), ["confirm on", "e4", word, "d4"], game="chess")
    assert code == 0
    assert out.endswith("Play e4? [y/n] " + word + "\nGame #1 is saved. Go on with: fairypost play "
                        "--resume 1\n")
    assert "White played" not in out and "Play d4" not in out


def test_the_end_of_the_input_at_the_confirm_question_leaves(settings):
    code, out = run_session(settings, ManualClock(), ["confirm on", "e4"], game="chess")
    assert code == 0 and out.endswith("Play e4? [y/n] \nGame #1 is saved. Go on with: fairypost "
                                      "play --resume 1\n")


def test_anything_else_at_the_confirm_question_is_asked_again_saying_what_is_taken(settings):
    code, out = run_session(settings, ManualClock(), ["confirm on", "e4", "e4", "maybe \x1b[2J", "Y"],
                            game="chess")
    assert code == 0
    taken = "type y (yes) or n (no; Enter alone is no), or quit to leave (the game is saved)."
    assert f"Play e4? [y/n] e4\n'e4' is not an answer here: {taken}\nPlay e4? [y/n] " in out
    assert f"'maybe \\x1b[2J' is not an answer here: {taken}" in out  # escaped as it is quoted
    assert "White played e4." in out and "Please answer yes or no" not in out


def test_quit_also_leaves_the_resign_and_draw_questions(settings):
    code, out = run_session(settings, ManualClock(), ["e4", "resign", "quit", "e5"], game="chess")
    assert code == 0 and out.endswith("resign game #1? [y/n] quit\nGame #1 is saved. Go on with: "
                                      "fairypost play --resume 1\n")
    code, out = run_session(settings, ManualClock(), ["e5", "draw", "exit", "Nf3"], resume=1)
    assert code == 0 and out.endswith("offers a draw. Do you accept? [y/n] exit\nGame #1 is saved. "
                                      "Go on with: fairypost play --resume 1\n")


def test_confirm_is_this_games_unless_set_as_the_default(settings):
    clock = ManualClock()
    code, out = run_session(settings, clock, ["confirm on", "e4", "y"], game="chess")
    assert "In this game, moves you type are asked about" in out and "Play e4?" in out
    # a new game: nobody asked for confirmation there
    code, out = run_session(settings, clock, ["e4", "d5"], game="chess")
    assert code == 0 and "Play e4?" not in out and "White played e4." in out
    # resumed in a new sitting: the player's default again (confirm on was said for a sitting)
    code, out = run_session(settings, clock, ["e5"], resume=1)
    assert "Play e5?" not in out and "Black played e5." in out
    # the default: both players, in every game from now on
    code, out = run_session(settings, clock, ["confirm on default", "e4", "y", "e5", "y"], game="chess")
    assert "So in every game from now on" in out and "Play e5? [y/n] y\nBlack played e5." in out
    code, out = run_session(settings, clock, ["e4", "y", "confirm off", "e5"], game="chess")
    assert "Play e4? [y/n] y\nWhite played e4." in out  # a new game asks: the default
    assert "Play e5?" not in out and "Black played e5." in out  # off for this game only
    code, out = run_session(settings, clock, ["confirm off default", "d4"], game="chess")
    assert "Play d4?" not in out and "White played d4." in out
    code, out = run_session(settings, clock, ["d4"], game="chess")
    assert "Play d4?" not in out


def test_confirm_default_is_said_wrongly_gets_the_usage(settings):
    code, out = run_session(settings, ManualClock(), ["confirm on always", "confirm", "e4"],
                            game="chess")
    assert "'always' is not default" in out or "unexpected 'always'" in out
    assert "Usage: confirm on|off [default]" in out
    assert "Confirm needs on or off. Usage: confirm on|off [default]" in out
    assert "White played e4." in out  # nothing changed: not asked


def test_black_against_the_computer_sees_black_at_the_bottom(fairypost):
    r = fairypost.play("chess", "--vs", "computer", "--level", "1", "--colour", "black",
                       lines=["board", "flip"], timeout=120)
    assert r.code == 0, r.err
    shown = boards(r.out)
    first_rank_order = [list(b) for b in shown]
    assert len(shown) == 4  # the start, after its move, board, flip
    for ranks in first_rank_order[:3]:
        assert ranks == list(range(1, 9)), ranks  # rank 1 at the top: Black at the bottom
    assert first_rank_order[3] == list(range(8, 0, -1))  # flip turns it round
    # and at the start, between two people, White at the bottom as ever
    r = fairypost.play("chess", lines=[])
    assert list(boards(r.out)[0]) == list(range(8, 0, -1))
    # --flip turns the computer game round too: White at the bottom for Black
    r = fairypost.play("chess", "--vs", "computer", "--level", "1", "--colour", "black", "--flip",
                       lines=[], timeout=120)
    assert list(boards(r.out)[0]) == list(range(8, 0, -1))
    assert BOARD_ROW  # (boards() reads the rows with it)


def test_help_lists_every_way_to_run_it_with_a_purpose_each(fairypost):
    r = fairypost("--help")
    assert r.code == 0
    described = " ".join(r.out.split("positional arguments")[0].split())
    assert "terminal" in described and "Discord" in described and "email" in described \
        and "web pages" in described
    listed = dict(re.findall(r"^    (\w+) +(\S.*)$", r.out, re.MULTILINE))
    assert {"play", "games", "run", "web", "link", "record", "replay", "db", "ratings", "health",
            "think", "tournament", "tournaments"} <= set(listed), listed
    assert all(len(purpose.split()) >= 3 for purpose in listed.values()), listed
    run = r.out.split("\n    run ", 1)[1].split("\n    health", 1)[0]
    assert "email" in run and "pages" in run and "Discord" in run


def test_games_help_says_what_it_lists(fairypost):
    r = fairypost("games", "--help")
    assert "played in the terminal" not in r.out
    assert "fairypost play" in r.out and "computer" in r.out and "finished" in r.out


def test_m_alone_says_what_m_is_and_how_to_write_a_move(settings):
    code, out = run_session(settings, ManualClock(), ["M", "m", "move", "M Nf3"], game="chess")
    assert code == 0
    assert ("M what? 'M' is short for move: write the move after it, as in M Nf3, or the move "
            "alone: Nf3. Usage: move MOVE") in out
    assert "M what? 'm' is short for move" in out
    assert "Move what? Write the move after it, as in move Nf3, or the move alone: Nf3." in out
    assert "Move needs a move" not in out and "White played Nf3." in out
