"""Ganymede Chess: every rule of docs/rules/ganymede.md on hand-made positions.

Positions are built square by square (`board(...)`) so that each test says what stands
where. Notation, the sample game and VFEN are in test_ganymede_notation.py; the
cross-check of the engine's legality shortcut and the Wall's attacks against plain
generation is in test_ganymede_legality.py.
"""
import pytest

import rules
from rules.errors import FenError

GAME = "ganymede"
FILES = "abcdefghijkl"


# --- helpers ------------------------------------------------------------------------------

def board(pieces: dict, side="w", rights="-", half=0, full=1) -> str:
    """A VFEN from {square: symbol} ("W(E)", "s(L)", "+N", "k" ...)."""
    grid = {}
    for sq, sym in pieces.items():
        grid[(FILES.index(sq[0]), int(sq[1:]) - 1)] = sym
    rows = []
    for r in range(11, -1, -1):
        row, run = "", 0
        for f in range(12):
            sym = grid.get((f, r))
            if sym is None:
                run += 1
                continue
            if run:
                row += str(run)
                run = 0
            row += sym
        if run:
            row += str(run)
        rows.append(row)
    return f"{'/'.join(rows)} {side} {rights} - {half} {full}"


def wall(a: str, b: str, white=True) -> dict:
    """Both squares of a Wall on a-b (a first in board order)."""
    horizontal = a[1:] == b[1:]
    s1, s2 = ("E", "W") if horizontal else ("N", "S")
    w = "W" if white else "w"
    return {a: f"{w}({s1})", b: f"{w}({s2})"}


def pos_of(pieces, **kw):
    return rules.from_fen(GAME, board(pieces, **kw))


def lans(pos, square):
    return {m.lan for m in pos.moves_from(square)}


def dests(pos, square):
    """Destination squares of the piece on square (suffixes dropped)."""
    out = set()
    for m in pos.moves_from(square):
        assert m.lan.startswith(square)
        rest = m.lan[len(square):]
        for mark in "=(":
            rest = rest.split(mark)[0]
        if rest:
            out.add(rest)
    return out


def to_of(lan, frm):
    """The destination named by a LAN starting at frm ("e11e12=+S" -> "e12")."""
    rest = lan[len(frm):]
    for mark in "=(":
        rest = rest.split(mark)[0]
    return rest


def sq(name, dx, dy):
    f, r = FILES.index(name[0]) + dx, int(name[1:]) - 1 + dy
    return f"{FILES[f]}{r + 1}" if 0 <= f < 12 and 0 <= r < 12 else None


def leaps(frm, *atoms):
    out = set()
    for ax, ay in atoms:
        for x, y in {(ax, ay), (ay, ax)}:
            for sx in (1, -1):
                for sy in (1, -1):
                    t = sq(frm, x * sx, y * sy)
                    if t:
                        out.add(t)
    return out


def rides(frm, *vectors):
    """Squares on an empty board along each vector repeated (riders)."""
    out = set()
    for vx, vy in vectors:
        k = 1
        while (t := sq(frm, vx * k, vy * k)) is not None:
            out.add(t)
            k += 1
    return out


ORTHO = [(1, 0), (-1, 0), (0, 1), (0, -1)]
DIAG = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
KINGS = {"a1": "K", "l12": "k"}


# --- the Wall -----------------------------------------------------------------------------

def test_wall_slides_along_and_across_and_turns_on_an_empty_board():
    pos = pos_of({**KINGS, **wall("e5", "f5")})
    got = lans(pos, "e5")
    along = {"e5f5-f5g5", "e5f5-g5h5", "e5f5-h5i5", "e5f5-i5j5", "e5f5-j5k5", "e5f5-k5l5",
             "e5f5-d5e5", "e5f5-c5d5", "e5f5-b5c5", "e5f5-a5b5"}
    across = {f"e5f5-e{r}f{r}" for r in (1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12)}
    turns = {"e5f5-e5e6", "e5f5-e4e5", "e5f5-f5f6", "e5f5-f4f5"}
    assert got == along | across | turns
    # the same moves from its other square, generated once
    assert lans(pos, "f5") == got
    assert sum(1 for m in pos.legal_moves() if m.kind == "w") == len(got)


def test_vertical_wall_moves():
    pos = pos_of({**KINGS, **wall("e5", "e6")})
    got = lans(pos, "e6")
    along = {f"e5e6-e{r}e{r + 1}" for r in (1, 2, 3, 4, 6, 7, 8, 9, 10, 11)}
    across = {f"e5e6-{f}5{f}6" for f in "abcdfghijkl"}
    turns = {"e5e6-d5e5", "e5e6-e5f5", "e5e6-d6e6", "e5e6-e6f6"}
    assert got == along | across | turns


