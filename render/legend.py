"""A legend for a position: every kind of piece on the board or in hand, with its
figure (in each colour present), its letter as the game writes it, and its name
(per side where the sides call it differently).

    legend_entries(pos) -> [LegendEntry]     what the legend lists, in the game's order
    legend_image(pos)   -> RGB image          a second picture to send with the board
    legend_png(pos)     -> PNG bytes

Its words (title, names, "in hand") are in the reader's language: ``lang=``, English by
default.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from language import ENGLISH, Language

from . import palette
from .board import to_png
from .glyphs import piece_image
from .pen import load_font

FONT = "NotoSans-Light.ttf"
_COLOURS = "wb"


@dataclass(frozen=True)
class LegendEntry:
    key: str                           # the type's key: "N", "+N"
    letter: str                        # as the game writes it (SAN): "N", "+N"
    colours: tuple[str, ...]           # the colours present ("w", "b")
    names: tuple[tuple[str, str], ...]  # (colour, name) for each colour present
    states: tuple[tuple[str, str | None], ...]  # (colour, a state to draw it in)
    in_hand_only: bool = False         # held in hand but not on the board
    sided: bool = False                # the sides call it differently

    def name_text(self, side_names: tuple[str, str], lang: Language = ENGLISH) -> str:
        """The name; where the sides call it differently, each present side's name
        with the side: "Rider (Blue) · Knight (Red)"."""
        names = {c: lang.data(name) for c, name in self.names}
        if not self.sided:
            return next(iter(names.values()), self.key)
        return " \u00b7 ".join(lang.tr("{piece} ({side})", piece=names[c],
                                       side=lang.data(side_names[_COLOURS.index(c)]))
                               for c in _COLOURS if c in names)


def legend_entries(pos) -> list[LegendEntry]:
    """The kinds of piece present on the board and in hand, one entry per type, in
    the order the game lists its pieces."""
    game = pos.game
    seen: dict[str, dict[str, str | None]] = {}   # key -> colour -> state
    on_board: set[str] = set()
    for k in pos.board:
        if k is None:
            continue
        states = seen.setdefault(k.key, {})
        c = _COLOURS[k.color]
        if c not in states or (states[c] in (None, "?") and k.state not in (None, "?")):
            states[c] = k.state
        on_board.add(k.key)
    for ci, hand in enumerate(pos.hands):
        for key, count in hand:
            if count > 0:
                seen.setdefault(key, {}).setdefault(_COLOURS[ci], None)
    order = list(game.types)
    entries = []
    for key in sorted(seen, key=lambda k: order.index(k) if k in order else len(order)):
        t = game.types[key]
        colours = tuple(c for c in _COLOURS if c in seen[key])
        names = tuple((c, t.side_names[_COLOURS.index(c)] if t.side_names else t.name)
                      for c in colours)
        states = tuple((c, seen[key][c] or _default_state(t)) for c in colours)
        sided = bool(t.side_names) and t.side_names[0] != t.side_names[1]
        entries.append(LegendEntry(key, key, colours, names, states, key not in on_board, sided))
    return entries


def _default_state(t) -> str | None:
    """A state to draw a piece in when it has none (its first state: facing forward)."""
    if t.states and t.chosen:
        return t.states[0]
    return None


# -- drawing ---------------------------------------------------------------------------

def _columns(n: int) -> int:
    return 1 if n <= 6 else 2 if n <= 16 else 3


def draw_legend(game, entries: list[LegendEntry], icon: int = 56,
                title: str | None = None, lang: Language = ENGLISH) -> tuple[Image.Image, list[dict[str, tuple]]]:
    """The legend picture, and for each entry the pixel box of its figure per colour
    (for tests)."""
    words = legend_words(game, entries, title, lang)
    return _draw_legend(game, entries, icon, words)


@dataclass(frozen=True)
class LegendWords:
    """Every word a legend picture shows, in its reader's language."""
    title: str
    names: tuple[str, ...]   # one per entry
    in_hand: str
    no_pieces: str


