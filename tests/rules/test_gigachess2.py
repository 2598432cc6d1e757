"""Gigachess II: every rule of docs/rules/gigachess2.md on hand-made positions.

Diagrams without a King use README Legality 5 (a side with no royal makes every
pseudo-legal move), so a piece's destinations are exactly its moves. The
Fairy-Stockfish cross-check is in test_gigachess2_oracle.py, the independent
reference (Eagle, Rhinoceros, King's jump on 14 x 14) in test_gigachess2_reference.py,
perft in perft/gigachess2.perft.
"""
import pytest

import rules
from rules.errors import FenError, LeavesRoyalInCheckError, NoSuchMoveError

GAME = "gigachess2"
FILES = "abcdefghijklmn"
START = ("cmzvuhoaxfvzmc/ernbwjqkdwbnre/ppppiyglsipppp/4pppppp4/14/14/14/14/14/14/"
         "4PPPPPP4/PPPPIYGLSIPPPP/ERNBWJQKDWBNRE/CMZVUHOAXFVZMC w Hh - 0 1")


# ---------------------------------------------------------------- helpers

def fen(pieces: dict, side="w", rights="-", ep="-"):
    """A VFEN from {square: letter} (upper-case White, lower-case Black)."""
    rows = []
    for rank in range(14, 0, -1):
        row, run = "", 0
        for f in FILES:
            p = pieces.get(f"{f}{rank}")
            if p is None:
                run += 1
                continue
            row += (str(run) if run else "") + p
            run = 0
        rows.append(row + (str(run) if run else ""))
    return f"{'/'.join(rows)} {side} {rights} {ep} 0 1"


def pos_of(pieces, **kw):
    return rules.from_fen(GAME, fen(pieces, **kw))


def dests(pieces, square, **kw):
    """Destinations (with any promotion suffix) of the piece on `square`."""
    pos = pos_of(pieces, **kw)
    return {m.lan[len(square):] for m in pos.moves_from(square)}


def xy(sq):
    return FILES.index(sq[0]), int(sq[1:]) - 1


def sq(x, y):
    return f"{FILES[x]}{y + 1}" if 0 <= x < 14 and 0 <= y < 14 else None


def leaps(frm, offsets):
    x, y = xy(frm)
    return {s for dx, dy in offsets if (s := sq(x + dx, y + dy))}


def ray(frm, dx, dy):
    x, y = xy(frm)
    out = []
    while (s := sq(x := x + dx, y := y + dy)):
        out.append(s)
    return out


def rays(frm, dirs):
    return {s for d in dirs for s in ray(frm, *d)}


def sym(a, b):
    return {(sa * x, sb * y) for x, y in ((a, b), (b, a)) for sa in (1, -1) for sb in (1, -1)}


ORTH = [(1, 0), (-1, 0), (0, 1), (0, -1)]
DIAG = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
KING = sym(1, 0) | sym(1, 1)


# ---------------------------------------------------------------- start position

def test_start_position_round_trips_and_is_the_contract_diagram():
    pos = rules.start(GAME)
    assert pos.fen() == START
    assert rules.from_fen(GAME, START).fen() == START
    back = "CMZVUHOAXFVZMC"
    assert "".join(pos.piece_at(f"{f}1").symbol for f in FILES) == back
    assert "".join(pos.piece_at(f"{f}14").symbol for f in FILES) == back.lower()
    assert "".join(pos.piece_at(f"{f}2").symbol for f in FILES) == "ERNBWJQKDWBNRE"
    assert "".join(pos.piece_at(f"{f}3").symbol for f in FILES) == "PPPPIYGLSIPPPP"
    assert sum(1 for k in pos.pieces().values() if k.color == 0) == 48
    assert sum(1 for k in pos.pieces().values() if k.color == 1) == 48
    assert len(rules.game(GAME).types) == 25


