"""King and Queen (kingqueen): the 39-square cross, castles, Xiangqi pieces, promotion by
capture, drops, the facing rule and stalemate as a loss (docs/rules/kingqueen.md)."""
import pytest

import rules
from rules.errors import (
    FenError,
    InvalidMoveError,
    LeavesRoyalInCheckError,
    NoSuchMoveError,
    NotYourPieceError,
    RulesError,
)

GAME = "kingqueen"
FILES = "abcdefghi"
START = "***nkc***/***1b1***/p1p1p1p1p/9/P1P1P1P1P/***1B1***/***CKN*** w - - 0 1 hand=-;dropped=-"


def is_hole(sq):
    f, r = FILES.index(sq[0]), int(sq[1:])
    return r in (1, 2, 6, 7) and not 3 <= f <= 5


def vfen(pieces, side="w", hand="-", dropped="-", half=0, full=1):
    """A VFEN from {square: symbol} ("e4": "P", "d6": "+n"), holes written as '*'."""
    rows = []
    for r in range(7, 0, -1):
        row, run = "", 0
        for f in FILES:
            sq = f"{f}{r}"
            if is_hole(sq):
                row += (str(run) if run else "") + "*"
                run = 0
            elif sq in pieces:
                row += (str(run) if run else "") + pieces[sq]
                run = 0
            else:
                run += 1
        rows.append(row + (str(run) if run else ""))
    return f"{'/'.join(rows)} {side} - - {half} {full} hand={hand};dropped={dropped}"


def pos(pieces, **kw):
    return rules.from_fen(GAME, vfen(pieces, **kw))


def from_sq(pieces, sq, **kw):
    """The LANs of the legal moves of the piece on sq."""
    return {m.lan for m in pos(pieces, **kw).moves_from(sq)}


def lans(sq, *dests, suffix=""):
    return {f"{sq}{d}{suffix}" for d in dests}


def drops(p):
    return {m.lan for m in p.legal_moves() if "@" in m.lan}


# ------------------------------------------------------------------------- board and sides

def test_the_board_is_a_cross_of_39_squares():
    geo = rules.game(GAME).geometry
    assert (geo.width, geo.height) == (9, 7)
    assert len(geo.squares) == 39
    assert {geo.names[s] for s in geo.holes} == {
        f"{f}{r}" for f in "abcghi" for r in (1, 2, 6, 7)}


def test_castles():
    g = rules.game(GAME)
    names = g.geometry.names
    assert {names[s] for s in g.zone("castle", 0)} == {"d1", "e1", "f1", "d2", "e2", "f2"}
    assert {names[s] for s in g.zone("castle", 1)} == {"d6", "e6", "f6", "d7", "e7", "f7"}


def test_a_hole_is_no_square():
    p = rules.start(GAME)
    with pytest.raises(InvalidMoveError, match="hole"):
        p.parse("d1c1")
    with pytest.raises(FenError, match="hole"):
        rules.from_fen(GAME, START.replace("***CKN***", "C**1KN***"))
    with pytest.raises(FenError, match="hole"):  # a run of empties may not cover a hole
        rules.from_fen(GAME, START.replace("***CKN***", "4KN***"))


def test_start_position_round_trips_and_is_quiet():
    p = rules.start(GAME)
    assert p.fen() == START
    assert rules.from_fen(GAME, START).fen() == START
    assert not p.in_check()
    assert not any(m.captures for m in p.legal_moves())
    assert p.turn == "w"


def test_sides_and_description():
    g = rules.game(GAME)
    assert g.side_name(0) == "Blue" and g.side_name(1) == "Red"
    assert "reconstruction" in g.summary and "diagram" in g.summary


NAMES = {  # code: (Blue, Blue promoted, Red, Red promoted)
    "K": ("Queen", "Empress", "King", "Emperor"),
    "P": ("Amazon", "Valkyrie", "Soldier", "Veteran"),
    "B": ("Shaman", "Druid", "Bishop", "Saint"),
    "N": ("Rider", "Pegasus", "Knight", "Dragon"),
    "C": ("Spearman", "Archer", "Catapult", "Cannon"),
}


