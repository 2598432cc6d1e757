"""Ganymede Chess: the inventor's notation, the sample game, SAN/LAN, and VFEN."""
import pytest

import rules
from rules.errors import (
    AmbiguousMoveError,
    FenError,
    InvalidMoveError,
    LeavesRoyalInCheckError,
    NoPieceError,
    NoSuchMoveError,
    NotYourPieceError,
)
from tests.rules.randgames import random_game
from tests.rules.test_ganymede import board, pos_of, wall

GAME = "ganymede"
START_FEN = ("rgoibqkbiogr/w(E)w(W)1dn2nd1w(E)w(W)/ppppps(V)s(V)ppppp/5pp5/12/12/12/12/5PP5/"
             "PPPPPS(V)S(V)PPPPP/W(E)W(W)1DN2ND1W(E)W(W)/RGOIBQKBIOGR w ALal - 0 1")

# --- the sample game -----------------------------------------------------------------------

SAMPLE = ["g6", "g7", "S-g5\\S\\", "N-g9", "f6", "gxf6", "S(f)xf6\\S\\", "D-h8",
          "S-h4|S|", "j8", "B-b7", "B-l8"]

# the page's diagram after 4. S(f)xf6\S\ (Black to move), rank 12 first; the Spearmen's
# \S\ is the L setting, the unmoved ones keep V, the Walls lie horizontally
AFTER_4 = [
    "r g o i b q k b i o g r",
    "w(E) w(W) . d n . . . d . w(E) w(W)",
    "p p p p p s(V) s(V) p p p p p",
    ". . . . . p n . . . . .",
    ". . . . . . . . . . . .",
    ". . . . . . . . . . . .",
    ". . . . . S(L) P . . . . .",
    ". . . . . . S(L) . . . . .",
    ". . . . . . . . . . . .",
    "P P P P P . . P P P P P",
    "W(E) W(W) . D N . . N D . W(E) W(W)",
    "R G O I B Q K B I O G R",
]


def test_start_vfen_exactly_as_the_page_gives_it():
    assert rules.start(GAME).fen() == START_FEN
    assert rules.from_fen(GAME, START_FEN).fen() == START_FEN
    assert rules.game(GAME).start_fen == START_FEN


def test_sample_game_replays_to_the_diagram_after_move_4_and_on_to_move_6():
    pos = rules.start(GAME)
    sans = []
    for i, text in enumerate(SAMPLE):
        mv = pos.parse(text)
        sans.append(pos.san(mv))
        pos = pos.play(mv)
        if i == 6:  # after 4. S(f)xf6\S\
            for r, row in enumerate(AFTER_4):
                for f, token in enumerate(row.split()):
                    square = f"{'abcdefghijkl'[f]}{12 - r}"
                    piece = pos.piece_at(square)
                    got = "." if piece is None else piece.symbol
                    assert got == token, square
            assert pos.turn == "b"
    assert sans == ["g6", "g7", "Sg5(L)", "Ng9", "f6", "gxf6", "Sfxf6(L)", "Dh8", "Sh4(V)", "j8",
                    "Bb7", "Bl8"]
    assert pos.fen() == ("rgoibqk1iogr/w(E)w(W)1dn5w(E)w(W)/ppppps(V)s(V)pp1pp/5pn5/7d1p1b/1B10/"
                         "5S(L)P5/12/7S(V)4/PPPPP2PPPPP/W(E)W(W)1DN2ND1W(E)W(W)/RGOIBQK1IOGR w ALal - 2 7")


def test_sample_game_on_to_black_castling_with_0_0():
    """The page's 9... 0-0 (after h12-k12 emptied), reached by legal moves of its game:
    7. NN-g2 G-j9 8. B-g3 NN-j10 9. N-g4 0-h11 10. a4 0-0."""
    pos = rules.start(GAME)
    for text in SAMPLE + ["NN-g2", "G-j9", "B-g3", "NN-j10", "N-g4", "0-h11", "a4"]:
        pos = pos.play(text)
    assert pos.piece_at("h11").symbol == "o"
    mv = pos.parse("0-0")
    assert mv.lan == "g12k12" and pos.san(mv) == "O-O"
    after = pos.play(mv)
    assert after.piece_at("k12").symbol == "k" and after.piece_at("j12").symbol == "r"
    assert after.piece_at("l12") is None and after.piece_at("g12") is None
    assert after.fen().split()[2] == "AL"


# --- the inventor's notations -----------------------------------------------------------------

