"""The terminal's board picture of a finished game carries the stored result as a
banner; a game that goes on has none."""

from PIL import Image, ImageChops

import rules
from bot.terminal.images import Images
from render import board_image, board_layout


def test_a_finished_games_picture_has_the_stored_result(tmp_path):
    images = Images(tmp_path)
    pos = rules.start("chess").play("e4")
    path = images.board(1, pos, flip=True, outcome=("1-0", "time"))
    said = "Black lost on time \u2014 White wins"
    lay = board_layout(pos, flip=True, result=said)
    with Image.open(path) as img:
        written = img.convert("RGB")
    assert lay.banner_h > 0 and written.size == (lay.width, lay.height)
    assert ImageChops.difference(written, board_image(pos, flip=True, result=said)).getbbox() is None
    going = images.board(2, pos, flip=True, outcome=(None, None))
    with Image.open(going) as img:
        assert img.size == (board_layout(pos, flip=True).width, board_layout(pos, flip=True).height)
    assert board_layout(pos, flip=True).banner_h == 0