@pytest.mark.parametrize("code", NAMES)
def test_each_kind_has_a_name_per_side_and_when_promoted(code):
    g = rules.game(GAME)
    blue, blue_p, red, red_p = NAMES[code]
    assert g.kind(code, 0).name == blue
    assert g.kind("+" + code, 0).name == blue_p
    assert g.kind(code, 1).name == red
    assert g.kind("+" + code, 1).name == red_p


def test_names_reach_the_board():
    p = rules.start(GAME)
    assert p.piece_at("e1").name == "Queen" and p.piece_at("e7").name == "King"
    assert p.piece_at("d1").name == "Spearman" and p.piece_at("f7").name == "Catapult"


# ------------------------------------------------------------------------- pieces

# No royal in these diagrams (README, Legality 5): every pseudo-legal move is legal.

def test_pawn():
    assert from_sq({"e4": "P"}, "e4") == {"e4e5"}
    assert from_sq({"e4": "P", "e5": "b"}, "e4") == {"e4e5=+P"}    # captures straight ahead
    assert from_sq({"e4": "P", "e5": "B", "d5": "b", "f5": "b"}, "e4") == set()  # never diagonally
    assert from_sq({"a5": "P"}, "a5") == set()                     # a6 is a hole
    assert from_sq({"d5": "P"}, "d5") == {"d5d6"}                  # into the short rows
    assert from_sq({"e7": "P"}, "e7") == set()                     # the last rank: stuck
    assert from_sq({"e4": "p"}, "e4", side="b") == {"e4e3"}        # Red's go down
    assert from_sq({"i3": "p"}, "i3", side="b") == set()           # i2 is a hole


def test_promoted_pawn_is_a_rook_stopped_by_holes():
    file_e = {f"e{r}" for r in range(1, 8)} - {"e4"}
    rank_4 = {f"{f}4" for f in FILES} - {"e4"}
    assert from_sq({"e4": "+P"}, "e4") == lans("e4", *(file_e | rank_4))
    assert from_sq({"a3": "+P"}, "a3") == lans("a3", "a4", "a5", *[f"{f}3" for f in "bcdefghi"])
    assert from_sq({"d1": "+P"}, "d1") == lans("d1", "d2", "d3", "d4", "d5", "d6", "d7", "e1", "f1")
    # blocked by its own, captures without a second promotion
    assert from_sq({"e4": "+P", "e6": "n", "c4": "B", "e2": "P", "h4": "c"}, "e4") == lans(
        "e4", "e5", "e6", "d4", "f4", "g4", "h4", "e3")


def test_bishop():
    assert from_sq({"e4": "B"}, "e4") == lans("e4", "d3", "f3", "d5", "f5")
    assert from_sq({"d1": "B"}, "d1") == {"d1e2"}                  # c2 is a hole
    assert from_sq({"a3": "B"}, "a3") == {"a3b4"}
    assert from_sq({"d2": "B"}, "d2") == lans("d2", "c3", "e3", "e1")
    assert from_sq({"e4": "B", "f5": "n", "d5": "N"}, "e4") == {"e4d3", "e4f3", "e4f5=+B"}


def test_promoted_bishop_stops_at_holes():
    # in the middle every diagonal ends after one square, at a hole
    assert from_sq({"e4": "+B"}, "e4") == lans("e4", "d3", "f3", "d5", "f5")
    # d1: the hole on c2 stops it as the edge would; b3 beyond is out of reach
    assert from_sq({"d1": "+B"}, "d1") == lans("d1", "e2", "f3", "g4", "h5")
    assert from_sq({"a3": "+B"}, "a3") == lans("a3", "b4", "c5", "d6", "e7")
    assert from_sq({"d3": "+B"}, "d3") == lans("d3", "e2", "f1", "c4", "b5", "e4", "f5")
    assert from_sq({"a3": "+B", "c5": "p", "d6": "n"}, "a3") == {"a3b4", "a3c5"}


