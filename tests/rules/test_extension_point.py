"""The one extension point: every hook derives from a documented base with no-op
defaults (so nobody probes with hasattr), move kinds are an enum, and the royal's
one-time jump lives in rules/kingjump.py."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import rules
from rules import MoveKind, hooks
from rules.errors import NoSuchMoveError
from rules.kingjump import KingJump
from rules.notation import why_illegal

ROOT = Path(__file__).resolve().parents[2]


def test_every_hook_derives_from_its_base():
    for g in rules.variants():
        rules.game(g)  # loads the hook modules
    assert hooks.MOVERS and hooks.EXTENSIONS
    assert all(issubclass(cls, hooks.SpecialMover) for cls in hooks.MOVERS.values())
    assert all(issubclass(cls, hooks.GameExtension) for cls in hooks.EXTENSIONS.values())


def test_a_game_without_an_extension_gets_the_no_op_defaults():
    game = rules.game("chess")
    ext = game.extension
    assert type(ext) is hooks.GameExtension
    pos = rules.start("chess")
    assert ext.setup_phases == () and list(ext.setup_moves(pos)) == []
    assert ext.setup_hint(pos) is None and ext.setup_choice() is None and ext.setup_default() is None
    assert list(ext.rewrite(pos, "Nf3")) == [] and ext.explain(pos, "Nf3") is None
    assert ext.ambiguity_hint(pos, []) is None and ext.validate(pos) is None
    with pytest.raises(rules.FenError, match="no set-up phase"):
        rules.from_fen("chess", pos.fen() + " setup=sp-w")


def test_a_set_up_game_says_its_choice_in_its_own_words():
    game = rules.game("superchess")
    ext = game.extension
    assert len(ext.setup_phases) == 4
    assert ext.setup_choice() and ext.setup_default()
    pos = rules.from_fen("superchess", game.setup_start_fen)
    assert pos.in_setup and ext.setup_hint(pos)
    while pos.in_setup:
        pos = pos.play(pos.legal_moves()[0])
    assert not pos.in_setup and ext.setup_hint(pos) is None


def test_special_mover_defaults_and_the_two_square_piece():
    plain = hooks.SpecialMover(rules.game("chess"), rules.game("chess").types["N"])
    assert plain.span == 1 and plain.linked(None, 0, None) == () and plain.partner_steps("E") == ()
    assert plain.state_words("V") == "set to V"
    wall = rules.game("ganymede").movers["W"]
    assert wall.span == 2
    assert {s: wall.partner_steps(s) for s in "EWNS"} == {
        "E": ((1, 0),), "W": ((-1, 0),), "N": ((0, 1),), "S": ((0, -1),)}
    eye = rules.game("superchess").movers["C"]
    assert eye.span == 1 and eye.state_words("NE") == "facing NE"


def test_move_kinds_are_an_enum_with_the_old_letters():
    assert [k.value for k in MoveKind] == ["n", "c", "d", "t", "s", "w", "u"]
    assert MoveKind.SPAN == "w" and str(MoveKind.DROP) == "d" and hash(MoveKind.NORMAL) == hash("n")
    held = rules.start("kingqueen").fen().replace("hand=-", "hand=Pp")
    for pos in (rules.start("ganymede"), rules.from_fen("kingqueen", held)):
        kinds = {m.kind for m in pos.legal_moves()}
        assert all(isinstance(k, MoveKind) for k in kinds), kinds
    assert MoveKind.DROP in {m.kind for m in rules.from_fen("kingqueen", held).legal_moves()}
    assert MoveKind.SPAN in {m.kind for m in rules.start("ganymede").legal_moves()}


def test_the_kings_jump_is_one_object_of_the_game():
    game = rules.game("gigachess2")
    assert isinstance(game.jump, KingJump) and rules.game("chess").jump is None
    white, black = game.jump.square(0), game.jump.square(1)
    assert game.geometry.names[white] == "h2" and game.geometry.names[black] == "h13"
    assert game.king_jump_square(0) == white
    pos = rules.start("gigachess2")
    assert pos.fen().split(" ")[2] == "Hh"      # the VFEN right, read and written back
    jumps = [m for m in pos.legal_moves() if m.frm == white and max(
        abs(game.geometry.file_of(m.to) - game.geometry.file_of(white)),
        abs(game.geometry.rank_of(m.to) - game.geometry.rank_of(white))) == 2]
    assert sorted(game.geometry.names[m.to] for m in jumps) == sorted(
        game.geometry.names[m.to] for m in game.jump.moves(pos))
    err = game.jump.refusal(pos, white, game.geometry.parse_square("h4"))  # a Pawn stands there
    assert isinstance(err, NoSuchMoveError) and "needs an empty square" in str(err)
    assert game.jump.refusal(pos, white, game.geometry.parse_square("h3")) is None  # no jump
    rows = ["k13"] + ["14"] * 11 + ["7K6", "14"]
    for rights, refused in (("H", None), ("-", "the jump is made only once")):
        bare = rules.from_fen("gigachess2", "/".join(rows) + f" w {rights} - 0 1")
        if refused is None:
            assert bare.parse("Kh2h4").to == game.geometry.parse_square("h4")
        else:
            with pytest.raises(NoSuchMoveError, match=refused):
                bare.parse("Kh2h4")


def test_why_illegal_is_public_and_names_the_royal():
    pos = rules.from_fen("chess", "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1")
    assert why_illegal(pos) == "your King is in check and this does not get it out"


def test_no_caller_probes_hooks_with_hasattr():
    probe = re.compile(r"hasattr\([^)]*(hook|ext|extension)")
    hits = [f"{p.relative_to(ROOT)}:{n}" for d in ("rules", "render", "bot", "ai")
            for p in sorted((ROOT / d).rglob("*.py"))
            for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
            if probe.search(line)]
    assert hits == []
