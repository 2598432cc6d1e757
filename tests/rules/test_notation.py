"""Move input and output: LAN, SAN, lenient forms, and the reason for every refusal."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from rules.errors import (
    AmbiguousMoveError,
    InvalidMoveError,
    LeavesRoyalInCheckError,
    NoPieceError,
    NoSuchMoveError,
    NotYourPieceError,
    RulesError,
)

START = rules.start("chess")


@pytest.mark.parametrize("text", [
    "e4", "e2e4", "e2-e4", "E2E4", "e2E4", "e4!", "e4?!", "e4+", "e4#", "e4ch", " e4 ",
])
def test_pawn_forms(text):
    assert START.parse(text).lan == "e2e4"


@pytest.mark.parametrize("text", [
    "Nf3", "Ngf3", "Ng1f3", "Ng1-f3", "Ng1xf3", "g1f3", "G1F3", "Nf3!!", "Nf3+", "nf3", "N-f3",
])
def test_piece_forms(text):
    assert START.parse(text).lan == "g1f3"


@pytest.mark.parametrize("text,lan", [
    ("O-O", "e1g1"), ("0-0", "e1g1"), ("o-o", "e1g1"), ("e1g1", "e1g1"), ("Ke1g1", "e1g1"),
    ("O-O-O", "e1c1"), ("0-0-0", "e1c1"), ("e1c1", "e1c1"), ("O-O-O+", "e1c1"),
])
def test_castling_forms(text, lan):
    pos = rules.from_fen("chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert pos.parse(text).lan == lan


def test_san_of_castling_and_checks():
    pos = rules.from_fen("chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert pos.san(pos.parse("e1g1")) == "O-O"
    assert pos.san(pos.parse("e1c1")) == "O-O-O"
    assert pos.san(pos.parse("a1a8")) == "Rxa8+"


def test_promotion_forms():
    pos = rules.from_fen("chess", "k7/4P3/8/8/8/8/8/4K3 w - - 0 1")
    for text in ("e8=Q", "e8Q", "e7e8=Q", "e7e8q", "e7-e8=Q", "e8=Q+"):
        assert pos.parse(text).lan == "e7e8=Q"
    assert pos.parse("e8=N").lan == "e7e8=N"
    assert pos.san(pos.parse("e7e8=Q")) == "e8=Q+"
    with pytest.raises(AmbiguousMoveError) as err:
        pos.parse("e8")
    assert set(err.value.candidates) == {"e8=Q+", "e8=R+", "e8=B", "e8=N"}


def test_disambiguation_file_rank_both():
    pos = rules.from_fen("chess", "k7/8/8/8/8/8/8/KN3N2 w - - 0 1")
    assert pos.san(pos.parse("b1d2")) == "Nbd2"
    with pytest.raises(AmbiguousMoveError) as err:
        pos.parse("Nd2")
    assert "Nbd2" in str(err.value) and "Nfd2" in str(err.value)
    pos = rules.from_fen("chess", "7k/8/8/R7/8/8/8/R3K3 w - - 0 1")
    assert pos.san(pos.parse("a1a3")) == "R1a3"
    assert pos.parse("R5a3").lan == "a5a3"
    pos = rules.from_fen("chess", "8/7k/8/8/8/Q1Q5/8/Q3K3 w - - 0 1")
    assert pos.san(pos.parse("a3b2")) == "Qa3b2"


def test_en_passant_san_and_capture():
    pos = rules.from_fen("chess", "k7/8/8/3pP3/8/8/8/K7 w - d6 0 2")
    mv = pos.parse("exd6")
    assert mv.lan == "e5d6" and pos.san(mv) == "exd6"
    after = pos.play(mv)
    assert after.piece_at("d5") is None and after.piece_at("d6").symbol == "P"


@pytest.mark.parametrize("text,error,words", [
    ("Nf5", NoSuchMoveError, "f5"),
    ("exf5", NoSuchMoveError, "no Pawn of yours can move to f5"),
    ("Ncd2", NoPieceError, "no Knight on the c file"),
    ("e3e4", NoPieceError, "no piece on e3"),
    ("e7e5", NotYourPieceError, "Black"),
    ("Ke2", NoSuchMoveError, "King"),
    ("xyz", InvalidMoveError, "not a move"),
    ("e9", InvalidMoveError, "ranks 1 to 8"),
    ("j4", InvalidMoveError, "no file 'j'"),
    ("", InvalidMoveError, "empty"),
    ("Zf3", InvalidMoveError, "no piece with the letter Z"),
    ("P@e4", NoSuchMoveError, "no drops"),
    ("O-O", NoSuchMoveError, "castling"),
    ("e2e4" * 20, InvalidMoveError, "too long"),
])
def test_refusals_say_why(text, error, words):
    with pytest.raises(error) as err:
        START.parse(text)
    assert words in str(err.value)


def test_illegal_because_king_in_check():
    pinned = rules.from_fen("chess", "4r2k/8/8/8/8/8/4B3/4K3 w - - 0 1")
    with pytest.raises(LeavesRoyalInCheckError, match="King in check"):
        pinned.parse("Bd3")
    checked = rules.from_fen("chess", "4r2k/8/8/8/8/8/8/R3K3 w - - 0 1")
    with pytest.raises(LeavesRoyalInCheckError, match="is in check"):
        checked.parse("Ra2")


def test_every_legal_move_reads_back_from_lan_and_san():
    pos = rules.from_fen("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    for mv in pos.legal_moves():
        assert pos.parse(mv.lan) == mv
        assert pos.parse(pos.san(mv)) == mv


# --- property-based: nothing but the package's own errors ---------------------

POSITIONS = [
    rules.start("chess"),
    rules.from_fen("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    rules.from_fen("chess", "8/4P3/8/8/8/8/k7/4K3 w - - 0 1"),
    rules.start("grandducal"),
]


def _real_moves():
    out = []
    for p in POSITIONS:
        for m in p.legal_moves():
            out += [m.lan, p.san(m)]
    return out


REAL = _real_moves()


def near_misses():
    """Real move texts with one character changed, dropped, doubled or swapped."""
    alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-=x#!?@^()/\\| "

    @st.composite
    def mutate(draw):
        text = draw(st.sampled_from(REAL))
        i = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["replace", "insert", "delete", "swap", "case"]))
        ch = draw(st.sampled_from(alphabet))
        if op == "replace" and i < len(text):
            return text[:i] + ch + text[i + 1:]
        if op == "insert":
            return text[:i] + ch + text[i:]
        if op == "delete" and i < len(text):
            return text[:i] + text[i + 1:]
        if op == "swap" and i + 1 < len(text):
            return text[:i] + text[i + 1] + text[i] + text[i + 2:]
        return text.swapcase()
    return mutate()


def _check_parse(pos, text):
    before = pos.fen()
    try:
        mv = pos.parse(text)
    except RulesError as e:
        assert str(e), "every error has a message"
    else:
        assert mv in pos.legal_moves()
    assert pos.fen() == before


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(range(len(POSITIONS))), st.text(max_size=30))
def test_arbitrary_text_only_raises_rules_errors(i, text):
    _check_parse(POSITIONS[i], text)


@settings(max_examples=600, deadline=None)
@given(st.sampled_from(range(len(POSITIONS))), near_misses())
def test_near_misses_only_raise_rules_errors(i, text):
    _check_parse(POSITIONS[i], text)


def test_non_text_input():
    with pytest.raises(InvalidMoveError):
        START.parse(None)
    with pytest.raises(InvalidMoveError):
        START.play(42)
