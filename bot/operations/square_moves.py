"""The legal moves of the piece on one square, read from a game's position once for every
adapter: the terminal's and the typed commands' ``moves SQUARE`` (and ``board SQUARE``),
Discord's "which piece?" box, an email's hint after a refused move. The words are
bot/words/text.py's (``square_moves_text``); each adapter adds only its markup and layout."""

from __future__ import annotations

from dataclasses import dataclass

import rules

from ..domain.errors import ServiceError, text_of


@dataclass(frozen=True)
class SquareMoves:
    square: str               # as the board names it ("e2", lower case)
    piece: str | None         # the name of the piece there; None: the square is empty
    owner: str | None         # the name of that piece's side ("Black"); None: empty
    to_move: str              # the name of the side to move
    sans: tuple[str, ...]     # its legal moves in SAN, sorted
    as_if: bool = False       # sans are the moves it would have were its side to move
    squares: frozenset[int] = frozenset()  # the squares the piece stands on
    reach: frozenset[int] = frozenset()    # the squares those moves reach (as a board marks them)


def square_moves(pos, square: str) -> SquareMoves:
    """What the piece on ``square`` can do in ``pos``. A piece of the side not to move
    (outside a set-up phase) has none now: its moves as if its side were to move are given
    instead, which is what a player asking about it wants to see. A name that is no square
    of this board: ``ServiceError`` saying why."""
    game = pos.game
    try:
        sq = game.geometry.parse_square(square)
    except rules.RulesError as e:
        raise ServiceError(text_of(e)) from None
    piece, to_move = pos.board[sq], game.side_name(pos.side)
    moves, as_if = pos.moves_from(sq), False
    if not moves and piece is not None and piece.color != pos.side and not pos.in_setup:
        pos, as_if = _turned(pos, piece.color), True
        # the side to move may be in check: taking its royal is no move in any of these games
        moves = [m for m in pos.moves_from(sq) if not any(pos.board[c].royal for c in m.captures)]
    from render.position import move_destinations, piece_squares  # the pictures' marks, once
    own = piece_squares(pos, sq)
    return SquareMoves(square=game.geometry.names[sq],
                       piece=piece.name if piece else None,
                       owner=game.side_name(piece.color) if piece else None,
                       to_move=to_move,
                       sans=tuple(sorted(pos.san(m) for m in moves)), as_if=as_if,
                       squares=frozenset(own) if piece else frozenset(),
                       reach=frozenset(move_destinations(moves, own)))


def _turned(pos, color: int):
    """The same position with ``color`` to move."""
    return rules.Position(pos.game, pos.board, color, pos.rights, None, pos.halfmove,
                          pos.fullmove, pos.hands, pos.dropped)