def test_wall_along_its_line_takes_only_on_the_leading_square():
    # east: enemy on h5 is taken by the leading half (g5h5), nothing beyond;
    # west: own piece on c5 stops it (d5e5 only)
    pos = pos_of({**KINGS, **wall("e5", "f5"), "h5": "n", "c5": "P"})
    across = {f"e5f5-e{r}f{r}" for r in (1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12)}
    turns = {"e5f5-e5e6", "e5f5-e4e5", "e5f5-f5f6", "e5f5-f4f5"}
    assert lans(pos, "e5") == {"e5f5-f5g5", "e5f5-g5h5", "e5f5-d5e5"} | across | turns
    mv = pos.parse("e5f5-g5h5")
    assert pos.san(mv) == "W(e5f5)xg5h5"
    after = pos.play(mv)
    assert after.piece_at("g5").symbol == "W(E)" and after.piece_at("h5").symbol == "W(W)"
    assert after.piece_at("e5") is None and after.piece_at("f5") is None
    assert after.halfmove == 0


def test_wall_across_its_line_takes_two_pieces_at_once():
    pos = pos_of({**KINGS, **wall("e5", "f5"), "e8": "n", "f8": "b", "e3": "r", "f2": "P"})
    # north: e6f6, e7f7, then e8f8 taking both; south: e4f4, then e3f3 taking the Rook
    # (f3 is empty); e2f2 is out of reach (e3 passed over, and f2 is White's)
    across = {"e5f5-e6f6", "e5f5-e7f7", "e5f5-e8f8", "e5f5-e4f4", "e5f5-e3f3"}
    along = {"e5f5-f5g5", "e5f5-g5h5", "e5f5-h5i5", "e5f5-i5j5", "e5f5-j5k5", "e5f5-k5l5",
             "e5f5-d5e5", "e5f5-c5d5", "e5f5-b5c5", "e5f5-a5b5"}
    turns = {"e5f5-e5e6", "e5f5-e4e5", "e5f5-f5f6", "e5f5-f4f5"}
    assert lans(pos, "e5") == across | along | turns
    after = pos.play("e5f5-e8f8")
    assert after.fen() == board({**KINGS, **wall("e8", "f8"), "e3": "r", "f2": "P"}, side="b", half=0)
    assert pos.san(pos.parse("e5f5-e8f8")) == "W(e5f5)xe8f8"


def test_wall_across_is_stopped_by_an_own_piece_on_either_new_square():
    pos = pos_of({**KINGS, **wall("e5", "f5"), "f7": "N", "e3": "n", "f3": "N"})
    across = lans(pos, "e5") & {f"e5f5-e{r}f{r}" for r in range(1, 13)}
    # north stops below f7 (own); south: e3 holds an enemy but f3 an own piece: no e3f3
    assert across == {"e5f5-e6f6", "e5f5-e4f4"}


def test_wall_four_turns_onto_empty_or_enemy_squares():
    # a2-b2: turns to a2a3 (enemy: taken), a1a2 (own: no), b2b3 (empty), b1b2 (empty);
    # pieces on the diagonal squares around the pivots do not matter
    pos = pos_of({"l1": "K", "l12": "k", **wall("a2", "b2"), "a3": "p", "a1": "R",
                  "c3": "P", "c1": "n"})
    along = {f"a2b2-{a}2{b}2" for a, b in zip("bcdefghijk", "cdefghijkl", strict=True)}
    # across: north takes a3 (b3 empty) and stops; south is closed by the own Rook on a1
    assert lans(pos, "a2") == along | {"a2b2-a3b3"} | {"a2b2-a2a3", "a2b2-b2b3", "a2b2-b1b2"}
    after = pos.play("a2b2-a2a3")
    assert after.piece_at("a2").symbol == "W(N)" and after.piece_at("a3").symbol == "W(S)"
    assert after.piece_at("b2") is None
    assert pos.san(pos.parse("a2b2-a2a3")) == "W(a2b2)xa2a3"
    # and back: a vertical Wall turns to horizontal on either square
    v = pos_of({"l1": "K", "l12": "k", **wall("e5", "e6"), "d4": "n", "f7": "N"})
    assert lans(v, "e5") & {"e5e6-d5e5", "e5e6-e5f5", "e5e6-d6e6", "e5e6-e6f6"} == \
        {"e5e6-d5e5", "e5e6-e5f5", "e5e6-d6e6", "e5e6-e6f6"}


