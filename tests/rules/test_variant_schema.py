"""Variant files checked like a schema (rules/schema.py), ``extends``, and a folder of own
variants (``rules.add_variants_dir``).

The built-in games are compared with copies of their files as they were before ``extends``
(tests/rules/variants_before/), read by the same Game class: every piece, rule, castling and
start must be the same.
"""
from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import rules
from rules.errors import VariantError
from rules.game import Game

BEFORE = Path(__file__).parent / "variants_before"
ROOT = Path(__file__).resolve().parents[2]

# Los Alamos chess on top of chess: no Bishops, 6 x 6, no castling, no double step.
LOS_ALAMOS = """
extends = "chess"
name = "Los Alamos"
files = "abcdef"
ranks = 6
start = "rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1"
castling = []
special_rules = []
[rules]
stalemate = "draw"
[pieces.B]
remove = true
[pieces.P]
name = "Pawn"
betza = "fmWfcF"
pawn = true
promotion = { ranks = [6], to = ["Q", "R", "N"] }
"""
# Fairy-Stockfish 0.0.90 (pyffish), its built-in "losalamos", from the start position
LOS_ALAMOS_PERFT = {1: 10, 2: 100, 3: 1212, 4: 14332}


@pytest.fixture
def folder(tmp_path):
    """A variants folder, forgotten again after the test."""
    d = tmp_path / "variants"
    d.mkdir()
    yield d
    rules.remove_variants_dir(d)


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return path


# --- the built-in games are what they were -------------------------------------------

SAME = ("name", "summary", "special_rules", "game_end", "side_names", "stalemate",
        "facing_royals", "king_jump", "_king_jump_from", "drop_zone", "drop_order",
        "extension_name", "castling_letters", "castling_rook", "start_fen", "default_start_fen",
        "setup_start_fen", "aliases", "_zones", "types", "castlings", "rights_lost_from")


@pytest.mark.parametrize("game_id", sorted(p.stem for p in BEFORE.glob("*.toml")))
def test_every_builtin_game_loads_as_before(game_id):
    old = Game(tomllib.loads((BEFORE / f"{game_id}.toml").read_text(encoding="utf-8")), "old")
    new = rules.game(game_id)
    for attr in SAME:
        if attr == "types":  # the snapshots predate the figures' names (glyph), added later
            assert ({k: dataclasses.replace(v, glyph=None) for k, v in new.types.items()}
                    == old.types), attr
            assert all(t.glyph for t in new.types.values())  # every built-in piece names one
            continue
        assert getattr(new, attr) == getattr(old, attr), attr
    assert (new.geometry.files, new.geometry.height, new.geometry.holes) == \
        (old.geometry.files, old.geometry.height, old.geometry.holes)
    assert set(new.types) == set(old.types)


@pytest.mark.parametrize("game_id", ["grandducal", "superchess"])
def test_games_that_extend_chess_say_so_and_count_the_same(game_id):
    text = (ROOT / "data" / "variants" / f"{game_id}.toml").read_text(encoding="utf-8")
    assert 'extends = "chess"' in text and "[pieces.Q]" not in text
    old = Game(tomllib.loads((BEFORE / f"{game_id}.toml").read_text(encoding="utf-8")), "old")
    from rules.vfen import read_fen
    assert rules.start(game_id).perft(2) == read_fen(old, old.default_start_fen).perft(2)


# --- every kind of bad key or value: one error naming file, table and key --------------

GOOD = """
name = "Tiny"
files = "abcd"
ranks = 4
start = "k3/p3/3P/3K w - - 0 1"
[pieces.K]
name = "King"
betza = "K"
royal = true
[pieces.P]
name = "Pawn"
betza = "fmWfcF"
pawn = true
promotion = { ranks = [4], to = ["K"] }
"""