def test_start_moves():
    pos = rules.start(GAME)
    got = {m.lan for m in pos.legal_moves()}
    pawns = {f"{f}3{f}{r}" for f in "abcdklmn" for r in (4, 5)} | \
            {f"{f}4{f}{r}" for f in "efghij" for r in (5, 6)}
    pieces = {"e3d4", "j3k4",                              # Princes
              "a2c4", "n2l4",                              # Elephants (A leap)
              "b1a4", "b1c4", "m1l4", "m1n4",              # Camels
              "c1a4", "l1n4",                              # Giraffes
              "c2b4", "c2d4", "l2k4", "l2m4",              # Knights
              "h3f5", "h3g5", "h3h5", "h3i5", "h3j5",      # Lion
              "i2f5", "i2i5", "i2l5", "i2k4",              # Duchess
              "j1k4", "j1l4"}                              # Buffalo
    assert got == pawns | pieces
    assert len(got) == 53


# ---------------------------------------------------------------- every piece on an open board

OPEN = {  # White piece on g7, nothing else on the board
    "K": leaps("g7", KING),
    "Q": rays("g7", ORTH + DIAG),
    "R": rays("g7", ORTH),
    "B": rays("g7", DIAG),
    "N": {"e6", "e8", "f5", "f9", "h5", "h9", "i6", "i8"},
    "P": {"g8", "g9"},
    "I": leaps("g7", KING) | {"g9"},
    "E": {"f6", "f8", "h6", "h8", "e5", "e9", "i5", "i9"},
    "W": {"f7", "h7", "g6", "g8", "e7", "i7", "g5", "g9"},
    "J": leaps("g7", KING) | {"e6", "e8", "f5", "f9", "h5", "h9", "i6", "i8"},
    "M": {"f4", "h4", "f10", "h10", "d6", "d8", "j6", "j8"},
    "Z": {"e4", "i4", "e10", "i10", "d5", "d9", "j5", "j9"},
    "C": rays("g7", ORTH),
    "V": rays("g7", DIAG),
    "O": rays("g7", ORTH + DIAG),
    "U": {"f7", "h7", "g6", "g8",
          "i8", "j9", "k10", "l11", "m12", "n13", "i6", "j5", "k4", "l3", "m2", "n1",   # via h7
          "e8", "d9", "c10", "b11", "a12", "e6", "d5", "c4", "b3", "a2",                # via f7
          "h9", "i10", "j11", "k12", "l13", "m14", "f9", "e10", "d11", "c12", "b13", "a14",  # via g8
          "h5", "i4", "j3", "k2", "l1", "f5", "e4", "d3", "c2", "b1"},                  # via g6
    "G": {"f6", "f8", "h6", "h8",
          "i8", "j8", "k8", "l8", "m8", "n8", "h9", "h10", "h11", "h12", "h13", "h14",  # via h8
          "e8", "d8", "c8", "b8", "a8", "f9", "f10", "f11", "f12", "f13", "f14",        # via f8
          "i6", "j6", "k6", "l6", "m6", "n6", "h5", "h4", "h3", "h2", "h1",             # via h6
          "e6", "d6", "c6", "b6", "a6", "f5", "f4", "f3", "f2", "f1"},                  # via f6
    "L": leaps("g7", KING | sym(2, 1) | sym(2, 2) | sym(2, 0)),
    "Y": rays("g7", DIAG) | {"f7", "h7", "g6", "g8"},
    "S": rays("g7", ORTH) | {"f6", "f8", "h6", "h8"},
    "D": leaps("g7", KING) | {"e7", "i7", "g5", "g9", "e5", "e9", "i5", "i9",
                              "d7", "j7", "g4", "g10", "d4", "d10", "j4", "j10"},
    "H": rays("g7", ORTH) | {"e6", "e8", "f5", "f9", "h5", "h9", "i6", "i8"},
    "X": rays("g7", DIAG) | {"e6", "e8", "f5", "f9", "h5", "h9", "i6", "i8"},
    "A": rays("g7", ORTH + DIAG) | {"e6", "e8", "f5", "f9", "h5", "h9", "i6", "i8"},
    "F": {"e6", "e8", "f5", "f9", "h5", "h9", "i6", "i8",       # (2,1)
          "f4", "h4", "f10", "h10", "d6", "d8", "j6", "j8",     # (3,1)
          "e4", "i4", "e10", "i10", "d5", "d9", "j5", "j9"},    # (3,2)
}


def test_open_board_covers_all_25_kinds():
    assert set(OPEN) == set(rules.game(GAME).types)


@pytest.mark.parametrize("letter", sorted(OPEN))
def test_open_board(letter):
    assert dests({"g7": letter}, "g7") == OPEN[letter]


