"""Colours of the pictures, in one place so that the look can be tuned at once.

A calm, low-saturation board (players look at it all day) and pieces with strong
contrast: light pieces have a dark outline, dark pieces a light one, so that both
read on either square colour.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

RGB = tuple[int, int, int]


class Scheme(NamedTuple):
    """How a side's pieces are painted."""
    fill: RGB      # the body
    line: RGB      # the outline around the body
    detail: RGB    # lines drawn inside the body
    outline: float = 2.6  # outline width, in glyph units (a square is 100)


SCHEMES: dict[str, Scheme] = {
    "white": Scheme(fill=(250, 248, 240), line=(38, 36, 34), detail=(38, 36, 34)),
    "black": Scheme(fill=(52, 50, 54), line=(236, 232, 222), detail=(236, 232, 222),
                    outline=2.2),
    # for a game whose sides are called Blue and Red (its data's side names)
    "blue": Scheme(fill=(70, 124, 214), line=(16, 30, 66), detail=(232, 240, 255)),
    "red": Scheme(fill=(212, 66, 54), line=(62, 14, 10), detail=(255, 236, 228)),
}

# Which scheme paints each side: the scheme named like the side in the game's data
# (a game of Blue and Red), else DEFAULT_SIDES.
DEFAULT_SIDES = {"w": "white", "b": "black"}


@lru_cache(maxsize=64)
def scheme_name(game: str, colour: str) -> str:
    import rules
    try:
        own = rules.game(game).side_names["wb".index(colour)].lower()
    except rules.RulesError:
        own = None
    return own if own in SCHEMES else DEFAULT_SIDES[colour]


# The promotion badge: a small gold star, the same on every promoted piece.
BADGE_FILL: RGB = (246, 196, 46)
BADGE_LINE: RGB = (70, 46, 0)

# The board.
BACKGROUND: RGB = (46, 48, 54)      # margins and holes: reads as "not a square"
LIGHT_SQUARE: RGB = (234, 226, 206)
DARK_SQUARE: RGB = (176, 156, 126)
COORDINATES: RGB = (214, 210, 202)

# Zone tints (castles), blended over the square colour with the given strength.
ZONE_TINT: RGB = (120, 150, 200)
ZONE_TINT_STRENGTH = 0.22
# Castles (zones that belong to one side), in their owner's colour: (light, dark) square colours.
# (Blending blue into the tan squares would only make them grey.)
CASTLE_SQUARES: dict[str, tuple[RGB, RGB]] = {
    "w": ((214, 224, 240), (158, 174, 202)),
    "b": ((244, 218, 208), (206, 158, 144)),
}

# Square marks.
LAST_MOVE: tuple[int, int, int, int] = (214, 196, 60, 120)    # yellowish wash
CAPTURED: tuple[int, int, int, int] = (200, 110, 60, 110)     # orange wash
CHECK: tuple[int, int, int, int] = (226, 40, 30, 255)         # red glow
CHECK_EDGE: tuple[int, int, int, int] = (214, 24, 24, 255)    # frame / corners: check
LAST_MOVE_EDGE: tuple[int, int, int, int] = (226, 178, 0, 235)  # frame inside the last move
ARROW: tuple[int, int, int, int] = (220, 70, 20, 200)         # a shot (the shooter stays)
DESTINATION: tuple[int, int, int, int] = (40, 60, 40, 90)     # dot / ring
SELECTED: tuple[int, int, int, int] = (70, 170, 90, 120)      # green     # the chosen piece's square(s)
PLACEMENT: tuple[int, int, int, int] = (30, 90, 200, 170)    # where a piece from the hand may go (the web page)
CAPTURE_ONLY: tuple[int, int, int, int] = (150, 36, 28, 170)  # cross: captures there only

# Legends and piece cards.
PANEL_TITLE: RGB = (240, 236, 226)
PANEL_TEXT: RGB = (214, 210, 202)
PANEL_LETTER: RGB = (236, 200, 110)
PANEL_MUTED: RGB = (160, 158, 152)

# Pieces in hand.
HAND_PANEL: RGB = (58, 60, 67)
HAND_TEXT: RGB = (230, 226, 218)
# The side's name over its hand, in a light tone of its pieces' colour.
HAND_LABEL: dict[str, RGB] = {"white": (240, 236, 226), "black": (186, 182, 176),
                              "blue": (140, 180, 246), "red": (246, 140, 128)}

# A finished game's result, in a strip above the board.
BANNER: RGB = (28, 30, 34)
BANNER_EDGE: RGB = (226, 178, 0)
BANNER_TEXT: RGB = (250, 246, 236)
