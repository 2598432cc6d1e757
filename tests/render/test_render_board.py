"""The board drawer: geometry, holes, marks, walls, hands, size of the picture."""

import io

import pytest
from PIL import Image

from render import palette
from render.board import Piece, as_piece, draw_board, make_layout, to_png

GIGA_FILES = "abcdefghijklmn"
GIGA_START = ("cmzvuhoaxfvzmc/ernbwjqkdwbnre/ppppiyglsipppp/4pppppp4/14/14/14/14/14/14/"
              "4PPPPPP4/PPPPIYGLSIPPPP/ERNBWJQKDWBNRE/CMZVUHOAXFVZMC")
KQ_FILES = "abcdefghi"
KQ_HOLES = {f"{f}{r}" for f in "abcghi" for r in (1, 2, 6, 7)}


def parse(board, files, game):
    """A VFEN board field without states or holes -> {square: Piece}."""
    pieces = {}
    rows = board.split("/")
    for i, row in enumerate(rows):
        rank, f, num = len(rows) - i, 0, ""
        for ch in row + " ":
            if ch.isdigit():
                num += ch
                continue
            if num:
                f, num = f + int(num), ""
            if ch.isalpha():
                pieces[f"{files[f]}{rank}"] = Piece(game, ch.upper(), False,
                                                    "w" if ch.isupper() else "b")
                f += 1
    return pieces


def count_near(img, box, colour, tol=8):
    data = img.crop(box).convert("RGB").tobytes()
    r, g, b = colour
    return sum(1 for i in range(0, len(data), 3)
               if abs(data[i] - r) <= tol and abs(data[i + 1] - g) <= tol
               and abs(data[i + 2] - b) <= tol)


def blend(under, rgba):
    a = rgba[3] / 255
    return tuple(round(u * (1 - a) + c * a) for u, c in zip(under, rgba[:3], strict=True))


@pytest.fixture(scope="module")
def giga():
    pieces = parse(GIGA_START, GIGA_FILES, "gigachess2")
    img = draw_board(GIGA_FILES, 14, pieces, last_move=["h11", "h9"], check=["h13"],
                     destinations=["g7", "g6"])
    return img, make_layout(GIGA_FILES, 14), pieces


def test_a_14x14_board_is_phone_sized(giga):
    img, lay, _ = giga
    assert 1000 <= img.size[0] <= 1200 and 1000 <= img.size[1] <= 1200
    assert lay.square >= 60
    assert img.mode == "RGB"


def test_png_is_under_one_megabyte(giga):
    img, _, _ = giga
    data = to_png(img)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) < 1_000_000
    assert Image.open(io.BytesIO(data)).size == img.size


def test_piece_colours_at_square_centres(giga):
    img, lay, pieces = giga
    white = palette.SCHEMES["white"].fill
    black = palette.SCHEMES["black"].fill
    for sq, p in pieces.items():
        x, y = lay.centre(sq)
        k = lay.square // 4
        box = (x - k, y - k, x + k, y + k)
        mine = white if p.colour == "w" else black
        theirs = black if p.colour == "w" else white
        # (light details on a dark piece, sharpened by LANCZOS, may come near white)
        assert count_near(img, box, mine) > 2 * count_near(img, box, theirs) + 8, sq


def test_empty_squares_are_plain(giga):
    img, lay, _ = giga
    for sq in ("a7", "b7", "n8"):
        x0, y0, x1, y1 = lay.box(sq)
        colours = img.crop((x0, y0, x1, y1)).getcolors()
        assert len(colours) == 1
        fi, ri = "abcdefghijklmn".index(sq[0]), int(sq[1:]) - 1
        expected = palette.DARK_SQUARE if (fi + ri) % 2 == 0 else palette.LIGHT_SQUARE
        assert colours[0][1] == expected