@pytest.mark.parametrize("letter", sorted(OPEN))
def test_black_mirrors_white(letter):
    """A black piece on g8 (g7 seen from Black's side) has the mirrored destinations."""
    mirrored = {f"{d[0]}{15 - int(d[1:])}" for d in OPEN[letter]}
    assert dests({"g8": letter.lower()}, "g8", side="b") == mirrored


# ---------------------------------------------------------------- among blockers

# Sliders: own Pawn on g10 (north: g8 g9), black Knight on j7 (east: h7 i7, takes j7),
# own Pawn on e5 (south-west: f6), black Knight on j10 (north-east: h8 i9, takes j10).
SLIDER_BLOCKERS = {"g10": "P", "j7": "n", "e5": "P", "j10": "n"}


def _slider(frm, dirs):
    blocked = {(0, 1): ["g8", "g9"], (1, 0): ["h7", "i7", "j7"],
               (-1, -1): ["f6"], (1, 1): ["h8", "i9", "j10"]}
    return {s for d in dirs for s in blocked.get(d, ray(frm, *d))}


KNIGHT = {"e6", "e8", "f5", "f9", "h5", "h9", "i6", "i8"}


@pytest.mark.parametrize("letter,expected", [
    ("Q", _slider("g7", ORTH + DIAG)),
    ("R", _slider("g7", ORTH)),
    ("B", _slider("g7", DIAG)),
    ("Y", _slider("g7", DIAG) | {"f7", "h7", "g6", "g8"}),
    ("S", _slider("g7", ORTH) | {"f6", "f8", "h6", "h8"}),
    ("H", _slider("g7", ORTH) | KNIGHT),
    ("X", _slider("g7", DIAG) | KNIGHT),
    ("A", _slider("g7", ORTH + DIAG) | KNIGHT),
])
def test_sliders_among_blockers(letter, expected):
    assert dests({"g7": letter, **SLIDER_BLOCKERS}, "g7") == expected


# Leapers: all eight neighbours hold own Pawns (leapers jump them); the leaper's first
# destination in sorted order holds an own Pawn (not a destination), the last a black
# Knight (taken).
@pytest.mark.parametrize("letter", ["N", "E", "W", "J", "M", "Z", "L", "D", "F"])
def test_leapers_jump_over_blockers(letter):
    ring = {s: "P" for s in leaps("g7", KING)}
    far = sorted(OPEN[letter] - set(ring))
    own, enemy = far[0], far[-1]
    pieces = {"g7": letter, **ring, own: "P", enemy: "n"}
    assert dests(pieces, "g7") == OPEN[letter] - set(ring) - {own}


def test_king_among_blockers():
    # f7 own; h8 enemy, undefended: taken; g6 enemy but defended by the Knight on h8
    pieces = {"g7": "K", "f7": "P", "h8": "n", "g6": "p"}
    assert dests(pieces, "g7") == leaps("g7", KING) - {"f7", "g6"}


def test_pawn_moves_and_blockers():
    # one or two squares forward from ANY square, both empty; captures diagonally forward
    assert dests({"c3": "P"}, "c3") == {"c4", "c5"}
    assert dests({"g7": "P", "g9": "n"}, "g7") == {"g8"}                # target taken: one step
    assert dests({"g7": "P", "g8": "N"}, "g7") == set()                 # blocked in front
    assert dests({"g7": "P", "f8": "n", "h8": "N", "g9": "P"}, "g7") == {"g8", "f8"}
    assert dests({"g7": "P", "g8": "n", "f8": "n", "h8": "n"}, "g7") == {"f8", "h8"}  # no straight capture
    assert dests({"g7": "P", "f6": "n", "h6": "n", "g6": "n"}, "g7") == {"g8", "g9"}  # no backward capture
    assert dests({"c12": "p"}, "c12", side="b") == {"c11", "c10"}


def test_prince_among_blockers():
    # K steps capture; the double step is lame, straight forward only, and never captures
    assert dests({"g7": "I", "g8": "N"}, "g7") == leaps("g7", KING) - {"g8"}
    assert dests({"g7": "I", "g8": "n"}, "g7") == leaps("g7", KING)      # takes g8, no g9
    assert dests({"g7": "I", "g9": "n"}, "g7") == leaps("g7", KING)      # g9 not taken
    assert dests({"g7": "I", "g9": "N"}, "g7") == leaps("g7", KING)
    assert dests({"g7": "i"}, "g7", side="b") == leaps("g7", KING) | {"g5"}


