"""A piece's state reads at a glance on a phone (issue 29, item 4): the Cyclops's facing
mark, a Spearman's spear and a Wall's bricks are at least a third of a square across in
every picture: boards at every size (the replay GIF's 42 px squares, the web's 56, the
default 60-96), GIF frames, legends and piece cards.

Measured in the pictures' pixels: the Cyclops's mark is the box of the pixels that change
when the same position has the Cyclops unturned ("?", the set-up phase's state, drawn
without a mark); a spear is what of the figure lies outside its round shield; a Wall is
the box of its figure over its two squares."""

from __future__ import annotations

import io
import math

import pytest
from PIL import Image, ImageChops

from render import legend
from render.card import card_layout, piece_card, piece_card_image
from render.diagram import diagram
from render.position import board_image, board_layout
from render.replay import REPLAY_SQUARE, replay_gif

THIRD = 1 / 3
SIZES = [REPLAY_SQUARE, 56, None]   # the GIF's, the web's, the default (Discord's)
FACINGS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]


def changed_box(a: Image.Image, b: Image.Image, threshold: int = 48):
    """The box of the pixels that differ clearly between two pictures of one size."""
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB")).convert("L")
    return diff.point(lambda v: 255 if v > threshold else 0).getbbox()


def figure_box(img: Image.Image, empty: Image.Image, box, outside_disc: float = 0.0):
    """The box of a figure's pixels within `box` (those that differ from the picture
    without the piece), leaving out a disc of that share of the square about its centre."""
    x0, y0, x1, y1 = box
    a, b = img.crop(box).convert("RGB"), empty.crop(box).convert("RGB")
    mask = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > 48 else 0)
    if outside_disc:
        side = min(x1 - x0, y1 - y0)
        cx, cy = (x1 - x0) / 2, (y1 - y0) / 2
        r = outside_disc * side
        hole = Image.new("L", mask.size, 255)
        from PIL import ImageDraw
        ImageDraw.Draw(hole).ellipse((cx - r, cy - r, cx + r, cy + r), fill=0)
        mask = ImageChops.multiply(mask, hole)
    return mask.getbbox()


def extent(box) -> tuple[int, int]:
    return box[2] - box[0], box[3] - box[1]


def cyclops(facing: str, colour: str):
    """A Super Chess position with a Cyclops of that colour on e5 facing that way, or
    unturned ("?": in the set-up step where its side turns it). The other side's
    Cyclops stands on d1 or d10 the same way in both."""
    if colour == "w":
        pieces = {"e5": f"C({facing})", "d10": "c(?)"}
        step, side = ("face-w", "w") if facing == "?" else ("face-b", "b")
    else:
        pieces = {"e5": f"c({facing})", "d1": "C(N)"}
        step, side = ("face-b", "b") if facing == "?" else (None, "w")
    return diagram("superchess", {"e1": "K", "e10": "k", **pieces}, side=side,
                   extras=f"setup={step}" if step else "")


@pytest.mark.parametrize("square", SIZES)
@pytest.mark.parametrize("colour,flip", [("w", False), ("b", False), ("w", True)])
def test_the_cyclops_facing_mark_is_a_third_of_a_square_both_ways_on_boards(square, colour, flip):
    unturned = board_image(cyclops("?", colour), flip=flip, square=square)
    side = board_layout(cyclops("?", colour), flip=flip, square=square).square
    for facing in FACINGS:
        box = changed_box(board_image(cyclops(facing, colour), flip=flip, square=square), unturned)
        w, h = extent(box)
        assert min(w, h) >= THIRD * side, (facing, colour, flip, side, box)


def test_the_cyclops_mark_in_a_replay_gif_frame():
    frames = {}
    for facing in ("N", "NE", "?"):
        gif = Image.open(io.BytesIO(replay_gif(cyclops(facing, "w"), [])))
        frames[facing] = gif.convert("RGB")
    lay = board_layout(cyclops("?", "w"), square=REPLAY_SQUARE,
                       result=cyclops("?", "w").game.name)
    assert lay.square == REPLAY_SQUARE
    for facing in ("N", "NE"):
        w, h = extent(changed_box(frames[facing], frames["?"]))
        # 42 px squares: the mark was 5 px across before issue 29
        assert min(w, h) >= THIRD * REPLAY_SQUARE, (facing, w, h)


def test_the_cyclops_mark_in_the_legend():
    plain, boxes = legend.draw_legend(cyclops("?", "w").game, legend.legend_entries(cyclops("?", "w")))
    turned, _ = legend.draw_legend(cyclops("E", "w").game, legend.legend_entries(cyclops("E", "w")))
    icon = next(b["w"] for b in boxes if "w" in b and plain.crop(b["w"]) != turned.crop(b["w"]))
    w, h = extent(changed_box(turned, plain))
    assert min(w, h) >= THIRD * (icon[2] - icon[0]), (w, h, icon)


