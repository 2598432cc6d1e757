"""What a player must read at a glance on a phone: check (a red frame on the royal,
red corners on each checker, castles included), the last move inside a castle, an
Archer's shot as an arrow, a finished game's banner, the hands' side names, and a
Gigachess II board shrunk to 400 px wide. Pixels are read through the layout."""

import pytest
from PIL import Image, ImageChops, ImageStat
from render_pixels import blend, count_near, near, square_colour

import rules
from render import palette, result_text
from render.__main__ import check_position
from render.board import (
    checker_corner,
    draw_board,
    edge_width,
    hand_label_height,
    last_move_inset,
    make_layout,
)
from render.diagram import diagram
from render.position import board_image, board_layout, board_png

RED = palette.CHECK_EDGE


def edge_mid(lay, name, inset=0):
    """A pixel on the left edge of a square, halfway down, `inset` px inside."""
    x0, y0, _, y1 = lay.box(name)
    return x0 + inset + 1, (y0 + y1) // 2


def corner_px(lay, name):
    x0, y0, _, _ = lay.box(name)
    return x0 + 1, y0 + 1


# -- check ---------------------------------------------------------------------------

def test_checkers_are_the_pieces_that_give_check():
    pos = rules.from_fen("chess", "4r2k/8/8/8/8/3n4/8/4K3 w - - 0 1")     # double check
    assert pos.in_check()
    names = pos.game.geometry.names
    assert [names[s] for s in pos.checkers()] == ["d3", "e8"]
    assert rules.start("chess").checkers() == []
    quiet = rules.from_fen("chess", "4r2k/8/8/8/8/8/4P3/4K3 w - - 0 1")   # the Pawn blocks
    assert not quiet.in_check() and quiet.checkers() == []


@pytest.mark.parametrize("game_id", rules.variants())
def test_check_frames_the_royal_and_corners_every_checker(game_id):
    pos = check_position(game_id)
    names = pos.game.geometry.names
    royal = pos.royal_square()
    checkers = [names[s] for s in pos.checkers()]
    assert checkers
    img, lay = board_image(pos), board_layout(pos)
    w = edge_width(lay.square)
    # the royal: red all round its square, whatever the square's tint
    assert near(img.getpixel(corner_px(lay, royal)), RED, 2)
    assert near(img.getpixel(edge_mid(lay, royal, w - 2)), RED, 2)
    for sq in checkers:
        # a checker: red corners, not a whole frame (the middle of its edge is not red)
        assert near(img.getpixel(corner_px(lay, sq)), RED, 2), sq
        x0, y0, _, _ = lay.box(sq)
        assert near(img.getpixel((x0 + checker_corner(lay.square) - 2, y0 + w - 2)), RED, 2)
        assert not near(img.getpixel(edge_mid(lay, sq)), RED, 30), sq
    for name in set(pos.pieces()) - set(checkers) - {royal}:
        assert not near(img.getpixel(corner_px(lay, name)), RED, 30), name


def test_check_in_a_castle_reads_on_its_tint():
    """King and Queen: the royal in check stands in its castle (tinted in its own
    colour); the red frame differs clearly from the tint, which the glow did not."""
    before = diagram("kingqueen", {"d1": "+K", "e2": "N", "f7": "+k", "f5": "p"},
                     extras="hand=C;dropped=-")
    pos = before.play("C@f2")       # a Cannon drop into Blue's castle: check over f5
    assert pos.checkers() == [pos.game.geometry.parse_square("f2")]
    img, lay = board_image(pos), board_layout(pos)
    assert pos.royal_square() == "f7" and "f7" in castle(pos, 1)
    tint = square_colour(pos.game, "f7")
    frame = img.getpixel(edge_mid(lay, "f7"))
    assert near(frame, RED, 2) and sum(abs(a - b) for a, b in zip(frame, tint, strict=True)) > 200
    assert near(img.getpixel(corner_px(lay, "f2")), RED, 2)    # the checker, in a castle too
    quiet = board_image(before, flip=True)
    assert near(quiet.getpixel(edge_mid(lay, "f7")), tint, 2)


def castle(pos, colour):
    names = pos.game.geometry.names
    return {names[s] for s in pos.game.zone(pos.game.drop_zone, colour)}


# -- the last move -------------------------------------------------------------------