# ---------------------------------------------------------------- hoppers

@pytest.mark.parametrize("letter,dirs", [("C", ORTH), ("V", DIAG), ("O", ORTH + DIAG)])
def test_hopper_without_screen_never_captures(letter, dirs):
    # enemy pieces at the end of every ray with nothing between: not capturable
    ends = {ray("g7", *d)[-1]: "n" for d in dirs}
    got = dests({"g7": letter, **ends}, "g7")
    assert got == {s for d in dirs for s in ray("g7", *d)[:-1]}


# Along each direction of the board from g7 (White's hopper):
#   N  (0,1):  screen own g9, enemy g12 with g10 g11 empty  -> takes g12 (one screen)
#   S  (0,-1): screen enemy g5, own g3                       -> nothing beyond (own piece)
#   E  (1,0):  screens own i7 and own k7, enemy m7           -> nothing (two screens)
#   W  (-1,0): enemy f7 next to it, enemy d7, enemy b7       -> takes d7 only (f7 is the screen)
#   NE (1,1):  screen enemy h8, enemy i9 right after          -> takes i9
#   SE (1,-1): screens own i5 and own j4, enemy l2            -> nothing (two screens)
#   NW (-1,1): screen own c11, enemy a13                      -> takes a13 (b12 empty)
#   SW (-1,-1): no piece                                      -> moves only
HOP_BOARD = {"g9": "P", "g12": "n", "g5": "n", "g3": "P", "i7": "P", "k7": "P", "m7": "n",
             "f7": "n", "d7": "n", "b7": "n", "h8": "n", "i9": "n", "i5": "P", "j4": "P",
             "l2": "n", "c11": "P", "a13": "n"}
HOP_MOVES = {  # non-capturing moves: up to the first piece
    (0, 1): {"g8"}, (0, -1): {"g6"}, (1, 0): {"h7"}, (-1, 0): set(),
    (1, 1): set(), (1, -1): {"h6"}, (-1, 1): {"f8", "e9", "d10"},
    (-1, -1): {"f6", "e5", "d4", "c3", "b2", "a1"}}
HOP_TAKES = {(0, 1): {"g12"}, (-1, 0): {"d7"}, (1, 1): {"i9"}, (-1, 1): {"a13"}}


@pytest.mark.parametrize("letter,dirs", [("C", ORTH), ("V", DIAG), ("O", ORTH + DIAG)])
def test_hoppers_with_one_and_two_screens(letter, dirs):
    expected = set()
    for d in dirs:
        expected |= HOP_MOVES[d] | HOP_TAKES.get(d, set())
    assert dests({"g7": letter, **HOP_BOARD}, "g7") == expected


def test_cannon_screen_may_be_either_side_and_target_must_be_enemy():
    assert dests({"a1": "C", "a5": "n", "a9": "n"}, "a1") == {"a2", "a3", "a4", "a9", "b1", "c1", "d1",
                                                              "e1", "f1", "g1", "h1", "i1", "j1",
                                                              "k1", "l1", "m1", "n1"}
    assert "a9" not in dests({"a1": "C", "a5": "n", "a9": "N"}, "a1")


def test_hopper_capture_gives_check():
    # a black Cannon checks the White King across one screen; with two screens it does not
    assert pos_of({"a1": "K", "a5": "N", "a10": "c", "n14": "k"}).in_check()
    assert not pos_of({"a1": "K", "a5": "N", "a7": "p", "a10": "c", "n14": "k"}).in_check()
    assert not pos_of({"a1": "K", "a10": "c", "n14": "k"}).in_check()


# ---------------------------------------------------------------- bent riders

def test_eagle_blocked_on_its_first_step_and_along_its_slides():
    # h8 own: no h8, nothing beyond it. f6 enemy: taken, nothing beyond it.
    # via h6: east to k6 (own) -> i6 j6; south to h3 (enemy) -> h5 h4, takes h3.
    # via f8: open.
    pieces = {"g7": "G", "h8": "P", "f6": "n", "k6": "P", "h3": "n"}
    expected = {"f6", "h6", "i6", "j6", "h5", "h4", "h3", "f8",
                "e8", "d8", "c8", "b8", "a8", "f9", "f10", "f11", "f12", "f13", "f14"}
    assert dests(pieces, "g7") == expected
    # every first step blocked by own pieces: no move at all (it never jumps)
    ring = {s: "P" for s in ("f6", "f8", "h6", "h8")}
    assert dests({"g7": "G", **ring}, "g7") == set()


