"""Text that users wrote (players' names), drawn in any script the fonts at hand cover.

The shipped Noto Sans Light covers Latin, Greek and Cyrillic. A character it lacks is
drawn in the first fallback font that has it: fonts named in ``FALLBACK_FONTS``, looked
for in ``$FAIRYPOST_FONTS``, the shipped fonts' folder and the system's font folders
(Noto Sans CJK, DejaVu Sans and such, where the machine has them). A run of characters no
font covers is drawn as one "…" (never as empty boxes); a name with nothing drawable at
all is drawn as the caller's stand-in.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from PIL import ImageDraw, ImageFont

from .pen import font_dirs, font_path, load_font

MAIN_FONT = "NotoSans-Light.ttf"
FALLBACK_FONTS = ("NotoSans-Regular.ttf", "DejaVuSans.ttf", "NotoSansCJK-Regular.ttc",
                  "NotoSansCJKsc-Regular.otf", "NotoSansArabic-Regular.ttf",
                  "NotoSansHebrew-Regular.ttf", "NotoSansDevanagari-Regular.ttf",
                  "NotoSansThai-Regular.ttf", "DroidSansFallbackFull.ttf", "unifont.ttf")
SYSTEM_FONT_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts", "/Library/Fonts",
                    "/System/Library/Fonts", os.path.expanduser("~/.fonts"), "C:/Windows/Fonts")
ELLIPSIS = "\u2026"
_NOTDEF_PROBE = "\uffff"  # a noncharacter: every font draws its missing-glyph box for it


@lru_cache(maxsize=1)
def font_chain() -> tuple[str, ...]:
    """The main font's path, then each fallback font found (first folder wins)."""
    found: dict[str, str] = {}
    wanted = set(FALLBACK_FONTS)
    for folder in [*font_dirs(), *(Path(d) for d in SYSTEM_FONT_DIRS)]:
        if not folder.is_dir():
            continue
        for root, _dirs, files in os.walk(folder):  # one walk of each folder, whatever it holds
            for name in wanted.intersection(files).difference(found):
                found[name] = os.path.join(root, name)
    return (font_path(MAIN_FONT), *(found[n] for n in FALLBACK_FONTS if n in found))


@lru_cache(maxsize=16)
def _probe_font(path: str) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, 24)


@lru_cache(maxsize=16)
def _notdef(path: str) -> tuple:
    mask = _probe_font(path).getmask(_NOTDEF_PROBE)
    return mask.size, bytes(mask)


@lru_cache(maxsize=8192)
def has_glyph(path: str, ch: str) -> bool:
    """Whether the font at ``path`` draws ``ch`` (not its missing-glyph box)."""
    if ch.isspace():
        return True
    mask = _probe_font(path).getmask(ch)
    return (mask.size, bytes(mask)) != _notdef(path)


def font_for(ch: str) -> str | None:
    """The first font of the chain that has ``ch``; None if none has."""
    return next((p for p in font_chain() if has_glyph(p, ch)), None)


def runs(text: str) -> list[tuple[str, str]]:
    """``text`` as (font path, characters) runs; uncovered runs become one "…" in the main
    font. Combining marks stay with the character before them."""
    out: list[list[str]] = []
    main = font_chain()[0]
    for ch in text:
        path = font_for(ch)
        if path is None:
            if out and out[-1][0] == main and out[-1][1].endswith(ELLIPSIS):
                continue
            path, ch = main, ELLIPSIS
        if out and out[-1][0] == path:
            out[-1][1] += ch
        else:
            out.append([path, ch])
    return [(p, t) for p, t in out]


def drawable(text: str) -> bool:
    """Whether any character of ``text`` (not a space) has a font."""
    return any(not ch.isspace() and font_for(ch) is not None for ch in text)


@lru_cache(maxsize=128)
def _font(path: str, size: int) -> ImageFont.FreeTypeFont:
    if Path(path).name == MAIN_FONT:
        return load_font(MAIN_FONT, size)
    return ImageFont.truetype(path, size)


def width(draw: ImageDraw.ImageDraw, text: str, size: int) -> float:
    return sum(draw.textlength(t, font=_font(p, size)) for p, t in runs(text))


def fit(draw: ImageDraw.ImageDraw, text: str, size: int, max_width: float) -> str:
    """``text``, cut short with "…" if it is wider than ``max_width``."""
    if width(draw, text, size) <= max_width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # the longest start that fits with the ellipsis
        mid = (lo + hi + 1) // 2
        if width(draw, text[:mid].rstrip() + ELLIPSIS, size) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + ELLIPSIS


def draw_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, fill,
              *, bold: int = 0, anchor_right: bool = False) -> None:
    """``text`` with its left end (or its right end) at x, its middle at y, in the font
    chain; ``bold``: a stroke of that width in the same colour (the light font on a phone)."""
    x, y = xy
    if anchor_right:
        x -= width(draw, text, size)
    for path, part in runs(text):
        font = _font(path, size)
        draw.text((x, y), part, font=font, fill=fill, anchor="lm", stroke_width=bold, stroke_fill=fill)
        x += draw.textlength(part, font=font)
