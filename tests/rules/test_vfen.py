"""VFEN: round trips, and a clear FenError for every malformed or impossible string."""
import pytest

import rules
from rules.errors import FenError
from tests.rules.randgames import random_game


@pytest.mark.parametrize("game_id", ["chess", "grandducal"])
def test_start_round_trip(game_id):
    g = rules.game(game_id)
    assert rules.start(game_id).fen() == g.start_fen
    assert rules.from_fen(game_id, g.start_fen).fen() == g.start_fen


@pytest.mark.parametrize("game_id,seed", [("chess", s) for s in range(5)] + [("grandducal", s) for s in range(5)])
def test_round_trip_along_random_games(game_id, seed):
    for pos, _mv in random_game(game_id, seed, 120):
        text = pos.fen()
        again = rules.from_fen(game_id, text)
        assert again.fen() == text
        assert sorted(m.lan for m in again.legal_moves()) == sorted(m.lan for m in pos.legal_moves())


def test_orthodox_castling_letters():
    fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    assert rules.from_fen("chess", fen).fen() == fen
    # rook-file letters are read too, and written the usual way
    assert rules.from_fen("chess", "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1").fen() == fen
    after = rules.from_fen("chess", fen).play("Rh1h2")
    assert after.fen().split()[2] == "Qkq"
    assert after.play("Ra8a1").fen().split()[2] == "k"  # a capture on a1 loses White's Q right


def test_en_passant_written_only_when_capturable():
    p = rules.start("chess").play("e4")
    assert p.fen().split()[3] == "-"           # no black pawn can take on e3
    p = rules.from_fen("chess", "k7/8/8/8/3p4/8/4P3/K7 w - - 0 1").play("e4")
    assert p.fen().split()[3] == "e3"
    assert p.play("dxe3").piece_at("e4") is None


@pytest.mark.parametrize("text,words", [
    ("", "6 or 7 fields"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0", "6 or 7 fields"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "8 ranks"),
    ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 6"),
    ("rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 6 has 7"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNZ w KQkq - 0 1", "no piece 'Z'"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "'w' or 'b'"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", "no Rook on h1"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w KQkq - 0 1", "King is not on e1"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqX - 0 1", "'X'"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1", "en passant"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "numbers"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0", "fullmove 1 or more"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 hand=P", "no pieces in hand"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w - - 0 1", "at most one royal"),
    ("4k3/8/8/8/8/8/8/4K2R w - - 0 1 setup=x", "no set-up"),
    ("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", "could capture"),
    ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 foo", "key=value"),
    ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 " + "x" * 1000, "too long"),
])
def test_bad_strings(text, words):
    with pytest.raises(FenError) as err:
        rules.from_fen("chess", text)
    assert words in str(err.value)


def test_non_string():
    with pytest.raises(FenError):
        rules.from_fen("chess", None)
