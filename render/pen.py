"""A tiny vector toolkit on Pillow, so that every glyph shares one look.

A glyph is described in a box of 100 x 100 units (y down) and drawn as masks at
SUPERSAMPLE times the requested size; the caller downsamples the finished picture
with LANCZOS, which gives anti-aliased edges without any native library.

A glyph is a stack of layers. Each layer has a body (filled with the piece colour,
with an outline of the contrast colour around it) and details (lines of the
contrast colour inside the body). Layers are painted in order, so a front layer's
outline separates it from a back layer: that is how compound pieces (Rook + Knight)
stay readable.
"""

from __future__ import annotations

import math
import os
import re
from contextlib import contextmanager
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageFont

from rules.resources import data_path

SUPERSAMPLE = 4
UNITS = 100.0

# Shape modes: what a shape does to the current layer.
FILL = "fill"      # add to the body, covering details beneath it
HOLE = "hole"      # cut out of the body (the outline then rings the hole)
DETAIL = "detail"  # contrast-coloured marks inside the body
CLEAR = "clear"    # erase details back to the body colour


def font_dirs() -> list[Path]:
    """Where the fonts are looked for, in order: $FAIRYPOST_FONTS; the shipped data's fonts/."""
    return [Path(d) for d in (os.environ.get("FAIRYPOST_FONTS"),) if d] + [data_path("fonts")]


@cache
def font_path(name: str) -> str:
    """Path of a shipped font (data/fonts/README.md says which and why)."""
    dirs = font_dirs()
    for d in dirs:
        path = d / name
        if path.exists():
            return str(path)
    raise FileNotFoundError(f"font {name} not found in any of "
                            f"{', '.join(str(d) for d in dirs)}")


@lru_cache(maxsize=64)
def load_font(name: str, size: int) -> ImageFont.FreeTypeFont:
    """A shipped font at a pixel size (cached)."""
    return ImageFont.truetype(font_path(name), size)


class Layer:
    def __init__(self, size: tuple[int, int]):
        self.body = Image.new("L", size, 0)
        self.detail = Image.new("L", size, 0)
        self.body_draw = ImageDraw.Draw(self.body)
        self.detail_draw = ImageDraw.Draw(self.detail)
        # Outline width of this layer, in units; None means the pen's default.
        self.outline: float | None = None