BAD = [
    ("royal = true", "royl = true",
     r"\[pieces\.K\] unknown key 'royl' \(did you mean 'royal'\?\)"),
    ('[pieces.K]', '[rules]\nstalemate = "drew"\n[pieces.K]',
     r"\[rules\] stalemate must be one of 'draw', 'loss', not 'drew'"),
    ('[pieces.K]', '[rules]\nstalmate = "draw"\n[pieces.K]',
     r"\[rules\] unknown key 'stalmate' \(did you mean 'stalemate'\?\)"),
    ("ranks = 4", 'ranks = "4"', r": ranks must be a whole number, not '4'"),
    ("ranks = 4", "ranks = 0", r": ranks must be from 1 to 99, not 0"),
    ('files = "abcd"', 'files = "abca"', r": files must be distinct lower-case letters"),
    ('name = "Tiny"', 'name = "Tiny"\nnmae = "x"', r": unknown key 'nmae' \(did you mean 'name'\?\)"),
    ('name = "Tiny"\n', '', r": missing key 'name'"),
    ("royal = true", "royal = 1", r"\[pieces\.K\] royal must be true or false, not 1"),
    ('betza = "K"', 'betza = "Kq"', r"\[pieces\.K\] betza is not Betza the engine reads"),
    ('to = ["K"]', 'to = ["Q"]', r"\[pieces\.P\.promotion\] to names 'Q', which is not a piece"),
    ("ranks = [4], ", "rank = [4], ",
     r"\[pieces\.P\.promotion\] unknown key 'rank' \(did you mean 'ranks'\?\)"),
    ("[pieces.P]", "[pieces.p]", r'\[pieces\."?p"?\] a piece key is one capital letter'),
    ('[pieces.K]',
     '[rules]\ncastling_rook = "P"\n[[castling]]\nking = "d1"\nking_to = "z9"\nrook = "a1"\nrook_to = "c1"\n[pieces.K]',
     r"\[castling\] king_to: .*z9"),
    ("ranks = 4", 'ranks = 4\nholes = ["e1"]', r": holes: 'e1': this board has no file 'e'"),
    ("pawn = true", 'pawn = true\ninitial = ["a5"]', r"\[pieces\.P\] initial: 'a5': this board has ranks 1 to 4"),
    ("royal = true", 'royal = true\nconfined = "castle"', r"\[pieces\.K\] confined names no zone 'castle'"),
    ("royal = true", 'royal = true\nhook = "nosuch"', r"\[pieces\.K\] hook: no special mover 'nosuch'"),
    ('start = "k3/p3/3P/3K w - - 0 1"', 'start = "k3/p3/3P/3X w - - 0 1"', r"start: "),
    ('name = "Tiny"', 'name = "Tiny"\nid = "other"', r"id 'other' must be the file's name, 'tiny'"),
    ("royal = true", "royal = true\nremove = true", r"\[pieces\.K\] remove = true \(and nothing else\)"),
    ('name = "Tiny"', 'name = "Tiny"\nextends = "chesss"',
     r"extends 'chesss', which is no game \(did you mean 'chess'\?\)"),
    ("ranks = 4", "ranks = 4\nranks = 5", r"tiny\.toml: "),   # TOML itself: a repeated key
]


def test_the_good_file_loads(folder):
    write(folder, "tiny", GOOD)
    assert rules.add_variants_dir(folder) == ["tiny"]
    assert "tiny" in rules.variants() and rules.start("tiny").perft(1) == 3   # Kc1, Kc2, d3


@pytest.mark.parametrize("old,new,message", BAD, ids=[b[2][:40] for b in BAD])
def test_a_bad_file_names_file_table_and_key_and_loads_nothing(folder, old, new, message):
    assert old in GOOD
    path = write(folder, "tiny", GOOD.replace(old, new, 1))
    before = rules.variants()
    with pytest.raises(VariantError) as e:
        rules.add_variants_dir(folder)
    assert str(e.value).startswith(str(path.resolve())), str(e.value)
    assert re.search(message, str(e.value)), str(e.value)
    assert rules.variants() == before
    with pytest.raises(rules.UnknownGameError):
        rules.game("tiny")


