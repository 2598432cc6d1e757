"""The board posted after a game ends in a way the position does not know (a
resignation) carries the result banner in the game's side names."""

from __future__ import annotations

import io

from PIL import Image, ImageChops

import rules
from bot.discord_bot import commands
from bot.discord_bot.views import ConfirmResign
from render import board_image, board_layout

from .conftest import press, run, start_game
from .helpers import png_of


def banner(img, lay):
    return img.crop((0, 0, lay.width, lay.banner_h))


async def test_a_resigned_games_board_has_its_banner(world):
    w = world
    _, thread = await start_game(w, game="kingqueen")
    i = w.interaction(w.bob, channel=thread)
    await run(commands.resign, i)
    await press(ConfirmResign, "fp:resign-yes:1:0", w.interaction(w.bob, channel=thread))
    posted = Image.open(io.BytesIO(png_of(w.sent_to(thread)[-1]["file"]))).convert("RGB")
    pos = rules.start("kingqueen")
    said = "Red resigned \u2014 Blue wins"
    lay = board_layout(pos, result=said)
    assert lay.banner_h > 0 and posted.size == (lay.width, lay.height)
    assert ImageChops.difference(banner(posted, lay),
                                 banner(board_image(pos, result=said), lay)).getbbox() is None
    other = board_image(pos, result="Blue resigned \u2014 Red wins")
    assert ImageChops.difference(banner(posted, lay), banner(other, lay)).getbbox() is not None
