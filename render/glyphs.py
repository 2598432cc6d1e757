"""Piece glyphs: which figure each piece gets, and drawing it.

The figure of a piece is named by its game's data (``glyph = "griffon"`` on the piece;
``"white/black"`` when the two sides' figures differ) and drawn by the drawer of that
name (render.drawers). The same letter means different pieces in different games, so
a piece is looked up by (game, code, promoted). The same kind of piece gets the same
figure in every game where it moves the same way, because the data names the same
figure. A piece whose data names no figure (or one that does not exist) gets a disc
with its letter, so a picture never fails because of a new piece. A promoted piece
always carries the same gold star badge, top right.

Glyphs are drawn at SUPERSAMPLE times their size, downsampled with LANCZOS, and
cached; the images returned are shared, so callers must not draw on them.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image

from . import palette
from .drawers import DIRECTIONS, DRAWERS, POINTING, star
from .pen import DETAIL, SUPERSAMPLE, Pen

_COMPASS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
_SIDES = "wb"


def games() -> list[str]:
    import rules
    return rules.variants()


def piece_type(game: str, code: str, promoted: bool = False):
    """The rules PieceType of a piece, or None for an unknown game or piece."""
    import rules
    try:
        types = rules.game(game).types
    except rules.RulesError:
        return None
    return types.get("+" + code) if promoted and "+" + code in types else types.get(code)


def piece_kinds(game: str) -> list[tuple[str, bool]]:
    """Every (code, promoted) that the game has, unpromoted first."""
    import rules
    types = rules.game(game).types.values()
    return ([(t.code, False) for t in types if not t.promoted]
            + [(t.code, True) for t in types if t.promoted])


@lru_cache(maxsize=1024)
def glyph_id(game: str, code: str, promoted: bool = False, colour: str = "w") -> str:
    """The figure of a piece, as its game's data names it; a lettered disc
    ("letter:X") when the data names none."""
    t = piece_type(game, code, promoted)
    named = t.glyph if t is not None else None
    if named:
        sides = named.split("/")
        figure = sides[_SIDES.index(colour)] if len(sides) == 2 else named
        if figure in DRAWERS:
            return figure
    return "letter:" + code


def turn(direction: str, half_turns: int) -> str:
    """A compass point turned by half a circle half_turns times."""
    return _COMPASS[(_COMPASS.index(direction) + 4 * half_turns) % 8]


def screen_direction(glyph: str, state: str | None, colour: str, flip: bool) -> str | None:
    """Where on the screen a figure that shows its piece's state points (a spear's
    line, an eye's look), as its drawer reads the state (drawers.POINTING).

    States are relative to the owner (Black's N is towards rank 1), and a flipped
    board turns everything half a circle."""
    reading = POINTING.get(glyph)
    if reading is None:
        return None
    half_turns = (colour == "b") + bool(flip)
    if reading == "compass":
        rel = (state or "").upper()
        if rel not in DIRECTIONS:
            return None  # no state set yet ("?"): no pointer
    else:
        rel = reading.get((state or "").upper()) or next(iter(reading.values()))
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
    pixels: span 2 is a horizontal figure over two squares (a piece on two)."""
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
