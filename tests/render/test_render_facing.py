"""The Cyclops's facing marker points where the engine moves it (issue 15, item 3):
facings are the owner's, so a White Cyclops facing N points toward rank 10 and a
Black one facing N toward rank 1, on the screen up and down (and the other way
round on a flipped board). Read from the pixels: the pointer is the only part of
the figure that reaches the edge band of its square."""

from __future__ import annotations

import pytest
from render_pixels import count_near, square_colour

import rules
from render.card import piece_card
from render.position import board_image, board_layout
from rules.hooks.superchess import FACING_NOTE

FEN = "k9/10/10/3c(N)6/10/10/3C(N)6/10/10/9K w - - 0 1"  # White's on d4, Black's on d7


def figure_pixels(img, lay, game, name, band):
    """How many pixels of the band ('top', 'bottom', 'left', 'right': a sixth of the
    square along that edge) are not the square's own colour."""
    x0, y0, x1, y1 = lay.box(name)
    k = (x1 - x0) // 6
    box = {"top": (x0, y0, x1, y0 + k), "bottom": (x0, y1 - k, x1, y1),
           "left": (x0, y0, x0 + k, y1), "right": (x1 - k, y0, x1, y1)}[band]
    total = (box[2] - box[0]) * (box[3] - box[1])
    return total - count_near(img, box, square_colour(game, name), 6)


def pointer_side(img, lay, game, name) -> str:
    counts = {b: figure_pixels(img, lay, game, name, b) for b in ("top", "bottom", "left", "right")}
    side = max(counts, key=counts.get)
    assert counts[side] > 20 and sorted(counts.values())[-2] < counts[side] / 4, counts
    return side


@pytest.mark.parametrize("flip", [False, True])
def test_n_points_toward_the_opponent_for_both_colours(flip):
    pos = rules.from_fen("superchess", FEN)
    # the engine's own say: each Cyclops runs toward the other side's back rank
    assert {m.lan for m in pos.moves_from("d4")} >= {"d4d5(N)", "d4d7(N)"}
    black = rules.from_fen("superchess", FEN.replace(" w ", " b "))
    assert {m.lan for m in black.moves_from("d7")} >= {"d7d6(N)", "d7d4(N)"}
    img, lay = board_image(pos, flip=flip), board_layout(pos, flip=flip)
    up, down = ("bottom", "top") if flip else ("top", "bottom")
    assert pointer_side(img, lay, pos.game, "d4") == up      # White's N: toward rank 10
    assert pointer_side(img, lay, pos.game, "d7") == down    # Black's N: toward rank 1


def test_east_is_the_owners_right():
    pos = rules.from_fen("superchess", FEN.replace("c(N)", "c(E)").replace("C(N)", "C(E)"))
    img, lay = board_image(pos), board_layout(pos)
    assert pointer_side(img, lay, pos.game, "d4") == "right"  # toward file k
    assert pointer_side(img, lay, pos.game, "d7") == "left"   # Black's right: toward file a


def test_the_cyclops_card_says_whose_side_n_is_on():
    for colour in "wb":
        assert piece_card("superchess", "C", colour).text.endswith(FACING_NOTE)