def test_horse():
    eight = ("d6", "f6", "d2", "f2", "c5", "c3", "g5", "g3")
    assert from_sq({"e4": "N"}, "e4") == lans("e4", *eight)
    # a piece of either side on its first step blocks that way
    assert from_sq({"e4": "N", "e5": "p"}, "e4") == lans("e4", "d2", "f2", "c5", "c3", "g5", "g3")
    assert from_sq({"e4": "N", "d4": "P", "f4": "p"}, "e4") == lans("e4", "d6", "f6", "d2", "f2")
    # a hole on its first step blocks it as a piece would: d2 never reaches b3 (c2 is a hole)
    assert from_sq({"d2": "N"}, "d2") == lans("d2", "c4", "e4", "f3", "f1")
    assert from_sq({"a3": "N"}, "a3") == lans("a3", "b5", "c4")
    assert from_sq({"d1": "N"}, "d1") == lans("d1", "c3", "e3", "f2")
    assert from_sq({"e4": "N", "f6": "c", "c3": "P"}, "e4") == (
        lans("e4", "d6", "d2", "f2", "c5", "g5", "g3") | {"e4f6=+N"})


def test_promoted_knight_leaps_over_pieces_and_holes():
    assert from_sq({"d2": "+N"}, "d2") == lans("d2", "b3", "c4", "e4", "f3", "f1")  # b3 over c2
    hemmed = {"e4": "+N", "e5": "P", "e3": "P", "d4": "p", "f4": "p"}
    assert from_sq(hemmed, "e4") == lans("e4", "d6", "f6", "d2", "f2", "c5", "c3", "g5", "g3")
    assert from_sq({"d1": "+N", "c3": "b"}, "d1") == {"d1c3", "d1e3", "d1f2"}


def test_cannon():
    file_e = {f"e{r}" for r in range(1, 8)} - {"e4"}
    rank_4 = {f"{f}4" for f in FILES} - {"e4"}
    assert from_sq({"e4": "C"}, "e4") == lans("e4", *(file_e | rank_4))
    # screens of either side; the first piece beyond is taken only if it is an enemy
    p = {"e3": "C", "e4": "P", "e6": "n", "e7": "c", "c3": "p", "a3": "b", "e2": "B"}
    assert from_sq(p, "e3") == lans("e3", "d3", "f3", "g3", "h3", "i3") | {"e3e6=+C", "e3a3=+C"}
    p = {"e3": "C", "e5": "p", "e6": "N"}                        # beyond the screen: its own
    assert from_sq(p, "e3") == lans("e3", "e4", "e2", "e1", "d3", "c3", "b3", "a3",
                                    "f3", "g3", "h3", "i3")
    # the edge of the cross: a hole is no square, so nothing lies beyond it
    assert from_sq({"d2": "C"}, "d2") == lans("d2", "d1", "e2", "f2", "d3", "d4", "d5", "d6", "d7")
    assert from_sq({"d1": "C", "e1": "B", "f1": "n"}, "d1") == (
        lans("d1", "d2", "d3", "d4", "d5", "d6", "d7") | {"d1f1=+C"})


def test_cannon_never_uses_a_hole_as_its_screen():
    # d1 -> c2 (hole) -> b3 -> a4 is one diagonal: the promoted cannon stops at c2
    p = {"d1": "+C", "b3": "n", "a4": "c"}
    dests = from_sq(p, "d1")
    assert not any(m.endswith(("b3", "a4")) for m in dests)
    assert dests == lans("d1", "d2", "d3", "d4", "d5", "d6", "d7", "e1", "f1", "e2", "f3", "g4", "h5")


def test_promoted_cannon_moves_and_captures_on_diagonals_too():
    p = {"a3": "+C", "c5": "p", "d6": "n", "a4": "P", "a5": "b", "d3": "n"}
    assert from_sq(p, "a3") == lans("a3", "b4", "d6", "b3", "c3", "a5")
    # in the middle: every diagonal ends at a hole after one square
    assert from_sq({"e4": "+C", "d5": "P", "f5": "p"}, "e4") == (
        lans("e4", "d3", "f3", *({f"e{r}" for r in range(1, 8)} - {"e4"}),
             *({f"{f}4" for f in FILES} - {"e4"})))


