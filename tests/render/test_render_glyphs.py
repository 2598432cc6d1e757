"""Glyphs: every piece of every game renders, looks unlike the others of its game,
and carries the colours and marks it should."""

import pytest
from PIL import ImageChops

from render import palette
from render.glyphs import games, glyph_id, piece_image, piece_kinds, render_glyph, screen_direction

# The pieces each game has, from the rules pages (docs/rules/*.md).
EXPECTED = {
    "chess": "KQRBNP",
    "grandducal": "KQRBNPGSIM",
    "ganymede": "KQRBNPGIDSWO",
    "gigachess2": "KQRBNPIEWJMZCVOUGLYSDHXAF",
    "superchess": "KQRBNPSCA",
    "kingqueen": "KPBNC",
}
EXPECTED_PROMOTED = {
    "ganymede": "QRBNPGIDS",
    "kingqueen": "KPBNC",
}

SIZE = 48


def _opaque(img, x, y):
    return img.getpixel((x, y))[3] > 128


def _near(c1, c2, tol=10):
    return all(abs(a - b) <= tol for a, b in zip(c1[:3], c2[:3], strict=True))


def _count_near(img, colour, box=None, tol=10):
    """How many opaque pixels are within tol of colour (RGBA image)."""
    data = (img.crop(box) if box else img).convert("RGBA").tobytes()
    r, g, b = colour[:3]
    return sum(1 for i in range(0, len(data), 4)
               if data[i + 3] > 200 and abs(data[i] - r) <= tol
               and abs(data[i + 1] - g) <= tol and abs(data[i + 2] - b) <= tol)


def test_every_game_has_exactly_its_pieces():
    for game, codes in EXPECTED.items():
        kinds = piece_kinds(game)
        assert sorted(c for c, p in kinds if not p) == sorted(codes), game
        assert sorted(c for c, p in kinds if p) == sorted(EXPECTED_PROMOTED.get(game, "")), game
    assert set(games()) == set(EXPECTED)


ALL = [(g, c, p) for g in EXPECTED for c, p in piece_kinds(g)]


@pytest.mark.parametrize("game,code,promoted", ALL)
@pytest.mark.parametrize("colour", ["w", "b"])
def test_every_glyph_renders(game, code, promoted, colour):
    img = piece_image(game, code, promoted, colour, SIZE)
    assert img.mode == "RGBA" and img.size == (SIZE, SIZE)
    assert not glyph_id(game, code, promoted, colour).startswith("letter:")
    # Something is drawn, and it stays inside the square with a little room.
    bbox = img.getchannel("A").point(lambda a: 255 if a > 128 else 0).getbbox()
    assert bbox is not None
    w, h = bbox[2] - bbox[0], bbox[3] - bbox[1]
    assert w >= SIZE * 0.4 or h >= SIZE * 0.4
    # The side's body colour is there.
    fill = palette.SCHEMES[palette.scheme_name(game, colour)].fill
    assert _count_near(img, fill) > SIZE * SIZE * 0.03


@pytest.mark.parametrize("game", list(EXPECTED))
@pytest.mark.parametrize("colour", ["w", "b"])
def test_no_two_glyphs_of_a_game_are_identical(game, colour):
    seen = {}
    for code, promoted in piece_kinds(game):
        img = piece_image(game, code, promoted, colour, SIZE)
        key = img.tobytes()
        assert key not in seen, f"{game}: {code}{'+' if promoted else ''} looks like {seen[key]}"
        seen[key] = code + ("+" if promoted else "")


@pytest.mark.parametrize("game", list(EXPECTED))
def test_no_two_figures_of_a_game_are_nearly_identical(game):
    """Distinct in shape, not only by a few pixels: compare the unpromoted figures'
    silhouettes (a promoted piece differs at least by its badge)."""
    masks = {}
    for code, promoted in piece_kinds(game):
        gid = glyph_id(game, code, promoted, "b")
        if gid in masks:
            continue
        a = render_glyph(gid, "black", SIZE).getchannel("A").point(lambda v: 255 if v > 128 else 0)
        masks[gid] = a
    ids = list(masks)
    for i, a in enumerate(ids):
        for b in ids[i + 1:]:
            diff = ImageChops.difference(masks[a], masks[b])
            changed = SIZE * SIZE - diff.histogram()[0]
            assert changed > SIZE * SIZE * 0.04, f"{game}: {a} and {b} are too alike"


