"""A tournament's crosstable as a picture, drawn like the boards: the results on light and
dark squares, the names and numbers on the boards' dark margin, the same font and colours.

    crosstable_image(table) -> RGB image;  crosstable_png(table) -> PNG bytes

``Crosstable`` is plain data (render knows nothing of the bot): the players in standing
order, and the games between them by index in that order.

- A round robin: players x players. A cell holds the row player's result against the
  column player ("1", "½", "0"; two results side by side in a double round robin); a
  game still going is a dot, like a destination on the board; the diagonal is a hole.
- A Swiss: a row per player (place, name, rating), a cell per round: a disc of the colour
  they had (a piece's colours), the opponent's place, the result; a bye says "bye".
- Then the points and the tie-breaks (Sonneborn-Berger; Buchholz ...), points in gold.
Sizes are for a phone: Discord shows a picture about 400 px wide and players zoom in, so
the text is 20 px at least and bold-stroked, and rows are 42 px.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from language import ENGLISH, Language

from . import palette
from .board import _bold, to_png
from .text import draw_text, drawable, fit, width

ROUND_ROBIN, SWISS = "round-robin", "swiss"
WHITE_POINTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5, "+/-": 1.0, "-/+": 0.0}  # the last two: forfeits
FORFEIT_TOKENS = {1.0: "+", 0.0: "\u2212"}  # a forfeit won, lost (FIDE's crosstables' marks)
DECIDED = "*"  # after a result a director decided

ROW = 42            # a row's height
TEXT = 21           # the table's text
TITLE = 28
SUBTITLE = 19
MARGIN = 18
PAD = 10            # inside a cell, left and right
NAME_MAX = 300      # a longer name is cut short with "…"
RR_CELL = 44        # a round robin's cell (62 for two games in one)
RR_DOUBLE_CELL = 66
SWISS_CELL = 92
INK = palette.SCHEMES["white"].line  # text on the squares: the pieces' dark outline
MUTED_INK = (110, 98, 80)
ROW_SHADES = (palette.HAND_PANEL, palette.BACKGROUND)


@dataclass(frozen=True)
class Player:
    name: str
    points: float
    tiebreaks: tuple[float, ...] = ()
    rating: float | None = None
    withdrawn: bool = False


@dataclass(frozen=True)
class Game:
    """A game between players ``white`` and ``black`` (indices in standing order), or a bye
    (``black`` None, ``bye_points``). ``result``: "1-0", "0-1", "1/2-1/2"; "*" aborted; None
    while it goes on."""

    round: int
    white: int
    black: int | None
    result: str | None = None
    bye_points: float | None = None
    decided: bool = False  # decided by a director (or a rule): marked


@dataclass(frozen=True)
class Crosstable:
    title: str
    format: str                      # "round-robin" or "swiss"
    players: Sequence[Player]        # in standing order: place i + 1
    games: Sequence[Game] = ()
    rounds: int = 0                  # a Swiss's rounds (columns), played or not
    tiebreak_names: tuple[str, ...] = ()
    subtitle: str = ""
    double: bool = False             # a round robin played twice


def points_text(value: float) -> str:
    """1, ½, 2½, 0 ... (tie-breaks that are not halves in decimals: 91.75)."""
    if value * 2 != int(value * 2):
        return f"{value:.2f}".rstrip("0")
    whole, half = int(value), value - int(value) >= 0.5
    if half:
        return f"{whole}½" if whole else "½"
    return str(whole)


def tiebreak_text(value: float) -> str:
    """A tie-break in decimals, as many as it needs: 83.5, 81.75, 85."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _score(game: Game, me: int) -> float | None:
    """``me``'s points from a finished game; None while it goes on or if aborted."""
    white = WHITE_POINTS.get(game.result or "")
    if white is None:
        return None
    return white if game.white == me else 1 - white


# -- the columns ------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Column:
    title: str
    width: int
    kind: str  # "place", "name", "rating", "game", "points", "tiebreak"
    index: int = 0  # the opponent (round robin) or the round (Swiss), or the tie-break


def player_name(player: Player, lang: Language = ENGLISH) -> str:
    """A player's name in the table, marked when they withdrew."""
    return lang.tr("{name} (out)", name=player.name) if player.withdrawn else player.name


def _columns(draw: ImageDraw.ImageDraw, t: Crosstable, lang: Language = ENGLISH) -> list[_Column]:
    size, n = TEXT, len(t.players)
    place_w = int(width(draw, str(max(n, 1)), size)) + 2 * PAD + 4
    player, rating = lang.tr("Player"), lang.tr("Rating")
    names = [player_name(p, lang) for p in t.players] or [player]
    name_w = min(NAME_MAX, math.ceil(max(width(draw, nm, size) for nm in names))) + 2 * PAD
    cols = [_Column("#", place_w, "place"), _Column(player, max(name_w, int(width(draw, player, size)) + 2 * PAD, 110),
                                                     "name")]
    if any(p.rating is not None for p in t.players):
        cols.append(_Column(rating, int(width(draw, rating, size)) + 2 * PAD, "rating"))
    if t.format == ROUND_ROBIN:
        cell = RR_DOUBLE_CELL if t.double else RR_CELL
        cell = max(cell, int(width(draw, str(n), size)) + 2 * PAD)
        cols += [_Column(str(i + 1), cell, "game", i) for i in range(n)]
    else:
        cols += [_Column(lang.tr("R{n}", n=r), SWISS_CELL, "game", r) for r in range(1, max(t.rounds, 1) + 1)]
    points = lang.tr("Pts")
    cols.append(_Column(points, max(64, int(width(draw, "10½", size)) + 2 * PAD,
                                    int(width(draw, points, size)) + 2 * PAD), "points"))
    for i, name in enumerate(t.tiebreak_names):
        w = int(max(width(draw, name, size), width(draw, "188.75", size))) + 2 * PAD
        cols.append(_Column(name, w, "tiebreak", i))
    return cols