@pytest.mark.parametrize("text,lan", [
    ("S-g5\\S\\", "g3g5(L)"), ("S-g5/S/", "g3g5(R)"), ("S-g5|S|", "g3g5(V)"),
    ("Sg5(L)", "g3g5(L)"), ("g3g5(L)", "g3g5(L)"), ("g3-g5(R)", "g3g5(R)"),
    ("g3g5(\\)", "g3g5(L)"), ("g3g5(/)", "g3g5(R)"), ("g3g5(|)", "g3g5(V)"),
    ("Sg5\\", "g3g5(L)"), ("Sg5/", "g3g5(R)"), ("Sg5|", "g3g5(V)"), ("S-g5 \\S\\", "g3g5(L)"),
    ("S(g)-g5\\S\\", "g3g5(L)"), ("S(g3)-g5|S|", "g3g5(V)"), ("Sgg5(V)", "g3g5(V)"),
    ("NN-g2", "i1g2"), ("NNg2", "i1g2"), ("Ig2", "i1g2"), ("I-g2", "i1g2"), ("i1g2", "i1g2"),
    ("N-f3", None), ("Ng3", None),
])
def test_inventor_forms_after_1_g6_g7(text, lan):
    pos = rules.start(GAME).play("g6").play("g7")
    if lan is None:
        with pytest.raises(rules.MoveError):
            pos.parse(text)
    else:
        assert pos.parse(text).lan == lan


def test_spearman_turn_in_inventor_notation():
    pos = rules.start(GAME)
    assert pos.parse("g3(R)").lan == "g3(R)"
    assert pos.parse("Sg3(R)").lan == "g3(R)"
    assert pos.parse("S(g3)/S/").lan == "g3(R)"
    assert pos.parse("g3(/)").lan == "g3(R)"
    assert pos.san(pos.parse("g3(R)")) == "Sg3(R)"
    with pytest.raises(rules.MoveError):
        pos.parse("g3(V)")   # turning must change the setting


def test_spearman_move_without_a_setting_is_ambiguous():
    pos = rules.start(GAME).play("g6").play("g7")
    with pytest.raises(AmbiguousMoveError) as err:
        pos.parse("S-g5")
    assert set(err.value.candidates) == {"Sg5(V)", "Sg5(R)", "Sg5(L)"}


def test_minirose_zero_and_castling_zero():
    pos = pos_of({"a1": "K", "g12": "k", "l12": "r", "j12": "o", "h12": "b"}, side="b", rights="l")
    for text in ("0-h11", "0h11", "O-h11", "Oh11", "0j12h11", "j12h11", "O(j12)-h11"):
        assert pos.parse(text).lan == "j12h11", text
    with pytest.raises(rules.MoveError):
        pos.parse("0-0")            # h12 and j12 are occupied
    after = pos.play("0-h11").play("a1a2").play("h12g11")
    # h12 empty, j12 empty, i12 empty, k12 empty now
    after = after.play("a2a1")
    assert after.parse("0-0").lan == "g12k12"
    assert after.parse("O-O").lan == "g12k12"


def test_wall_inventor_notation_w_c2_d2():
    pos = pos_of({"g1": "K", "g12": "k", **wall("a2", "b2")})
    for text in ("W-(c2-d2)", "W(c2-d2)", "W-(c2d2)", "W-c2-d2", "Wc2d2", "W-(d2-c2)",
                 "a2b2-c2d2", "b2a2-d2c2", "a2b2c2d2", "W(a2b2)-c2d2", "W(a2b2)c2d2",
                 "W(b2a2)-c2d2", "W-(c2-d2)+"):
        assert pos.parse(text).lan == "a2b2-c2d2", text
    assert pos.san(pos.parse("a2b2-c2d2")) == "W(a2b2)-c2d2"
    # a turn named by its new squares
    assert pos.parse("W-(a2-a3)").lan == "a2b2-a2a3"


def test_wall_inventor_notation_ambiguous_and_impossible():
    # two Walls can reach c2-d2: the one on a2-b2 (sliding east) and the one on c4-d4
    # (sliding south over c3-d3)
    pos = pos_of({"g1": "K", "g12": "k", **wall("a2", "b2"), **wall("c4", "d4")})
    with pytest.raises(AmbiguousMoveError) as err:
        pos.parse("W-(c2-d2)")
    assert set(err.value.candidates) == {"W(a2b2)-c2d2", "W(c4d4)-c2d2"}
    assert pos.parse("a2b2-c2d2").lan == "a2b2-c2d2"
    with pytest.raises(NoSuchMoveError):
        pos.parse("W-(c2-e2)")
    with pytest.raises(NoSuchMoveError):
        pos.parse("W-(e7-f7)")
    with pytest.raises(InvalidMoveError):
        pos.parse("W-(c2-m2)")
    assert pos.parse("a2b2-a5b5").lan == "a2b2-a5b5"
    # a Pawn on a4 closes the slide across
    blocked = pos_of({"g1": "K", "g12": "k", **wall("a2", "b2"), "a4": "P"})
    with pytest.raises(NoSuchMoveError):
        blocked.parse("a2b2-a5b5")


def test_wall_text_errors_name_the_reason():
    pos = pos_of({"g1": "K", "g12": "k", **wall("a2", "b2"), **wall("k11", "l11", white=False)})
    with pytest.raises(NoPieceError):
        pos.parse("c5d5-c6d6")
    with pytest.raises(NotYourPieceError):
        pos.parse("k11l11-k10l10")
    with pytest.raises(NoPieceError):
        pos.parse("a2a3-a4a5")     # a3 is no square of that Wall
    nowall = pos_of({"g1": "K", "g12": "k"})
    with pytest.raises(NoPieceError):
        nowall.parse("W-(c2-d2)")
    # illegal because it leaves the King in check: the Wall shields g1 from the Rook on g12?
    pinned = pos_of({"g1": "K", "a12": "k", **wall("g2", "g3"), "g10": "r"})
    with pytest.raises(LeavesRoyalInCheckError):
        pinned.parse("g2g3-h2h3")
    with pytest.raises(LeavesRoyalInCheckError):
        pinned.parse("W-(h2-h3)")