def test_wall_turn_onto_an_enemy_wall_takes_all_of_it():
    pos = pos_of({"l1": "K", "l12": "k", **wall("a2", "b2"), **wall("b3", "c3", white=False)})
    after = pos.play("a2b2-b2b3")
    assert after.piece_at("b3").symbol == "W(S)" and after.piece_at("b2").symbol == "W(N)"
    assert after.piece_at("c3") is None and after.piece_at("a2") is None
    assert set(pos.parse("a2b2-b2b3").captures) == {pos.game.geometry.parse_square(s) for s in ("b3", "c3")}


def test_check_by_a_wall():
    # the Wall on e5-f5 could cover g5 sliding east: the King there is in check
    pos = pos_of({"a1": "K", "l5": "k", **wall("e5", "f5")}, side="b")
    assert pos.in_check()
    # a King may not step into a square the Wall could cover: from l12 with the Wall on
    # e11-f11, k11 and l11 are covered by its slide east; only k12 is left
    pos = pos_of({"a1": "K", "l12": "k", **wall("e11", "f11")}, side="b")
    assert not pos.in_check()
    assert dests(pos, "l12") == {"k12"}
    # across: a King on e8 is reached over e6f6 and e7f7, which must be empty: a piece on
    # f7 blocks it
    pos = pos_of({"a1": "K", "e8": "k", "f7": "N", **wall("e5", "f5")}, side="b")
    assert not pos.in_check()
    pos = pos_of({"a1": "K", "e8": "k", **wall("e5", "f5")}, side="b")
    assert pos.in_check()
    # check along the line needs the passed-over squares empty
    pos = pos_of({"a1": "K", "l5": "k", "i5": "p", **wall("e5", "f5")}, side="b")
    assert not pos.in_check()
    # a turn gives check whatever stands near the pivot
    pos = pos_of({"a1": "K", "e6": "k", "d6": "p", "f6": "p", **wall("e5", "f5")}, side="b")
    assert pos.in_check()


def test_across_check_needs_the_other_new_square_free_of_the_walls_side():
    # the King on f8: the Wall reaches e8f8 over e6f6 and e7f7; a White piece on e8 makes
    # that move impossible (no check), a Black one does not (both would be taken)
    own = pos_of({"a1": "K", "f8": "k", "e8": "N", **wall("e5", "f5")}, side="b")
    assert not own.in_check()
    theirs = pos_of({"a1": "K", "f8": "k", "e8": "n", **wall("e5", "f5")}, side="b")
    assert theirs.in_check()


def test_wall_check_limits_the_other_side():
    # Black in check from the Wall (turn onto e6): every legal move meets it
    pos = pos_of({"a1": "K", "e6": "k", **wall("e5", "f5"), "b12": "r"}, side="b")
    assert pos.in_check()
    for m in pos.legal_moves():
        assert not pos.play(m).is_attacked(pos.play(m).royal[1], 0)
    # the Black King may take the Wall itself: the whole Wall goes
    after = pos.play("e6e5")
    assert after.piece_at("f5") is None and after.piece_at("e5").symbol == "k"


@pytest.mark.parametrize("target", ["b2", "c2"])
def test_wall_taken_through_either_square(target):
    # a Black Knight takes either square of the White Wall on b2-c2: both squares empty
    knight = "d4" if target == "c2" else "a4"
    pos = pos_of({"l1": "K", "l12": "k", **wall("b2", "c2"), knight: "n"}, side="b")
    mv = pos.parse(f"N{target}")
    assert set(mv.captures) == {pos.game.geometry.parse_square(s) for s in ("b2", "c2")}
    after = pos.play(mv)
    assert after.piece_at(target).symbol == "n"
    other = "c2" if target == "b2" else "b2"
    assert after.piece_at(other) is None
    assert after.halfmove == 0
    assert after.fen() == board({"l1": "K", "l12": "k", target: "n"}, full=2)


def test_wall_taken_by_a_slider_through_its_far_square_opens_nothing_wrong():
    # a vertical Wall e2-e3 shields the King on e1 from the Rook on e12; taking e3 removes
    # e2 too, so Black's Rook on e12 then gives check
    pos = pos_of({"e1": "K", "a12": "k", **wall("e2", "e3"), "h3": "r", "e12": "r"}, side="b")
    after = pos.play("h3e3")
    assert after.piece_at("e2") is None
    assert after.in_check()


def test_wall_never_promotes_and_moves_onto_the_last_rank():
    pos = pos_of({"a1": "K", "l1": "k", **wall("e10", "f10")})
    assert "e10f10-e12f12" in lans(pos, "e10")
    after = pos.play("e10f10-e12f12")
    assert after.piece_at("e12").symbol == "W(E)"


