"""Gigachess II's pieces against Fairy-Stockfish (pyffish), on a 12 x 10 test board.

Fairy-Stockfish holds at most 12 x 10 squares and has no form for the Eagle, the
Rhinoceros or the King's jump, so tests/oracle/ffish.py registers ``gigatest``: the
other 22 kinds with the same letters, promotion on the last rank (10). Our side of the
comparison is built here from data/variants/gigachess2.toml itself (same Betza, same
promotions, ranks moved to 10), so what is checked is the real game's piece data run
by the real engine on a smaller board. Seeded random positions and seeded random games
must give the same legal moves (in our LAN) and the same position after a move.
"""
import random
import tomllib

import pytest

from rules.errors import FenError
from rules.game import Game, definitions_dir
from rules.vfen import read_fen

ffish = pytest.importorskip("tests.oracle.ffish")

FILES, RANKS = "abcdefghijkl", 10
START = "cmzvokahxfdl/ierbnwjqysie/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/IERBNWJQYSIE/CMZVOKAHXFDL w - - 0 1"
NOT_IN_FSF = {"U", "G"}                       # Rhinoceros, Eagle: bent riders
PROMOTING = {"P", "I", "N", "M", "Z", "E", "W", "J"}


def gigatest_game() -> Game:
    spec = tomllib.loads((definitions_dir() / "gigachess2.toml").read_text(encoding="utf-8"))
    spec.update(id="gigatest", name="Gigachess II pieces on 12 x 10", files=FILES, ranks=RANKS,
                start=START, rules={"stalemate": "draw"})   # no King jump
    for key in NOT_IN_FSF:
        del spec["pieces"][key]
    for p in spec["pieces"].values():
        if "promotion" in p:
            assert p["promotion"]["ranks"] == [14]
            p["promotion"] = dict(p["promotion"], ranks=[RANKS])
    return Game(spec, "gigatest (test)")


GAME = gigatest_game()


def test_gigatest_has_every_piece_fairy_stockfish_can_express():
    assert set(GAME.types) == set(ffish.GIGATEST_LETTERS)
    assert len(GAME.types) == 25 - len(NOT_IN_FSF)


def compare(fen):
    pos = read_fen(GAME, fen)
    ours = {m.lan for m in pos.legal_moves()}
    theirs = ffish.legal_lans("gigatest", pos.fen())
    assert ours == theirs, (pos.fen(), sorted(ours - theirs), sorted(theirs - ours))
    return pos


def test_start_position():
    pos = compare(START)
    assert len(pos.legal_moves()) == 41


def _random_fen(rng):
    board = {}
    squares = [(x, y) for x in range(12) for y in range(RANKS)]
    for king in ("K", "k"):
        board[rng.choice([s for s in squares if s not in board])] = king
    letters = sorted(set(GAME.types) - {"K"}) + ["P"] * 6 + ["I"] * 2
    for _ in range(rng.randint(4, 26)):
        s = rng.choice(squares)
        if s in board:
            continue
        letter, color = rng.choice(letters), rng.randint(0, 1)
        last = RANKS - 1 if color == 0 else 0
        if letter in PROMOTING and s[1] == last:
            continue                           # could not stand there unpromoted
        if letter == "P" and s[1] in (0, RANKS - 1):
            continue
        board[s] = letter if color == 0 else letter.lower()
    for _ in range(rng.randint(0, 4)):         # promoting kinds near their last rank
        color, letter = rng.randint(0, 1), rng.choice(sorted(PROMOTING))
        s = (rng.randrange(12), rng.choice((6, 7, 8) if color == 0 else (1, 2, 3)))
        if s not in board:
            board[s] = letter if color == 0 else letter.lower()
    rows = []
    for y in range(RANKS - 1, -1, -1):
        row, run = "", 0
        for x in range(12):
            p = board.get((x, y))
            if p is None:
                run += 1
                continue
            row += (str(run) if run else "") + p
            run = 0
        rows.append(row + (str(run) if run else ""))
    return f"{'/'.join(rows)} {rng.choice('wb')} - - 0 1"


def test_seeded_random_positions():
    rng = random.Random(4242)
    compared = checks = promotions = 0
    while compared < 150:
        fen = _random_fen(rng)
        try:
            pos = read_fen(GAME, fen)
        except FenError:
            continue                            # the side to move could take the King
        compare(fen)
        compared += 1
        checks += pos.in_check()
        promotions += sum(1 for m in pos.legal_moves() if m.promotion)
    assert checks >= 10 and promotions >= 100   # enough checks and promotions were seen


def _playout(seed, plies):
    """A seeded random game from START, preferring captures, double steps and promotions."""
    rng = random.Random(seed)
    pos = compare(START)
    seen = {"ep": 0, "promotion": 0}
    for _ in range(plies):
        moves = sorted(pos.legal_moves(), key=lambda m: m.lan)
        if not moves:
            break
        keen = [m for m in moves if m.captures or m.promotion or
                (m.piece.key in "PI" and abs(m.to - m.frm) == 24)]
        mv = rng.choice(keen if keen and rng.random() < 0.6 else moves)
        seen["ep"] += mv.ep
        seen["promotion"] += mv.promotion is not None
        before = pos.fen()
        pos = pos.play(mv)
        want = ffish.fen_after("gigatest", before, [mv.lan]).split()
        got = pos.fen().split()
        assert got[:2] == want[:2], (before, mv.lan)
        assert got[4:] == want[4:], (before, mv.lan)          # halfmove and fullmove
        compare(pos.fen())
    return seen


def test_seeded_random_games():
    seen = {"ep": 0, "promotion": 0}
    for seed in range(6):
        for k, v in _playout(seed, 90).items():
            seen[k] += v
    assert seen["promotion"] > 0


def test_en_passant_of_pawn_and_prince_agrees():
    # White Pawn e5 and Prince h5 step two; black Pawns on d7/f7 and g7 take en passant
    for frm, to, taker in (("e5", "e7", "d7"), ("e5", "e7", "f7"), ("h5", "h7", "g7")):
        pos = read_fen(GAME, "5k6/12/12/3p1pp5/12/4P2I4/12/12/12/6K5 w - - 0 1").play(frm + to)
        passed = frm[0] + "6"
        assert pos.fen().split()[3] == passed
        assert taker + passed in {m.lan for m in compare(pos.fen()).legal_moves()}
        after = pos.play(taker + passed)
        assert after.piece_at(to) is None
        assert after.fen().split()[0] == ffish.fen_after("gigatest", pos.fen(), [taker + passed]).split()[0]