# -- drawing ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Layout:
    """Where things are in the picture (the tests read pixels through it)."""

    columns: tuple[_Column, ...]
    width: int
    height: int
    top: int  # the header row's top; player i's row is at top + ROW * (i + 1)

    def cell(self, row: int, kind: str, index: int = 0) -> tuple[int, int, int, int]:
        """The box (x0, y0, x1, y1 inclusive) of player ``row``'s cell of that column."""
        x = MARGIN
        for c in self.columns:
            if c.kind == kind and c.index == index:
                y = self.top + ROW * (row + 1)
                return x, y, x + c.width - 1, y + ROW - 1
            x += c.width
        raise KeyError((kind, index))


def crosstable_layout(t: Crosstable, lang: Language = ENGLISH) -> Layout:
    scratch = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    cols = _columns(scratch, t, lang)
    title_h = TITLE + 16 + (SUBTITLE + 10 if t.subtitle else 0)
    rows = max(len(t.players), 1) + 1
    return Layout(tuple(cols), sum(c.width for c in cols) + 2 * MARGIN, 2 * MARGIN + title_h + ROW * rows,
                  MARGIN + title_h)


def crosstable_image(t: Crosstable, lang: Language = ENGLISH) -> Image.Image:
    """The crosstable as a picture; its headings in ``lang`` (the title, subtitle and
    tie-break names are the caller's, said already)."""
    lay = crosstable_layout(t, lang)
    cols = list(lay.columns)
    table_w = lay.width - 2 * MARGIN
    img = Image.new("RGB", (lay.width, lay.height), palette.BACKGROUND)
    d = ImageDraw.Draw(img)
    title = fit(d, t.title, TITLE, table_w)
    draw_text(d, (MARGIN, MARGIN + TITLE / 2 + 2), title, TITLE, palette.PANEL_TITLE, bold=_bold(TITLE))
    if t.subtitle:
        draw_text(d, (MARGIN, MARGIN + TITLE + 12 + SUBTITLE / 2), fit(d, t.subtitle, SUBTITLE, table_w),
                  SUBTITLE, palette.PANEL_MUTED, bold=_bold(SUBTITLE))
    top = lay.top
    _header(d, cols, top)
    if not t.players:
        draw_text(d, (MARGIN + PAD, top + ROW * 1.5), lang.tr("No players yet"), TEXT, palette.PANEL_MUTED)
    by_pair = _games_by_cell(t)
    for i, player in enumerate(t.players):
        _row(d, t, cols, i, player, top + ROW * (i + 1), by_pair, lang)
    return img


def crosstable_png(t: Crosstable, lang: Language = ENGLISH) -> bytes:
    return to_png(crosstable_image(t, lang))


def _header(d: ImageDraw.ImageDraw, cols: list[_Column], y: int) -> None:
    x = MARGIN
    bold = _bold(TEXT)
    for c in cols:
        if c.kind in ("name",):
            draw_text(d, (x + PAD, y + ROW / 2), c.title, TEXT, palette.COORDINATES, bold=bold)
        else:
            draw_text(d, (x + (c.width - width(d, c.title, TEXT)) / 2, y + ROW / 2), c.title, TEXT,
                      palette.COORDINATES, bold=bold)
        x += c.width


def _games_by_cell(t: Crosstable) -> dict[tuple[int, int], list[Game]]:
    """(row player, column index) -> the games shown there: a round robin's by opponent, a
    Swiss's by round (a bye keyed by its round too)."""
    cells: dict[tuple[int, int], list[Game]] = {}
    for g in sorted(t.games, key=lambda g: g.round):
        for me, other in ((g.white, g.black), (g.black, g.white)):
            if me is None:
                continue
            key = other if t.format == ROUND_ROBIN else g.round
            if t.format == ROUND_ROBIN and other is None:
                continue  # a round robin's bye is a round sat out: no cell
            cells.setdefault((me, key), []).append(g)
    return cells


