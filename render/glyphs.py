"""Piece glyphs: which figure each piece of each game gets, and drawing it.

The same letter means different pieces in different games (W is a Wall in Ganymede,
a Machine in Gigachess II), so a piece is looked up by (game, code, promoted). The
same kind of piece gets the same figure in every game where it moves the same way:
Ganymede's Griffon and Gigachess II's Eagle are one figure, and so are Grand
Ducal's Sage and Gigachess II's Centaur, and Ganymede's Empress and Gigachess II's
Amazon (with the promotion badge). A promoted piece always carries the same gold
star badge, top right.

Glyphs are drawn at SUPERSAMPLE times their size, downsampled with LANCZOS, and
cached; the images returned are shared, so callers must not draw on them.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image

from . import palette
from .drawers import DIRECTIONS, DRAWERS, star
from .pen import DETAIL, SUPERSAMPLE, Pen

_ORTHODOX = {"K": "king", "Q": "queen", "R": "rook", "B": "bishop", "N": "knight", "P": "pawn"}

# (game, code) -> glyph id; "+X" is the promoted form of X.
GLYPHS: dict[str, dict[str, str]] = {
    "chess": dict(_ORTHODOX),
    "grandducal": {
        **_ORTHODOX,
        "G": "grandduke", "S": "centaur", "I": "squirrel", "M": "mann",
    },
    "ganymede": {
        **_ORTHODOX,
        "G": "griffon", "I": "nightrider", "D": "dragon", "S": "spearman", "W": "wall",
        "O": "minirose",
        "+Q": "amazon", "+R": "fort", "+B": "galero", "+N": "gnu", "+P": "frog",
        "+G": "roc", "+I": "moonrider", "+D": "flyingdragon", "+S": "pikeman",
    },
    "gigachess2": {
        **_ORTHODOX,
        "I": "prince", "E": "elephant", "W": "machine", "J": "centaur", "M": "camel",
        "Z": "giraffe", "C": "cannon", "V": "crocodile", "O": "sorceress",
        "U": "rhinoceros", "G": "griffon", "L": "lion", "Y": "missionary", "S": "admiral",
        "D": "duchess", "H": "marshall", "X": "cardinal", "A": "amazon", "F": "buffalo",
    },
    "superchess": {
        **_ORTHODOX,
        "S": "superpawn", "C": "cyclops", "A": "archer",
    },
    # King and Queen: a promoted piece keeps its figure and gets the badge, as in
    # shogi, because a captured piece goes back to hand unpromoted.
    "kingqueen": {
        "K": "king", "P": "pawn", "B": "bishop", "N": "knight", "C": "cannon",
        "+K": "king", "+P": "pawn", "+B": "bishop", "+N": "knight", "+C": "cannon",
    },
}

# Where one side calls the same piece something else: Blue's royal is its Queen.
SIDE_GLYPHS: dict[tuple[str, str, str], str] = {("kingqueen", "K", "w"): "queen"}

# Pieces whose figure shows their state: the line of a Spearman, the facing of a Cyclops.
_SPEAR_LINE = {"V": "N", "R": "NE", "L": "NW"}
_COMPASS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]


def games() -> list[str]:
    return list(GLYPHS)


def piece_kinds(game: str) -> list[tuple[str, bool]]:
    """Every (code, promoted) that the game has, unpromoted first."""
    table = GLYPHS[game]
    base = [(c, False) for c in table if not c.startswith("+")]
    return base + [(c[1:], True) for c in table if c.startswith("+")]


def glyph_id(game: str, code: str, promoted: bool = False, colour: str = "w") -> str:
    """The figure of a piece. Unknown pieces get a lettered disc, not an error,
    so that a picture never fails because of a new piece."""
    side = SIDE_GLYPHS.get((game, code, colour))
    if side:
        return side
    table = GLYPHS.get(game, _ORTHODOX)
    if promoted and "+" + code in table:
        return table["+" + code]
    return table.get(code, "letter:" + code)


def turn(direction: str, half_turns: int) -> str:
    """A compass point turned by half a circle half_turns times."""
    return _COMPASS[(_COMPASS.index(direction) + 4 * half_turns) % 8]


def screen_direction(glyph: str, state: str | None, colour: str, flip: bool) -> str | None:
    """Where on the screen a Spearman's spear or a Cyclops's eye points.

    States are relative to the owner (Black's N is towards rank 1), and a flipped
    board turns everything half a circle."""
    half_turns = (colour == "b") + bool(flip)
    if glyph in ("spearman",):
        rel = _SPEAR_LINE.get((state or "V").upper(), "N")
    elif glyph in ("cyclops",):
        rel = (state or "").upper()
        if rel not in DIRECTIONS:
            return None  # not yet placed ("?"): no pointer
    else:
        return None
    return turn(rel, half_turns)


def piece_image(game: str, code: str, promoted: bool = False, colour: str = "w",
                size: int = 64, state: str | None = None, flip: bool = False) -> Image.Image:
    """A size x size RGBA picture of one piece, as it stands on a board."""
    gid = glyph_id(game, code, promoted, colour)
    direction = screen_direction(gid, state, colour, flip)
    return render_glyph(gid, palette.scheme_name(game, colour), size, promoted, direction)


@lru_cache(maxsize=4096)
def render_glyph(glyph: str, scheme: str, size: int, promoted: bool = False,
                 direction: str | None = None, span: int = 1) -> Image.Image:
    """Draw a figure in a colour scheme (palette.SCHEMES) at size x (size * span)
    pixels: span 2 is a horizontal Wall over two squares."""
    s = palette.SCHEMES[scheme]
    w, h = size * span * SUPERSAMPLE, size * SUPERSAMPLE
    pen = Pen(w, h)
    if glyph.startswith("letter:"):
        _letter(pen, glyph[7:])
    else:
        DRAWERS[glyph](pen, direction)
    img = pen.render(s.fill, s.line, s.detail, s.outline)
    if promoted:
        badge = Pen(w, h)
        with badge.transform(dx=badge.units_w - 100):
            star(badge, 84, 16, 13, inner=0.48)
        img.alpha_composite(badge.render(palette.BADGE_FILL, palette.BADGE_LINE,
                                         palette.BADGE_LINE, 2.2))
    return img.resize((size * span, size), Image.Resampling.LANCZOS)


def _letter(pen: Pen, code: str) -> None:
    """Fallback figure: a disc with the piece's letter."""
    pen.ellipse(50, 52, 34)
    pen.glyph(code or "?", (34, 32, 66, 72), font="NotoSans-Light.ttf", mode=DETAIL,
              align="centre")