def test_rhinoceros_blocked_on_its_first_step_and_along_its_slides():
    # h7 own: nothing via h7. g8 enemy: taken, nothing beyond.
    # via f7: north-west to c10 (own) -> e8 d9; south-west to c4 (enemy) -> e6 d5, takes c4.
    # via g6: open.
    pieces = {"g7": "U", "h7": "P", "g8": "n", "c10": "P", "c4": "n"}
    expected = {"g8", "f7", "e8", "d9", "e6", "d5", "c4", "g6",
                "h5", "i4", "j3", "k2", "l1", "f5", "e4", "d3", "c2", "b1"}
    assert dests(pieces, "g7") == expected
    ring = {s: "p" for s in ("f7", "h7", "g6", "g8")}
    assert dests({"g7": "U", **ring}, "g7") == {"f7", "h7", "g6", "g8"}


def test_bent_rider_checks():
    # a black Eagle on g9: via f8 south along the f-file to the King on f2
    assert pos_of({"f2": "K", "g9": "g", "n14": "k"}).in_check()
    assert not pos_of({"f2": "K", "g9": "g", "f8": "P", "n14": "k"}).in_check()   # first step blocked
    assert not pos_of({"f2": "K", "g9": "g", "f5": "P", "n14": "k"}).in_check()   # slide blocked
    # black Rhinoceros on e10: via e9 south-east to k3
    assert pos_of({"k3": "K", "e10": "u", "n14": "k"}).in_check()
    assert not pos_of({"k3": "K", "e10": "u", "e9": "p", "n14": "k"}).in_check()


# ---------------------------------------------------------------- en passant

def test_en_passant_after_a_pawn_double_step_from_a_middle_rank():
    pieces = {"e7": "P", "f9": "p", "a1": "K", "n14": "k"}
    pos = pos_of(pieces).play("e7e9")
    assert pos.fen().split()[3] == "e8"
    assert "f9e8" in {m.lan for m in pos.legal_moves()}
    assert pos.san(pos.parse("f9e8")) == "fxe8"
    after = pos.play("fxe8")
    assert after.piece_at("e9") is None and after.piece_at("e8").symbol == "p"
    assert after.halfmove == 0


def test_en_passant_after_a_prince_double_step_from_a_middle_rank():
    pieces = {"e7": "I", "d9": "p", "a1": "K", "n14": "k"}
    pos = pos_of(pieces).play("e7e9")
    assert pos.fen().split()[3] == "e8"
    after = pos.play("d9e8")
    assert after.piece_at("e9") is None and after.piece_at("e8").symbol == "p"


def test_black_double_step_taken_en_passant_by_white():
    pieces = {"h8": "p", "g6": "P", "i6": "I", "a1": "K", "n14": "k"}
    pos = pos_of(pieces, side="b").play("h8h6")
    assert pos.fen().split()[3] == "h7"
    ep = {m.lan for m in pos.legal_moves() if m.frm == pos.game.geometry.parse_square("g6")}
    assert ep == {"g6g7", "g6g8", "g6h7"}
    after = pos.play("g6h7")
    assert after.piece_at("h6") is None and after.piece_at("h7").symbol == "P"
    # the Prince on i6 may step to h7 but that is no capture
    stepped = pos.play("i6h7")
    assert stepped.piece_at("h6").symbol == "p"


def test_no_en_passant_by_a_prince():
    pieces = {"e7": "P", "f9": "i", "a1": "K", "n14": "k"}
    pos = pos_of(pieces).play("e7e9")
    assert pos.fen().split()[3] == "-"          # no en passant capture is possible
    after = pos.play("f9e8")                     # the Prince's plain step
    assert after.piece_at("e9").symbol == "P" and after.piece_at("e8").symbol == "i"
    # nor by any other piece standing where a Pawn would take
    pieces = {"e7": "P", "f9": "n", "d9": "l", "a1": "K", "n14": "k"}
    pos = pos_of(pieces).play("e7e9")
    assert pos.fen().split()[3] == "-"
    assert pos.play("d9e8").piece_at("e9").symbol == "P"


