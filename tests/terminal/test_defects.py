"""Terminal defects found while trying it (issue 15, items 3 and 4), each as a player
meets it: ``fairypost play`` as a subprocess."""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import sys
import time

import pytest

from rules.hooks.superchess import FACING_NOTE
from tests.terminal.test_play import boards


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child is a POSIX thing")
def test_the_first_ctrl_c_leaves_and_keeps_the_game(fairypost):
    p = subprocess.Popen([sys.executable, "-m", "bot.cli", "play", "chess", "--no-images"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         cwd=fairypost.dir, env=fairypost.env, text=True, encoding="utf-8")
    try:
        p.stdin.write("e4\n")
        p.stdin.flush()
        seen = read_until(p, "Black> ")  # waiting for Black's line
        p.send_signal(signal.SIGINT)     # one Ctrl-C, the input still open
        try:
            p.wait(timeout=20)
        except subprocess.TimeoutExpired:
            pytest.fail("one Ctrl-C did not end the session (it waits for another line)")
        out, err = p.communicate(timeout=20)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert "White played e4." in seen
    assert p.returncode == 130
    assert "Game #1 is saved. Go on with: fairypost play --resume 1" in out
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    again = fairypost.play("--resume", lines=["e5"])  # nothing lost, nothing half-done
    assert "Last move: e4 (White). Black to move." in again.out
    assert "Black played e5." in again.out


def read_until(p, text: str, timeout: float = 30) -> str:
    """Read the child's output until ``text`` appears (its prompt: it waits for a line)."""
    sel = selectors.DefaultSelector()
    sel.register(p.stdout, selectors.EVENT_READ)
    fd, got, end = p.stdout.fileno(), b"", time.monotonic() + timeout
    while text.encode() not in got:
        assert time.monotonic() < end, f"no {text!r} in {got!r}"
        if sel.select(timeout=1):
            chunk = os.read(fd, 4096)
            assert chunk, f"the output ended before {text!r}: {got!r}"
            got += chunk
    return got.decode()


def test_moves_of_the_other_sides_piece_are_shown_as_if_it_were_to_move(fairypost):
    r = fairypost.play("chess", lines=["moves e7", "moves g8", "e4", "moves e2", "moves e4"])
    assert r.code == 0, r.err
    out = " ".join(r.out.split())  # as read: the lines are wrapped to the terminal's width
    assert ("e7 is Black's Pawn; if Black were to move, it could go to: e5 e6 "
            "(not now: it is White's move).") in out
    assert "g8 is Black's Knight; if Black were to move, it could go to: Nf6 Nh6" in out
    assert "There is no piece on e2." in out
    assert ("e4 is White's Pawn; if White were to move, it could go to: e5 "
            "(not now: it is Black's move).") in out
    assert "has no legal move" not in out
    check = fairypost.play("chess", lines=["e4", "f5", "Qh5", "moves h5"])
    flat = " ".join(check.out.split())
    assert "h5 is White's Queen; if White were to move, it could go to: Qd1 " in flat
    assert "Qxf5 Qxh7 (not now" in flat and "Qxe8" not in flat  # Black in check: no King taken
    kq = fairypost.play("kingqueen", lines=["moves e5"])
    assert "e5 is Red's Soldier; if Red were to move, it could go to: e4" in " ".join(kq.out.split())


def test_control_characters_are_escaped_and_long_texts_cut(fairypost):
    long = "x" * 300
    r = fairypost.play("chess", lines=["he\x00llo", "Nf\x1b[31m3", "moves e\x01", f"moves {long}",
                                       f"piece {long}", f"rules {long}", "piece q\x07",
                                       "N" * 60])
    assert r.code == 0, r.err
    for raw in ("\x00", "\x1b", "\x01", "\x07"):
        assert raw not in r.out  # neither in the transcript's echo nor in an error
    assert "'he\\x00llo' is not a move I can read" in r.out
    assert "'Nf\\x1b[31m3' is not a move I can read" in r.out
    assert "'e\\x01' is not a square name." in r.out
    cut = "'" + "x" * 40 + "\u2026'"
    assert f"{cut} is not a square name." in r.out
    assert f"Chess has no piece {cut}." in r.out
    assert f"There is no game {cut}" in r.out
    assert "Chess has no piece 'q\\x07'." in r.out
    assert "'" + "N" * 40 + "\u2026' is not a move I can read" in r.out
    assert "x" * 41 not in r.out.replace("> moves " + long, "").replace("> piece " + long, "") \
        .replace("> rules " + long, "")  # only the transcript's echo has the whole line


def test_q_at_the_facing_prompt_leaves_and_the_facing_is_still_to_choose(fairypost):
    first = fairypost.play("superchess", "--setup", "players", lines=["ef", "ef", "Q", "forward"])
    assert first.code == 0, first.err
    facing_prompt = ("Set-up: White to choose the way the Cyclops faces: N, NE, E, SE, S, SW, W, NW "
                     "or the words forward, forward-right, right, back-right, back, back-left, "
                     f"left, forward-left; like d1(N), just N, or forward. {FACING_NOTE}")
    assert facing_prompt in " ".join(first.out.split())  # as read: wrapped to the width
    assert first.out.count("Game #1 is saved. Go on with: fairypost play --resume 1") == 1
    assert "White played" not in first.out.split("White> Q")[1]  # Q did not choose a facing
    again = fairypost.play("--resume", lines=["q"])
    assert facing_prompt in " ".join(again.out.split()) and "is saved" in again.out
    last = fairypost.play("--resume", lines=["forward", "back", "rules", "piece C"])
    assert last.code == 0, last.err
    assert "White played d1(N)." in last.out and "Black played d10(S)." in last.out
    final = boards(last.out)[-1]
    assert final[1][3] == "C(N)" and final[10][3] == "c(S)"  # Black's back: toward rank 10
    rules_part, piece_part = last.out.split("> rules\n")[1].split("> piece C\n")
    flat = " ".join(rules_part.split())
    assert FACING_NOTE in flat  # `rules superchess`: the Cyclops's line
    assert FACING_NOTE in " ".join(piece_part.split())  # `piece C`


def test_q_leaves_the_game_and_set_up_questions(fairypost):
    r = fairypost.play(lines=["q"])
    assert r.code == 1 and "Game #" not in r.out
    r = fairypost.play("superchess", lines=["Q"])
    assert r.code == 1 and "Set-up (default/players) [default]: Q" in r.out
    assert "Please answer" not in r.out and not fairypost("games").out.startswith("#")