def test_an_id_of_a_builtin_game_is_refused(folder):
    write(folder, "chess", GOOD)
    with pytest.raises(VariantError, match=r"chess\.toml: 'chess' is the id of a built-in game"):
        rules.add_variants_dir(folder)
    assert rules.game("chess").name == "Chess"


def test_a_missing_folder_is_an_error(tmp_path):
    with pytest.raises(VariantError, match="does not exist"):
        rules.add_variants_dir(tmp_path / "nowhere")


# --- extends ------------------------------------------------------------------------

def test_extends_inherits_what_is_not_said_and_removes_what_is_asked(folder):
    write(folder, "losalamos", LOS_ALAMOS)
    rules.add_variants_dir(folder)
    g, chess = rules.game("losalamos"), rules.game("chess")
    assert list(g.types) == ["K", "Q", "R", "N", "P"]
    for key in "KQRN":
        assert g.types[key] == chess.types[key]
    assert g.types["P"].promotion.to == ("Q", "R", "N") and not g.types["P"].ep_victim
    assert g.castlings == [] and g.name == "Los Alamos" and g.summary == ""
    assert g.game_end == chess.game_end       # inherited, not written


@pytest.mark.parametrize("depth", sorted(LOS_ALAMOS_PERFT))
def test_los_alamos_perft_matches_fairy_stockfish(folder, depth):
    write(folder, "losalamos", LOS_ALAMOS)
    rules.add_variants_dir(folder)
    assert rules.start("losalamos").perft(depth) == LOS_ALAMOS_PERFT[depth]


def test_extends_a_chain_of_own_variants_and_refuses_a_cycle(folder):
    write(folder, "losalamos", LOS_ALAMOS)
    write(folder, "alamoslosing", 'extends = "losalamos"\nname = "Los Alamos, stalemate loses"\n'
                                  '[rules]\nstalemate = "loss"\n')
    assert rules.add_variants_dir(folder) == ["alamoslosing", "losalamos"]
    assert rules.game("alamoslosing").stalemate == "loss"
    assert rules.start("alamoslosing").perft(2) == 100
    rules.remove_variants_dir(folder)

    write(folder, "aaa", 'extends = "bbb"\nname = "A"\n')
    write(folder, "bbb", 'extends = "aaa"\nname = "B"\n')
    with pytest.raises(VariantError, match=r"bbb\.toml: extends 'aaa' makes a cycle: aaa -> bbb -> aaa"):
        rules.add_variants_dir(folder)
    assert "losalamos" not in rules.variants()


def test_remove_of_a_piece_the_parent_lacks(folder):
    write(folder, "nope", 'extends = "chess"\nname = "Nope"\n[pieces.Z]\nremove = true\n')
    with pytest.raises(VariantError, match=r"\[pieces\.Z\] remove = true, but 'chess' has no piece 'Z'"):
        rules.add_variants_dir(folder)


def test_removing_a_piece_another_promotes_to_is_named(folder):
    write(folder, "noqueen", 'extends = "chess"\nname = "No Queen"\n[pieces.Q]\nremove = true\n')
    with pytest.raises(VariantError, match=r"\[pieces\.P\.promotion\] to names 'Q'"):
        rules.add_variants_dir(folder)


# --- the command line ---------------------------------------------------------------

def test_rules_perft_on_an_own_variant(folder):
    write(folder, "losalamos", LOS_ALAMOS)
    run = subprocess.run([sys.executable, "-m", "rules", "perft", "losalamos", "3",
                          "--variants-dir", str(folder)], capture_output=True, text=True, cwd=ROOT)
    assert (run.returncode, run.stdout.strip()) == (0, "1212"), run.stderr
    write(folder, "broken", GOOD.replace("royal = true", "royl = true"))
    bad = subprocess.run([sys.executable, "-m", "rules", "moves", "chess"], capture_output=True,
                         text=True, cwd=ROOT, env={"FAIRYPOST_VARIANTS_DIR": str(folder), "PATH": ""})
    assert bad.returncode == 2 and "broken.toml: [pieces.K] unknown key 'royl'" in bad.stderr
    assert "Traceback" not in bad.stderr
