"""A rules Position as a picture: what a player looks at after every move.

    board_png(pos, flip=None, highlight=None, show_last_move=True, square=None) -> PNG bytes
    board_image(...)   the same as a PIL RGB image
    board_layout(pos, flip=None, square=None)   where each square is in that image

The picture is drawn by render.board from a plain description built here from the
engine's data: the game's geometry (holes, its own file letters), its zones (a side's
castle in its owner's colours), the pieces with their states (a facing, a setting, the
side of a two-square piece's other half), the pieces in hand, the last move (from
and to, every square it captured on, a drop's square, a shot's target), check (the
royal's square) and, for `highlight=`, the legal destinations of one chosen piece as
the engine lists them. Nothing here knows about Discord.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from PIL import Image

from language import ENGLISH, Language
from rules import MoveKind

from . import palette
from .board import Layout, Piece, draw_board, make_layout, to_png
from .result import position_result_text
from .spans import kind_partner_steps

_COLOURS = "wb"


# -- what the engine says, as square names ------------------------------------------

def piece_of(game_id: str, kind) -> Piece:
    """The drawing description of a rules PieceKind."""
    t = kind.type
    return Piece(game_id, t.code, t.promoted, _COLOURS[kind.color], kind.state)


def board_pieces(pos) -> dict[str, Piece]:
    """square name -> Piece for every piece on the board."""
    names = pos.game.geometry.names
    gid = pos.game.id
    return {names[sq]: piece_of(gid, k) for sq, k in enumerate(pos.board) if k is not None}


def zones_of(game) -> list:
    """The zones to tint: a zone that belongs to one side (`castle_w`, `castle_b`) in
    that side's castle colours, any other zone with the neutral tint."""
    names = game.geometry.names
    out = []
    for zname in (getattr(game, "spec", None) or {}).get("zones", {}):
        base, _, side = zname.rpartition("_")
        if side in ("w", "b") and base:
            squares = [names[s] for s in game.zone(base, _COLOURS.index(side))]
            out.append((squares, palette.CASTLE_SQUARES[side]))
        else:
            squares = [names[s] for s in game.zone(zname, 0)]
            out.append((squares, palette.ZONE_TINT))
    return out


def hands_of(pos) -> dict[str, dict[str, int]] | None:
    """Pieces in hand per side ({"w": {"P": 2}, ...}); None for a game without drops
    (and no pieces in hand), so that no hand panel is drawn."""
    hands = {c: dict(pos.hands[i]) for i, c in enumerate(_COLOURS)}
    if pos.game.drop_zone is None and not any(hands.values()):
        return None
    return hands


def last_move_squares(move, names) -> tuple[list[str], list[str]]:
    """(moved, captured): the squares to mark for a move.

    moved: where the piece came from and went to (a two-square piece's two old and
    two new squares, a drop's square, a shooter's own square for a shot, the square
    of a piece that turned in place, a set-up action's changed squares); captured:
    every square the move took a piece on (a run over several, a two-square piece's
    cover, a shot's target, en passant). A square is in one list only, captured first."""
    if move is None:
        return [], []
    kind = move.kind
    moved: list[int] = []
    if kind == MoveKind.SPAN:
        moved = list(move.clear[:2]) + [s for s, _ in move.put]
    elif kind == MoveKind.DROP:
        moved = [move.to]
    elif kind in (MoveKind.TURN, MoveKind.SHOT):     # a turn in place; a shot (the shooter stays)
        moved = [move.frm]
    elif kind == MoveKind.SETUP:
        moved = ([move.frm] if move.frm is not None else [])
        # a set-up that fills a rank marks what stands out in it: the kinds placed fewest
        # times (two special pieces among eight ordinary ones), not the whole rank
        counts = Counter(k for _, k in move.put)
        fewest = min(counts.values(), default=0)
        moved += [s for s, k in move.put if counts[k] == fewest]
    else:
        moved = [s for s in (move.frm, move.to) if s is not None]
    captured = list(dict.fromkeys(move.captures))
    moved = [s for s in dict.fromkeys(moved) if s not in captured]
    return [names[s] for s in moved], [names[s] for s in captured]


def piece_squares(pos, sq: int) -> list[int]:
    """The squares of the piece on sq: all of a piece standing on several, else sq."""
    k = pos.board[sq]
    if k is None:
        return [sq]
    out = [sq]
    for dx, dy in kind_partner_steps(k):
        other = pos.game.geometry.step(sq, dx, dy)
        q = pos.board[other] if other is not None else None
        if q is not None and q.type is k.type and q.color == k.color:
            out.append(other)
    return out


def move_destinations(moves: Iterable, own: Iterable[int]) -> set[int]:
    """The squares a piece can reach by these moves: each move's landing square, a
    two-square piece's new squares, a shot's target; not the squares the piece
    stands on now (turning in place, or a two-square piece keeping one of them)."""
    own = set(own)
    out: set[int] = set()
    for m in moves:
        if m.kind == MoveKind.SPAN:
            out.update(s for s, _ in m.put)
        elif m.kind in (MoveKind.DROP, MoveKind.SETUP):
            continue
        elif m.to is not None:
            out.add(m.to)
    return out - own


