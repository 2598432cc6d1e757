"""A game as an animated GIF: one frame per position, one orientation, one palette.

Every frame is the board the bot would post (last move framed, check marked, the move
just played above it), seen from one side throughout. A long game stays small: each frame
after the first keeps only the pixels that changed, the rest made transparent (one
palette index kept free for that), and Pillow stores just the box around them; LZW packs
the transparent runs to almost nothing. The palette is made once, from the start, the
middle and the end of the game, and every frame is mapped to it without dithering.
"""
from __future__ import annotations

import io
from collections.abc import Callable, Iterable

from PIL import Image, ImageChops

from language import ENGLISH, Language

from .position import board_image
from .result import position_result_text

#: A frame's square in pixels: a 14 x 14 board about 620 px wide, readable on a phone.
REPLAY_SQUARE = 42
FRAME_MS = 900
FIRST_MS = 1500   # the start position, and
LAST_MS = 4000    # the final one, stay longer


def positions(start, moves: Iterable[str], lang: Language = ENGLISH) -> tuple[list, list[str]]:
    """start, then the position after each move (LAN or SAN, as rules reads them); and
    each frame's caption: the game's name, then the move just played ("12... Nf6")."""
    out, captions = [start], [lang.data(start.game.name)]
    for text in moves:
        pos = out[-1]
        move = pos.parse(text)
        number = f"{pos.fullmove}." if pos.side == 0 else f"{pos.fullmove}..."
        captions.append(f"{number} {pos.san(move)}")
        out.append(pos.play(text))
    return out, captions


#: The palette index that means "as in the frame before"; real colours use the others.
UNCHANGED = 255


def _palette_of(frames: list[Image.Image]) -> Image.Image:
    """One palette for the whole game, from a few frames side by side (255 colours: the
    last index is UNCHANGED)."""
    picks = [frames[0], frames[len(frames) // 2], frames[-1]]
    w, h = picks[0].size
    strip = Image.new("RGB", (w * len(picks), h))
    for i, frame in enumerate(picks):
        strip.paste(frame, (i * w, 0))
    return strip.quantize(colors=UNCHANGED, method=Image.Quantize.MEDIANCUT)


def replay_gif(start, moves: Iterable[str], *, flip: bool = False,
               square: int = REPLAY_SQUARE, result: str | None = None,
               progress: Callable[[int, int], None] | None = None, lang: Language = ENGLISH) -> bytes:
    """The game from `start` through `moves` as GIF bytes, seen from Black if flip.

    Each frame's banner names the move just played; the last one adds the result
    (render.result_text of the stored result; by default the last position's own
    ending). progress(done, total) is called per frame. Its words are in ``lang``."""
    boards, captions = positions(start, moves, lang)
    total = len(boards)
    ending = result if result is not None else position_result_text(boards[-1], lang)
    if ending:
        captions[-1] = f"{captions[-1]}  {ending}" if total > 1 else ending
    frames = []
    for i, pos in enumerate(boards):
        frames.append(board_image(pos, flip=flip, square=square, result=captions[i], lang=lang))
        if progress is not None:
            progress(i + 1, total)
    size = frames[0].size
    if any(f.size != size for f in frames):
        # a banner or a hand panel changes the height: every frame gets the largest canvas
        width = max(f.size[0] for f in frames)
        height = max(f.size[1] for f in frames)
        canvas = []
        for f in frames:
            c = Image.new("RGB", (width, height), f.getpixel((0, 0)))
            c.paste(f, (0, height - f.size[1]))
            canvas.append(c)
        frames = canvas
    palette = _palette_of(frames)
    indexed = [f.quantize(palette=palette, dither=Image.Dither.NONE) for f in frames]
    deltas = [indexed[0]] + [_changes(before, after) for before, after in zip(indexed, indexed[1:], strict=False)]
    durations = [FRAME_MS] * total
    durations[0] = FIRST_MS
    durations[-1] = LAST_MS
    out = io.BytesIO()
    # disposal 1: each frame is drawn over the one before, so UNCHANGED shows it through
    deltas[0].save(out, format="GIF", save_all=True, append_images=deltas[1:],
                   duration=durations, loop=0, optimize=False, disposal=1,
                   transparency=UNCHANGED, palette=_full(palette))
    return out.getvalue()


def _full(palette: Image.Image) -> list[int]:
    """The palette as all 256 entries: the file's one colour table, UNCHANGED included
    (a shorter table leaves the transparent index outside it, which decoders misread)."""
    return (palette.getpalette() + [0] * 768)[:768]


def _indices(frame: Image.Image) -> Image.Image:
    """A palette image's indices as a greyscale image (no palette lookup)."""
    return Image.frombytes("L", frame.size, frame.tobytes())


def _changes(before: Image.Image, after: Image.Image) -> Image.Image:
    """`after` with every pixel that `before` already shows set to UNCHANGED."""
    same = ImageChops.difference(_indices(before), _indices(after)).point(
        [255] + [0] * 255)
    delta = after.copy()
    delta.paste(UNCHANGED, mask=same)
    return delta
