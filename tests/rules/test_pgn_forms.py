"""A PGN record's move forms (rules.pgn_forms, issue 41 item 4): every move of every game,
in set-up phases too, is written without brackets as one PGN symbol token, and the reader
reads that form back to the same move; texts that are not a record's form keep their
meaning (``e10=N`` is still a promotion to a Knight)."""
import re

import pytest

import rules
from rules.pgn_forms import bracketed, pgn_form

from .randgames import random_game

# PGN standard, 7 (Tokens): a symbol starts with a letter or digit, then letters, digits and
# _ + # = : -. The variants' own marks beside it, as variant readers write them: a leading +
# for a promoted piece (+Dd10), @ for a drop (B@f2), ^ for an Archer's shot (Ak2^k6), and the
# comma of Super Chess's two-square set-up action (S@a2,S@b2, written in a comment).
SYMBOL = re.compile(r"[A-Za-z0-9][A-Za-z0-9_+#=:-]*")
VARIANT_MARKS = re.compile(r"^\+|[@^,]")


def is_record_token(text: str) -> bool:
    return SYMBOL.fullmatch(VARIANT_MARKS.sub("", text).replace("^", "")) is not None


def _starts(game_id):
    g = rules.game(game_id)
    yield rules.start(game_id)
    if g.setup_start_fen:
        yield rules.from_fen(game_id, g.setup_start_fen)


@pytest.mark.parametrize("game_id", rules.variants())
def test_every_move_is_one_symbol_token_read_back_to_itself(game_id):
    seen = set()
    for n, start in enumerate(_starts(game_id)):
        for ply, (pos, move) in enumerate(random_game(game_id, seed=41 + n, max_plies=45, start=start)):
            if move is None:
                break
            if ply % 3 and not pos.in_setup:   # every move of every third position
                continue
            for m in pos.legal_moves():
                san = pos.san(m)
                written = pgn_form(san)
                assert is_record_token(written) and not set(written) & set("(){}[];"), (san, written)
                assert pos.parse(written) == m, (san, written)
                seen.add(re.sub(r"[a-z]\d+", "s", written))
    if game_id == "superchess":   # the shapes that had brackets: facing, turn, set-up facing
        assert {"Cs=NE", "Cs=E", "s=NE"} <= seen, sorted(seen)
    if game_id == "ganymede":     # the Spearman's setting with a move and in place; the Wall
        assert {"Ss=L", "Wss-ss"} <= seen, sorted(seen)


def test_the_engine_forms_and_the_record_forms():
    assert pgn_form("Cd1d3(NE)") == "Cd1d3=NE"
    assert pgn_form("Cxd10(E)#") == "Cxd10=E#"
    assert pgn_form("e10=C(N)+") == "e10=C=N+"
    assert pgn_form("W(a11b11)xd11e11") == "Wa11b11xd11e11"
    assert pgn_form("d10(SW)") == "d10=SW"
    assert pgn_form("Sdd9(L)") == "Sdd9=L"
    assert pgn_form("bxa8=Q+") == "bxa8=Q+" and pgn_form("O-O-O") == "O-O-O"


def test_a_promotion_to_a_cyclops_and_its_facing():
    pos = rules.from_fen("superchess", "k9/4P5/10/10/10/10/10/10/10/4K5 w - - 0 1")
    assert pgn_form(pos.san(pos.parse("e10=C(NE)"))) == "e10=C=NE"
    assert pos.parse("e10=C=NE").lan == "e9e10=C(NE)"
    assert pos.parse("e9e10=C=nw").lan == "e9e10=C(NW)"
    assert pos.parse("e10=N").lan == "e9e10=N"          # a Knight, not a facing N
    assert pos.parse("e10=Q").lan == "e9e10=Q"


def test_texts_not_in_a_record_form_keep_their_meaning():
    pos = rules.start("superchess")
    assert bracketed(pos, "e10=N") == "e10=N"            # no piece that chooses a state
    assert bracketed(pos, "Nf3=NE") == "Nf3=NE"          # a Knight chooses none
    assert bracketed(pos, "Cd3=Q") == "Cd3=Q"            # Q is no facing
    assert bracketed(pos, "d1=E") == "d1=E"              # a bare square outside a set-up phase
    assert bracketed(pos, "Cd3=ne+") == "Cd3(NE)+"
    with pytest.raises(rules.MoveError):
        pos.parse("Cd3=Q")
    with pytest.raises(rules.MoveError):
        pos.parse("d1=E")                                 # no set-up phase now: refused, not a turn
    g = rules.game("superchess")
    setup = rules.from_fen("superchess", g.setup_start_fen)
    assert pos.parse("Cd1=E").lan == "d1(E)"
    with pytest.raises(rules.MoveError):
        setup.parse("d1=E")                               # the Super Pawns come first