def destinations(pos, square) -> set[str]:
    """The names of the squares the piece on `square` (a name or an index) can reach
    by a legal move, as the engine lists them (pos.moves_from)."""
    sq = _square_index(pos, square)
    names = pos.game.geometry.names
    return {names[s] for s in move_destinations(pos.moves_from(sq), piece_squares(pos, sq))}


def check_squares(pos) -> list[str]:
    """The royal's square of the side to move, if it is in check."""
    sq = pos.royal[pos.side]
    if sq is None:
        return []
    return [pos.game.geometry.names[sq]] if pos.in_check() else []


def checker_squares(pos) -> list[str]:
    """The squares of the pieces giving check (none when not in check)."""
    names = pos.game.geometry.names
    return [names[s] for s in pos.checkers()]


def shot_arrows(move, names) -> list[tuple[str, str]]:
    """A shot as an arrow (from the shooter's square, to the emptied one)."""
    if move is None or move.kind != MoveKind.SHOT or move.frm is None or move.to is None:
        return []
    return [(names[move.frm], names[move.to])]


def side_names(game, lang: Language = ENGLISH) -> dict[str, str]:
    """{"w": "White", "b": "Black"}, or the game's own (Blue and Red), in the reader's language."""
    return dict(zip(_COLOURS, (lang.data(name) for name in game.side_names), strict=True))


def banner_of(pos, result: str | None, lang: Language = ENGLISH) -> str | None:
    """The banner text: what the caller says (the bot knows resignations, time,
    agreement), else what the position says when the rules have ended the game;
    an empty text means none."""
    if result is not None:
        return result or None
    return position_result_text(pos, lang)


def _square_index(pos, square) -> int:
    if isinstance(square, int):
        return square
    return pos.game.geometry.parse_square(str(square))


# -- the picture -------------------------------------------------------------------------

def _flip(pos, flip: bool | None) -> bool:
    """Seen from the side to move unless told otherwise."""
    return bool(pos.side == 1) if flip is None else bool(flip)


def board_layout(pos, flip: bool | None = None, square: int | None = None,
                 result: str | None = None) -> Layout:
    """The Layout of board_image(pos, flip=flip, square=square, result=result):
    lay.box(name), lay.centre(name) give each square's pixels."""
    geo = pos.game.geometry
    return make_layout(geo.files, geo.height, square=square, flip=_flip(pos, flip),
                       hands=hands_of(pos) is not None,
                       holes=[geo.names[h] for h in geo.holes],
                       banner=banner_of(pos, result) is not None)


def board_image(pos, *, flip: bool | None = None, highlight=None, show_last_move: bool = True,
                square: int | None = None, result: str | None = None,
                lang: Language = ENGLISH) -> Image.Image:
    """The position as an RGB picture, its words (banner, hands) in ``lang``.

    flip: None shows the board from the side to move (Black's/Red's view when it is
    their turn), True from Black, False from White. highlight: a square (name or
    index) whose piece's square is tinted and whose legal destinations are marked
    (a dot on an empty square, corners around a piece it would capture). square:
    the square size in pixels (default: about 1100 px for a 14 x 14 board).
    result: the text of the banner above the board (render.result_text of a stored
    result and reason); by default the position's own ending, if the rules have
    ended the game ("Checkmate — White wins"); "" for none."""
    game = pos.game
    geo = game.geometry
    names = geo.names
    moved, captured, arrows = [], [], []
    if show_last_move:
        moved, captured = last_move_squares(pos.last_move, names)
        arrows = shot_arrows(pos.last_move, names)
    selected: list[str] = []
    dests: Iterable[str] = ()
    if highlight is not None:
        sq = _square_index(pos, highlight)
        if pos.board[sq] is not None:
            selected = [names[s] for s in piece_squares(pos, sq)]
        dests = destinations(pos, sq)
    return draw_board(geo.files, geo.height, board_pieces(pos),
                      holes=[names[h] for h in geo.holes], zones=zones_of(game),
                      flip=_flip(pos, flip), square=square, game=game.id,
                      last_move=moved, captured=captured, check=check_squares(pos),
                      checkers=checker_squares(pos), arrows=arrows,
                      destinations=sorted(dests), hands=hands_of(pos), selected=selected,
                      banner=banner_of(pos, result, lang), side_names=side_names(game, lang),
                      empty_hand=lang.tr("no pieces\nin hand"))


def board_png(pos, *, flip: bool | None = None, highlight=None, show_last_move: bool = True,
              square: int | None = None, result: str | None = None, lang: Language = ENGLISH) -> bytes:
    """board_image as PNG bytes (always under 1 MB)."""
    return to_png(board_image(pos, flip=flip, highlight=highlight,
                              show_last_move=show_last_move, square=square, result=result, lang=lang))