def test_same_piece_same_figure_across_games():
    for game in EXPECTED:
        if game != "kingqueen":
            for code, gid in zip("KQRBNP", ("king", "queen", "rook", "bishop", "knight", "pawn"), strict=True):
                assert glyph_id(game, code) == gid
    assert glyph_id("ganymede", "G") == glyph_id("gigachess2", "G")       # Griffon = Eagle
    assert glyph_id("grandducal", "S") == glyph_id("gigachess2", "J")     # Sage = Centaur
    assert glyph_id("ganymede", "Q", True) == glyph_id("gigachess2", "A")  # Empress = Amazon
    assert glyph_id("kingqueen", "C") == glyph_id("gigachess2", "C")      # Cannon
    # The same letter is another piece in another game.
    assert glyph_id("ganymede", "W") != glyph_id("gigachess2", "W")
    assert glyph_id("superchess", "S") != glyph_id("ganymede", "S")


def test_promoted_pieces_carry_the_badge():
    for game, codes in EXPECTED_PROMOTED.items():
        for code in codes:
            img = piece_image(game, code, True, "b", 64)
            assert _count_near(img, palette.BADGE_FILL, (44, 0, 64, 22), tol=12) > 12, (game, code)
            plain = piece_image(game, code, False, "b", 64)
            assert _count_near(plain, palette.BADGE_FILL, (44, 0, 64, 22), tol=12) == 0


def test_king_and_queen_sides_are_blue_and_red():
    blue = piece_image("kingqueen", "P", False, "w", SIZE)
    red = piece_image("kingqueen", "P", False, "b", SIZE)
    assert _count_near(blue, palette.SCHEMES["blue"].fill) > 100
    assert _count_near(red, palette.SCHEMES["red"].fill) > 100
    # Blue's royal is its Queen, Red's its King.
    assert glyph_id("kingqueen", "K", False, "w") == "queen"
    assert glyph_id("kingqueen", "K", False, "b") == "king"


def test_spearman_points_along_its_setting():
    assert screen_direction("spear", "V", "w", False) == "N"
    assert screen_direction("spear", "R", "w", False) == "NE"
    assert screen_direction("spear", "L", "w", False) == "NW"
    assert screen_direction("spear", "V", "b", False) == "S"
    assert screen_direction("spear", "R", "b", False) == "SW"   # Black's forward-right
    assert screen_direction("spear", "R", "b", True) == "NE"
    up = piece_image("ganymede", "S", False, "w", 64, "V")
    down = piece_image("ganymede", "S", False, "b", 64, "V")
    # The spear's point sticks out beyond the round shield at the forward end.
    assert _opaque(up, 32, 4) and _opaque(down, 32, 59)
    rising = piece_image("ganymede", "S", False, "w", 64, "R")
    assert _opaque(rising, 52, 11) and not _opaque(rising, 11, 11)
    assert ImageChops.difference(up, rising).getbbox() is not None


def test_cyclops_points_where_it_faces():
    assert screen_direction("eye", "N", "b", False) == "S"
    assert screen_direction("eye", "NE", "b", False) == "SW"
    assert screen_direction("eye", "?", "w", False) is None
    north = piece_image("superchess", "C", False, "w", 64, "N")
    east = piece_image("superchess", "C", False, "w", 64, "E")
    black_north = piece_image("superchess", "C", False, "b", 64, "N")
    assert _opaque(north, 32, 4) and not _opaque(north, 60, 32)
    assert _opaque(east, 60, 32) and not _opaque(east, 32, 4)
    assert _opaque(black_north, 32, 60) and not _opaque(black_north, 32, 4)


def test_wall_spans_two_squares():
    img = render_glyph("bricks", "white", 40, span=2)
    assert img.size == (80, 40)
    assert _opaque(img, 40, 20) and _opaque(img, 8, 20) and _opaque(img, 72, 20)


def test_a_piece_without_a_glyph_in_its_data_gets_its_letter_in_a_disc(monkeypatch):
    import dataclasses

    import rules
    game = rules.game("chess")
    monkeypatch.setitem(game.types, "N", dataclasses.replace(game.types["N"], glyph=None))
    glyph_id.cache_clear()
    try:
        assert glyph_id("chess", "N") == "letter:N"
        assert glyph_id("chess", "B") == "bishop"       # the others keep their data's figure
        img = piece_image("chess", "N", False, "w", SIZE)
        assert img.getchannel("A").getbbox() is not None
    finally:
        glyph_id.cache_clear()


def test_unknown_piece_gets_a_lettered_disc():
    img = piece_image("chess", "Z", False, "w", SIZE)
    assert glyph_id("chess", "Z") == "letter:Z"
    assert _opaque(img, SIZE // 2, SIZE // 2 + 8)


def test_glyphs_are_cached():
    a = piece_image("gigachess2", "L", False, "w", 50)
    b = piece_image("gigachess2", "L", False, "w", 50)
    assert a is b