def test_en_passant_only_on_the_very_next_move():
    pieces = {"e7": "P", "f9": "p", "a1": "K", "n14": "k"}
    pos = pos_of(pieces).play("e7e9").play("n14n13").play("a1a2")
    assert pos.fen().split()[3] == "-"
    assert "f9e8" not in {m.lan for m in pos.legal_moves()}


def test_no_en_passant_square_after_a_single_step_or_a_capture():
    pos = pos_of({"e7": "P", "f9": "p", "a1": "K", "n14": "k"}).play("e7e8")
    assert pos.fen().split()[3] == "-"


# ---------------------------------------------------------------- promotion

PROMOTIONS = [  # (piece, from, destinations on the last rank with their new piece)
    ("P", "e13", {"e14=Q"}),
    ("P", "e12", {"e13", "e14=Q"}),                 # the double step promotes too
    ("I", "e13", {"d14=A", "e14=A", "f14=A", "d13", "f13", "d12", "e12", "f12"}),
    ("I", "e12", {"d13", "e13", "f13", "d12", "f12", "d11", "e11", "f11", "e14=A"}),
    ("N", "e12", {"d14=F", "f14=F", "c13", "g13", "c11", "g11", "d10", "f10"}),
    ("M", "e11", {"d14=F", "f14=F", "b12", "h12", "b10", "h10", "d8", "f8"}),
    ("Z", "e12", {"b14=F", "h14=F", "c9", "g9", "b10", "h10"}),
    ("E", "e12", {"c14=L", "g14=L", "d13", "f13", "d11", "f11", "c10", "g10"}),
    ("W", "e12", {"e14=L", "e13", "d12", "f12", "c12", "g12", "e11", "e10"}),
    ("J", "e13", {"d14=L", "e14=L", "f14=L", "c14=L", "g14=L", "d13", "f13", "d12", "e12", "f12",
                  "c12", "g12", "d11", "f11"}),
]


@pytest.mark.parametrize("letter,frm,expected", PROMOTIONS)
def test_every_promotion_white(letter, frm, expected):
    assert dests({frm: letter}, frm) == expected


@pytest.mark.parametrize("letter,frm,expected", PROMOTIONS)
def test_every_promotion_black(letter, frm, expected):
    def flip(s):
        return f"{s[0]}{15 - int(s[1:])}"
    bfrm = flip(frm)
    want = {flip(d.split("=")[0]) + ("=" + d.split("=")[1] if "=" in d else "") for d in expected}
    assert dests({bfrm: letter.lower()}, bfrm, side="b") == want
    move = next(d for d in sorted(want) if "=" in d)
    new = rules.from_fen(GAME, fen({bfrm: letter.lower()}, side="b")).play(bfrm + move)
    assert new.piece_at(move[:-2]).symbol == move[-1].lower()


def test_promotion_by_capture_and_the_new_piece():
    pos = pos_of({"e13": "P", "f14": "r", "d14": "n"})
    assert {m.lan for m in pos.moves_from("e13")} == {"e13e14=Q", "e13f14=Q", "e13d14=Q"}
    after = pos.play("exf14")
    assert after.piece_at("f14").name == "Queen" and after.piece_at("f14").symbol == "Q"
    assert pos.san(pos.parse("e13f14=Q")) == "exf14=Q"
    knight = pos_of({"c12": "N", "b14": "r"})
    assert knight.san(knight.parse("c12b14")) == "Nxb14=F"
    assert knight.play("c12b14").piece_at("b14").name == "Buffalo"


def test_promotion_is_compulsory_and_without_choice():
    pos = pos_of({"e13": "P"})
    with pytest.raises(NoSuchMoveError):
        pos.parse("e13e14=A")
    assert pos.parse("e14").lan == "e13e14=Q"     # the suffix may be left out: one move
    assert pos.parse("e13e14").lan == "e13e14=Q"


@pytest.mark.parametrize("letter", ["Q", "R", "B", "C", "V", "O", "U", "G", "L", "Y", "S", "D",
                                    "H", "X", "A", "F"])
def test_other_pieces_do_not_promote(letter):
    got = dests({"g13": letter}, "g13")
    assert all("=" not in d for d in got)
    assert any(d.endswith("14") for d in got)


