"""render.parts: the board in parts for a browser. Put together again (here with Pillow, as
the page does with an SVG), the parts make the server's own picture of the position."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops

import rules
from render import board_image, parts
from render.board import piece_sprites
from render.gallery import position
from render.position import board_pieces

SQUARE = 56
# positions with every figure that shows a state: Walls both ways, Spearmen's settings,
# Cyclops facings, promoted pieces, pieces in hand (render/README's pictures)
POSITIONS = ["ganymede", "ganymede-wall-capture", "superchess", "superchess-shot", "kingqueen",
             "gigachess2-early", "grandducal"]


def composed(pos, flip: bool) -> Image.Image:
    """The empty board with every figure of position_parts pasted from the sprite sheet."""
    img = parts.face_image(pos.game.id, flip, SQUARE).convert("RGBA")
    sheet, _ = parts.sprite_sheet(pos.game.id, SQUARE)
    got = parts.position_parts(pos, flip, SQUARE)
    for sx, sy, sw, sh, x, y, w, h in got["pieces"] + got["hands"]:
        fig = sheet.crop((sx, sy, sx + sw, sy + sh))
        img.alpha_composite(fig if (w, h) == (sw, sh) else fig.resize((w, h), Image.Resampling.LANCZOS),
                            (x, y))
    return img.convert("RGB")


def board_area(img: Image.Image, pos, flip: bool) -> Image.Image:
    lay = parts.face_layout(pos.game, flip, SQUARE)
    return img.crop((lay.left, lay.top, lay.left + lay.board_w, lay.top + lay.board_h))


@pytest.mark.parametrize("name", POSITIONS)
@pytest.mark.parametrize("flip", [False, True])
def test_the_parts_make_the_servers_picture(name, flip):
    pos = position(name)
    assert not pos.in_check()   # the check's marks are the browser's
    server = board_image(pos, flip=flip, square=SQUARE, show_last_move=False, result="")
    ours = composed(pos, flip)
    assert ours.size == server.size
    diff = ImageChops.difference(board_area(ours, pos, flip), board_area(server, pos, flip))
    assert max(diff.getextrema(), key=lambda e: e[1])[1] <= 2


def test_every_figure_a_game_shows_is_on_its_sheet():
    for name in POSITIONS:
        pos = position(name)
        for flip in (False, True):
            got = parts.position_parts(pos, flip, SQUARE)
            lay = parts.face_layout(pos.game, flip, SQUARE)
            assert len(got["pieces"]) == len(piece_sprites(lay, board_pieces(pos))) > 0
            hands = sum(1 for hand in pos.hands for n in dict(hand).values() if n)
            assert len(got["hands"]) == hands


def test_the_face_has_no_pieces_and_the_sheet_every_state():
    img = parts.face_image("superchess", False, SQUARE)
    lay = parts.face_layout(rules.game("superchess"), False, SQUARE)
    x0, y0, x1, y1 = lay.box("e1")   # a King's square at the start: bare here
    assert len(img.crop((x0 + 4, y0 + 4, x1 - 4, y1 - 4)).getcolors(1 << 16)) == 1
    index = parts.sheet_index("superchess", SQUARE)
    facings = [k for k in index if k.startswith("eye.")]
    assert len(facings) == 2 * 9   # both sides: unturned and the eight compass points
    walls = [k for k in parts.sheet_index("ganymede", SQUARE) if k.startswith("bricks.")]
    assert {k.rsplit(".", 1)[1] for k in walls} == {"1", "2", "2u"}


def test_the_marks_are_a_third_of_a_square_and_more():
    style = parts.mark_style(SQUARE)
    assert 2 * style["dotRadius"] >= SQUARE / 3
    assert 2 * style["checkReach"] >= SQUARE / 3
    assert all(style[k].startswith("rgba(") for k in ("last", "selected", "destination", "placement"))
