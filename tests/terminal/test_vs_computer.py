"""``fairypost play GAME --vs computer`` as a subprocess with scripted input: the computer's
replies appear after each move, ``hint`` and ``review`` work there, and ``hint`` is refused
in a game between two people."""

from __future__ import annotations

import re

from bot.terminal.conditional import PREMOVE_VS_COMPUTER


def test_play_against_the_computer_hint_undo_and_review(fairypost):
    r = fairypost.play("chess", "--vs", "computer", "--level", "1", lines=[
        "Nf3", "hint", "Nc3", "undo", "next", "premove e5 Nf3", "help premove", "review", "resign",
        "y", "review", "games"], timeout=120)
    assert r.code == 0, r.err
    out = r.out
    assert "You play White against fairypost level 1 (beginner)." in out
    replies = re.findall(r"fairypost level 1 \(Black\) played (\S+)\.", out)
    assert len(replies) == 2, out  # one after each of the player's moves
    assert out.count("fairypost level 1 is thinking…") == 2
    hint = re.search(r"The computer would play (\S+) \(score ([-+]\d+\.\d|mate in \d+)\)\.", out)
    assert hint, out
    # one line, whose moves they were
    assert f"Took back fairypost level 1's move {replies[1]} and your move Nc3 before it.\n" in out
    assert "No other game waits for your move." in out  # not "for You's move"
    assert str(PREMOVE_VS_COMPUTER) in " ".join(out.split())  # refused, saying what it does
    assert "Not against the computer: it answers at once" in " ".join(out.split())  # its help too
    assert "\nYou played Nf3.\n" in out and "You (White) played" not in out
    assert "Resign game #1? [y/n] y\nYou resign.\n" in out
    assert "A review is for a finished game: this one is still being played." in out
    assert "Game over: 0-1, fairypost level 1 (Black) wins (resignation)." in out
    review = out.split("Reviewing 2 moves…", 1)[1]
    assert re.search(r"1\.\s+Nf3\s+[-+]\d+\.\d ->\s+[-+]\d+\.\d", review), review
    assert "blunder(s)" in review
    assert "#1    chess       You v fairypost level 1, 2 plies, 0-1 (resignation)" in out


def test_the_computer_moves_first_when_the_player_takes_black(fairypost):
    r = fairypost.play("chess", "--vs", "computer", "--level", "2", "--colour", "black",
                       lines=["quit"], timeout=120)
    assert r.code == 0, r.err
    assert "You play Black against fairypost level 2 (novice)." in r.out
    assert re.search(r"fairypost level 2 \(White\) played \S+\.", r.out)
    assert "You (Black) to move." in r.out


def test_hint_is_refused_between_people_and_options_need_vs(fairypost):
    r = fairypost.play("chess", lines=["hint", "e4"])
    assert r.code == 0, r.err
    assert ("Hints are only for games against the computer; in a game between people, the move "
            "is yours to find.") in " ".join(r.out.split())
    assert "White played e4." in r.out  # and nothing else changed
    bad = fairypost.play("chess", "--level", "2")
    assert bad.code == 2 and "--level and --colour go with --vs computer" in bad.err