def test_royal_stays_in_its_castle():
    assert from_sq({"e1": "K"}, "e1") == lans("e1", "d1", "f1", "e2")
    assert from_sq({"d2": "K"}, "d2") == lans("d2", "d1", "e2")   # d3 is outside
    assert from_sq({"f2": "K"}, "f2") == lans("f2", "f1", "e2")
    assert from_sq({"e7": "k"}, "e7", side="b") == lans("e7", "d7", "f7", "e6")
    assert from_sq({"f6": "k"}, "f6", side="b") == lans("f6", "f7", "e6")


def test_promoted_royal_stays_in_its_castle():
    assert from_sq({"e1": "+K"}, "e1") == lans("e1", "d1", "f1", "d2", "e2", "f2")
    assert from_sq({"d2": "+K"}, "d2") == lans("d2", "d1", "e1", "e2")
    assert from_sq({"e2": "+K"}, "e2") == lans("e2", "d1", "e1", "f1", "d2", "f2")
    assert from_sq({"e6": "+k"}, "e6", side="b") == lans("e6", "d6", "f6", "d7", "e7", "f7")


def test_a_royal_that_captures_is_promoted_and_stays_royal_and_confined():
    p = pos({"e1": "K", "e2": "n", "e7": "k", "e6": "b", "a5": "p"})
    assert {m.lan for m in p.moves_from("e1")} == {"e1d1", "e1f1", "e1e2=+K"}
    q = p.play("e1e2=+K")
    k = q.piece_at("e2")
    assert k.key == "+K" and k.royal and k.name == "Empress"
    assert q.royal_square("w") == "e2"
    assert q.hand("w") == {"N": 1}
    q = q.play("a5a4")
    assert {m.lan for m in q.moves_from("e2")} == lans("e2", "d1", "e1", "f1", "d2", "f2")


def test_every_capture_promotes_once():
    p = pos({"e2": "C", "e3": "P", "e5": "n", "e1": "K", "d7": "k"})
    m = p.parse("e2e5=+C")
    assert m.lan == "e2e5=+C" and p.san(m) == "Cxe5=+C"
    assert p.parse("Cxe5").lan == "e2e5=+C"      # the only promotion may go unwritten
    q = p.play(m)
    assert q.piece_at("e5").key == "+C" and q.hand("w") == {"N": 1}
    # a promoted piece that captures stays as it is
    q = pos({"e5": "+C", "e6": "p", "e7": "n", "e1": "K", "d7": "k"})
    assert "e5e7" in {m.lan for m in q.legal_moves()}


def test_pawn_capture_san():
    p = pos({"e5": "p", "e4": "P", "e7": "k", "d1": "K"}, side="b")
    m = p.parse("exe4=+P")
    assert m.lan == "e5e4=+P" and p.san(m) == "exe4=+P"


# ------------------------------------------------------------------------- drops

def test_drops_go_only_onto_empty_squares_of_the_own_castle():
    p = pos({"e1": "K", "e2": "B", "e7": "k", "d6": "n", "e4": "P"}, hand="PNc")
    assert drops(p) == {f"{c}@{s}" for c in "PN" for s in ("d1", "f1", "d2", "f2")}
    q = pos({"e1": "K", "e2": "B", "e7": "k", "d6": "n", "e4": "P"}, hand="PNc", side="b")
    assert drops(q) == {f"C@{s}" for s in ("d7", "f7", "e6", "f6")}
    with pytest.raises(NoSuchMoveError, match="castle"):
        p.parse("P@e3")
    with pytest.raises(NoSuchMoveError):
        p.parse("C@d1")                            # Blue holds no Cannon


def test_no_drop_on_two_turns_running():
    p = pos({"d1": "K", "f7": "k", "a3": "P", "i5": "p"}, hand="PPp")
    p = p.play("P@d2")
    assert p.fen().endswith("hand=Pp;dropped=w")
    p = p.play("p@f6")                             # Red may: its own last move was no drop
    assert p.fen().endswith("hand=P;dropped=wb")
    assert drops(p) == set()                       # Blue dropped last turn
    with pytest.raises(NoSuchMoveError, match="dropped last turn"):
        p.parse("P@f2")
    p = p.play("a3a4")
    assert p.fen().endswith("hand=P;dropped=b")
    assert drops(p) == set()                       # Red dropped last turn; nothing left anyway
    p = p.play("i5i4")
    assert drops(p) == {f"P@{s}" for s in ("e1", "f1", "e2", "f2")}