def test_wall_san_with_capture_and_check():
    pos = pos_of({"a1": "K", "l6": "k", **wall("e5", "f5"), "e6": "n", "f6": "b"})
    mv = pos.parse("W-(e6-f6)")
    # after taking both, the Wall on e6-f6 could slide east to k6-l6: check
    assert pos.san(mv) == "W(e5f5)xe6f6+"


def test_pikeman_and_promotion_san():
    pos = pos_of({"a1": "K", "l1": "k", "e11": "S(V)", "c5": "+S", "h11": "Q"})
    assert pos.san(pos.parse("e11e12=+S")) == "Se12=+S"
    assert pos.parse("Se12").lan == "e11e12=+S"
    assert pos.parse("Se12=+S").lan == "e11e12=+S"
    assert pos.san(pos.parse("c5c6")) == "+Sc6"
    assert pos.parse("+Sc6").lan == "c5c6"
    assert pos.san(pos.parse("h11h12=+Q")) == "Qh12=+Q"


def test_bad_texts_raise_rules_errors():
    pos = rules.start(GAME)
    for text in ("", "zz", "S-m5\\S\\", "W-(", "NN-q9", "0-", "Wx", "\\S\\"):
        with pytest.raises(rules.RulesError):
            pos.parse(text)


# --- VFEN ---------------------------------------------------------------------------------------

ROUND_TRIP = [
    # horizontal and vertical Walls of both colours
    "6k5/12/1w(S)10/1w(N)10/12/4W(E)W(W)6/12/8W(S)3/8W(N)3/12/12/6K5 w - - 0 1",
    # Spearman settings of both colours, Pikemen, every promoted piece
    "+q+r+b+n+p+g+i+d+s2k/s(V)s(R)s(L)9/12/12/12/12/12/12/12/12/S(V)S(R)S(L)9/+Q+R+B+N+P+G+I+D+SK2 b - - 13 40",
    # castling rights partly lost, Mini-roses and Griffons
    "r1o3k4r/12/12/12/12/12/12/12/12/12/12/R1O3K2G1R w Lal - 0 1",
]


@pytest.mark.parametrize("fen", ROUND_TRIP)
def test_vfen_round_trip(fen):
    assert rules.from_fen(GAME, fen).fen() == fen


@pytest.mark.parametrize("fen,why", [
    ("6k5/12/12/12/12/4W(E)7/12/12/12/12/12/6K5 w - - 0 1", "other half"),
    ("6k5/12/12/12/12/4W(E)w(W)6/12/12/12/12/12/6K5 w - - 0 1", "other half"),
    ("6k5/12/12/12/12/4W(E)W(E)6/12/12/12/12/12/6K5 w - - 0 1", "other half"),
    ("6k5/12/12/12/12/11W(E)/12/12/12/12/12/6K5 w - - 0 1", "off the board"),
    ("6k5/12/12/12/12/W(W)W(E)10/12/12/12/12/12/6K5 w - - 0 1", "off the board"),
    ("6k5/12/12/12/12/4WW6/12/12/12/12/12/6K5 w - - 0 1", "needs its state"),
    ("6k5/12/12/12/12/4S6/12/12/12/12/12/6K5 w - - 0 1", "needs its state"),
    ("6k5/12/12/12/12/4S(X)7/12/12/12/12/12/6K5 w - - 0 1", "unknown state"),
    ("6k5/12/12/12/12/4+S(V)7/12/12/12/12/12/6K5 w - - 0 1", "no state"),
    ("6k5/12/12/12/12/4W(E)W(W)6/12/12/12/12/12/6K5 w - e3 0 1", "en passant"),
])
def test_vfen_rejects(fen, why):
    with pytest.raises(FenError) as err:
        rules.from_fen(GAME, fen)
    assert why in str(err.value)


@pytest.mark.parametrize("seed", range(3))
def test_round_trip_along_random_games(seed):
    for pos, _mv in random_game(GAME, seed, 80):
        text = pos.fen()
        again = rules.from_fen(GAME, text)
        assert again.fen() == text


def test_wall_move_rights_and_clocks():
    # Black's vertical Wall on l3-l4 slides south to l1-l2 and takes the Rook: White loses L
    pos = pos_of({"a1": "R", "g1": "K", "l1": "R", "g12": "k", **wall("l3", "l4", white=False)},
                 side="b", rights="AL", half=7)
    after = pos.play("l3l4-l1l2")
    assert after.fen().split()[2] == "A"
    assert after.halfmove == 0
    assert pos.play("l3l4-l5l6").halfmove == 8


def test_board_helper_matches_engine():
    fen = board({"a1": "K", "l12": "k", **wall("e5", "f5"), "c3": "s(R)"})
    assert rules.from_fen(GAME, fen).fen() == fen
