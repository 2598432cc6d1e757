"""A server owner's own variant: one Betza-only file in FAIRYPOST_VARIANTS_DIR, and nothing
else, is counted, challenged and played to mate through the service, drawn, explained by the
terminal's rules and piece commands, and checked by ``fairypost health``.

Wazir-Knight Chess is not one of the six games: Los Alamos chess with a Fox (Wazir +
Knight, Betza WN) in place of the Queen. Its perft below was computed by Fairy-Stockfish
0.0.90 (pyffish) from ``[wazirknight:losalamos] queen = - / customPiece1 = f:WN /
promotionPieceTypes = rnf`` with the same start; depths 1 and 2 also by hand: 6 Pawn
steps, 2 x 2 Knight leaps and the Fox's 2 leaps (its steps are blocked) are 12 moves, and
no move of either side can touch the other's in two plies, so 12 x 12 = 144.
"""
from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

import rules
from bot.delivery import events as ev

from ..terminal.conftest import Fairypost
from .conftest import new_game

WAZIRKNIGHT = '''\
# Wazir-Knight Chess: Los Alamos chess with a Fox in place of the Queen.
name = "Wazir-Knight Chess"
summary = "6 x 6 board, no Bishops, no castling; a Fox instead of the Queen."
files = "abcdef"
ranks = 6
start = "rnfknr/pppppp/6/6/PPPPPP/RNFKNR w - - 0 1"
game_end = "Checkmate wins. Stalemate is a draw."

[pieces.K]
name = "King"
betza = "K"
royal = true
description = "Royal. One square in any direction."

[pieces.F]
name = "Fox"
betza = "WN"
description = "One square along a rank or file, or a Knight's leap."

[pieces.R]
name = "Rook"
betza = "R"

[pieces.N]
name = "Knight"
betza = "N"

[pieces.P]
name = "Pawn"
betza = "fmWfcF"
pawn = true
promotion = { ranks = [6], to = ["R", "N", "F"] }
description = "One square forward; captures one square diagonally forward."
'''
PERFT = {1: 12, 2: 144, 3: 2029, 4: 28108}
MATE = ["Na3", "a4", "Nb5"]   # the Knight checks d6; c6 (Fox), e6, c5-e5 are Black's own


@pytest.fixture
def own_dir(tmp_path):
    folder = tmp_path / "own"
    folder.mkdir()
    (folder / "wazirknight.toml").write_text(WAZIRKNIGHT, encoding="utf-8")
    rules.add_variants_dir(folder)
    yield folder
    rules.remove_variants_dir(folder)


def test_perft_matches_fairy_stockfish(own_dir):
    assert "wazirknight" in rules.variants()
    start = rules.start("wazirknight")
    assert {d: start.perft(d) for d in PERFT} == PERFT


async def test_challenged_played_to_mate_and_drawn(own_dir, opener, engine, notifier):
    svc = await opener()
    alice = await svc.player("test", "a", "Alice")
    bob = await svc.player("test", "b", "Bob")
    g = await new_game(svc, alice, bob, game="wazirknight")
    r = None
    for ply, text in enumerate(MATE):
        r = await svc.move(g.id, (alice, bob)[ply % 2].id, text, expected_ply=ply)
    assert r.outcome == ("1-0", "checkmate")
    v = await svc.game(g.id)
    assert (v.status, v.result, v.ply) == ("finished", "1-0", 3)
    assert {e.recipient.id for e in notifier.of(ev.GameOver)} == {alice.id, bob.id}
    assert '[Variant "wazirknight"]' in await svc.record(g.id)

    from render import glyphs
    from render.position import board_png
    png = board_png(rules.start("wazirknight").play("Na3").play("a4").play("Nb5"))
    img = Image.open(io.BytesIO(png))
    assert img.format == "PNG" and img.width > 200
    # the Fox has no figure of its own: a lettered disc, the others their usual figures
    assert glyphs.glyph_id("wazirknight", "F") == "letter:F"
    fox = glyphs.piece_image("wazirknight", "F")
    knight = glyphs.piece_image("wazirknight", "N")
    assert fox.getbbox() and fox.tobytes() != knight.tobytes()


def test_discord_rules_and_piece_cards(own_dir):
    from bot.discord_bot import format as discord_format
    embed = discord_format.rules_embed("wazirknight")
    text = "\n".join([embed.title or "", embed.description or "",
                      *(f"{f.name}\n{f.value}" for f in embed.fields)])
    assert "Wazir-Knight Chess" in text and "Fox" in text
    card = discord_format.piece_embed("wazirknight", "F")
    assert "One square along a rank or file, or a Knight's leap." in card.description


def test_terminal_rules_piece_play_and_health(own_dir, tmp_path):
    fp = Fairypost(tmp_path)
    env = {"FAIRYPOST_VARIANTS_DIR": str(own_dir)}
    r = fp.play("wazirknight", lines=["rules", "piece F", *MATE], env=env, images=True)
    assert r.code == 0, r.err
    assert "Wazir-Knight Chess (wazirknight): 6 x 6 board" in r.out
    assert "F  Fox: One square along a rank or file, or a Knight's leap." in r.out
    assert "Betza: WN" in r.out
    assert "Game over: 1-0, White wins (checkmate)." in r.out
    pictures = sorted((fp.db.parent / "images").glob("*.png"))
    assert pictures and Image.open(pictures[-1]).format == "PNG"

    ok = fp("health", env=env)
    assert ok.code == 0 and "wazirknight" in ok.out, ok.err
    think = fp("think", "wazirknight", "--seconds", "0.2", "--level", "1", env=env)
    assert think.code == 0, think.err
    assert rules.start("wazirknight").parse(think.out.strip().splitlines()[-1])  # a legal move
    (own_dir / "broken.toml").write_text(WAZIRKNIGHT.replace("royal = true", "royl = true"),
                                         encoding="utf-8")
    bad = fp("health", env=env)
    assert bad.code == 1
    assert f"unhealthy: {(own_dir / 'broken.toml').resolve()}: [pieces.K] unknown key 'royl' " \
           "(did you mean 'royal'?)" in bad.err
    run = fp("play", "wazirknight", "--no-images", env=env)
    assert run.code == 2 and "broken.toml" in run.err and "Traceback" not in run.err


def test_the_settings_file_names_the_folder(tmp_path, own_dir):
    from bot.config import Settings
    config = tmp_path / "fairypost.toml"
    config.write_text(f'variants_dir = "{own_dir}"\n', encoding="utf-8")
    assert Settings.load(config, env={}).variants_dir == str(own_dir)
    assert Settings.load(None, env={"FAIRYPOST_VARIANTS_DIR": "/srv/v"}).variants_dir == "/srv/v"
    assert Settings.load(None, env={}).variants_dir is None
    assert Path(own_dir).is_dir()