def test_wall_legality_own_king_shielded():
    # the Wall on e2-e3 stands between the King on e1 and the Rook on e12: moves that leave
    # the file are illegal, moves along it (e3e4 etc.) still shield
    pos = pos_of({"e1": "K", "a12": "k", **wall("e2", "e3"), "e12": "r"})
    # along the file (up to taking the Rook) and the four turns keep a square on the file;
    # the slides across it (d2d3, f2f3, ...) are illegal
    assert lans(pos, "e2") == {
        "e2e3-e3e4", "e2e3-e4e5", "e2e3-e5e6", "e2e3-e6e7", "e2e3-e7e8", "e2e3-e8e9",
        "e2e3-e9e10", "e2e3-e10e11", "e2e3-e11e12",
        "e2e3-d2e2", "e2e3-e2f2", "e2e3-d3e3", "e2e3-e3f3"}


# --- Spearman and Pikeman -----------------------------------------------------------------

def _with_settings(frm, tos):
    return {f"{frm}{t}({s})" for t in tos for s in "VRL"}


def test_spearman_vertical():
    # forward to e9 (enemy, taken); backward e4 e3, not e2 (enemy: no backward capture)
    pos = pos_of({**KINGS, "e5": "S(V)", "e9": "n", "e2": "p"})
    assert lans(pos, "e5") == _with_settings("e5", ["e6", "e7", "e8", "e9"]) | \
        _with_settings("e5", ["e4", "e3"]) | {"e5(R)", "e5(L)"}


def test_spearman_rising_diagonal():
    # R: forward-right f6.. and backward-left d4..; forward captures, backward does not
    pos = pos_of({"l1": "K", "a12": "k", "e5": "S(R)", "h8": "b", "b2": "p"})
    assert lans(pos, "e5") == _with_settings("e5", ["f6", "g7", "h8"]) | \
        _with_settings("e5", ["d4", "c3"]) | {"e5(V)", "e5(L)"}


def test_spearman_falling_diagonal():
    pos = pos_of({**KINGS, "e5": "S(L)", "c7": "P", "g3": "n"})
    # forward-left d6 (own on c7 stops), backward-right f4 (enemy on g3 not taken)
    assert lans(pos, "e5") == _with_settings("e5", ["d6", "f4"]) | {"e5(V)", "e5(R)"}


def test_black_spearman_settings_use_the_same_board_lines():
    # Black's R is the rising "/" line too: its forward-right is down-left
    pos = pos_of({**KINGS, "e5": "s(R)", "b2": "N", "h8": "P"}, side="b")
    assert lans(pos, "e5") == _with_settings("e5", ["d4", "c3", "b2"]) | \
        _with_settings("e5", ["f6", "g7"]) | {"e5(V)", "e5(L)"}
    pos = pos_of({**KINGS, "e5": "s(V)"}, side="b")
    assert dests(pos, "e5") == {f"e{r}" for r in range(1, 12)} - {"e5"} | {"e12"}
    assert {m.lan for m in pos.moves_from("e5") if to_of(m.lan, "e5") == "e1"} == {"e5e1=+S"}
    pos = pos_of({**KINGS, "e5": "s(L)", "h2": "R"}, side="b")
    # Black's L ("\"): forward-left for Black is down-right (f4 g3 h2), back is up-left
    assert dests(pos, "e5") == {"f4", "g3", "h2", "d6", "c7", "b8", "a9"}


def test_spearman_turning_in_place_must_change_the_setting():
    pos = pos_of({**KINGS, "e5": "S(V)", "e6": "P", "e4": "P"})
    assert lans(pos, "e5") == {"e5(R)", "e5(L)"}
    after = pos.play("e5(L)")
    assert after.piece_at("e5").symbol == "S(L)" and after.halfmove == 1
    assert pos.san(pos.parse("e5(L)")) == "Se5(L)"


def test_spearman_sets_any_setting_after_a_move_even_the_same():
    pos = pos_of({**KINGS, "e5": "S(V)"})
    for s in "VRL":
        assert pos.play(f"e5e7({s})").piece_at("e7").symbol == f"S({s})"


def test_spearman_promotes_to_pikeman_on_the_last_rank():
    pos = pos_of({"a1": "K", "l1": "k", "e10": "S(V)", "d12": "r"})
    assert lans(pos, "e10") == _with_settings("e10", ["e11"]) | _with_settings(
        "e10", [f"e{r}" for r in range(1, 10)]) | {"e10e12=+S", "e10(R)", "e10(L)"}
    after = pos.play("e10e12=+S")
    assert after.piece_at("e12").symbol == "+S"
    cap = pos_of({"a1": "K", "l1": "k", "e11": "S(L)", "d12": "r"})
    assert "e11d12=+S" in lans(cap, "e11")
    assert cap.san(cap.parse("e11d12=+S")) == "Sxd12=+S"
    # turning in place on the last rank is no promotion
    top = pos_of({"a1": "K", "l1": "k", "e12": "S(V)"})
    assert top.play("e12(L)").piece_at("e12").symbol == "S(L)"


