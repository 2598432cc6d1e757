"""A refusal names the piece the player wrote, and why (issue #41 item 1).

The issue's cases (Ganymede's texts once refused with the Wall's rules, ``bxa8=K``, King
and Queen's Amazon dropped as ``A@d2``, the set-up phase of Super Chess), each reason
(blocked, pinned, not its way, your own piece there, only to take, its castle), and a
property over random positions of all six games, the set-up phase and drops included:
for each letter of the mover's pieces, a square none of those pieces can reach gets a
refusal whose first piece named is that piece and that says why. Beside it
(tests/rules/test_move_reader.py) the property that no text is played as another move.

Default: a few positions per game; ``FAIRYPOST_LONG=1``: many more, every square.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from rules.errors import AmbiguousMoveError, InvalidMoveError, LeavesRoyalInCheckError, NoSuchMoveError, RulesError
from rules.move import MoveKind
from tests.robustness.common import memo_move_index
from tests.rules.randgames import random_game

LONG = os.environ.get("FAIRYPOST_LONG", "").strip().lower() not in ("", "0", "false", "no")
EXAMPLES = 40 if LONG else 3
TEXTS = None if LONG else 24  # texts tried per position; None: every letter on every square
GAMES = sorted(rules.variants())

# the words a refusal gives its reason in (rules/reasons.py, the drops, the set-up)
WHY = ("blocked", "pinned", "does not move that way", "do not move that way", "moves that way",
       "stands on", "stands there", "only to take", "only when it is empty", "does not take",
       "in check", "never leaves", "jumps over", "cannot reach", "first squares",
       "cannot move yet", "cannot jump", "not possible", "dropped last turn", "castle",
       "facing")


def _refusal(pos, text):
    with pytest.raises(RulesError) as err:
        pos.parse(text)
    return str(err.value)


# --- the cases -------------------------------------------------------------

GANYMEDE = rules.start("ganymede")


@pytest.mark.parametrize("text, name, why", [
    ("Qa5", "Queen", "The Queen on f1 does not move that way"),
    ("Ng8", "Knight", "The Knights on e2 and h2 do not move that way"),
    ("h7", "Pawn", "None of your Pawns moves that way"),
    ("Sf5", "Spearman", "The Spearman on f3 is blocked by your Pawn on f4"),
    ("Sg8(V)", "Spearman", "The Spearman on g3 is blocked by your Pawn on g4"),
    ("Nf3", "Knight", "Your own Spearman stands on f3"),
])
def test_ganymede_refuses_with_the_piece_written_not_the_wall(text, name, why):
    said = _refusal(GANYMEDE, text)
    assert said.startswith(f"no {name} of yours can move to"), said
    assert why in said and "Wall" not in said, said


def test_ganymede_a_letter_no_piece_has_is_said_so():
    said = _refusal(GANYMEDE, "Zf3")
    assert "this game has no piece with the letter Z" in said and "Wall" not in said


def test_ganymede_a_wall_written_with_its_letter_still_gets_the_walls_words():
    pos = rules.from_fen("ganymede", "6k5/12/12/12/12/12/12/12/12/pn10/W(E)W(W)10/6K5 w - - 0 1")
    assert "a Wall stands on two squares" in _refusal(pos, "Wa3")
    assert "no Wall of yours can move onto c5" in _refusal(GANYMEDE, "Wc5")


def test_terminal_rules_play_says_the_knight():
    done = subprocess.run([sys.executable, "-m", "rules", "play", "ganymede", "Nf3"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert "no Knight of yours can move to f3" in done.stderr and "Wall" not in done.stderr, done.stderr


def test_a_promotion_written_wrong_lists_the_promotions_and_no_bishop():
    pos = rules.from_fen("chess", "n7/1P6/8/8/8/8/8/k1KB4 w - - 0 1")
    said = _refusal(pos, "bxa8=K")
    assert "bxa8=Q# or bxa8=R# or bxa8=B or bxa8=N" in said and "Bishop" not in said, said


def test_a_pawn_shaped_text_with_no_such_piece_is_only_the_pawns():
    pos = rules.from_fen("chess", "n7/1P6/8/8/8/8/8/k1K5 w - - 0 1")  # no Bishop at all
    said = _refusal(pos, "bxc8")
    assert "Bishop" not in said and "The Pawn on b7 goes to c8 only to take, and c8 is empty" in said


def test_both_readings_are_said_when_the_player_has_that_piece():
    pos = rules.from_fen("chess", "n7/1P6/8/8/8/8/8/k1KB4 w - - 0 1")
    said = _refusal(pos, "bxc8")
    assert "b-pawn's file" in said and "A capital B is the Bishop" in said


def test_king_and_queen_the_amazon_is_written_p():
    pos = rules.from_fen("kingqueen", "***1k1***/***3***/9/9/9/***3***/***K2*** w - - 0 1 hand=P;dropped=-")
    said = _refusal(pos, "A@d2")
    assert "no piece with the letter A; your Amazon is written P (P@d2)" in said, said
    assert "castle" not in said
    assert pos.parse("P@d2").lan == "P@d2"
    assert "your Amazon is written P (Pa4)" in _refusal(rules.start("kingqueen"), "Aa4")


@pytest.mark.parametrize("text, why", [
    ("P@a4", "your Amazon (P) cannot be dropped on a4: drop only onto an empty square of your own castle"),
    ("P@d1", "your Amazon (P) cannot be dropped on d1: your Queen on d1 stands there"),
])
def test_king_and_queen_a_drop_refused_names_the_piece_held(text, why):
    pos = rules.from_fen("kingqueen", "***1k1***/***3***/9/9/9/***3***/***K2*** w - - 0 1 hand=P;dropped=-")
    assert why in _refusal(pos, text)


def test_a_drop_the_turn_after_a_drop_says_so():
    pos = rules.from_fen("kingqueen", "***1k1***/***3***/9/9/9/***3***/***K2*** w - - 0 1 hand=P;dropped=w")
    assert "your Amazon (P) cannot be dropped on d2: you dropped last turn" in _refusal(pos, "P@d2")


def test_super_chess_set_up_a_piece_move_names_the_piece_and_what_is_due():
    game = rules.game("superchess")
    pos = rules.from_fen("superchess", game.setup_start_fen)
    said = _refusal(pos, "Nf3")
    assert said.startswith("'Nf3': your Knight cannot move yet, the set-up comes first: White chooses "
                           "the files of its two Super Pawns"), said
    assert pos.parse("e2 f2").lan == "S@e2,S@f2"  # the set-up's own texts are read as before


# --- each reason -------------------------------------------------------------------

CHESS = rules.start("chess")


@pytest.mark.parametrize("fen, text, said", [
    (None, "Bb5", "The Bishop on f1 is blocked by your Pawn on e2; the Bishop on c1 does not move that way"),
    (None, "Nd2", "Your own Pawn stands on d2"),
    (None, "Ng1g3", "the Knight on g1 cannot move to g3. It does not move that way"),
    (None, "exd3", "The Pawn on e2 goes to d3 only to take, and d3 is empty"),
    ("4k3/8/8/8/4p3/4P3/8/4K3 w - - 0 1", "exe4", "The Pawn on e3 goes to e4 only when it is empty"),
    ("4k3/8/8/8/8/4P3/8/4K3 w - - 0 1", "e5", "The Pawn on e3 is no longer on its first squares"),
    ("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1", "Nc3",
     "'Nc3' is illegal: the Knight on e2 is pinned: moving it would leave your King in check"),
    ("4k3/8/8/8/8/4r3/3N4/4K3 w - - 0 1", "Nb3",
     "the Knight on d2 going to b3 does not help: your King is in check and stays so"),
    ("4k3/8/8/8/8/3r4/8/4K3 w - - 0 1", "Kd2", "it would leave your King in check on d2"),
])
def test_each_reason_is_said_with_the_piece(fen, text, said):
    pos = CHESS if fen is None else rules.from_fen("chess", fen)
    assert said in _refusal(pos, text)


def test_a_confined_royal_never_leaves_its_castle():
    pos = rules.from_fen("kingqueen", "***1k1***/***3***/9/9/9/***3***/***K2*** w - - 0 1 hand=-;dropped=-")
    said = _refusal(pos, "Qd3")
    assert "never leaves its castle" in said and "Queen" in said, said


def test_a_cannon_needs_one_piece_to_jump_over():
    pos = rules.from_fen("kingqueen", "***1k1***/***3***/9/9/9/***3***/***KC1*** w - - 0 1 hand=-;dropped=-")
    said = _refusal(pos, "Cxe7")  # e1-e7 with nothing between: the Cannon takes only over one piece
    assert "jumps over exactly one piece" in said, said


# --- the property ----------------------------------------------------------------------

def _names(game) -> list[str]:
    out = set()
    for t in game.types.values():
        out.add(t.name)
        out.update(t.side_names or ())
    return sorted(out, key=len, reverse=True)


def _first_name(text: str, names: list[str]) -> str | None:
    """The piece name said first (the longest at that place: Super Pawn before Pawn)."""
    best = None
    for name in names:
        m = re.search(rf"\b{re.escape(name)}\b", text)
        if m and (best is None or m.start() < best[0]):
            best = (m.start(), name)
    return best[1] if best else None


def _texts(pos):
    """(text, the name it must be refused with) for each letter the mover has, on each
    square none of those pieces can reach; drops for the pieces in hand."""
    game = pos.game
    geo = game.geometry
    legal = pos.legal_moves()
    out = []
    mine: dict[str, list[int]] = {}
    for sq in pos.occ[pos.side]:
        mine.setdefault(pos.board[sq].key, []).append(sq)
    for key, squares in mine.items():
        reach = {s for m in legal if m.frm in squares and m.kind != MoveKind.DROP
                 for s in (m.to, *(q for q, _k in m.put))}
        name = pos.board[squares[0]].name
        letters = [key]
        if game.id == "kingqueen" and key.lstrip("+") == "K" and pos.side == 0:
            letters.append(key.replace("K", "Q"))  # Blue's royal, the Queen
        for sq in geo.squares:
            if sq not in reach:
                out += [(letter + geo.names[sq], name) for letter in letters]
    if pos.setup is None and game.drop_zone is not None:
        dropped = {m.to for m in legal if m.kind == MoveKind.DROP}
        for key, _n in pos.hands[pos.side]:
            name = game.kind(key, pos.side).name
            out += [(f"{key}@{geo.names[sq]}", name) for sq in geo.squares
                    if sq not in dropped or pos.dropped[pos.side]]
    return out


def _position(game_id, seed, plies):
    start = None
    if game_id == "superchess" and seed % 3 == 0:  # the set-up phase too
        start = rules.from_fen("superchess", rules.game("superchess").setup_start_fen)
        plies = seed % 5
    *_, (final, _none) = random_game(game_id, seed, plies, start=start)
    return final


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=EXAMPLES, deadline=None, derandomize=not LONG,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.differing_executors])
@given(seed=st.integers(0, 2 ** 20), plies=st.integers(0, 120), pick=st.randoms(use_true_random=False))
def test_a_refusal_names_the_piece_written_and_why(game_id, seed, plies, pick):
    pos = _position(game_id, seed, plies)
    if pos.outcome() is not None:
        return
    names = _names(pos.game)
    texts = _texts(pos)
    if TEXTS is not None:
        texts = pick.sample(texts, min(len(texts), TEXTS))
    with memo_move_index():
        for text, name in texts:
            try:
                move = pos.parse(text)
            except AmbiguousMoveError:
                continue  # kindred pieces' moves named (+Phh5 or +Pih5): said so, not guessed
            except (NoSuchMoveError, InvalidMoveError, LeavesRoyalInCheckError) as err:
                said = str(err)
            else:  # a kindred piece's move (test_move_reader's property keeps its letter)
                assert move.kind != MoveKind.DROP, f"{pos.fen()}: {text!r} dropped {move.lan}"
                continue
            told = said.replace(repr(text), "")
            assert _first_name(told, names) == name, f"{game_id} {pos.fen()}: {text!r}: {said}"
            assert any(w in said for w in WHY), f"{game_id} {pos.fen()}: {text!r} says no why: {said}"