def test_the_cyclops_mark_on_its_card():
    # a card's Cyclops always faces somewhere: its mark is what of the figure lies
    # outside its head (a quarter of a square from the centre)
    for facing in ("N", "SW"):
        card = piece_card("superchess", "C", "w", facing)
        lay = card_layout(card)
        box = lay.box(card.squares[0])
        img = piece_card_image("superchess", "C", "w", facing)
        plain = Image.new("RGB", img.size, img.getpixel((box[0] + 3, box[1] + 3)))
        w, h = extent(figure_box(img, plain, box, 0.26))
        assert min(w, h) >= THIRD * lay.square, (facing, w, h, lay.square)


GANYMEDE = {"g1": "K", "g12": "k"}


@pytest.mark.parametrize("square", SIZES)
@pytest.mark.parametrize("colour", "wb")
def test_the_spear_crosses_the_square_along_its_setting(square, colour):
    empty_pos = diagram("ganymede", GANYMEDE)
    empty = board_image(empty_pos, flip=False, square=square)
    lay = board_layout(empty_pos, flip=False, square=square)
    letter = "S" if colour == "w" else "s"
    for setting in ("V", "R", "L"):
        pos = diagram("ganymede", {**GANYMEDE, "f6": f"{letter}({setting})"})
        # what of the figure lies outside its shield (a quarter of a square from the centre)
        box = figure_box(board_image(pos, flip=False, square=square), empty, lay.box("f6"), 0.25)
        w, h = extent(box)
        # its length along its line (up, or a diagonal), its head's breadth across it
        assert math.hypot(w, h) >= 0.8 * lay.square, (setting, w, h)
        assert (w if setting == "V" else min(w, h)) >= (0.25 if setting == "V" else THIRD) * lay.square, \
            (setting, w, h)


@pytest.mark.parametrize("square", SIZES)
def test_a_wall_is_a_third_of_a_square_thick_over_its_two_squares(square):
    empty_pos = diagram("ganymede", GANYMEDE)
    empty = board_image(empty_pos, flip=False, square=square)
    lay = board_layout(empty_pos, flip=False, square=square)
    for halves, (a, b) in [(("W(E)", "W(W)"), ("c4", "d4")), (("w(N)", "w(S)"), ("h7", "h8"))]:
        pos = diagram("ganymede", {**GANYMEDE, a: halves[0], b: halves[1]})
        ax0, ay0, ax1, ay1 = lay.box(a)
        bx0, by0, bx1, by1 = lay.box(b)
        both = (min(ax0, bx0), min(ay0, by0), max(ax1, bx1), max(ay1, by1))
        w, h = extent(figure_box(board_image(pos, flip=False, square=square), empty, both))
        assert min(w, h) >= THIRD * lay.square and max(w, h) >= 1.8 * lay.square, (a, b, w, h)


def test_spear_and_wall_on_their_cards_and_in_the_legend():
    for key, state in (("S", "R"), ("W", None)):
        card = piece_card("ganymede", key, "w", state)
        lay = card_layout(card)
        boxes = [lay.box(sq) for sq in card.squares]
        box = (min(b[0] for b in boxes), min(b[1] for b in boxes),
               max(b[2] for b in boxes), max(b[3] for b in boxes))
        img = piece_card_image("ganymede", key, "w", state)
        plain = Image.new("RGB", img.size, img.getpixel((box[0] + 2, box[1] + 2)))
        w, h = extent(figure_box(img, plain, box, 0.25 if key == "S" else 0.0))
        if key == "S":   # a diagonal spear, outside its shield
            assert min(w, h) >= THIRD * lay.square and math.hypot(w, h) >= 0.8 * lay.square, (w, h)
        else:            # a Wall over its two squares
            assert min(w, h) >= THIRD * lay.square and max(w, h) >= 1.8 * lay.square, (w, h)
    pos = diagram("ganymede", {**GANYMEDE, "f6": "S(R)"})
    img, boxes = legend.draw_legend(pos.game, legend.legend_entries(pos))
    icon = next(b["w"] for b, e in zip(boxes, legend.legend_entries(pos), strict=True) if e.key == "S")
    plain = Image.new("RGB", img.size, img.getpixel(((icon[0] + icon[2]) // 2, icon[1] + 2)))  # the tile
    w, h = extent(figure_box(img, plain, icon, 0.25))
    assert min(w, h) >= THIRD * (icon[2] - icon[0]), (w, h, icon)