def test_a_captured_piece_changes_side_and_loses_its_promotion():
    p = pos({"e1": "K", "d7": "k", "e3": "+C", "e4": "P", "e5": "+n", "a5": "+p", "a3": "P"})
    p = p.play("e3e5")
    assert p.hand("w") == {"N": 1}
    assert p.fen().endswith("hand=N;dropped=-")
    p = p.play("a5a4")
    assert p.hand("b") == {}
    p = p.play("N@d2")
    assert p.piece_at("d2").key == "N" and p.piece_at("d2").color == 0
    assert p.hand("w") == {}
    # a pawn taking a promoted pawn: promoted itself, the prize unpromoted
    q = pos({"e1": "K", "d7": "k", "e4": "P", "e5": "+p"}).play("e4e5=+P")
    assert q.piece_at("e5").key == "+P" and q.hand("w") == {"P": 1}


def test_drop_is_unpromoted_and_keeps_the_halfmove_count():
    p = pos({"e1": "K", "d7": "k", "a3": "P"}, hand="C", half=7, full=9)
    q = p.play("C@d1")
    assert q.piece_at("d1").key == "C"
    assert q.fen() == vfen({"e1": "K", "d7": "k", "a3": "P", "d1": "C"}, side="b",
                           dropped="w", half=8, full=9)
    assert q.play("d7d6").play("a3a4").halfmove == 0    # a Pawn's move resets it


def test_a_drop_that_blocks_check():
    # Red's Veteran (a promoted Pawn) checks along the e-file
    p = pos({"e1": "K", "d1": "P", "f1": "B", "e5": "+p", "d7": "k", "a3": "P"}, hand="NC")
    assert p.in_check()
    # the Queen cannot step aside (d1, f1 her own; e2 still on the file): block on e2
    assert {m.lan for m in p.legal_moves()} == {"N@e2", "C@e2", "f1e2"}
    assert not p.play("N@e2").play("d7d6").in_check()


def test_a_drop_that_mates():
    # Red's King is walled in by its own Bishops and Soldier; a Cannon dropped on e2
    # uses the Soldier as its screen, and the Soldier's only step keeps one screen there
    p = pos({"d1": "K", "e7": "k", "d7": "b", "f7": "b", "e6": "p"}, hand="C")
    assert not p.in_check()
    m = p.parse("C@e2")
    assert p.san(m) == "C@e2#"
    q = p.play(m)
    assert q.in_check() and q.legal_moves() == []
    assert q.outcome() == ("1-0", "checkmate")


# ------------------------------------------------------------------------- the facing rule

def test_the_last_piece_between_the_royals_cannot_leave_the_file():
    p = pos({"e1": "K", "e7": "k", "e4": "B", "a3": "P", "i5": "p"})
    assert {m.lan for m in p.legal_moves()} == {"a3a4", "e1d1", "e1f1", "e1e2"}
    with pytest.raises(LeavesRoyalInCheckError, match="facing"):
        p.parse("e4d5")


def test_the_facing_rule_binds_either_side_and_any_piece():
    # Red's Knight is the last piece between: none of its moves stays on the file
    p = pos({"e1": "K", "e7": "k", "e4": "n", "a3": "P", "i5": "p"}, side="b")
    assert {m.lan for m in p.legal_moves()} == {"i5i4", "e7d7", "e7f7", "e7e6"}
    # a Cannon may slide along the file, never off it
    p = pos({"e1": "K", "e7": "k", "e3": "C", "a3": "p", "i5": "p"})
    assert {m.lan for m in p.moves_from("e3")} == lans("e3", "e2", "e4", "e5", "e6")
    # with a second piece between, either may go
    p = pos({"e1": "K", "e7": "k", "e3": "C", "e5": "p", "e6": "b"})
    assert {m.lan for m in p.moves_from("e3")} == lans(
        "e3", "e2", "e4", "d3", "c3", "b3", "a3", "f3", "g3", "h3", "i3") | {"e3e6=+C"}


