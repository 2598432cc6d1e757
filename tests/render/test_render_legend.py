"""The legend lists exactly the kinds of piece present (board and hands), each with
its figure in the colours present, its letter and its name per side; and every piece
of every game's data file has a figure of its own."""

import io

import pytest
from PIL import Image
from render_pixels import count_near, scheme

import rules
from render.diagram import diagram
from render.drawers import DRAWERS
from render.glyphs import glyph_id
from render.legend import draw_legend, legend_entries, legend_png

GAMES = rules.variants()


@pytest.mark.parametrize("game_id", GAMES)
def test_every_piece_in_the_data_file_has_a_glyph(game_id):
    game = rules.game(game_id)
    for key, t in game.types.items():
        for colour in "wb":
            gid = glyph_id(game_id, t.code, t.promoted, colour)
            assert not gid.startswith("letter:"), (game_id, key)
    # and the figure comes from the data: every piece names one the renderer draws
    for key, t in game.types.items():
        assert t.glyph and all(f in DRAWERS for f in t.glyph.split("/")), (game_id, key, t.glyph)


def present(pos):
    """(key, colour) of every piece on the board and in hand, from the engine."""
    out = {(k.key, "wb"[k.color]) for k in pos.board if k is not None}
    for c, hand in enumerate(pos.hands):
        out |= {(key, "wb"[c]) for key, n in hand if n}
    return out


def positions():
    kq = diagram("kingqueen", {"d1": "+K", "e2": "N", "c4": "+N", "f7": "k", "d6": "+b",
                               "f5": "p"}, extras="hand=CPPbcc;dropped=-")
    gany = diagram("ganymede", {"g1": "K", "c5": "W(N)", "c6": "W(S)", "e4": "S(R)",
                                "b8": "+N", "g12": "k", "d9": "s(L)", "k5": "+p"})
    return {g: rules.start(g) for g in GAMES} | {"kq-hands": kq, "ganymede-mid": gany}


@pytest.mark.parametrize("name", sorted(positions()))
def test_the_legend_lists_exactly_the_kinds_present(name):
    pos = positions()[name]
    entries = legend_entries(pos)
    listed = {(e.key, c) for e in entries for c in e.colours}
    assert listed == present(pos)
    assert len({e.key for e in entries}) == len(entries)          # one row per kind
    order = list(pos.game.types)
    assert [e.key for e in entries] == sorted((e.key for e in entries), key=order.index)
    for e in entries:
        t = pos.game.types[e.key]
        assert e.letter == e.key
        for c, n in e.names:
            assert n == (t.side_names["wb".index(c)] if t.side_names else t.name)
    img, boxes = draw_legend(pos.game, entries)
    for e, box in zip(entries, boxes, strict=True):
        assert set(box) == set(e.colours)
        for c, b in box.items():   # the figure is there, in its side's colour
            assert count_near(img, b, scheme(pos.game.id, c).fill, 3) > 25, (e.key, c)


def test_king_and_queen_names_each_side_and_marks_pieces_only_in_hand():
    pos = positions()["kq-hands"]
    entries = {e.key: e for e in legend_entries(pos)}
    assert entries["N"].name_text(pos.game.side_names) == "Rider (Blue)"
    assert entries["+N"].name_text(pos.game.side_names) == "Pegasus (Blue)"
    assert entries["C"].in_hand_only and entries["C"].colours == ("w", "b")
    assert entries["C"].name_text(pos.game.side_names) == "Spearman (Blue) \u00b7 Catapult (Red)"
    assert entries["P"].colours == ("w", "b") and not entries["P"].in_hand_only
    assert entries["B"].in_hand_only and entries["B"].colours == ("b",)
    assert entries["+B"].colours == ("b",) and not entries["+B"].in_hand_only
    assert entries["K"].colours == ("b",) and entries["+K"].colours == ("w",)
    assert entries["+K"].name_text(pos.game.side_names) == "Empress (Blue)"


def test_legend_png_is_small():
    data = legend_png(rules.start("gigachess2"))
    assert len(data) < 1_000_000
    img = Image.open(io.BytesIO(data))
    assert img.size[0] <= 1200