def test_pikeman_moves():
    pos = pos_of({**KINGS, "e5": "+S", "g7": "n", "e3": "p", "c3": "p", "b8": "p"})
    forward = {"f6", "g7", "e6", "e7", "e8", "e9", "e10", "e11", "e12", "d6", "c7", "b8"}
    backward = {"e4", "d4", "f4", "g3", "h2", "i1"}   # e3 and c3 not taken backward
    assert dests(pos, "e5") == forward | backward
    assert all("(" not in lan and "=" not in lan for lan in lans(pos, "e5"))


# --- Mini-rose ----------------------------------------------------------------------------

ROSE_DIAGRAM = [  # the inventor's diagram, O in the middle
    "..xxx..",
    ".xx.xx.",
    "xxxxxxx",
    "x.xOx.x",
    "xxxxxxx",
    ".xx.xx.",
    "..xxx..",
]


def test_minirose_reaches_32_squares_on_an_empty_board():
    pos = pos_of({"a1": "K", "l12": "k", "f6": "O"})
    expected = {sq("f6", c - 3, 3 - r) for r, row in enumerate(ROSE_DIAGRAM)
                for c, ch in enumerate(row) if ch == "x"}
    assert len(expected) == 32
    assert dests(pos, "f6") == expected


def test_minirose_inventors_example_path():
    # only the first step up-right is open (every other neighbour holds a White Pawn):
    # turning left: g7 g8 f9 e9 d8 d7 (e6 is a Pawn); turning right: g7 h7 i6 i5 h4 g4 (f5 Pawn)
    around = {s: "P" for s in ("e5", "e6", "e7", "f5", "f7", "g5", "g6")}
    pos = pos_of({"a1": "K", "l12": "k", "f6": "O", **around})
    assert dests(pos, "f6") == {"g7", "g8", "f9", "e9", "d8", "d7", "h7", "i6", "i5", "h4", "g4"}


def test_minirose_blocked_paths_and_captures():
    # as above with an enemy on f9: taken, and the left path stops there
    around = {s: "P" for s in ("e5", "e6", "e7", "f5", "f7", "g5", "g6")}
    pos = pos_of({"a1": "K", "l12": "k", "f6": "O", "f9": "n", **around})
    assert dests(pos, "f6") == {"g7", "g8", "f9", "h7", "i6", "i5", "h4", "g4"}
    # an own piece on g7 closes both paths that start there
    pos = pos_of({"a1": "K", "l12": "k", "f6": "O", "g7": "N", **around})
    assert dests(pos, "f6") == set()


def test_minirose_at_the_edge_cannot_come_back_onto_the_board():
    pos = pos_of({"l1": "K", "l12": "k", "a1": "O"})
    # E turning left: b1 c2 c3 b4 a4 (then off); E turning right: b1 (then off);
    # NE left: b2 b3 a4; NE right: b2 c2 d1; N left: a2; N right: a2 b3 c3 d2 d1
    assert dests(pos, "a1") == {"a2", "a4", "b1", "b2", "b3", "b4", "c2", "c3", "d1", "d2"}


# --- Griffon, Roc, Nightrider, Moonrider, Dragon, Flying Dragon -----------------------------

def test_griffon_on_an_empty_board():
    pos = pos_of({"l1": "K", "l12": "k", "e5": "G"})
    expected = {"d4", "d6", "f4", "f6"} | rides("f6", (1, 0), (0, 1)) | rides("d6", (-1, 0), (0, 1)) \
        | rides("d4", (-1, 0), (0, -1)) | rides("f4", (1, 0), (0, -1))
    assert dests(pos, "e5") == expected
    # reaching rank 12 promotes it to a Roc
    assert "e5f12=+G" in lans(pos, "e5") and "e5f11" in lans(pos, "e5")


def test_griffon_blocked():
    # own piece on f6 closes that corner; enemy on d8 is taken, nothing beyond; own on b4
    pos = pos_of({"l1": "K", "l12": "k", "e5": "G", "f6": "P", "d8": "n", "b4": "P"})
    expected = {"d4", "d6", "f4", "d7", "d8", "c6", "b6", "a6", "c4", "d3", "d2", "d1"} \
        | rides("f4", (1, 0), (0, -1))
    assert dests(pos, "e5") == expected


