"""`fairypost think`: score and depth, then the move in LAN as the last line; exit 2 on bad input."""
import pytest

import rules
from bot.cli import main


def test_think_prints_score_depth_then_the_lan(capsys):
    assert main(["think", "chess", "--seconds", "0.3", "--level", "5"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[-1] in {m.lan for m in rules.start("chess").legal_moves()}
    head = {line.split(":", 1)[0]: line.split(":", 1)[1].strip() for line in lines[:-1]}
    assert head["score"].endswith("cp") and int(head["depth"]) >= 1
    assert head["pv"].split()[0] == lines[-1]


def test_think_finds_the_drop_mate_from_a_vfen(capsys):
    fen = "***pkp***/***3***/9/4P4/9/***3***/***K2*** w - - 0 1 hand=C;dropped=-"
    assert main(["think", "kingqueen", "--fen", fen, "--seconds", "2"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[-1] in ("C@e1", "C@e2")
    assert "score: mate in 1" in lines


@pytest.mark.parametrize("args,message", [
    (["think", "chesss"], "no game 'chesss'; the games are: chess, ganymede"),
    (["think", "chess", "--fen", "8/8 w"], "bad VFEN"),
    (["think", "chess", "--level", "0"], "--level must be one of 1, 2, 3, 4, 5, not '0'"),
    (["think", "chess", "--level", "strong"], "--level must be one of"),
    (["think", "chess", "--seconds", "0"], "--seconds must be more than 0"),
    (["think", "chess", "--seconds", "nan"], "--seconds must be more than 0"),
    (["think", "chess", "--seconds", "soon"], "--seconds must be a number of seconds"),
    (["think", "chess", "--fen", "7k/5QQ1/8/8/8/8/8/K7 b - - 0 1"],
     "the game is over in that position (1-0, checkmate)"),
])
def test_think_refuses_bad_input_with_exit_2(capsys, args, message):
    assert main(args) == 2
    captured = capsys.readouterr()
    assert message in captured.err and captured.out == ""