def test_a_royal_may_not_step_onto_an_open_file_facing_the_other():
    p = pos({"d1": "K", "e7": "k", "a3": "P"})
    assert {m.lan for m in p.moves_from("d1")} == {"d1d2"}
    p = pos({"d1": "K", "e7": "k", "d4": "p", "e3": "p"})
    assert {m.lan for m in p.moves_from("d1")} == {"d1d2", "d1e1"}
    p = pos({"d1": "K", "e7": "k", "e3": "p"}, side="b")
    assert {m.lan for m in p.moves_from("e7")} == {"e7e6", "e7f7"}   # d7 would face d1


def test_facing_is_not_check():
    # not reachable by play, but a position string may hold it: no check, and every
    # legal move ends the facing
    p = pos({"e1": "K", "e7": "k", "d2": "B"})
    assert not p.in_check()
    assert {m.lan for m in p.legal_moves()} == {"e1d1", "e1f1", "d2e3"}


# ------------------------------------------------------------------------- game end

def test_checkmate_loses_for_either_side():
    p = pos({"e1": "K", "d1": "P", "f1": "P", "e5": "+p", "d7": "k"})
    assert p.in_check() and p.legal_moves() == []
    assert p.outcome() == ("0-1", "checkmate")


def test_stalemate_loses_for_the_side_to_move():
    # Blue: the Queen's two steps are covered by a Dragon, the Amazon on a5 is stuck
    p = pos({"d1": "K", "a5": "P", "f3": "+n", "e7": "k"})
    assert not p.in_check() and p.legal_moves() == []
    assert p.outcome() == ("0-1", "stalemate")
    # Red: the same, turned round
    p = pos({"f7": "k", "i3": "p", "d5": "+N", "e1": "K"}, side="b")
    assert not p.in_check() and p.legal_moves() == []
    assert p.outcome() == ("1-0", "stalemate")


CYCLE = ["P@e2", "e5e2", "d4d5", "p@d6", "d5d6", "e2e3", "d6d4", "e3e5"]


def test_a_repetition_reached_through_drops_is_a_draw():
    # Blue drops an Amazon, Red's Veteran takes it, Red drops it, Blue's Valkyrie takes it
    # back: after eight plies board, hands and drop markers are as they were
    start = pos({"d1": "K", "d4": "+P", "f7": "k", "e5": "+p"}, hand="P")
    p = start
    seen = []
    for lan in CYCLE * 2:
        assert p.outcome() is None
        p = p.play(lan)
        seen.append(p.fen().split(" ", 6)[6])
    assert seen[:8] == ["hand=-;dropped=w", "hand=p;dropped=w", "hand=p;dropped=-",
                        "hand=-;dropped=b", "hand=P;dropped=b", "hand=P;dropped=-",
                        "hand=P;dropped=-", "hand=P;dropped=-"]
    assert p.key() == start.key() and p.repetitions() == 3
    assert p.outcome() == ("1/2-1/2", "threefold repetition")


def test_hands_and_drop_markers_belong_to_the_position():
    board = {"d1": "K", "d4": "+P", "f7": "k", "e5": "+p"}
    keys = {pos(board, hand=h, dropped=d).key() for h in ("-", "P", "p") for d in ("-", "w")}
    assert len(keys) == 6


# ------------------------------------------------------------------------- VFEN

@pytest.mark.parametrize("text", [
    START,
    vfen({"e1": "K", "e7": "k", "e4": "+C"}, hand="PPc", dropped="wb"),
    vfen({"e2": "+K", "d6": "+k", "a3": "+P", "i5": "+n"}, side="b", hand="PBNCpbnc", dropped="b"),
    vfen({"d1": "K", "f7": "k"}, hand="-", dropped="w", half=33, full=40),
])
def test_vfen_round_trips(text):
    assert rules.from_fen(GAME, text).fen() == text


def test_vfen_after_play_carries_hand_and_marker():
    p = rules.start(GAME).play("c3c4").play("c5c4=+P")
    assert p.fen() == ("***nkc***/***1b1***/p3p1p1p/2+p6/P3P1P1P/***1B1***/***CKN*** "
                       "w - - 0 2 hand=p;dropped=-")
    p = p.play("a3a4").play("p@d6")
    assert p.fen() == ("***nkc***/***pb1***/p3p1p1p/P1+p6/4P1P1P/***1B1***/***CKN*** "
                       "w - - 1 3 hand=-;dropped=b")
    again = rules.from_fen(GAME, p.fen())
    assert again.fen() == p.fen() and again.key() == p.key()


