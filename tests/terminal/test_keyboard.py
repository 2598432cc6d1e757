"""The terminal is one person at a keyboard (issue 29, item 3): piped or pasted moves are
never "too fast", Ctrl-C while the computer thinks leaves as at a prompt, a game that ends
is drawn again with its result, long answers wrap at the terminal's width, ``board
SQUARE`` marks that piece's moves, and ``fairypost`` says what each command does."""

from __future__ import annotations

import os
import random
import re
import select
import signal
import sys
import time

import pytest
from PIL import Image

import rules
from bot.cli import _parser, main
from bot.config import Settings
from bot.terminal.conditional import PREMOVE_VS_COMPUTER
from bot.timekeeping.clock import ManualClock
from render import board_layout
from tests.terminal.conftest import ROOT
from tests.terminal.session_script import run_session
from tests.terminal.test_play import boards


def random_game(plies: int, seed: int) -> list[str]:
    """A legal chess game of ``plies`` moves (SAN), the same for a seed."""
    rng, pos, sans = random.Random(seed), rules.start("chess"), []
    while len(sans) < plies:
        moves = sorted(pos.legal_moves(), key=lambda m: m.lan)
        if not moves:
            break
        move = rng.choice(moves)
        sans.append(pos.san(move))
        pos = pos.play(move)
    return sans


def test_piped_moves_are_all_played_never_too_fast(fairypost):
    # a whole game piped in at once (the flood control of a shared bot refused 92 of 130)
    sans = random_game(60, seed=7)  # the shared bot's burst is 20
    r = fairypost.play("chess", lines=sans, timeout=120)
    assert r.code == 0, r.err
    assert "too fast" not in r.out
    played = re.findall(r"^(?:White|Black) played (\S+)\.$", r.out, re.MULTILINE)
    assert played == sans


@pytest.mark.skipif(sys.platform == "win32", reason="a pty and SIGINT are POSIX things")
def test_ctrl_c_while_the_computer_thinks_saves_and_says_how_to_go_on(fairypost):
    """At a real terminal (a pty, so Ctrl-C reaches the whole foreground group, the
    computer's worker too): the line of dots ends, the game is saved, and it says so."""
    import pty
    pid, fd = pty.fork()
    if pid == 0:  # the child: fairypost at the pty
        os.chdir(fairypost.dir)
        os.execve(sys.executable, [sys.executable, "-m", "bot.cli", "play", "chess", "--vs",
                                   "computer", "--level", "5", "--no-images"],
                  {**fairypost.env, "COLUMNS": "100"})
    got = b""

    def read_until(text: bytes, timeout: float = 60) -> None:
        nonlocal got
        end = time.monotonic() + timeout
        while text not in got:
            assert time.monotonic() < end, f"no {text!r} in {got!r}"
            if select.select([fd], [], [], 0.5)[0]:
                try:
                    chunk = os.read(fd, 4096)
                except OSError:  # the child is gone
                    break
                got += chunk
    try:
        read_until(b"You (White)> ")
        os.write(fd, b"e4\r")
        read_until(b"fairypost level 5 is thinking")
        os.write(fd, b"\x03")  # Ctrl-C, as typed: the terminal sends SIGINT to the group
        deadline = time.monotonic() + 30
        while (done := os.waitpid(pid, os.WNOHANG))[0] == 0:
            assert time.monotonic() < deadline, f"Ctrl-C did not end the session: {got!r}"
            if select.select([fd], [], [], 0.2)[0]:
                try:
                    got += os.read(fd, 4096)
                except OSError:
                    pass
        code = os.waitstatus_to_exitcode(done[1])
        try:
            while select.select([fd], [], [], 0.2)[0]:
                got += os.read(fd, 4096)
        except OSError:
            pass
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        os.close(fd)
    out = got.decode("utf-8", "replace").replace("\r\n", "\n")
    after = out.split("is thinking…", 1)[1]
    assert code == 130  # as Ctrl-C at a prompt
    assert "fairypost level 5 had not yet answered; it answers when you go on.\n" in after
    assert "Game #1 is saved. Go on with: fairypost play --resume 1" in after
    assert re.fullmatch(r"\n(\.*(\^C)?\n)?\n?fairypost level 5 had", after[:after.index(" had") + 4]), after
    assert "Traceback" not in out and "KeyboardInterrupt" not in out
    listed = fairypost("games")  # saved: e4 played, the computer's turn kept for --resume
    assert "#1    chess       You v fairypost level 5, 1 ply, fairypost level 5 to move" in listed.out


@pytest.fixture
def settings(tmp_path):
    return Settings(db_path=str(tmp_path / "games.sqlite3"))


def banner_height(path) -> int:
    """How much taller than the board's own picture the written picture is: its banner."""
    with Image.open(path) as img:
        return img.size[1] - board_layout(rules.start("chess")).height