def test_roc_dabbaba_rider_blocked_only_on_landing_squares():
    # own Pawn on e6 (leapt over) does not stop e7; enemy on e9 (landing) is taken and
    # stops it; own Pawn on g5 (landing) closes the east ray; f5 empty, h5 irrelevant
    pos = pos_of({"l1": "K", "l12": "k", "e5": "+G", "e6": "P", "e9": "n", "g5": "P", "d5": "p"})
    griffon = {"d4", "d6", "f4", "f6"} | rides("f6", (1, 0), (0, 1)) | rides("d6", (-1, 0), (0, 1)) \
        | rides("d4", (-1, 0), (0, -1)) | rides("f4", (1, 0), (0, -1))
    dd = {"e7", "e9", "c5", "a5", "e3", "e1"}
    assert dests(pos, "e5") == griffon | dd
    # a promoted piece never promotes again
    assert all("=" not in lan for lan in lans(pos, "e5"))


def test_nightrider_and_moonrider():
    pos = pos_of({"l1": "K", "l12": "k", "e5": "I"})
    knight = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
    assert dests(pos, "e5") == rides("e5", *knight)
    # stops at the first occupied landing square: own on g6 (nothing on that line), enemy
    # on c9 (taken, b11 out of reach); f6, d6 (not landing squares) do not matter
    pos = pos_of({"l1": "K", "l12": "k", "e5": "I", "g6": "P", "c9": "n", "f6": "p", "d6": "P"})
    assert dests(pos, "e5") == rides("e5", *knight) - {"g6", "i7", "k8", "b11"}
    moon = pos_of({"l1": "K", "l12": "k", "e5": "+I"})
    assert dests(moon, "e5") == rides("e5", *knight) | leaps("e5", (3, 2))


def test_nightrider_capture_stops_the_ride():
    pos = pos_of({"l1": "K", "l12": "k", "e5": "I", "f7": "p"})
    knight = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
    assert dests(pos, "e5") == rides("e5", *knight) - {"g9", "h11"}


def test_dragon():
    pos = pos_of({"l1": "K", "l12": "k", "e5": "D"})
    assert dests(pos, "e5") == {"g7", "i9", "c7", "a9", "g3", "i1", "c3", "a1"} | leaps("e5", (3, 1))
    # the second leap only over an empty first landing square; what is leapt over in a
    # single leap does not matter (f6, d4)
    pos = pos_of({"l1": "K", "l12": "k", "e5": "D", "g7": "P", "c7": "n", "f6": "p", "d4": "P",
                  "g3": "P"})
    assert dests(pos, "e5") == {"c7", "c3", "a1"} | leaps("e5", (3, 1))


def test_flying_dragon():
    pos = pos_of({"l1": "K", "k12": "k", "e5": "+D"})
    assert dests(pos, "e5") == rides("e5", *DIAG) | leaps("e5", (3, 1))


# --- the other promoted pieces --------------------------------------------------------------

@pytest.mark.parametrize("code,expected", [
    ("+Q", lambda s: rides(s, *ORTHO, *DIAG) | leaps(s, (2, 1))),                 # Empress
    ("+R", lambda s: rides(s, *ORTHO) | leaps(s, (1, 1), (3, 3))),                # Fort
    ("+B", lambda s: rides(s, *DIAG) | leaps(s, (1, 0), (3, 0))),                 # Cardinal
    ("+N", lambda s: leaps(s, (2, 1), (3, 1))),                                   # Gnu
    ("+P", lambda s: leaps(s, (1, 0), (1, 1), (3, 0))),                           # Frog
])
def test_promoted_pieces_on_an_empty_board(code, expected):
    pos = pos_of({"l1": "K", "k12": "k", "e5": code})
    assert dests(pos, "e5") == expected("e5")
    assert all("=" not in lan for lan in lans(pos, "e5"))


def test_orthodox_pieces():
    pos = pos_of({"l1": "K", "k12": "k", "e5": "Q", "b3": "N", "h9": "R", "c10": "B"})
    assert dests(pos, "e5") == rides("e5", *ORTHO, *DIAG)
    assert dests(pos, "b3") == leaps("b3", (2, 1))
    assert dests(pos, "h9") == rides("h9", *ORTHO)
    assert dests(pos, "c10") == rides("c10", *DIAG) - {"l1"}   # l1: its own King


def test_frog_is_not_royal():
    pos = pos_of({"l1": "K", "l12": "k", "e5": "+P", "a6": "r"})
    assert "e5e6" in lans(pos, "e5")