def test_last_move_inside_a_castle_is_framed():
    """A move into and out of a castle: each square gets the last move's frame, of a
    colour far from the castle's tint (the wash alone nearly vanishes there)."""
    before = diagram("kingqueen", {"d1": "+K", "e2": "N", "f7": "k", "e6": "p", "a3": "P"})
    pos = before.play("e2d4")                   # out of Blue's castle
    pos = pos.play("f7f6")                      # inside Red's castle
    img, lay = board_image(pos), board_layout(pos)
    inset = last_move_inset(lay.square)
    for name in ("f7", "f6"):
        assert name in castle(pos, 1)
        tint = square_colour(pos.game, name)
        edge = img.getpixel(edge_mid(lay, name, inset))
        assert near(edge, blend(blend(tint, palette.LAST_MOVE), palette.LAST_MOVE_EDGE), 3), name
        assert sum(abs(a - b) for a, b in zip(edge, tint, strict=True)) > 150, (name, edge, tint)
        # the wash still shows round the frame
        assert near(img.getpixel(corner_px(lay, name)), blend(tint, palette.LAST_MOVE), 2)
    for name in ("e2", "d4"):                   # Blue's move is no longer the last one
        assert near(img.getpixel(corner_px(lay, name)), square_colour(pos.game, name), 2)


# -- the Archer's shot ---------------------------------------------------------------

SHOOTING = {"e1": "K", "c2": "A", "e10": "k", "c6": "q", "j9": "r"}


