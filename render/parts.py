"""The board in parts, for a browser that puts the picture together itself.

A game's page downloads once what never changes (the empty board of its game, and a
sprite sheet of every figure its pieces can show), then for each position only where the
figures and marks go (a few KB of JSON). Every part comes from the same code as
board_png: the squares, zones, coordinates and hand panels of board.py, the figures of
glyphs.py at the board's square size, the colours of palette.py, the marks' sizes of
board.py; so the browser's board looks like the server's picture of the same position.

    face_image(game_id, flip, square, lang=ENGLISH)   squares, zones, coordinates, empty hand
                                          panels headed by the sides' names in ``lang``
    sprite_sheet(game_id, square)         every figure of the game: (image, index)
    sheet_index(game_id, square)          {sprite key: (x, y, w, h)} without drawing
    position_parts(pos, flip, square)     where the figures, counts and marks of pos go
    mark_style(square)                    the marks' colours and sizes (px of the picture)
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image

from language import ENGLISH, Language

from . import board, palette
from .board import Layout, Sprite
from .drawers import DIRECTIONS, POINTING
from .glyphs import glyph_id, piece_kinds
from .position import (
    board_pieces,
    check_squares,
    checker_squares,
    hands_of,
    last_move_squares,
    shot_arrows,
    side_names,
    zones_of,
)
from .spans import mover_of

SHEET_COLUMNS = 12   # squares across the sprite sheet


def face_layout(game, flip: bool, square: int) -> Layout:
    """The layout every position of ``game`` (a rules Game) has on the page: hand panels
    when the game drops pieces (board_layout decides the same for its positions)."""
    geo = game.geometry
    return board.make_layout(geo.files, geo.height, square=square, flip=flip,
                             hands=game.drop_zone is not None,
                             holes=[geo.names[h] for h in geo.holes])


def face_image(game_id: str, flip: bool, square: int, lang: Language = ENGLISH) -> Image.Image:
    """The game's board with nothing on it: squares, zones, coordinates and (a game with
    drops) the hand panels headed by the sides' names in the reader's language (a cache of
    it is keyed by ``lang.code`` too); RGB."""
    import rules
    game = rules.game(game_id)
    lay = face_layout(game, flip, square)
    img = board.empty_board(lay, zones_of(game))
    board.draw_coordinates(img, lay)
    board.draw_hand_panels(img, lay, game.id, side_names(game, lang))
    return img.convert("RGB")


def _sheet_sprites(game_id: str, square: int) -> list[Sprite]:
    """Every figure a piece of the game can show on the board, once each: every kind of
    both sides, every screen direction of a figure that shows its state (a facing, a
    setting, on a board either way up), a piece on two squares lying and standing."""
    out: dict[str, Sprite] = {}

    def add(*fields) -> None:
        sprite = Sprite(*fields, 0, 0, square)
        out.setdefault(sprite.key, sprite)

    for code, promoted in piece_kinds(game_id):
        for colour in "wb":
            gid = glyph_id(game_id, code, promoted, colour)
            scheme = palette.scheme_name(game_id, colour)
            directions = [None] + list(DIRECTIONS) if gid in POINTING else [None]
            for direction in directions:
                add(gid, scheme, promoted, direction, 1, False)
            mover = mover_of(game_id, code, promoted)
            if mover is not None and mover.span >= 2:
                add(gid, scheme, promoted, None, 2, False)
                add(gid, scheme, promoted, None, 2, True)
    return list(out.values())


def _packed(sprites: list[Sprite], square: int) -> dict[str, tuple[int, int, int, int]]:
    """Rows of SHEET_COLUMNS squares, filled left to right in order."""
    index, x, y, row_h, width = {}, 0, 0, 0, SHEET_COLUMNS * square
    for s in sprites:
        w, h = (square, square * s.span) if s.upright else (square * s.span, square)
        if x + w > width:
            x, y, row_h = 0, y + row_h, 0
        index[s.key] = (x, y, w, h)
        x, row_h = x + w, max(row_h, h)
    return index


@lru_cache(maxsize=32)
def sheet_index(game_id: str, square: int) -> dict[str, tuple[int, int, int, int]]:
    """Where each figure is in sprite_sheet(game_id, square), worked out without drawing."""
    return _packed(_sheet_sprites(game_id, square), square)


def sprite_sheet(game_id: str, square: int) -> tuple[Image.Image, dict]:
    """Every figure of the game on one transparent RGBA picture, and sheet_index."""
    sprites = _sheet_sprites(game_id, square)
    index = sheet_index(game_id, square)
    width = max(x + w for x, _, w, _ in index.values())
    height = max(y + h for _, y, _, h in index.values())
    img = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    for s in sprites:
        x, y, _, _ = index[s.key]
        img.alpha_composite(s.image(), (x, y))
    return img, index


def position_parts(pos, flip: bool, square: int) -> dict:
    """Where the figures, hand counts and marks of ``pos`` go on face_image (JSON):

    pieces, hands   [sheet x, y, w, h, picture x, y, w, h] each (a hand's figure is smaller)
    counts          [x, y, "×2"]: a count's text, its left end at mid-height
    empty           [x, y]: the middle of a hand panel that holds nothing (board.EMPTY_HAND)
    last, captured, check, checkers   square names (the last move; what it took; the royal
                    in check; the pieces giving check)
    arrows          a shot's outline, [x0, y0, x1, y1, ...]
    A figure the sheet lacks (none should) is left out rather than drawn wrong."""
    game = pos.game
    lay = face_layout(game, flip, square)
    index = sheet_index(game.id, square)

    def placed(s: Sprite) -> list[int] | None:
        at = index.get(s.key)
        if at is None:
            return None
        w, h = (s.size, s.size * s.span) if s.upright else (s.size * s.span, s.size)
        return [*at, s.x, s.y, w, h]

    pieces = [p for p in map(placed, board.piece_sprites(lay, board_pieces(pos))) if p]
    kinds, empty = board.hand_sprites(lay, hands_of(pos) or {}, game.id)
    names = game.geometry.names
    moved, captured = last_move_squares(pos.last_move, names)
    arrows = [[round(v, 1) for xy in board.arrow_points(lay, frm, to) for v in xy]
              for frm, to in shot_arrows(pos.last_move, names)]
    return {
        "pieces": pieces,
        "hands": [p for p in (placed(k.sprite) for k in kinds) if p],
        "counts": [[*map(round, k.text_at), f"\u00d7{k.count}"] for k in kinds if k.count > 1],
        "empty": [list(map(round, at)) for at in empty],
        "last": moved, "captured": captured,
        "check": check_squares(pos), "checkers": checker_squares(pos),
        "arrows": [a for a in arrows if a],
    }


def _css(rgba) -> str:
    r, g, b, *a = rgba
    return f"rgba({r},{g},{b},{round(a[0] / 255, 3) if a else 1})"


def mark_style(square: int) -> dict:
    """The marks as board.py draws them, for a browser: colours as CSS, sizes in px of the
    picture (a square is ``square`` px). A destination's dot is a third of a square across
    and more (README "Marks")."""
    s = square
    return {
        "square": s,
        "last": _css(palette.LAST_MOVE), "captured": _css(palette.CAPTURED),
        "lastEdge": _css(palette.LAST_MOVE_EDGE), "lastEdgeWidth": board.last_move_edge_width(s),
        "lastInset": board.last_move_inset(s),
        "selected": _css(palette.SELECTED),
        "check": _css(palette.CHECK), "checkPeak": round(board.GLOW_PEAK / 255, 3),
        "checkReach": round(board.GLOW_FADE / 255 * math.sqrt(2) / 2 * s, 1),
        "checkEdge": _css(palette.CHECK_EDGE), "edgeWidth": board.edge_width(s),
        "checkerCorner": board.checker_corner(s),
        "destination": _css(palette.DESTINATION), "dotRadius": round(board.DOT_RADIUS * s, 1),
        "captureCorner": round(board.CAPTURE_CORNER * s, 1),
        "placement": _css(palette.PLACEMENT),
        "arrow": _css(palette.ARROW),
        "handText": _css(palette.HAND_TEXT), "muted": _css(palette.PANEL_MUTED),
        "handFont": board.hand_font_size(s),
    }