# --- Pawns ----------------------------------------------------------------------------------

def test_pawn_double_steps_from_its_start_squares_only():
    pos = rules.start(GAME)
    assert lans(pos, "f4") == {"f4f5", "f4f6"}
    assert lans(pos, "a3") == {"a3a4", "a3a5"}
    p = pos_of({**KINGS, "c4": "P", "f3": "P", "h3": "P", "h4": "n"})
    assert lans(p, "c4") == {"c4c5"}        # not a start square
    assert lans(p, "f3") == {"f3f4"}        # f3 is not a Pawn start square (f4 is)
    assert lans(p, "h3") == set()           # blocked
    pb = pos_of({**KINGS, "f9": "p", "e10": "p", "d9": "p"}, side="b")
    assert lans(pb, "f9") == {"f9f8", "f9f7"}
    assert lans(pb, "e10") == {"e10e9", "e10e8"}
    assert lans(pb, "d9") == {"d9d8"}


def test_no_en_passant():
    pos = pos_of({**KINGS, "g4": "P", "h6": "p"})
    after = pos.play("g6")
    assert after.fen().split()[3] == "-"
    pos = pos_of({**KINGS, "e3": "P", "d5": "p"})
    after = pos.play("e5")
    assert after.fen().split()[3] == "-"
    assert dests(after, "d5") == {"d4"}


def test_pawn_promotes_to_frog_on_rank_10_and_3():
    pos = pos_of({"a1": "K", "l1": "k", "e9": "P", "f10": "n"})
    assert lans(pos, "e9") == {"e9e10=+P", "e9f10=+P"}
    assert pos.play("e10").piece_at("e10").symbol == "+P"
    assert pos.san(pos.parse("e9f10=+P")) == "exf10=+P"
    pb = pos_of({"a1": "K", "l12": "k", "e4": "p", "d3": "N"}, side="b")
    assert lans(pb, "e4") == {"e4e3=+P", "e4d3=+P"}
    assert pb.play("e3").piece_at("e3").symbol == "+p"
    # a Pawn on rank 9 does not promote before it reaches rank 10
    assert lans(pos_of({"a1": "K", "l1": "k", "e8": "P"}), "e8") == {"e8e9"}


# --- promotion of pieces ----------------------------------------------------------------------

@pytest.mark.parametrize("code,frm,to", [
    ("Q", "e11", "e12"), ("R", "e11", "e12"), ("B", "d11", "e12"), ("N", "d10", "e12"),
    ("G", "d11", "e12"), ("I", "d10", "e12"), ("D", "c10", "e12"), ("S(V)", "e11", "e12"),
])
def test_every_piece_promotion_by_move_and_capture(code, frm, to):
    pos = pos_of({"a1": "K", "l1": "k", frm: code})
    key = "+" + code[0]
    assert {lan for lan in lans(pos, frm) if to_of(lan, frm) == to} == {f"{frm}{to}={key}"}
    after = pos.play(f"{frm}{to}={key}")
    assert after.piece_at(to).symbol == key
    # by a capture too
    cap = pos_of({"a1": "K", "l1": "k", frm: code, to: "r"})
    assert {lan for lan in lans(cap, frm) if to_of(lan, frm) == to} == {f"{frm}{to}={key}"}
    # for Black, on rank 1
    bfrm, bto = frm[0] + str(13 - int(frm[1:])), to[0] + str(13 - int(to[1:]))
    black = pos_of({"a12": "K", "l12": "k", bfrm: code[0].lower() + code[1:]}, side="b")
    assert {lan for lan in lans(black, bfrm) if to_of(lan, bfrm) == bto} == {f"{bfrm}{bto}={key}"}


def test_moving_along_the_last_rank_promotes():
    pos = pos_of({"a1": "K", "l1": "k", "e12": "Q"})
    assert "e12h12=+Q" in lans(pos, "e12")


def test_king_wall_minirose_never_promote():
    pos = pos_of({"e11": "K", "l1": "k", "c11": "O", **wall("h11", "i11")})
    assert lans(pos, "e11") >= {"e11e12", "e11d12"}
    assert all("=" not in m.lan for m in pos.legal_moves())
    assert pos.play("c11c12").piece_at("c12").symbol == "O"


# --- castling -------------------------------------------------------------------------------

CASTLE_W = {"a1": "R", "g1": "K", "l1": "R", "g12": "k"}
CASTLE_B = {"a12": "r", "g12": "k", "l12": "r", "g1": "K"}