def test_resignation_a_draw_and_the_time_draw_the_picture_again_with_the_result(settings, tmp_path):
    clock = ManualClock()
    pictures = tmp_path / "pictures"
    picture = pictures / "game-1.png"
    code, out = run_session(settings, clock, ["e4", "resign", "y"], game="chess", images=pictures)
    assert code == 0
    after = out.split("Black resigns.\n", 1)[1]
    assert boards(after) and "Game over: 1-0, White wins (resignation)." in after
    assert f"Image: {picture}" in after and banner_height(picture) > 0

    code, out = run_session(settings, clock, ["e4", "draw", "y"], game="chess", images=pictures)
    after = out.split("Draw agreed.\n", 1)[1]
    assert boards(after) and "Game over: a draw (agreement)." in after
    assert banner_height(pictures / "game-2.png") > 0

    # the time runs out while the session waits: the next line shows the game lost on time
    code, out = run_session(settings, clock, ["e4", lambda: clock.advance(days=1, minutes=1),
                                              "board"], game="chess", days="1", images=pictures)
    after = out.split("> board\n", 1)[1]
    assert boards(after) and "Game over: 1-0, White wins (time)." in after
    assert banner_height(pictures / "game-3.png") > 0


def test_long_answers_wrap_at_the_terminals_width(settings):
    clock = ManualClock()
    code, out = run_session(settings, clock, ["e4", "moves", "help"], game="chess", days="3",
                            width=40)
    assert code == 0
    lines = out.splitlines()
    board = [line for line in lines if re.match(r"^\d  ", line)]
    assert len(board) == 16  # two boards, their rows whole
    assert all(len(line) < 40 for line in lines if line not in board), \
        [line for line in lines if len(line) >= 40 and line not in board]
    # the status and the moves list, wrapped at spaces: the words read as before
    flat = " ".join(out.split())
    assert "Last move: e4 (White). Black to move. Time: 3 days left, until Thu 09 Jan 2025 12:00 UTC." in flat
    assert "20 legal moves: Na6 Nc6 Nf6 Nh6 a5 a6" in flat
    # help in columns: a wrapped line goes on under its column
    i = next(i for i, line in enumerate(lines) if line.startswith("  draw "))
    assert lines[i + 1].startswith(" " * 19) and not lines[i + 1][19].isspace()


def test_board_square_marks_that_pieces_moves(settings):
    clock = ManualClock()
    code, out = run_session(settings, clock, ["e4", "d5", "board e4", "board g8", "board e3"],
                            game="chess")
    assert code == 0
    after = out.split("> board e4\n", 1)[1]
    assert "\n5  . . .xp * . . .  5\n4  . . . .>P . . .  4\n" in after  # e5, or takes d5
    assert "> before the piece, * where it can go, x before a piece it can take." in after
    assert "2 moves of the Pawn on e4:\ne5 exd5" in after
    knight = out.split("> board g8\n", 1)[1]
    assert "\n8  r n b q k b>n r  8\n" in knight  # Black's, not to move: as if it were
    assert "\n6  . . . . . * . *  6\n" in knight and "\n7  p p p . p p p p  7\n" in knight
    assert "g8 is Black's Knight; if Black were to move, it could go to: Nf6 Nh6" in knight
    empty = out.split("> board e3\n", 1)[1]
    assert empty.startswith("There is no piece on e3.\n")


def test_play_options_without_vs_explain_plays_own_usage(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("FAIRYPOST_DB", str(tmp_path / "games.sqlite3"))
    with pytest.raises(SystemExit) as stop:
        main(["play", "chess", "--level", "3"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: fairypost play [-h] [--resume [ID]]")
    assert err.rstrip().endswith("fairypost play: error: --level and --colour go with --vs computer, "
                                 "as in: fairypost play chess --vs computer --level 3")


def test_every_subcommands_help_says_what_it_does(capsys):
    def commands(parser, words=()):
        for action in parser._subparsers._group_actions if parser._subparsers else ():
            for name, sub in action.choices.items():
                yield (*words, name)
                yield from commands(sub, (*words, name))
    found = list(commands(_parser()))
    assert {"play", "games", "ratings", "run", "health", "think", "replay", "web", "link", "db",
            ("db", "copy")} <= set(c[0] if len(c) == 1 else c for c in found)
    for words in found:
        with pytest.raises(SystemExit):
            main([*words, "--help"])
        out = capsys.readouterr().out
        first = out.split("\n\n")[1]  # after the usage: what it does
        assert not first.startswith(("positional arguments", "options")), (words, out)
        assert len(first.split()) >= 4, (words, first)


def test_the_terminal_guide_says_what_premove_does_against_the_computer():
    # the session says PREMOVE_VS_COMPUTER where it refuses (test_vs_computer.py)
    assert str(PREMOVE_VS_COMPUTER).startswith("premove does nothing against the computer: it answers "
                                          "each move at once")
    guide = (ROOT / "docs" / "terminal.md").read_text(encoding="utf-8")  # moved from the README
    assert "premove does nothing against the computer: it answers each move at once" in guide