def test_marks(giga):
    img, lay, _ = giga
    # Last move: the empty h9 square is washed all over (h9 is light: h=7, 9 -> 7+8 odd).
    x0, y0, _, _ = lay.box("h9")
    assert img.getpixel((x0 + 2, y0 + 2)) == blend(palette.LIGHT_SQUARE, palette.LAST_MOVE)
    # Check: red glow around the King on h13, stronger than on the square's own colour.
    x0, y0, x1, y1 = lay.box("h13")
    px = img.getpixel((x0 + lay.square // 8, (y0 + y1) // 2))
    assert px[0] > px[1] + 40 and px[0] > px[2] + 40
    # Destination: a dot at the centre of an empty square, darker than the square.
    cx, cy = lay.centre("g7")
    assert sum(img.getpixel((cx, cy))) < sum(palette.DARK_SQUARE) - 60
    x0, y0, _, _ = lay.box("g7")
    assert img.getpixel((x0 + 3, y0 + 3)) in (palette.DARK_SQUARE, palette.LIGHT_SQUARE)


def test_holes_are_background_and_nothing_is_drawn_on_them():
    pieces = {"a1": Piece("kingqueen", "P", False, "w"),    # on a hole: ignored
              "e1": Piece("kingqueen", "K", False, "w"),
              "e7": Piece("kingqueen", "K", False, "b")}
    img = draw_board(KQ_FILES, 7, pieces, holes=KQ_HOLES, last_move=["b2", "e1"],
                     check=["a6"], destinations=["c7"])
    lay = make_layout(KQ_FILES, 7)
    for sq in KQ_HOLES:
        x0, y0, x1, y1 = lay.box(sq)
        colours = img.crop((x0, y0, x1, y1)).getcolors()
        assert colours == [(lay.square * lay.square, palette.BACKGROUND)], sq
    # The royal pieces are there, in blue and red.
    for sq, scheme in (("e1", "blue"), ("e7", "red")):
        x0, y0, x1, y1 = lay.box(sq)
        assert count_near(img, (x0, y0, x1, y1), palette.SCHEMES[scheme].fill) > 50


def test_zones_are_tinted_and_coloured():
    castle = ["d1", "e1", "f1", "d2", "e2", "f2"]
    img = draw_board(KQ_FILES, 7, {}, holes=KQ_HOLES,
                     zones=[(castle, palette.CASTLE_SQUARES["w"]), ["d6", "e6"]])
    lay = make_layout(KQ_FILES, 7)
    light, dark = palette.CASTLE_SQUARES["w"]
    assert img.getpixel(lay.centre("e1")) == dark     # e1: 4 + 0 even -> dark, like a1
    assert img.getpixel(lay.centre("d1")) == light
    alpha = round(255 * palette.ZONE_TINT_STRENGTH)
    tinted = blend(palette.DARK_SQUARE, palette.ZONE_TINT + (alpha,))
    assert img.getpixel(lay.centre("e6")) == tinted or img.getpixel(lay.centre("d6")) == tinted


def test_flip_turns_the_board_half_a_circle():
    pieces = {"a1": Piece("chess", "R", False, "w")}
    straight = make_layout("abcdefgh", 8)
    flipped = make_layout("abcdefgh", 8, flip=True)
    assert straight.box("a1") == flipped.box("h8")
    img = draw_board("abcdefgh", 8, pieces, flip=True)
    x0, y0, x1, y1 = flipped.box("a1")
    assert x0 > img.size[0] / 2 and y1 < img.size[1] / 2
    assert count_near(img, (x0, y0, x1, y1), palette.SCHEMES["white"].fill) > 50


def test_super_chess_lettering_has_no_i():
    lay = make_layout("abcdefghjk", 10)
    assert lay.box("j1")[0] - lay.box("h1")[0] == lay.square
    with pytest.raises(ValueError):
        lay.box("i1")


def test_coordinates_are_drawn_in_the_margins(giga):
    img, lay, _ = giga
    for sq in ("a1", "n14"):
        x0, y0, x1, y1 = lay.box(sq)
        # the rank number left of the row, the file letter under the column
        left = img.crop((0, y0, lay.left, y1)).getcolors(10000)
        under = img.crop((x0, lay.top + lay.board_h, x1, img.size[1])).getcolors(10000)
        assert len(left) > 2 and len(under) > 2


def wall_board(state_a, state_b, a, b):
    pieces = {a: Piece("ganymede", "W", False, "w", state_a),
              b: Piece("ganymede", "W", False, "w", state_b)}
    return draw_board("abcdefghijkl", 12, pieces), make_layout("abcdefghijkl", 12)


def test_a_wall_is_one_figure_over_its_two_squares():
    white = palette.SCHEMES["white"].fill
    img, lay = wall_board("E", "W", "c5", "d5")
    _, y0, x1, y1 = lay.box("c5")
    # Across the shared edge, the wall's body continues: white on both sides of it.
    seam = (x1 - 3, (y0 + y1) // 2 - 2, x1 + 3, (y0 + y1) // 2 + 2)
    assert count_near(img, seam, white) > 10
    img, lay = wall_board("N", "S", "c5", "c6")
    x0, y0, x1, _ = lay.box("c5")   # c6 is above c5 on the screen
    seam = ((x0 + x1) // 2 - 2, y0 - 3, (x0 + x1) // 2 + 2, y0 + 3)
    assert count_near(img, seam, white) > 10


def test_a_lone_wall_square_still_draws():
    img, lay = wall_board("E", None, "c5", "h9")   # partner missing: each drawn alone
    assert count_near(img, lay.box("c5"), palette.SCHEMES["white"].fill) > 50


def test_hands_are_drawn_beside_the_board():
    hands = {"w": {"P": 2, "N": 1}, "b": {"C": 1}}
    with_hands = draw_board(KQ_FILES, 7, {}, holes=KQ_HOLES, hands=hands, game="kingqueen")
    without = draw_board(KQ_FILES, 7, {}, holes=KQ_HOLES)
    assert with_hands.size[0] > without.size[0]
    lay = make_layout(KQ_FILES, 7, hands=True)
    bottom = lay.hand_box(False)   # Blue's hand, Blue playing from the bottom
    top = lay.hand_box(True)
    assert count_near(with_hands, bottom, palette.SCHEMES["blue"].fill) > 50
    assert count_near(with_hands, top, palette.SCHEMES["red"].fill) > 50
    assert count_near(with_hands, top, palette.SCHEMES["blue"].fill) == 0


def test_pieces_may_be_plain_tuples_or_objects():
    class P:
        code, colour, promoted, state = "N", "b", False, None
    assert as_piece(P(), "chess") == Piece("chess", "N", False, "b", None)
    assert as_piece(("chess", "Q")) == Piece("chess", "Q", False, "w", None)
    img = draw_board("abcdefgh", 8, {"d4": P(), "e4": ("chess", "Q")}, game="chess")
    lay = make_layout("abcdefgh", 8)
    assert count_near(img, lay.box("d4"), palette.SCHEMES["black"].fill) > 50


def test_marks_can_be_added_to_a_finished_picture():
    from render.board import mark_check, mark_last_move
    img = draw_board("abcdefgh", 8, {"e1": Piece("chess", "K", False, "w")})
    lay = make_layout("abcdefgh", 8)
    mark_last_move(img, lay, ["E2"])
    mark_check(img, lay, ["e1"])
    x0, y0, _, _ = lay.box("e2")
    assert img.getpixel((x0 + 2, y0 + 2)) == blend(palette.LIGHT_SQUARE, palette.LAST_MOVE)
    x0, y0, x1, y1 = lay.box("e1")
    px = img.getpixel((x0 + lay.square // 8, (y0 + y1) // 2))
    assert px[0] > px[1] + 40