def test_an_archers_shot_is_an_arrow_to_the_emptied_square():
    pos = diagram("superchess", SHOOTING).play("c2^c6")
    img, lay = board_image(pos), board_layout(pos)
    arrow = palette.ARROW
    # along the line from c2 to c6, on the empty squares between: the arrow's colour
    for name in ("c3", "c4", "c5"):
        x, y = lay.centre(name)
        assert near(img.getpixel((x, y)), blend(square_colour(pos.game, name), arrow), 3), name
        side = lay.square * 3 // 10                       # beside the line: nothing
        assert near(img.getpixel((x + side, y)), square_colour(pos.game, name), 2), name
    # its head, in the emptied square just before the tip, is wider than its shaft
    x, y = lay.centre("c6")
    down = 1 if y > lay.centre("c2")[1] else -1            # the arrow's way on the screen
    head_row = y - down * round(lay.square * 0.46)
    under = blend(square_colour(pos.game, "c6"), palette.CAPTURED)
    head = count_near(img, (x - lay.square // 2, head_row, x + lay.square // 2, head_row + 1),
                      blend(under, arrow), 3)
    y4 = lay.centre("c4")[1]
    shaft = count_near(img, (x - lay.square // 2, y4, x + lay.square // 2, y4 + 1),
                       blend(square_colour(pos.game, "c4"), arrow), 3)
    assert head > 2 * shaft > 0, (head, shaft)
    # the emptied square is framed as part of the last move, as the Archer's is
    inset = last_move_inset(lay.square)
    assert near(img.getpixel(edge_mid(lay, "c6", inset)), blend(under, palette.LAST_MOVE_EDGE), 3)


def test_no_arrow_without_a_shot():
    pos = diagram("superchess", SHOOTING).play("c2d4")     # the Archer moves (a Knight leap)
    img, lay = board_image(pos), board_layout(pos)
    for name in ("c3", "c4", "c5", "d3"):
        assert near(img.getpixel(lay.centre(name)), square_colour(pos.game, name), 2), name
    pos = diagram("superchess", SHOOTING).play("c2^c6")
    assert near(board_image(pos, show_last_move=False).getpixel(board_layout(pos).centre("c4")),
                square_colour(pos.game, "c4"), 2)


# -- the result banner ---------------------------------------------------------------

def test_result_text():
    assert result_text("chess", "1-0", "checkmate") == "Checkmate \u2014 White wins"
    assert result_text("chess", "0-1", "resignation") == "White resigned \u2014 Black wins"
    assert result_text("chess", "1-0", "time") == "Black lost on time \u2014 White wins"
    assert result_text("kingqueen", "0-1", "stalemate") == "Stalemate \u2014 Red wins"
    assert result_text("kingqueen", "1-0", "checkmate") == "Checkmate \u2014 Blue wins"
    assert result_text("kingqueen", "1-0", "resignation") == "Red resigned \u2014 Blue wins"
    assert result_text("chess", "1/2-1/2", "threefold repetition") == "Draw by repetition"
    assert result_text("chess", "1/2-1/2", "agreement") == "Draw by agreement"
    assert result_text("chess", "1/2-1/2", "100-ply rule") == "Draw by the 100-ply rule"
    assert result_text("chess", "1/2-1/2", "stalemate") == "Stalemate \u2014 draw"
    assert result_text("chess", "*", "aborted") == "Game aborted"
    assert result_text("chess", "0-1", "forfeit") == "Black wins (forfeit)"
    assert result_text(rules.game("superchess"), "1-0", None) == "White wins"
    assert result_text("chess", None, None) is None


MATE = "e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#".split()


def banner_of(img, lay):
    return img.crop((0, 0, lay.width, lay.banner_h))


def test_a_finished_game_has_its_banner_an_unfinished_one_none():
    pos = rules.start("chess")
    for m in MATE:
        pos = pos.play(m)
    assert pos.outcome() == ("1-0", "checkmate")
    img, lay = board_image(pos), board_layout(pos)
    going = rules.start("chess").play("e4")
    plain_lay = board_layout(going)
    assert plain_lay.banner_h == 0 and lay.banner_h > 20
    assert lay.top == plain_lay.top + lay.banner_h and img.size == (lay.width, lay.height)
    banner = banner_of(img, lay)
    assert count_near(banner, (0, 0, lay.width, lay.banner_h), palette.BANNER, 0) > lay.width
    assert count_near(banner, (0, 0, lay.width, lay.banner_h), palette.BANNER_TEXT, 30) > 200
    # the words are those of result_text, not others
    said = banner_of(board_image(pos, result="Checkmate \u2014 White wins"), lay)
    other = banner_of(board_image(pos, result="Checkmate \u2014 Black wins"), lay)
    assert ImageChops.difference(banner, said).getbbox() is None
    assert ImageChops.difference(banner, other).getbbox() is not None
    # a banner pushes the board down, nothing more: the board itself is the same
    bare = board_image(pos, result="")
    bare_lay = board_layout(pos, result="")
    assert bare_lay.banner_h == 0
    assert ImageChops.difference(img.crop((0, lay.banner_h, lay.width, lay.height)),
                                 bare).getbbox() is None
    # no banner on a game that goes on
    top = board_image(going).crop((0, 0, plain_lay.width, plain_lay.top))
    assert count_near(top, (0, 0, *top.size), palette.BANNER_TEXT, 30) == 0


def test_the_bot_passes_results_a_position_does_not_know():
    start = rules.start("kingqueen")
    pos = start.play(start.legal_moves()[0])
    text = result_text("kingqueen", "0-1", "time")
    assert text == "Blue lost on time \u2014 Red wins"
    lay = board_layout(pos, result=text)
    img = Image.open(__import__("io").BytesIO(board_png(pos, result=text)))
    assert img.size == (lay.width, lay.height) and lay.banner_h > 0
    assert count_near(img, (0, 0, lay.width, lay.banner_h), palette.BANNER_TEXT, 30) > 200


# -- hands ---------------------------------------------------------------------------

def test_each_hand_is_labelled_with_its_sides_name():
    pos = diagram("kingqueen", {"d1": "+K", "f7": "k"}, extras="hand=CPcp;dropped=-")
    img, lay = board_image(pos), board_layout(pos)
    label_h = hand_label_height(lay)
    blue, red = palette.HAND_LABEL["blue"], palette.HAND_LABEL["red"]
    top = lay.hand_box(True)             # Blue to move: Red's hand at the top
    bottom = lay.hand_box(False)
    for (x0, y0, x1, _), mine, theirs in ((top, red, blue), (bottom, blue, red)):
        strip = (x0, y0, x1, y0 + label_h)
        assert count_near(img, strip, mine, 12) > 40
        assert count_near(img, strip, theirs, 12) == 0
    # the words are the side names given: White and Black by default
    def label_strip(side_names):
        img = draw_board("abcdefghi", 7, {}, hands={"w": {}, "b": {}}, game="kingqueen",
                         side_names=side_names)
        x0, y0, x1, _ = make_layout("abcdefghi", 7, hands=True).hand_box(True)
        return img.crop((x0, y0, x1, y0 + label_h))
    named = label_strip({"w": "Blue", "b": "Red"})
    assert ImageChops.difference(named, img.crop((top[0], top[1], top[2], top[1] + label_h))
                                 ).getbbox() is None
    assert ImageChops.difference(named, label_strip(None)).getbbox() is not None
    assert ImageChops.difference(label_strip(None),
                                 label_strip({"w": "White", "b": "Black"})).getbbox() is None


# -- Gigachess II at phone width -------------------------------------------------------

PHONE = 400


@pytest.fixture(scope="module")
def giga_phone():
    pos = rules.start("gigachess2")
    img, lay = board_image(pos, flip=False), board_layout(pos, flip=False)
    k = PHONE / img.width
    small = img.resize((PHONE, round(img.height * k)), Image.Resampling.LANCZOS)
    return small, lay, k


def small_square(giga_phone, name):
    small, lay, k = giga_phone
    x0, y0, x1, y1 = lay.box(name)
    n = int(lay.square * k)
    return small.crop((round(x0 * k), round(y0 * k), round(x0 * k) + n, round(y0 * k) + n)).convert("L")


def difference(giga_phone, a, b):
    return ImageStat.Stat(ImageChops.difference(small_square(giga_phone, a),
                                                small_square(giga_phone, b))).mean[0]


def test_gigachess_figures_differ_at_phone_width(giga_phone):
    """On squares of one colour: a Prince (e3) against a Pawn (a3), the Centaur (f2)
    against a Knight (l2), measured against two Pawns (a3, c3), which differ only by
    where the shrinking falls."""
    pos = rules.start("gigachess2")
    assert {sq: pos.piece_at(sq).type.code for sq in ("e3", "a3", "c3", "f2", "l2")} == {
        "e3": "I", "a3": "P", "c3": "P", "f2": "J", "l2": "N"}
    same = difference(giga_phone, "a3", "c3")
    assert difference(giga_phone, "e3", "a3") > max(20, 3 * same)
    assert difference(giga_phone, "f2", "l2") > max(20, 3 * same)


def test_gigachess_coordinates_read_at_phone_width(giga_phone):
    """Every file letter and rank number is there at 400 px: digits at least 7 px
    tall, small letters at least 5 px (their x-height; 3 to 4 px before)."""
    small, lay, k = giga_phone
    for letter in lay.files:
        x0, _, x1, _ = lay.box(f"{letter}1")
        cell = (round(x0 * k), round((lay.top + lay.board_h) * k), round(x1 * k), small.height)
        assert text_height(small, cell) >= (7 if letter in "bdfhkl" else 5), letter
    for rank in range(1, lay.ranks + 1):
        _, y0, _, y1 = lay.box(f"a{rank}")
        cell = (0, round(y0 * k), round(lay.left * k), round(y1 * k))
        assert text_height(small, cell) >= 7, rank


def text_height(img, box):
    """The height of the bright (lettering) pixels in a box of the dark margin."""
    bright = img.crop(box).convert("L").point(lambda v: 255 if v > 120 else 0)
    bb = bright.getbbox()
    return 0 if bb is None else bb[3] - bb[1]


@pytest.mark.parametrize("game,letter,square", [("kingqueen", "i", 56), ("superchess", "j", 56),
                                                 ("superchess", "j", 72)])
def test_a_dotted_file_letter_keeps_its_dot(game, letter, square):
    """Bold by a stroke all round once filled the gap under the dot: an i read as an l (the
    web page's squares are 56 px)."""
    pos = rules.start(game)
    lay = board_layout(pos, flip=False, square=square, result="")
    img = board_image(pos, flip=False, square=square, result="")
    x0, _, x1, _ = lay.box(f"{letter}1")
    top, bottom = lay.top + lay.board_h, lay.height
    best = 0
    for x in range((x0 + x1) // 2 - 2, (x0 + x1) // 2 + 3):   # the letter's stem, whatever its width
        inked = [sum(img.getpixel((x, y))) > sum(palette.COORDINATES) * 0.7 for y in range(top, bottom)]
        runs = sum(1 for a, b in zip([False] + inked, inked, strict=False) if b and not a)
        best = max(best, runs)
    assert best >= 2, "the dot has merged with the stem"