def test_promoted_piece_on_the_last_rank_moves_on():
    # a Lion made on the last rank stays a Lion
    pos = pos_of({"e13": "W"}).play("e13e14=L")
    assert pos.piece_at("e14").name == "Lion"


# ---------------------------------------------------------------- the King's jump

JUMPS = {"f1", "j1", "f2", "j2", "f3", "j3", "f4", "g4", "h4", "i4", "j4"}
STEPS = {"g1", "h1", "i1", "g2", "i2", "g3", "h3", "i3"}
BLACK_KING = {"n14": "k"}


def king_dests(pieces, rights="H", side="w"):
    return dests({"h2": "K", **BLACK_KING, **pieces}, "h2", rights=rights, side=side)


def test_jump_to_each_of_the_eleven_squares():
    assert king_dests({}) == STEPS | JUMPS
    pos = pos_of({"h2": "K", **BLACK_KING}, rights="H")
    for to in JUMPS:
        mv = pos.parse("h2" + to)
        assert pos.san(mv) == "K" + to
        after = pos.play(mv)
        assert not mv.captures
        assert after.piece_at(to).symbol == "K" and after.fen().split()[2] == "-"


def test_black_jumps_from_h13():
    pos = rules.from_fen(GAME, fen({"h13": "k", "a1": "K"}, side="b", rights="h"))
    got = {m.lan[3:] for m in pos.moves_from("h13")}
    assert got == {f"{s[0]}{15 - int(s[1:])}" for s in STEPS | JUMPS}


def test_jump_is_written_in_the_rights_and_lost_after_a_king_move():
    pos = pos_of({"h2": "K", "h13": "k"}, rights="Hh")
    assert pos.fen().split()[2] == "Hh"
    moved = pos.play("h2h3").play("h13h12").play("h3h2").play("h12h11")
    assert moved.fen().split()[2] == "-"
    assert king_dests({}, rights="-") == STEPS
    assert {m.lan[2:] for m in moved.moves_from("h2")} == STEPS
    # Black's right survives White's King moves
    assert pos.play("h2h3").fen().split()[2] == "h"


def test_jump_right_needs_the_king_on_h2():
    with pytest.raises(FenError):
        rules.from_fen(GAME, fen({"h3": "K", "n14": "k"}, rights="H"))
    with pytest.raises(FenError):
        rules.from_fen(GAME, fen({"h2": "K", "n14": "k"}, rights="Hh"))


def attacked(pos, squares, by=1):
    geo = pos.game.geometry
    return {s for s in squares if pos.is_attacked(geo.parse_square(s), by)}


def test_no_jump_in_check():
    # a black Giraffe on k4 checks h2 and, of the squares that matter, attacks only i1:
    # a middle square of j1, whose other middle square i2 is free. Only the check forbids.
    pos = pos_of({"h2": "K", "k4": "z", **BLACK_KING}, rights="H")
    assert attacked(pos, STEPS | JUMPS | {"h2"}) == {"h2", "i1"}
    assert pos.in_check()
    assert {m.lan[2:] for m in pos.moves_from("h2")} == STEPS - {"i1"}
    with pytest.raises(LeavesRoyalInCheckError):
        pos.parse("h2f4")


def test_middle_square_rules():
    # black Camels on h6 (attacks g3, i3) and k4 (attacks h3, j1):
    #   f4, j4 (2,2): middle g3 / i3 attacked          -> refused
    #   h4 (2,0): middle h3 attacked                   -> refused
    #   g4, i4 (2,1): both middles (h3 and g3 / i3)    -> refused
    #   f3, j3 (2,1): g3 / i3 attacked but g2 / i2 free -> allowed
    #   j1: destination attacked                       -> refused
    pieces = {"h6": "m", "k4": "m"}
    assert attacked(pos_of({"h2": "K", **BLACK_KING, **pieces}), STEPS | JUMPS) == {"g3", "i3", "h3", "j1"}
    got = king_dests(pieces)
    assert got & JUMPS == {"f1", "f2", "j2", "f3", "j3"}


def test_one_attacked_middle_of_a_knight_jump_is_enough_to_pass():
    # a black Camel on k4 alone: h3 and j1 attacked
    got = king_dests({"k4": "m"})
    assert got & JUMPS == JUMPS - {"h4", "j1"}      # g4 and i4 pass through g3 / i3