def _row(d: ImageDraw.ImageDraw, t: Crosstable, cols: list[_Column], i: int, player: Player, y: int,
         by_pair: dict, lang: Language = ENGLISH) -> None:
    x = MARGIN
    mid = y + ROW / 2
    bold = _bold(TEXT)
    text_colour = palette.PANEL_MUTED if player.withdrawn else palette.HAND_TEXT
    for ci, c in enumerate(cols):
        box = (x, y, x + c.width - 1, y + ROW - 1)
        if c.kind == "game":
            _game_cell(d, t, c, i, box, by_pair.get((i, c.index), []), (i + ci) % 2 == 0)
        else:
            d.rectangle(box, fill=ROW_SHADES[i % 2])
            if c.kind == "place":
                draw_text(d, (x + c.width - PAD, mid), str(i + 1), TEXT, palette.COORDINATES, bold=bold,
                          anchor_right=True)
            elif c.kind == "name":
                name = player.name if drawable(player.name) else lang.tr("player {n}", n=i + 1)
                name = lang.tr("{name} (out)", name=name) if player.withdrawn else name
                draw_text(d, (x + PAD, mid), fit(d, name, TEXT, c.width - 2 * PAD), TEXT, text_colour,
                          bold=bold)
            elif c.kind == "rating":
                if player.rating is not None:
                    draw_text(d, (x + c.width - PAD, mid), f"{player.rating:.0f}", TEXT, text_colour,
                              anchor_right=True, bold=bold)
            elif c.kind == "points":
                draw_text(d, (x + c.width - PAD, mid), points_text(player.points), TEXT,
                          palette.PANEL_LETTER, anchor_right=True, bold=bold)
            else:
                value = player.tiebreaks[c.index] if c.index < len(player.tiebreaks) else None
                if value is not None:
                    draw_text(d, (x + c.width - PAD, mid), tiebreak_text(value), TEXT, text_colour,
                              anchor_right=True, bold=bold)
        x += c.width


PLAYING = "\u2022"  # a game still going (drawn as a dot)
ABORTED = "\u00d7"


def _token(g: Game, me: int) -> str:
    score = _score(g, me)
    if score is None:
        return PLAYING if g.result is None else ABORTED
    text = FORFEIT_TOKENS[score] if g.result in ("+/-", "-/+") else points_text(score)
    return text + DECIDED if g.decided else text


def cell_tokens(t: Crosstable, me: int, games: Sequence[Game]) -> tuple[str, ...]:
    """What a cell says of player ``me``'s games there. A round robin: a result per game
    ("1", "½", "0"; "•" still going, "×" aborted). A Swiss: ("bye", points), or (colour "w"
    or "b", the opponent's place, the result)."""
    if t.format == ROUND_ROBIN:
        return tuple(_token(g, me) for g in games)
    if not games:
        return ()
    g = games[0]
    if g.black is None:
        return "bye", points_text(g.bye_points or 0)
    white = g.white == me
    return ("w" if white else "b"), str((g.black if white else g.white) + 1), _token(g, me)


def cells(t: Crosstable) -> dict[tuple[int, int], tuple[str, ...]]:
    """Every cell with something in it: (player, opponent or round) -> its tokens."""
    return {key: cell_tokens(t, key[0], games) for key, games in _games_by_cell(t).items()}


def _dot(d: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    """A game still going: the board's destination dot, in solid ink so it reads on a phone."""
    r = max(5, ROW // 8)
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=MUTED_INK)


def _mark(d: ImageDraw.ImageDraw, token: str, x: float, y: float, *, right: bool = False,
          centre: bool = False) -> None:
    if token == PLAYING:
        _dot(d, x - 4 if right else x, y)
        return
    if centre:
        x -= width(d, token, TEXT) / 2
    draw_text(d, (x, y), token, TEXT, INK, anchor_right=right, bold=_bold(TEXT))


def _game_cell(d: ImageDraw.ImageDraw, t: Crosstable, c: _Column, me: int, box, games: list[Game],
               light: bool) -> None:
    x0, y0, x1, y1 = box
    mid = (y0 + y1 + 1) / 2
    if t.format == ROUND_ROBIN and c.index == me:
        d.rectangle(box, fill=palette.BACKGROUND)  # a hole: no game against oneself
        return
    d.rectangle(box, fill=palette.LIGHT_SQUARE if light else palette.DARK_SQUARE)
    tokens = cell_tokens(t, me, games)
    if t.format == ROUND_ROBIN:
        slot = (x1 - x0 + 1) / max(len(tokens), 1)
        for k, token in enumerate(tokens):
            _mark(d, token, x0 + slot * (k + 0.5), mid, centre=True)
        return
    if not tokens:
        return
    if tokens[0] == "bye":
        draw_text(d, (x0 + PAD, mid), "bye", TEXT, INK, bold=_bold(TEXT))
    else:
        _colour_disc(d, x0 + PAD + 7, mid, tokens[0] == "w")
        draw_text(d, (x0 + PAD + 18, mid), tokens[1], TEXT, INK, bold=_bold(TEXT))
    _mark(d, tokens[-1], x1 - PAD + 1, mid, right=True)


def _colour_disc(d: ImageDraw.ImageDraw, cx: float, cy: float, white: bool) -> None:
    """The colour a player had, as a piece's body and outline."""
    scheme = palette.SCHEMES["white" if white else "black"]
    r = 7
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=scheme.fill, outline=palette.SCHEMES["white"].line,
              width=2)
