"""Records that other programs read (issue 41, item 4), from the terminal: ``record`` and
``fen`` are never broken at the terminal's width (a narrow one, or a pipe), and
``fairypost record GAME_ID [FILE]`` writes the PGN, or says plainly why it cannot."""

from __future__ import annotations

import io
import re

import chess.pgn

TAG = re.compile(r'^\[[A-Za-z0-9_]+ "(?:[^"\\]|\\.)*"\]$')
SCHOLARS = ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]


def _record_in(out: str) -> str:
    """The record a session printed: from its first tag to its result."""
    start = out.index("[Event ")
    end = re.compile(r"(1-0|0-1|1/2-1/2|\*)\n").search(out, out.index("\n\n", start))
    return out[start:end.end()]


def test_record_and_fen_stay_whole_in_a_narrow_terminal(fairypost):
    """A 40-column terminal wrapped the FEN tag and the VFEN (issue 41): the record is
    PGN as printed, each tag on its line, and the position one line."""
    r = fairypost.play("grandducal", lines=["e4", "e5", "record", "fen"], env={"COLUMNS": "40"})
    assert r.code == 0, r.err
    record = _record_in(r.out)
    head, movetext = record.split("\n\n")
    assert all(TAG.match(line) for line in head.splitlines()), head
    assert '[FEN "rginbqkbnsgr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RGINBQKBNSGR w - - 0 1"]' in head
    assert '[Variant "grandducal"]' in head and '[SetUp "1"]' in head
    assert movetext == "1. e4 e5 *\n"
    fen = "rginbqkbnsgr/pppp1ppppppp/12/4p7/4P7/12/PPPP1PPPPPPP/RGINBQKBNSGR w - - 0 2"
    assert f"\n{fen}\n" in r.out


def test_a_chess_record_printed_is_read_by_python_chess(fairypost):
    r = fairypost.play("chess", lines=[*SCHOLARS, "record"], env={"COLUMNS": "30"})
    game = chess.pgn.read_game(io.StringIO(_record_in(r.out)))
    assert not game.errors and game.headers["Result"] == "1-0"
    assert [n.san() for n in game.mainline()] == ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]
    assert game.end().board().is_checkmate()


def test_fairypost_record_writes_the_pgn_to_a_file_or_the_output(fairypost):
    assert fairypost.play("chess", lines=SCHOLARS).code == 0
    out = fairypost("record", "1")
    assert out.code == 0 and out.err == ""
    assert out.out.startswith('[Event "fairypost correspondence game"]\n')
    assert out.out.endswith("\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n")
    game = chess.pgn.read_game(io.StringIO(out.out))
    assert not game.errors and game.end().board().is_checkmate()
    to_file = fairypost("record", "1", "scholar.pgn")
    assert to_file.code == 0, to_file.err
    assert (fairypost.dir / "scholar.pgn").read_text(encoding="utf-8") == out.out
    assert "scholar.pgn" in to_file.out
    # piped and narrow, or to "-": the same bytes
    assert fairypost("record", "1", env={"COLUMNS": "20"}).out == out.out
    assert fairypost("record", "1", "-").out == out.out and not (fairypost.dir / "-").exists()


def test_fairypost_record_says_what_is_wrong_and_writes_nothing(fairypost):
    none = fairypost("record", "1")  # no database yet: none is made for it
    assert none.code == 2 and "there is no game #1" in none.err and none.out == ""
    assert not fairypost.db.exists()
    assert fairypost.play("chess", lines=["e4"]).code == 0
    missing = fairypost("record", "7")
    assert missing.code == 2 and "no game #7" in missing.err and missing.out == ""
    (fairypost.dir / "folder").mkdir()
    cases = {
        "folder": "that is a folder",
        "nowhere/x.pgn": "the folder nowhere does not exist",
        "folder/../scholar.pgn/x.pgn": "is not a folder",
        "/proc/version": "cannot write /proc/version",  # refused by the system, even to root
    }
    (fairypost.dir / "scholar.pgn").write_text("kept")
    for target, problem in cases.items():
        r = fairypost("record", "1", target)
        assert r.code == 2 and problem in r.err and r.out == "", (target, r)
        assert r.err.startswith(f"fairypost record: {target}: ") or target == "/proc/version"
    assert (fairypost.dir / "scholar.pgn").read_text() == "kept"
    bad = fairypost("record", "one")
    assert bad.code == 2 and "GAME_ID" in bad.err and "invalid int value" in bad.err