class Pen:
    """Draws shapes given in units onto layers of pixel masks.

    width and height are the pixel size of the supersampled canvas; the shorter
    side is UNITS long, so a square canvas is 100 x 100 units and a figure spanning
    two squares is 200 x 100.
    """

    def __init__(self, width: int, height: int):
        self.size = (width, height)
        self.scale = min(width, height) / UNITS
        self.units_w = width / self.scale
        self.units_h = height / self.scale
        self.layers: list[Layer] = []
        # Affine transform stack, as (a, b, c, d, e, f): x' = a x + b y + c, y' = d x + e y + f.
        self._m = (1.0, 0.0, 0.0, 0.0, 1.0, 0.0)
        self.layer()

    # -- layers and transforms -------------------------------------------------

    def layer(self, outline: float | None = None) -> Layer:
        """Start a new layer on top of the others."""
        lay = Layer(self.size)
        lay.outline = outline
        self.layers.append(lay)
        return lay

    @property
    def current(self) -> Layer:
        return self.layers[-1]

    @contextmanager
    def transform(self, dx: float = 0.0, dy: float = 0.0, s: float = 1.0,
                  rot: float = 0.0, about: tuple[float, float] = (50.0, 50.0),
                  mirror: bool = False):
        """Within the block, shapes are mirrored (left-right about `about`),
        scaled by s and rotated by rot degrees (clockwise on screen) about
        `about`, then moved by (dx, dy)."""
        saved = self._m
        cx, cy = about
        r = math.radians(rot)
        cos, sin = math.cos(r) * s, math.sin(r) * s
        mx = -1.0 if mirror else 1.0
        # local: p -> about + R*S*(M*(p - about)) + d
        a, b = cos * mx, -sin
        d, e = sin * mx, cos
        c = cx + dx - a * cx - b * cy
        f = cy + dy - d * cx - e * cy
        A, B, C, D, E, F = saved
        self._m = (A * a + B * d, A * b + B * e, A * c + B * f + C,
                   D * a + E * d, D * b + E * e, D * c + E * f + F)
        try:
            yield
        finally:
            self._m = saved

    def _pt(self, x: float, y: float) -> tuple[float, float]:
        a, b, c, d, e, f = self._m
        return ((a * x + b * y + c) * self.scale, (d * x + e * y + f) * self.scale)

    def _len(self, w: float) -> float:
        a, b, _, d, e, _ = self._m
        return w * math.sqrt(abs(a * e - b * d)) * self.scale

    # -- painting --------------------------------------------------------------

    def _paint(self, mode: str, fn) -> None:
        """Call fn(draw, value) on the masks that `mode` touches."""
        lay = self.current
        if mode == FILL:
            fn(lay.body_draw, 255)
            fn(lay.detail_draw, 0)
        elif mode == HOLE:
            fn(lay.body_draw, 0)
            fn(lay.detail_draw, 0)
        elif mode == DETAIL:
            fn(lay.detail_draw, 255)
        elif mode == CLEAR:
            fn(lay.detail_draw, 0)
        else:
            raise ValueError(f"unknown mode {mode!r}")

    def poly(self, pts, mode: str = FILL) -> None:
        px = [self._pt(x, y) for x, y in pts]
        self._paint(mode, lambda dr, v: dr.polygon(px, fill=v))

    def ellipse(self, cx: float, cy: float, rx: float, ry: float | None = None,
                mode: str = FILL, steps: int = 48) -> None:
        ry = rx if ry is None else ry
        pts = [(cx + rx * math.cos(2 * math.pi * i / steps),
                cy + ry * math.sin(2 * math.pi * i / steps)) for i in range(steps)]
        self.poly(pts, mode)

    def rect(self, x0: float, y0: float, x1: float, y1: float, r: float = 0.0,
             mode: str = FILL) -> None:
        if r <= 0:
            self.poly([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], mode)
            return
        r = min(r, (x1 - x0) / 2, (y1 - y0) / 2)
        pts = []
        for (cx, cy, a0) in ((x1 - r, y0 + r, -90), (x1 - r, y1 - r, 0),
                             (x0 + r, y1 - r, 90), (x0 + r, y0 + r, 180)):
            for i in range(7):
                a = math.radians(a0 + 15 * i)
                pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
        self.poly(pts, mode)

    def line(self, pts, w: float, mode: str = FILL, closed: bool = False,
             caps: bool = True) -> None:
        """A stroke of width w through pts, with round joints (and round caps)."""
        pts = list(pts)
        if closed:
            pts = pts + [pts[0]]
        px = [self._pt(x, y) for x, y in pts]
        wp = self._len(w)
        r = wp / 2

        def fn(dr, v):
            dr.line(px, fill=v, width=max(1, round(wp)), joint="curve")
            if caps:
                for (x, y) in (px[0], px[-1]):
                    dr.ellipse((x - r, y - r, x + r, y + r), fill=v)
        self._paint(mode, fn)

    def arc(self, cx: float, cy: float, rx: float, ry: float, a0: float, a1: float,
            w: float, mode: str = FILL, caps: bool = True) -> None:
        """A stroked elliptic arc from angle a0 to a1 (degrees, clockwise from east)."""
        n = max(8, int(abs(a1 - a0) / 6))
        pts = [(cx + rx * math.cos(math.radians(a0 + (a1 - a0) * i / n)),
                cy + ry * math.sin(math.radians(a0 + (a1 - a0) * i / n)))
               for i in range(n + 1)]
        self.line(pts, w, mode, caps=caps)

    def path(self, d: str, mode: str = FILL) -> None:
        """Fill each closed subpath of an SVG path (M L H V C S Q Z, absolute or
        relative; no arcs)."""
        for sub in parse_path(d):
            if len(sub) >= 3:
                self.poly(sub, mode)

    def stroke_path(self, d: str, w: float, mode: str = FILL) -> None:
        for sub in parse_path(d):
            self.line(sub, w, mode)

    def glyph(self, ch: str, box: tuple[float, float, float, float],
              font: str = "NotoSansSymbols2-Regular.ttf", mode: str = FILL,
              align: str = "bottom") -> None:
        """A font glyph as a body: its silhouette filled, its cut-outs as details.

        The glyph is scaled to fit box (x0, y0, x1, y1), centred across, and
        aligned to the box bottom (or centre). Only translation and scaling of the
        current transform apply to it."""
        x0, y0 = self._pt(box[0], box[1])
        x1, y1 = self._pt(box[2], box[3])
        x0, x1 = min(x0, x1), max(x0, x1)
        y0, y1 = min(y0, y1), max(y0, y1)
        mask = _glyph_mask(ch, font, int(x1 - x0), int(y1 - y0))
        body = fill_holes(mask)
        gw, gh = mask.size
        ox = int(round(x0 + (x1 - x0 - gw) / 2))
        oy = int(round(y1 - gh)) if align == "bottom" else int(round(y0 + (y1 - y0 - gh) / 2))
        lay = self.current
        if mode == FILL:
            cut = ImageChops.subtract(body, mask)
            _paste_max(lay.body, body, (ox, oy))
            _paste_min(lay.detail, ImageChops.invert(body), (ox, oy))
            _paste_max(lay.detail, cut, (ox, oy))
        elif mode == DETAIL:
            _paste_max(lay.detail, mask, (ox, oy))
        else:
            raise ValueError("glyph() supports FILL and DETAIL")

    # -- rendering -------------------------------------------------------------

    def render(self, fill, line, detail, outline: float = 2.6) -> Image.Image:
        """Paint the layers: outline (dilated body) in `line`, body in `fill`,
        details in `detail`. Returns an RGBA image at the supersampled size."""
        out = Image.new("RGBA", self.size, (0, 0, 0, 0))
        for lay in self.layers:
            if lay.body.getbbox() is None:
                continue
            w = outline if lay.outline is None else lay.outline
            ring = dilate(lay.body, self.scale * w)
            _over(out, line, ring)
            _over(out, fill, lay.body)
            _over(out, detail, ImageChops.multiply(lay.detail, lay.body))
        return out


