"""The Python API and the command line, exactly as the contract's README says."""
import subprocess
import sys

import pytest

import rules
from rules.errors import UnknownGameError


def run(*args):
    return subprocess.run([sys.executable, "-m", "rules", *args], capture_output=True, text=True, timeout=120)


def test_api_surface():
    assert {"chess", "grandducal"} <= set(rules.variants())
    pos = rules.start("chess")
    moves = pos.legal_moves()
    assert all(isinstance(m.lan, str) for m in moves)
    after = pos.play("e4")
    assert pos.fen() == rules.game("chess").start_fen      # play leaves pos unchanged
    assert after.turn == "b" and after.last_move.lan == "e2e4"
    assert pos.san(pos.parse("e2e4")) == "e4"
    assert pos.play(moves[0]).fen() == pos.play(moves[0].lan).fen()
    assert not pos.in_check() and pos.outcome() is None


def test_history_restarts_with_from_fen():
    pos = rules.start("chess")
    for mv in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]:
        pos = pos.play(mv)
    fresh = rules.from_fen("chess", pos.fen())
    assert pos.play("Ng8").outcome() is not None
    assert fresh.play("Ng8").outcome() is None


def test_unknown_game():
    with pytest.raises(UnknownGameError, match="chess"):
        rules.start("checkers")


def test_cli_perft():
    out = run("perft", "chess", "3")
    assert out.returncode == 0 and out.stdout.strip() == "8902"
    out = run("perft", "grandducal", "2")
    assert out.stdout.strip() == "1225"
    out = run("perft", "chess", "2", "--fen", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    assert out.stdout.strip() == "2039"


def test_cli_moves_sorted_lan():
    out = run("moves", "chess")
    lines = out.stdout.split()
    assert lines == sorted(lines) and len(lines) == 20 and "g1f3" in lines


def test_cli_play():
    out = run("play", "chess", "e4", "e5", "Nf3")
    assert out.stdout.strip() == "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    bad = run("play", "chess", "e4", "Ke7")
    assert bad.returncode == 2 and "move 2" in bad.stderr and bad.stdout == ""
    badfen = run("moves", "chess", "--fen", "nonsense")
    assert badfen.returncode == 2 and "fields" in badfen.stderr


def test_cli_play_moves_either_side_of_fen():
    fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    a = run("play", "chess", "--fen", fen, "e4", "e5")
    b = run("play", "chess", "e4", "--fen", fen, "e5")
    assert a.returncode == b.returncode == 0 and a.stdout == b.stdout
    assert run("perft", "chess", "1", "--bogus").returncode == 2