def test_castling_both_ways_white():
    pos = pos_of(CASTLE_W, rights="AL")
    assert {"g1k1", "g1b1"} <= lans(pos, "g1")
    short = pos.play("O-O")
    assert short.piece_at("k1").symbol == "K" and short.piece_at("j1").symbol == "R"
    assert short.piece_at("l1") is None and short.piece_at("g1") is None
    assert short.fen().split()[2] == "-"
    long = pos.play("O-O-O")
    assert long.piece_at("b1").symbol == "K" and long.piece_at("c1").symbol == "R"
    assert long.piece_at("a1") is None
    assert pos.san(pos.parse("g1k1")) == "O-O" and pos.san(pos.parse("g1b1")) == "O-O-O"


def test_castling_both_ways_black():
    pos = pos_of(CASTLE_B, side="b", rights="al")
    assert {"g12k12", "g12b12"} <= lans(pos, "g12")
    short = pos.play("0-0")
    assert short.piece_at("k12").symbol == "k" and short.piece_at("j12").symbol == "r"
    long = pos.play("0-0-0")
    assert long.piece_at("b12").symbol == "k" and long.piece_at("c12").symbol == "r"


def test_castling_rights_letters_and_loss():
    pos = pos_of({**CASTLE_W, "a12": "r", "l12": "r"}, rights="ALal")
    assert pos.fen().split()[2] == "ALal"
    assert pos.play("l1l5").fen().split()[2] == "Aal"
    assert pos.play("g1g2").fen().split()[2] == "al"
    assert pos.play("a1a12").fen().split()[2] == "Ll"     # takes the a12 Rook: a lost too


def test_castling_forbidden_without_the_right():
    # King or Rook moved: the right is gone (written without it)
    pos = pos_of(CASTLE_W, rights="A")
    assert lans(pos, "g1") & {"g1k1"} == set()
    assert "g1b1" in lans(pos, "g1")
    moved = pos_of(CASTLE_W, rights="AL").play("l1l2").play("g12g11").play("l2l1").play("g11g12")
    assert "g1k1" not in lans(moved, "g1")


def test_castling_forbidden_with_a_piece_between():
    for blocker in ("h1", "i1", "j1", "k1"):
        pos = pos_of({**CASTLE_W, blocker: "B"}, rights="AL")
        assert "g1k1" not in lans(pos, "g1"), blocker
        assert "g1b1" in lans(pos, "g1")
    for blocker in ("b1", "c1", "d1", "e1", "f1"):
        pos = pos_of({**CASTLE_W, blocker: "n"}, rights="AL")
        assert "g1b1" not in lans(pos, "g1"), blocker


def test_castling_forbidden_in_check():
    pos = pos_of({**CASTLE_W, "g8": "r"}, rights="AL")
    assert pos.in_check()
    assert not {"g1k1", "g1b1"} & lans(pos, "g1")


@pytest.mark.parametrize("square", ["h", "i", "j", "k"])
def test_castling_short_forbidden_through_or_onto_attack(square):
    pos = pos_of({**CASTLE_W, f"{square}8": "r"}, rights="AL")
    assert "g1k1" not in lans(pos, "g1")
    assert "g1b1" in lans(pos, "g1")


@pytest.mark.parametrize("square", ["f", "e", "d", "c", "b"])
def test_castling_long_forbidden_through_or_onto_attack(square):
    pos = pos_of({**CASTLE_W, f"{square}8": "r"}, rights="AL")
    assert "g1b1" not in lans(pos, "g1")
    assert "g1k1" in lans(pos, "g1")


def test_castling_allowed_with_only_the_rook_attacked():
    # a1 (the Rook's square) attacked does not matter; the King never passes it
    pos = pos_of({**CASTLE_W, "a8": "r"}, rights="AL")
    assert "g1b1" in lans(pos, "g1")
    pos = pos_of({**CASTLE_W, "l8": "r"}, rights="AL")
    assert "g1k1" in lans(pos, "g1")


def test_castling_refused_by_fen_without_king_or_rook():
    with pytest.raises(FenError):
        pos_of({"a1": "R", "f1": "K", "l1": "R", "g12": "k"}, rights="AL")
    with pytest.raises(FenError):
        pos_of({"a1": "R", "g1": "K", "k1": "R", "g12": "k"}, rights="L")


# --- game end ---------------------------------------------------------------------------------

def test_mate_by_a_wall():
    # the Wall on e12-f12 could slide east onto k12-l12: check; k12 is covered by the
    # same slide, k11 and l11 by the Rook on a11
    pos = pos_of({"a1": "K", "l12": "k", "a11": "R", **wall("e12", "f12")}, side="b")
    assert pos.in_check()
    assert pos.legal_moves() == []
    assert pos.outcome() == ("1-0", "checkmate")