def test_middle_squares_may_hold_pieces():
    # own pieces on g2 i2 g3 i3 and a black Giraffe on h3 that attacks nothing here
    got = king_dests({"g2": "N", "i2": "W", "g3": "P", "i3": "B", "h3": "z"})
    assert got & JUMPS == JUMPS


def test_jump_never_captures_and_needs_an_empty_destination():
    # own piece on f4, black Cannon on j4 (no screen towards the King's squares)
    got = king_dests({"f4": "N", "j4": "c"})
    assert got & JUMPS == JUMPS - {"f4", "j4"}


def test_jump_destination_attacked():
    # a black Rook on a4 attacks the whole 4th rank: f4 g4 h4 i4 j4 refused
    got = king_dests({"a4": "r"})
    assert got & JUMPS == JUMPS - {"f4", "g4", "h4", "i4", "j4"}


def test_no_jump_from_the_start_position_until_the_squares_are_empty():
    pos = rules.start(GAME)
    assert {m.lan for m in pos.moves_from("h2")} == set()
    # clear f1..j4's second ring in a line of moves? Shown directly on a cleared diagram:
    pieces = {"h2": "K", "g2": "Q", "i2": "D", "g1": "O", "h1": "A", "i1": "X",
              "g3": "G", "h3": "L", "i3": "S", "n14": "k"}
    got = dests(pieces, "h2", rights="H")
    assert got == JUMPS


def test_refused_jumps_say_why():
    pos = pos_of({"h2": "K", "k4": "z", **BLACK_KING}, rights="H")
    with pytest.raises(LeavesRoyalInCheckError, match="while in check"):
        pos.parse("Kf4")
    pos = pos_of({"h2": "K", "h6": "m", "k4": "m", "f4": "N", **BLACK_KING}, rights="H")
    with pytest.raises(LeavesRoyalInCheckError, match="pass h3, which is attacked"):
        pos.parse("h2h4")
    with pytest.raises(LeavesRoyalInCheckError, match="pass h3 and i3, both attacked"):
        pos.parse("Ki4")
    with pytest.raises(LeavesRoyalInCheckError, match="leave your King in check"):
        pos.parse("Kj1")
    with pytest.raises(NoSuchMoveError, match="needs an empty square"):
        pos.parse("Kh2f4")
    moved = pos_of({"h2": "K", **BLACK_KING}, rights="-")
    with pytest.raises(NoSuchMoveError, match="only once"):
        moved.parse("Kf4")
    # a King that is not on its start square cannot jump either
    with pytest.raises(NoSuchMoveError, match="only once"):
        pos_of({"e5": "K", **BLACK_KING}).parse("e5e7")


def test_halfmove_count_restarts_on_pawn_moves_and_captures_only():
    pos = rules.from_fen(GAME, fen({"e5": "P", "g5": "I", "a1": "K", "n14": "k", "n10": "r"}).replace(" 0 1", " 7 1"))
    assert pos.play("e5e7").halfmove == 0          # Pawn move
    assert pos.play("g5g7").halfmove == 8          # a Prince is no Pawn for this rule
    assert pos.play("g5g6").halfmove == 8
    assert pos.play("a1b1").halfmove == 8
    pos = rules.from_fen(GAME, fen({"g5": "I", "a1": "K", "n14": "k", "h6": "r"}).replace(" 0 1", " 7 1"))
    assert pos.play("g5h6").halfmove == 0          # capture


def test_start_fen_of_the_game_data_is_the_contract_string():
    assert rules.game(GAME).start_fen == START
    assert rules.game(GAME).king_jump_square(0) == rules.game(GAME).geometry.parse_square("h2")
    assert rules.game(GAME).king_jump_square(1) == rules.game(GAME).geometry.parse_square("h13")


def test_reading_a_promoting_piece_already_on_its_last_rank():
    """Only a hand-made diagram can hold one: it promotes when it ends a move there
    again (the contract: "ends a move on the last rank"), and not when it leaves."""
    assert dests({"e14": "W"}, "e14") == {"d14=L", "f14=L", "c14=L", "g14=L", "e13", "e12"}
    assert dests({"e14": "P"}, "e14") == set()