def test_vfen_hand_order_and_missing_extras():
    p = rules.from_fen(GAME, vfen({"d1": "K", "e7": "k"}, hand="cNPp", dropped="-"))
    assert p.fen().endswith("hand=PNpc;dropped=-")
    six = " ".join(vfen({"d1": "K", "e7": "k"}).split()[:6])
    assert rules.from_fen(GAME, six).fen() == six + " hand=-;dropped=-"


@pytest.mark.parametrize("extras,why", [
    ("hand=K;dropped=-", "can be held"),
    ("hand=+N;dropped=-", "can be held"),
    ("hand=-;dropped=x", "dropped"),
    ("hand=-;hand=P", "twice"),
    ("hand", "key=value"),
])
def test_vfen_bad_extras(extras, why):
    text = " ".join(vfen({"d1": "K", "e7": "k"}).split()[:6]) + " " + extras
    with pytest.raises(FenError, match=why):
        rules.from_fen(GAME, text)


def test_vfen_royal_outside_its_castle():
    with pytest.raises(FenError, match="outside its castle"):
        pos({"e3": "K", "e7": "k"})
    with pytest.raises(FenError, match="outside its castle"):
        pos({"e1": "K", "e2": "k"})


# ------------------------------------------------------------------------- input

def test_q_names_blues_royal():
    p = pos({"e1": "K", "e2": "n", "e7": "k", "e6": "b", "a5": "p"})
    for text in ("Qxe2", "Qe2", "Qe1e2", "qe2", "Qe1-e2", "Ke2", "e1e2=+K", "Kxe2=+K"):
        assert p.parse(text).lan == "e1e2=+K", text
    assert p.parse("Qd1").lan == "e1d1"
    q = p.play("Qe2").play("a5a4")
    assert q.parse("+Qf1").lan == "e2f1"
    with pytest.raises(NoSuchMoveError, match="Queen"):
        p.parse("Qe3")
    with pytest.raises(LeavesRoyalInCheckError, match="'Qf1' is illegal"):
        pos({"e1": "K", "e7": "k", "e5": "P", "f4": "+p"}).parse("Qf1")


def test_q_is_not_reds():
    p = pos({"e1": "K", "d7": "k", "a3": "P"}, side="b")
    assert p.parse("Kd6").lan == "d7d6"
    with pytest.raises(NotYourPieceError, match="Blue's royal"):
        p.parse("Qd6")


def test_errors_name_the_pieces_by_side():
    p = rules.start(GAME)
    with pytest.raises(NotYourPieceError, match="Red"):
        p.parse("e5e4")
    with pytest.raises(RulesError, match="nothing in hand"):
        p.parse("P@d2")


# ------------------------------------------------------------------------- perft data

def test_perft_data_covers_the_start():
    from tests.rules.perft_data import in_budget, load_cases
    have = {(c.id, c.depth) for c in load_cases(GAME) if in_budget(c)}
    assert {("startpos", d) for d in (1, 2, 3, 4)} <= have
    assert rules.start(GAME).perft(3) == 1942


def test_drop_refusals_say_why():
    p = pos({"e1": "K", "e7": "k", "e4": "P"}, hand="PNc")
    with pytest.raises(NoSuchMoveError, match="hold no Spearman.*in hand: Amazon \\(P\\), Rider \\(N\\)"):
        p.parse("C@d1")
    with pytest.raises(NoSuchMoveError, match="unpromoted; write N@d1"):
        p.parse("+N@d1")
    with pytest.raises(NoSuchMoveError, match="never held in hand"):
        p.parse("K@d1")
    with pytest.raises(NoSuchMoveError, match="castle"):
        p.parse("N@d3")
    with pytest.raises(InvalidMoveError, match="hole"):
        p.parse("N@c2")
    assert p.parse("n@d1").lan == "N@d1"