def legend_words(game, entries: list[LegendEntry], title: str | None = None,
                 lang: Language = ENGLISH) -> LegendWords:
    title = title if title is not None else lang.tr("{game}: the pieces", game=lang.data(game.name))
    return LegendWords(title, tuple(e.name_text(game.side_names, lang) for e in entries), lang.tr("in hand"),
                       lang.tr("no pieces"))


def _draw_legend(game, entries: list[LegendEntry], icon: int,
                 words: LegendWords) -> tuple[Image.Image, list[dict[str, tuple]]]:
    name_font = load_font(FONT, max(14, round(icon * 0.4)))
    letter_font = load_font(FONT, max(15, round(icon * 0.44)))
    title_font = load_font(FONT, max(16, round(icon * 0.48)))
    small = load_font(FONT, max(12, round(icon * 0.3)))
    pad, gap = round(icon * 0.3), round(icon * 0.12)
    texts = list(words.names)
    letter_w = max([letter_font.getlength(e.letter) for e in entries] + [0]) + 2 * gap
    note = words.in_hand
    name_w = max([name_font.getlength(t) for t in texts] + [small.getlength(note)]) + gap
    cell_w = round(2 * icon + gap + 2 * gap + letter_w + name_w)
    cell_h = icon + gap
    cols = _columns(len(entries))
    rows = -(-len(entries) // cols) if entries else 1
    title = words.title
    title_h = round(icon * 0.9)
    width = max(2 * pad + cols * cell_w + (cols - 1) * pad,
                round(2 * pad + title_font.getlength(title)))
    height = pad + title_h + rows * cell_h + pad
    img = Image.new("RGB", (width, height), palette.BACKGROUND)
    d = ImageDraw.Draw(img)
    d.text((pad, pad + title_h / 2 - gap), title, font=title_font, fill=palette.PANEL_TITLE,
           anchor="lm")
    if not entries:
        d.text((pad, pad + title_h + cell_h / 2), words.no_pieces, font=name_font,
               fill=palette.PANEL_MUTED, anchor="lm")
    boxes: list[dict[str, tuple]] = []
    for i, (e, text) in enumerate(zip(entries, texts, strict=True)):
        col, row = divmod(i, rows)
        x = pad + col * (cell_w + pad)
        y = pad + title_h + row * cell_h
        states = dict(e.states)
        box: dict[str, tuple] = {}
        for j, c in enumerate(_COLOURS):
            bx = x + j * (icon + gap)
            tile = palette.LIGHT_SQUARE if c == "w" else palette.DARK_SQUARE
            if c not in e.colours:
                continue
            d.rounded_rectangle((bx, y, bx + icon - 1, y + icon - 1), radius=max(3, icon // 10),
                                fill=tile)
            t = game.types[e.key]
            fig = piece_image(game.id, t.code, t.promoted, c, icon, states.get(c))
            img.paste(fig, (bx, y), fig)
            box[c] = (bx, y, bx + icon, y + icon)
        boxes.append(box)
        tx = x + 2 * icon + gap + 2 * gap
        d.text((tx, y + icon / 2), e.letter, font=letter_font, fill=palette.PANEL_LETTER,
               anchor="lm")
        nx = tx + letter_w
        if e.in_hand_only:
            d.text((nx, y + icon * 0.36), text, font=name_font, fill=palette.PANEL_TEXT,
                   anchor="lm")
            d.text((nx, y + icon * 0.74), note, font=small, fill=palette.PANEL_MUTED,
                   anchor="lm")
        else:
            d.text((nx, y + icon / 2), text, font=name_font, fill=palette.PANEL_TEXT,
                   anchor="lm")
    return img, boxes


def legend_image(pos, icon: int = 56, lang: Language = ENGLISH) -> Image.Image:
    """The legend of a position as an RGB picture."""
    return draw_legend(pos.game, legend_entries(pos), icon, lang=lang)[0]


def legend_png(pos, icon: int = 56, lang: Language = ENGLISH) -> bytes:
    return to_png(legend_image(pos, icon, lang))
