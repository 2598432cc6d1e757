"""Pictures of positions for the bot, drawn with Pillow only; nothing here knows Discord.

From the rules engine (a rules Position in, PNG bytes or a PIL image out):

    board_png(pos, flip=None, highlight=None, show_last_move=True, square=None, result=None)
    result_text(game, result, reason)     a stored result as a banner: "Checkmate — White wins"
    board_image(...), board_layout(pos, flip=None, square=None)     for tests
    legend_png(pos), legend_image(pos), legend_entries(pos)         the pieces present
    piece_card_png(game_id, key, color="w", state=None)             for the help command
    piece_card(...), piece_card_image(...)
    python -m render gallery DIR                                    pictures to look at

Modules:

    position  a Position as a board: pieces, states, holes, castles, hands, marks
    legend    the legend of a position
    crosstable  a tournament's crosstable (crosstable_png(Crosstable(...)))
    card      piece cards: one piece alone with every square it can reach
    diagram   positions from {square: piece} (gallery, tests)
    glyphs    which figure each (game, code, promoted) gets, and drawing it
    drawers   the figures themselves, in a 100-unit box
    pen       the small vector toolkit they are drawn with (supersampled masks)
    board     the board drawer (independent of the engine), square marks and hands
    palette   every colour in one place

Fonts (SIL OFL 1.1; render/fonts in an installed package, else data/fonts): Noto Sans
Symbols 2 for the orthodox silhouettes, Noto Sans Light for all text.

May import: ``rules``, ``language`` (a picture's words in its reader's language), Pillow
and the standard library.
"""

from .board import (
                    Layout,
                    Piece,
                    as_piece,
                    draw_board,
                    draw_hands,
                    make_layout,
                    mark_captured,
                    mark_check,
                    mark_destinations,
                    mark_last_move,
                    tint_squares,
                    to_png,
)
from .card import PieceCard, piece_card, piece_card_image, piece_card_png
from .glyphs import glyph_id, piece_image, piece_kinds, render_glyph
from .legend import LegendEntry, legend_entries, legend_image, legend_png
from .position import board_image, board_layout, board_png, destinations
from .result import result_text

__all__ = [
    "board_png", "board_image", "board_layout", "destinations", "result_text",
    "legend_png", "legend_image", "legend_entries", "LegendEntry",
    "piece_card_png", "piece_card_image", "piece_card", "PieceCard",
    "Layout", "Piece", "as_piece", "draw_board", "draw_hands", "make_layout",
    "mark_captured", "mark_check", "mark_destinations", "mark_last_move", "tint_squares",
    "to_png", "glyph_id", "piece_image", "piece_kinds", "render_glyph",
]