def _over(img: Image.Image, colour, mask: Image.Image) -> None:
    """Composite a solid colour through a mask onto img, in place."""
    colour = tuple(colour)
    alpha = mask if len(colour) == 3 or colour[3] == 255 else \
        mask.point(lambda v, a=colour[3]: v * a // 255)
    top = Image.new("RGBA", img.size, colour[:3] + (0,))
    top.putalpha(alpha)
    img.alpha_composite(top)


def _paste_max(dst: Image.Image, src: Image.Image, at: tuple[int, int]) -> None:
    region = Image.new("L", dst.size, 0)
    region.paste(src, at)
    dst.paste(ImageChops.lighter(dst, region))


def _paste_min(dst: Image.Image, src: Image.Image, at: tuple[int, int]) -> None:
    region = Image.new("L", dst.size, 255)
    region.paste(src, at)
    dst.paste(ImageChops.darker(dst, region))


def dilate(mask: Image.Image, radius: float) -> Image.Image:
    """Grow a mask by a round brush of the given radius (pixels).

    The union of the mask shifted to points on a circle: for shapes at least a
    couple of pixels wide that fills the whole ring, keeps corners round, and costs
    a few dozen C-level operations. The canvas keeps a margin, so the wrap-around of
    ImageChops.offset brings in only empty pixels."""
    r = max(1.0, radius)
    out = mask
    n = max(8, int(2 * math.pi * r / 2.0))
    done = set()
    for i in range(n):
        a = 2 * math.pi * i / n
        d = (int(round(r * math.cos(a))), int(round(r * math.sin(a))))
        if d not in done:
            done.add(d)
            out = ImageChops.lighter(out, ImageChops.offset(mask, *d))
    return out


_ZERO_RUN = re.compile(rb"\x00+")


def fill_holes(mask: Image.Image) -> Image.Image:
    """The silhouette of a binary mask: every pixel not reachable from outside.

    A flood fill over runs of empty pixels (4-connected), so that it stays fast in
    pure Python: ImageDraw.floodfill works pixel by pixel and is far slower."""
    w, h = mask.size
    w2, h2 = w + 2, h + 2
    pad = Image.new("L", (w2, h2), 0)
    pad.paste(mask.point(lambda v: 255 if v >= 128 else 0), (1, 1))
    data = pad.tobytes()
    rows = [[(m.start() - y * w2, m.end() - y * w2)
             for m in _ZERO_RUN.finditer(data, y * w2, (y + 1) * w2)] for y in range(h2)]
    seen = [[False] * len(r) for r in rows]
    stack = [(0, i) for i in range(len(rows[0]))]
    for _, i in stack:
        seen[0][i] = True
    while stack:
        y, i = stack.pop()
        s, e = rows[y][i]
        for ny in (y - 1, y + 1):
            if 0 <= ny < h2:
                for j, (s2, e2) in enumerate(rows[ny]):
                    if s2 < e and e2 > s and not seen[ny][j]:
                        seen[ny][j] = True
                        stack.append((ny, j))
    out = bytearray(data)
    for y in range(h2):
        for i, (s, e) in enumerate(rows[y]):
            if not seen[y][i]:
                out[y * w2 + s:y * w2 + e] = b"\xff" * (e - s)
    return Image.frombytes("L", (w2, h2), bytes(out)).crop((1, 1, w + 1, h + 1))


@lru_cache(maxsize=256)
def _glyph_mask(ch: str, font: str, box_w: int, box_h: int) -> Image.Image:
    """A binary mask of the glyph's ink, cropped to the ink and scaled to fit
    box_w x box_h (font boxes include side bearings, which would off-centre it)."""
    def ink(size: int) -> Image.Image:
        f = load_font(font, size)
        x0, y0, x1, y1 = f.getbbox(ch)
        img = Image.new("L", (x1 - x0 + 8, y1 - y0 + 8), 0)
        ImageDraw.Draw(img).text((4 - x0, 4 - y0), ch, font=f, fill=255)
        img = img.point(lambda v: 255 if v >= 128 else 0)
        return img.crop(img.getbbox())
    probe = ink(400)
    k = min(box_w / probe.size[0], box_h / probe.size[1])
    return ink(max(4, int(400 * k)))


# -- SVG path subset ------------------------------------------------------------

_TOKEN = re.compile(r"[MmLlHhVvCcSsQqZz]|-?(?:\d+\.?\d*|\.\d+)(?:e-?\d+)?")


def parse_path(d: str, steps: int = 14) -> list[list[tuple[float, float]]]:
    """Flatten an SVG path (M L H V C S Q Z) into lists of points."""
    toks = _TOKEN.findall(d)
    subs: list[list[tuple[float, float]]] = []
    cur: list[tuple[float, float]] = []
    x = y = 0.0
    sx = sy = 0.0
    last_ctrl = None
    cmd = None
    i = 0

    def num():
        nonlocal i
        v = float(toks[i])
        i += 1
        return v

    while i < len(toks):
        if toks[i].isalpha():
            cmd = toks[i]
            i += 1
            if cmd in "Zz":
                if cur:
                    subs.append(cur)
                cur = []
                x, y = sx, sy
                last_ctrl = None
                continue
        rel = cmd.islower()
        c = cmd.upper()
        ox, oy = (x, y) if rel else (0.0, 0.0)
        if c == "M":
            if cur:
                subs.append(cur)
            x, y = ox + num(), oy + num()
            sx, sy = x, y
            cur = [(x, y)]
            cmd = "l" if rel else "L"
            last_ctrl = None
        elif c == "L":
            x, y = ox + num(), oy + num()
            cur.append((x, y))
            last_ctrl = None
        elif c == "H":
            x = ox + num()
            cur.append((x, y))
            last_ctrl = None
        elif c == "V":
            y = (y if rel else 0.0) + num()
            cur.append((x, y))
            last_ctrl = None
        elif c in "CS":
            if c == "C":
                x1, y1 = ox + num(), oy + num()
            else:
                x1, y1 = (2 * x - last_ctrl[0], 2 * y - last_ctrl[1]) if last_ctrl else (x, y)
            x2, y2 = ox + num(), oy + num()
            x3, y3 = ox + num(), oy + num()
            for k in range(1, steps + 1):
                t = k / steps
                u = 1 - t
                a, b, c, e = u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t
                cur.append((a * x + b * x1 + c * x2 + e * x3, a * y + b * y1 + c * y2 + e * y3))
            x, y = x3, y3
            last_ctrl = (x2, y2)
        elif c == "Q":
            x1, y1 = ox + num(), oy + num()
            x2, y2 = ox + num(), oy + num()
            for k in range(1, steps + 1):
                t = k / steps
                u = 1 - t
                cur.append((u * u * x + 2 * u * t * x1 + t * t * x2,
                            u * u * y + 2 * u * t * y1 + t * t * y2))
            x, y = x2, y2
            last_ctrl = None
        else:
            raise ValueError(f"unsupported path command {cmd!r}")
    if cur:
        subs.append(cur)
    return subs
