"""Drawing a board: squares, holes, zones, coordinates, pieces, marks, hands.

Independent of the rules engine: it takes a plain description (files, ranks, holes,
zones, and a dict of square -> piece), so any game geometry can be drawn. A piece is
(game, code, promoted, colour, state), as a tuple, a Piece, or any object with
those attributes.

Layers, bottom to top: squares and zone tints, square washes (last move, captured,
check), pieces, destination dots, then coordinates and hands in the margins. The
mark_* functions can also be called on a finished image with the same Layout.
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, NamedTuple

from PIL import Image, ImageDraw

from . import palette
from .glyphs import glyph_id, render_glyph, screen_direction
from .pen import SUPERSAMPLE, load_font
from .spans import partner_steps

COORD_FONT = "NotoSans-Light.ttf"


class Piece(NamedTuple):
    game: str
    code: str
    promoted: bool = False
    colour: str = "w"
    state: str | None = None


def as_piece(value: Any, game: str | None = None) -> Piece:
    """Accept a Piece, a tuple (game, code, promoted, colour, state) (the last ones
    optional), or an object with attributes code, colour and optionally game,
    promoted, state."""
    if isinstance(value, Piece):
        return value
    if isinstance(value, tuple):
        p = Piece(*value)
        return p._replace(game=game) if p.game is None else p
    return Piece(getattr(value, "game", game), value.code,
                 bool(getattr(value, "promoted", False)), value.colour,
                 getattr(value, "state", None))


def default_square(files: int, ranks: int) -> int:
    """A square size that makes a 14 x 14 board about 1100 px wide, and never
    smaller than 60 px."""
    return max(60, min(96, 1064 // max(files, ranks)))


@dataclass
class Layout:
    """Where everything goes in the picture."""
    files: str
    ranks: int
    square: int
    flip: bool = False
    hands: bool = False
    holes: frozenset = field(default_factory=frozenset)
    banner: bool = False   # a strip above the board for a finished game's result

    def __post_init__(self):
        s = self.square
        # margins wide enough for coordinates that stay readable when a phone shows
        # a 14 x 14 board 400 px wide
        self.left = max(24, round(s * 0.58))      # rank numbers (two digits)
        self.bottom = max(20, round(s * 0.46))    # file letters
        self.right = max(8, round(s * 0.14))
        self.board_w = len(self.files) * s
        self.board_h = self.ranks * s
        self.hand_w = round(s * 1.9) if self.hands else 0
        self.width = self.left + self.board_w + self.right + self.hand_w
        # the banner's letters scale with the picture, which a phone shrinks as a whole
        self.banner_font = max(16, round(self.width * 0.034))
        self.banner_h = round(self.banner_font * 1.9) if self.banner else 0
        self.top = max(8, round(s * 0.14)) + self.banner_h
        self.height = self.top + self.board_h + self.bottom

    def index(self, square: str) -> tuple[int, int]:
        """(file index, rank index), both from 0."""
        f = self.files.index(square[0].lower())
        r = int(square[1:]) - 1
        if not 0 <= r < self.ranks:
            raise ValueError(f"no square {square!r} on this board")
        return f, r

    def name(self, fi: int, ri: int) -> str:
        return f"{self.files[fi]}{ri + 1}"

    def on_board(self, square: str) -> bool:
        try:
            self.index(square)
        except (ValueError, IndexError):
            return False
        return square.lower() not in self.holes

    def box(self, square: str) -> tuple[int, int, int, int]:
        """The square's pixel box (x0, y0, x1, y1), x1 and y1 exclusive."""
        fi, ri = self.index(square)
        col = len(self.files) - 1 - fi if self.flip else fi
        row = ri if self.flip else self.ranks - 1 - ri
        x0 = self.left + col * self.square
        y0 = self.top + row * self.square
        return x0, y0, x0 + self.square, y0 + self.square

    def centre(self, square: str) -> tuple[int, int]:
        x0, y0, x1, y1 = self.box(square)
        return (x0 + x1) // 2, (y0 + y1) // 2

    def squares(self) -> list[str]:
        return [self.name(f, r) for r in range(self.ranks) for f in range(len(self.files))
                if self.name(f, r) not in self.holes]

    def hand_box(self, side_at_top: bool) -> tuple[int, int, int, int]:
        """The hand panel of the side shown at the top (or bottom) of the board."""
        x0 = self.left + self.board_w + self.right
        half = (self.board_h - self.square // 6) // 2
        y0 = self.top if side_at_top else self.top + self.board_h - half
        return x0, y0, x0 + self.hand_w - self.right, y0 + half


def make_layout(files: str, ranks: int, *, square: int | None = None, flip: bool = False,
                hands: bool = False, holes: Iterable[str] = (), banner: bool = False) -> Layout:
    return Layout(files.lower(), ranks, square or default_square(len(files), ranks), flip, hands,
                  frozenset(h.lower() for h in holes), banner)


def draw_board(files: str, ranks: int, pieces: Mapping[str, Any] | None = None, *,
               holes: Iterable[str] = (), zones: Iterable[Any] = (), flip: bool = False,
               square: int | None = None, game: str | None = None,
               last_move: Iterable[str] = (), captured: Iterable[str] = (),
               check: Iterable[str] = (), destinations: Iterable[str] = (),
               hands: Mapping[str, Mapping[str, int]] | None = None,
               selected: Iterable[str] = (), capture_only: Iterable[str] = (),
               move_only: Iterable[str] = (), checkers: Iterable[str] = (),
               arrows: Iterable[tuple[str, str]] = (), banner: str | None = None,
               side_names: Mapping[str, str] | None = None, empty_hand: str = "") -> Image.Image:
    """Draw a position and return an RGB image.

    files: the file letters from White's left (a game may skip letters: "abcdefghjk"); ranks:
    how many ranks; holes: squares that are not part of the board (drawn as
    background); zones: collections of squares to tint, each optionally as
    (squares, (r, g, b)); pieces: square -> piece (see as_piece); flip: seen from
    Black (rank 1 at the top, files reversed); game: the default game of pieces
    given without one; the marks: squares to highlight (selected: the chosen
    piece's squares; capture_only: a cross where it could only capture; move_only:
    a ring where it could move but never capture); hands:
    pieces in hand, {"w": {"P": 2}, "b": {...}}, drawn beside the board (a game with
    drops), each panel labelled with its side's name from side_names ({"w": "Blue",
    ...}; White and Black by default); check: the royal in check, framed in red;
    checkers: the pieces giving check, red corners; arrows: (from, to) pairs drawn
    as arrows over the pieces (a shot); banner: a finished game's result,
    in a strip above the board; empty_hand: the words in a hand panel that holds nothing
    (EMPTY_HAND, English, by default).
    """
    pieces = {sq.lower(): as_piece(p, game) for sq, p in (pieces or {}).items()}
    lay = make_layout(files, ranks, square=square, flip=flip, hands=hands is not None,
                      holes=holes, banner=bool(banner))
    img = empty_board(lay, zones)
    mark_last_move(img, lay, last_move)
    mark_captured(img, lay, captured)
    mark_selected(img, lay, selected)
    mark_check(img, lay, check)
    draw_pieces(img, lay, pieces)
    mark_last_move_edges(img, lay, list(last_move) + list(captured))
    mark_check_frames(img, lay, check)
    mark_checkers(img, lay, checkers)
    mark_destinations(img, lay, destinations, occupied=pieces.keys())
    mark_capture_only(img, lay, capture_only)
    mark_move_only(img, lay, move_only)
    for frm, to in arrows:
        draw_arrow(img, lay, frm, to)
    draw_coordinates(img, lay)
    if hands is not None:
        draw_hands(img, lay, hands, game or _first_game(pieces), side_names, empty_hand or EMPTY_HAND)
    if banner:
        draw_banner(img, lay, banner)
    return img.convert("RGB")


def empty_board(lay: Layout, zones: Iterable[Any] = ()) -> Image.Image:
    """The squares in the margins' colour, the zones tinted (see draw_board): RGBA."""
    img = Image.new("RGBA", (lay.width, lay.height), palette.BACKGROUND + (255,))
    draw_squares(img, lay)
    for squares, colour in _zones(zones):
        if _is_rgb(colour):
            tint_squares(img, lay, squares, colour)
        else:
            draw_squares(img, lay, squares, *colour)
    return img


def to_png(img: Image.Image, limit: int = 1_000_000) -> bytes:
    """PNG bytes of a picture, made smaller by a 256-colour palette if they would
    pass the limit (Discord shows large files slowly on phones)."""
    # zlib level 1: 80 % of a 14 x 14 image's time was compression at level 6, for files
    # only about 6 % smaller (bench/RESULTS.md); every picture stays far under the limit.
    buf = io.BytesIO()
    img.save(buf, "PNG", compress_level=1)
    if buf.tell() <= limit:
        return buf.getvalue()
    buf = io.BytesIO()
    img.convert("RGB").quantize(256, dither=Image.Dither.NONE).save(buf, "PNG", compress_level=9)
    return buf.getvalue()


# -- layers -------------------------------------------------------------------------

def draw_squares(img: Image.Image, lay: Layout, squares: Iterable[str] | None = None,
                 light=palette.LIGHT_SQUARE, dark=palette.DARK_SQUARE) -> None:
    """Paint squares (all of the board's by default) light and dark, a1 dark."""
    d = ImageDraw.Draw(img)
    for sq in (lay.squares() if squares is None else squares):
        if not lay.on_board(sq):
            continue
        fi, ri = lay.index(sq)
        colour = dark if (fi + ri) % 2 == 0 else light
        x0, y0, x1, y1 = lay.box(sq)
        d.rectangle((x0, y0, x1 - 1, y1 - 1), fill=colour)


def _is_rgb(c: Any) -> bool:
    return isinstance(c, tuple) and len(c) == 3 and all(isinstance(v, int) for v in c)


def _zones(zones: Iterable[Any]):
    """Each zone as (squares, colour): colour is an RGB tint, or a pair of RGB
    (light square, dark square) colours that replace the squares' own."""
    for z in zones:
        if isinstance(z, tuple) and len(z) == 2 and (
                _is_rgb(z[1]) or (isinstance(z[1], tuple) and len(z[1]) == 2
                                  and all(_is_rgb(c) for c in z[1]))):
            yield z[0], z[1]
        else:
            yield z, palette.ZONE_TINT


def tint_squares(img: Image.Image, lay: Layout, squares: Iterable[str],
                 tint=palette.ZONE_TINT, strength: float = palette.ZONE_TINT_STRENGTH) -> None:
    """Blend a colour over squares (a castle, a promotion zone)."""
    a = round(255 * strength)
    _wash(img, lay, squares, tuple(tint) + (a,))


def _over(img: Image.Image, top: Image.Image, at: tuple[int, int] = (0, 0)) -> None:
    """Composite an RGBA picture onto img, which may be RGBA (while drawing) or RGB
    (a finished board marked afterwards)."""
    if img.mode == "RGBA":
        img.alpha_composite(top, at)
    else:
        img.paste(top, at, top)


def _wash(img: Image.Image, lay: Layout, squares: Iterable[str], rgba) -> None:
    _tiles(img, lay, squares, _solid(lay.square, tuple(rgba)))


def _tiles(img: Image.Image, lay: Layout, squares: Iterable[str], tile: Image.Image) -> None:
    """Composite a square-sized picture over each square once (square by square: a
    whole-picture layer would cost more than the marks themselves)."""
    for sq in dict.fromkeys(squares):
        if lay.on_board(sq):
            x0, y0, _, _ = lay.box(sq)
            _over(img, tile, (x0, y0))


@lru_cache(maxsize=32)
def _solid(size: int, rgba: tuple) -> Image.Image:
    return Image.new("RGBA", (size, size), rgba)


def mark_last_move(img: Image.Image, lay: Layout, squares: Iterable[str]) -> None:
    """Wash the squares of the last move (from, to, and a multi-square piece's others)."""
    _wash(img, lay, squares, palette.LAST_MOVE)


def mark_captured(img: Image.Image, lay: Layout, squares: Iterable[str]) -> None:
    """Wash squares whose pieces were just captured (a run over several, a
    shot, en passant), in a colour of their own."""
    _wash(img, lay, squares, palette.CAPTURED)


def mark_check(img: Image.Image, lay: Layout, squares: Iterable[str]) -> None:
    """A red glow on the square of a royal piece in check (under the piece; the
    frame of mark_check_frames goes over it)."""
    glow = _glow(lay.square)
    for sq in squares:
        if lay.on_board(sq):
            x0, y0, _, _ = lay.box(sq)
            _over(img, glow, (x0, y0))


def edge_width(square: int) -> int:
    """The width of the frames around squares (check, last move)."""
    return max(3, round(square * 0.075))


def last_move_inset(square: int) -> int:
    """How far inside its square the last move's frame starts: the wash shows
    around it, at the square's corners."""
    return max(3, round(square * 0.06))


def _frame(img: Image.Image, lay: Layout, squares: Iterable[str], colour, width: int,
           inset: int = 0, corner: int | None = None) -> None:
    """A frame of a colour inside each square: all round, or only its corners (each
    side `corner` px long)."""
    _tiles(img, lay, squares, _frame_tile(lay.square, tuple(colour), width, inset, corner))


@lru_cache(maxsize=32)
def _frame_tile(size: int, colour: tuple, width: int, inset: int,
                corner: int | None) -> Image.Image:
    tile = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(tile)
    x0 = y0 = inset
    x1 = y1 = size - 1 - inset
    if corner is None:
        d.rectangle((x0, y0, x1, y1), outline=colour, width=width)
        return tile
    k = corner - 1
    for cx, cy, sx, sy in ((x0, y0, 1, 1), (x1, y0, -1, 1), (x0, y1, 1, -1), (x1, y1, -1, -1)):
        d.rectangle(_box(cx, cy, cx + sx * k, cy + sy * (width - 1)), fill=colour)
        d.rectangle(_box(cx, cy, cx + sx * (width - 1), cy + sy * k), fill=colour)
    return tile


def _box(xa: int, ya: int, xb: int, yb: int) -> tuple[int, int, int, int]:
    return min(xa, xb), min(ya, yb), max(xa, xb), max(ya, yb)


def mark_last_move_edges(img: Image.Image, lay: Layout, squares: Iterable[str]) -> None:
    """A frame inside every square of the last move (captures too), over the
    pieces: the wash alone does not show on a castle's tint, nor on a phone."""
    _frame(img, lay, squares, palette.LAST_MOVE_EDGE, last_move_edge_width(lay.square),
           inset=last_move_inset(lay.square))


def last_move_edge_width(square: int) -> int:
    return max(2, round(square * 0.05))


def mark_check_frames(img: Image.Image, lay: Layout, squares: Iterable[str]) -> None:
    """A red frame round the royal in check: it reads on any square colour, castles
    included, where the glow alone fades."""
    _frame(img, lay, squares, palette.CHECK_EDGE, edge_width(lay.square))


def checker_corner(square: int) -> int:
    """How long each side of a checker's red corners is."""
    return round(square * 0.32)


def mark_checkers(img: Image.Image, lay: Layout, squares: Iterable[str]) -> None:
    """Red corners round each piece that gives check."""
    _frame(img, lay, squares, palette.CHECK_EDGE, edge_width(lay.square),
           corner=checker_corner(lay.square))


def arrow_points(lay: Layout, frm: str, to: str) -> list[tuple[float, float]]:
    """The outline of an arrow from the centre of one square towards another's (a shot from
    a distance); none when either is off the board or they are the same."""
    if not (lay.on_board(frm) and lay.on_board(to)) or frm == to:
        return []
    s = lay.square
    (ax, ay), (bx, by) = lay.centre(frm), lay.centre(to)
    length = math.hypot(bx - ax, by - ay)
    ux, uy = (bx - ax) / length, (by - ay) / length
    nx, ny = -uy, ux
    start = min(s * 0.3, length / 3)     # leave the shooter visible
    head = min(s * 0.42, length / 2)
    shaft, wing = s * 0.07, s * 0.22     # half widths
    sx, sy = ax + ux * start, ay + uy * start
    bx, by = bx - ux * s * 0.12, by - uy * s * 0.12    # the tip short of the emptied centre
    hx, hy = bx - ux * head, by - uy * head
    return [(sx + nx * shaft, sy + ny * shaft), (hx + nx * shaft, hy + ny * shaft),
            (hx + nx * wing, hy + ny * wing), (bx, by), (hx - nx * wing, hy - ny * wing),
            (hx - nx * shaft, hy - ny * shaft), (sx - nx * shaft, sy - ny * shaft)]


def draw_arrow(img: Image.Image, lay: Layout, frm: str, to: str) -> None:
    """An arrow from the centre of one square to the centre of another (a shot
    from a distance), over the pieces, half transparent."""
    pts = arrow_points(lay, frm, to)
    if not pts:
        return
    (ax, ay), (bx, by) = lay.centre(frm), pts[3]
    wing = lay.square * 0.22
    # drawn big on the arrow's own box and shrunk: smooth edges at little cost
    pad = round(wing) + 2
    x0 = round(min(ax, bx)) - pad
    y0 = round(min(ay, by)) - pad
    w, h = round(abs(bx - ax)) + 2 * pad, round(abs(by - ay)) + 2 * pad
    mask = Image.new("L", (w * SUPERSAMPLE, h * SUPERSAMPLE), 0)
    ImageDraw.Draw(mask).polygon([((x - x0) * SUPERSAMPLE, (y - y0) * SUPERSAMPLE)
                                  for x, y in pts], fill=255)
    mask = mask.resize((w, h), Image.Resampling.LANCZOS)
    r, g, b, a = palette.ARROW
    top = Image.new("RGBA", (w, h), (r, g, b, 0))
    top.putalpha(mask.point(lambda v: v * a // 255))
    _over(img, top, (x0, y0))


def draw_banner(img: Image.Image, lay: Layout, text: str) -> None:
    """A finished game's result in the strip above the board."""
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, lay.width - 1, lay.banner_h - 1), fill=palette.BANNER)
    d.rectangle((0, lay.banner_h - max(2, lay.banner_font // 10), lay.width - 1, lay.banner_h - 1),
                fill=palette.BANNER_EDGE)
    font = load_font(COORD_FONT, lay.banner_font)
    while font.size > 10 and d.textlength(text, font=font) > lay.width - 2 * lay.left:
        font = load_font(COORD_FONT, font.size - 2)   # a long text still fits
    d.text((lay.width / 2, lay.banner_h / 2), text, font=font, fill=palette.BANNER_TEXT,
           anchor="mm", stroke_width=_bold(font.size), stroke_fill=palette.BANNER_TEXT)


def _bold(size: int) -> int:
    """A stroke that makes the light font read as bold at small sizes on a phone."""
    return max(1, round(size / 30))


def mark_destinations(img: Image.Image, lay: Layout, squares: Iterable[str],
                      occupied: Iterable[str] = ()) -> None:
    """Legal destinations: a dot on an empty square, corner marks on an occupied
    one (a capture), so that the piece stays visible."""
    occupied = {s.lower() for s in occupied}
    dot, corners = _dest_marks(lay.square)
    for sq in squares:
        if lay.on_board(sq):
            x0, y0, _, _ = lay.box(sq)
            _over(img, corners if sq.lower() in occupied else dot, (x0, y0))


def mark_selected(img: Image.Image, lay: Layout, squares: Iterable[str]) -> None:
    """Wash the square(s) of the chosen piece (all of a piece on several)."""
    _wash(img, lay, squares, palette.SELECTED)


def mark_capture_only(img: Image.Image, lay: Layout, squares: Iterable[str]) -> None:
    """A cross on squares where a piece could capture but not simply move (a Pawn's
    diagonals, a shooter's targets): used by the piece cards."""
    cross = _cross_mark(lay.square)
    for sq in squares:
        if lay.on_board(sq):
            x0, y0, _, _ = lay.box(sq)
            _over(img, cross, (x0, y0))


def mark_move_only(img: Image.Image, lay: Layout, squares: Iterable[str]) -> None:
    """A ring on squares where a piece could move but not capture (a Pawn's step
    forward, a Cannon's quiet moves): used by the piece cards."""
    ring = _ring_mark(lay.square)
    for sq in squares:
        if lay.on_board(sq):
            x0, y0, _, _ = lay.box(sq)
            _over(img, ring, (x0, y0))


RING_RADIUS = 0.17   # of a square: the ring's middle line (move_only)
# A destination's dot is a third of a square across and more, so it reads on a phone
# (README "Marks"); a capture's corners are triangles with legs this long.
DOT_RADIUS = 0.17
CAPTURE_CORNER = 0.26


@lru_cache(maxsize=16)
def _ring_mark(size: int) -> Image.Image:
    big = size * SUPERSAMPLE
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    c, r, w = big / 2, big * RING_RADIUS, big * 0.05
    d.ellipse((c - r - w / 2, c - r - w / 2, c + r + w / 2, c + r + w / 2), fill=palette.DESTINATION)
    d.ellipse((c - r + w / 2, c - r + w / 2, c + r - w / 2, c + r - w / 2), fill=(0, 0, 0, 0))
    return img.resize((size, size), Image.Resampling.LANCZOS)


@lru_cache(maxsize=16)
def _cross_mark(size: int) -> Image.Image:
    big = size * SUPERSAMPLE
    mask = Image.new("L", (big, big), 0)
    d = ImageDraw.Draw(mask)
    k, w = big * 0.2, round(big * 0.075)
    c = big / 2
    d.line((c - k, c - k, c + k, c + k), fill=255, width=w)
    d.line((c - k, c + k, c + k, c - k), fill=255, width=w)
    mask = mask.resize((size, size), Image.Resampling.LANCZOS)
    r, g, b, a = palette.CAPTURE_ONLY
    img = Image.new("RGBA", (size, size), (r, g, b, 0))
    img.putalpha(mask.point(lambda v: v * a // 255))
    return img


# The check's glow: red strongest at the centre (this alpha), gone where the gradient is
# GLOW_FADE (Image.radial_gradient: 0 at the centre, 255 at the corners).
GLOW_PEAK = 235
GLOW_FADE = 180


@lru_cache(maxsize=16)
def _glow(size: int) -> Image.Image:
    g = Image.radial_gradient("L").resize((size, size), Image.Resampling.BILINEAR)
    alpha = g.point(lambda v: max(0, min(255, int((1 - v / GLOW_FADE) * GLOW_PEAK))))
    r, gg, b, _ = palette.CHECK
    img = Image.new("RGBA", (size, size), (r, gg, b, 0))
    img.putalpha(alpha)
    return img


@lru_cache(maxsize=16)
def _dest_marks(size: int) -> tuple[Image.Image, Image.Image]:
    big = size * SUPERSAMPLE
    dot = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(dot)
    r = big * DOT_RADIUS
    c = big / 2
    d.ellipse((c - r, c - r, c + r, c + r), fill=palette.DESTINATION)
    corners = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(corners)
    k = big * CAPTURE_CORNER
    for (x, y, sx, sy) in ((0, 0, 1, 1), (big, 0, -1, 1), (0, big, 1, -1), (big, big, -1, -1)):
        d.polygon([(x, y), (x + sx * k, y), (x, y + sy * k)], fill=palette.DESTINATION)
    size2 = (size, size)
    return (dot.resize(size2, Image.Resampling.LANCZOS),
            corners.resize(size2, Image.Resampling.LANCZOS))


class Sprite(NamedTuple):
    """One figure as the board shows it: render_glyph's arguments, and where it goes
    (upright: a figure over two squares turned to stand one above the other)."""
    glyph: str
    scheme: str
    promoted: bool
    direction: str | None
    span: int
    upright: bool
    x: int
    y: int
    size: int   # the figure's height in px (a square's, or a hand's icon)

    @property
    def key(self) -> str:
        """A name for the figure alone (not where it stands): the sprite sheet's index."""
        return ".".join((self.glyph, self.scheme, "+" if self.promoted else "",
                         self.direction or "", f"{self.span}{'u' if self.upright else ''}"))

    def image(self) -> Image.Image:
        im = render_glyph(self.glyph, self.scheme, self.size, self.promoted, self.direction,
                          self.span)
        return im.transpose(Image.Transpose.ROTATE_90) if self.upright else im


def piece_sprites(lay: Layout, pieces: Mapping[str, Piece]) -> list[Sprite]:
    """Every piece's figure and where it goes; a piece on two squares as one figure over both."""
    out: list[Sprite] = []
    done: set[str] = set()
    for sq, p in pieces.items():
        if sq in done or not lay.on_board(sq):
            continue
        scheme = palette.scheme_name(p.game, p.colour)
        gid = glyph_id(p.game, p.code, p.promoted, p.colour)
        other = _partner(lay, sq, p, pieces)
        if other:
            ax0, ay0, _, _ = lay.box(sq)
            bx0, by0, _, _ = lay.box(other)
            out.append(Sprite(gid, scheme, p.promoted, None, 2, ax0 == bx0,
                              min(ax0, bx0), min(ay0, by0), lay.square))
            done.update((sq, other))
            continue
        x0, y0, _, _ = lay.box(sq)
        out.append(Sprite(gid, scheme, p.promoted,
                          screen_direction(gid, p.state, p.colour, lay.flip), 1, False,
                          x0, y0, lay.square))
        done.add(sq)
    return out


def draw_pieces(img: Image.Image, lay: Layout, pieces: Mapping[str, Piece]) -> None:
    """Every piece on its square; a piece on two squares as one figure over both."""
    for sprite in piece_sprites(lay, pieces):
        _over(img, sprite.image(), (sprite.x, sprite.y))


def _partner(lay: Layout, sq: str, p: Piece, pieces: Mapping[str, Piece]) -> str | None:
    """The other square of a piece standing on two, if the same piece stands there."""
    steps = partner_steps(p.game, p.code, p.promoted, p.state)
    if len(steps) != 1:
        return None
    fi, ri = lay.index(sq)
    fi2, ri2 = fi + steps[0][0], ri + steps[0][1]
    if not (0 <= fi2 < len(lay.files) and 0 <= ri2 < lay.ranks):
        return None
    other = lay.name(fi2, ri2)
    q = pieces.get(other)
    if q is None or (q.game, q.code, q.promoted, q.colour) != (p.game, p.code, p.promoted, p.colour):
        return None
    return other


def draw_coordinates(img: Image.Image, lay: Layout) -> None:
    """File letters under the board and rank numbers on its left, in the game's own
    lettering, under every column and row that has a square."""
    d = ImageDraw.Draw(img)
    font = load_font(COORD_FONT, coordinate_size(lay.square))
    bold = {"stroke_width": _bold(font.size), "stroke_fill": palette.COORDINATES}
    cols = {lay.index(sq)[0] for sq in lay.squares()}
    rows = {lay.index(sq)[1] for sq in lay.squares()}
    y_letters = lay.top + lay.board_h + lay.bottom / 2
    # letters are made bold sideways only (drawn again shifted left and right): a stroke all
    # round would fill the gap under the dot of an i or a j (an i read as an l)
    wide = range(-bold["stroke_width"], bold["stroke_width"] + 1)
    for fi in cols:
        x0, _, x1, _ = lay.box(lay.name(fi, 0))
        for dx in wide:
            d.text(((x0 + x1) / 2 + dx, y_letters), lay.files[fi], font=font,
                   fill=palette.COORDINATES, anchor="mm")
    for ri in rows:
        _, y0, _, y1 = lay.box(lay.name(0, ri))
        d.text((lay.left / 2, (y0 + y1) / 2), str(ri + 1), font=font,
               fill=palette.COORDINATES, anchor="mm", **bold)


def coordinate_size(square: int) -> int:
    """The coordinates' font size: about 11 px once a phone shrinks a 14 x 14 board
    to 400 px wide."""
    return max(12, round(square * 0.36))


DEFAULT_SIDE_NAMES = {"w": "White", "b": "Black"}


def hand_label_height(lay: Layout) -> int:
    """The strip at the top of a hand panel that holds its side's name."""
    return round(hand_font_size(lay.square) * 1.6)


def hand_font_size(square: int) -> int:
    return max(12, round(square * 0.3))


EMPTY_HAND = "no pieces\nin hand"


class HandSprite(NamedTuple):
    """A kind in a hand: its figure, how many, and where the count's text starts (its
    left end, at mid-height)."""
    sprite: Sprite
    count: int
    text_at: tuple[int, float]


def draw_hands(img: Image.Image, lay: Layout, hands: Mapping[str, Mapping[str, int]],
               game: str | None = None, side_names: Mapping[str, str] | None = None,
               empty_hand: str = "") -> None:
    """Pieces in hand beside the board, with counts: the side playing from the top
    of the picture at the top, the other at the bottom, each panel headed by its
    side's name, each kind once with its count (x2) if more than one, in the game's
    order of a hand (hand_order)."""
    if not lay.hand_w:
        return
    draw_hand_panels(img, lay, game, side_names)
    d = ImageDraw.Draw(img)
    font = load_font(COORD_FONT, hand_font_size(lay.square))
    kinds, empty = hand_sprites(lay, hands, game)
    for at in empty:
        d.text(at, empty_hand or EMPTY_HAND, font=font, fill=palette.PANEL_MUTED, anchor="mm", align="center")
    for item in kinds:
        _over(img, item.sprite.image(), (item.sprite.x, item.sprite.y))
        if item.count > 1:
            d.text(item.text_at, f"\u00d7{item.count}", font=font, fill=palette.HAND_TEXT,
                   anchor="lm")


def draw_hand_panels(img: Image.Image, lay: Layout, game: str | None = None,
                     side_names: Mapping[str, str] | None = None) -> None:
    """The two hands' panels, each headed by its side's name, without pieces."""
    if not lay.hand_w:
        return
    d = ImageDraw.Draw(img)
    names = side_names or DEFAULT_SIDE_NAMES
    font = load_font(COORD_FONT, hand_font_size(lay.square))
    label_h = hand_label_height(lay)
    top_side = "w" if lay.flip else "b"
    for side in ("w", "b"):
        x0, y0, x1, y1 = lay.hand_box(side == top_side)
        d.rounded_rectangle((x0, y0, x1, y1), radius=max(4, lay.square // 10),
                            fill=palette.HAND_PANEL)
        label = palette.HAND_LABEL[palette.scheme_name(game, side)]
        d.text(((x0 + x1) / 2, y0 + label_h / 2 + 2), names[side], font=font,
               fill=label, anchor="mm", stroke_width=_bold(font.size), stroke_fill=label)


def hand_sprites(lay: Layout, hands: Mapping[str, Mapping[str, int]], game: str | None = None
                 ) -> tuple[list[HandSprite], list[tuple[float, float]]]:
    """What the hand panels hold: each kind in hand (figure, count, where), and the middle
    of each panel that holds none (where EMPTY_HAND goes)."""
    if not lay.hand_w:
        return [], []
    icon = round(lay.square * 0.72)
    label_h = hand_label_height(lay)
    top_side = "w" if lay.flip else "b"
    order = hand_order(game)
    kinds_out: list[HandSprite] = []
    empty: list[tuple[float, float]] = []
    for side in ("w", "b"):
        at_top = side == top_side
        x0, y0, x1, y1 = lay.hand_box(at_top)
        kinds = sorted(((c, n) for c, n in (hands.get(side) or {}).items() if n > 0),
                       key=lambda cn: (_rank_in(order, cn[0]), cn[0]))
        step = icon + max(2, lay.square // 12)
        first = y0 + label_h + 2     # where the pieces may start, under the label
        if not kinds:
            empty.append(((x0 + x1) / 2, (first + y1) / 2))
        scheme = palette.scheme_name(game, side)
        for i, (code, n) in enumerate(kinds):
            y = first + i * step if at_top else y1 - 6 - (i + 1) * step
            if y < first or y + icon > y1:
                break  # no room left: more kinds than the panel holds
            gid = glyph_id(game, code, False, side)
            sprite = Sprite(gid, scheme, False, screen_direction(gid, None, side, False), 1,
                            False, x0 + 6, y, icon)
            kinds_out.append(HandSprite(sprite, n, (x0 + 10 + icon, y + icon / 2)))
    return kinds_out, empty


def hand_order(game: str | None) -> tuple[str, ...]:
    """The order of the kinds in a hand: the game's drop order (as VFEN writes a hand),
    else the order its data declares the pieces; none for an unknown game."""
    import rules
    try:
        g = rules.game(game) if game else None
    except rules.RulesError:
        g = None
    if g is None:
        return ()
    return g.drop_order or tuple(t.key for t in g.types.values())


def _rank_in(order: tuple[str, ...], code: str) -> int:
    return order.index(code) if code in order else len(order)


def _first_game(pieces: Mapping[str, Piece]) -> str | None:
    for p in pieces.values():
        if p.game:
            return p.game
    return None
