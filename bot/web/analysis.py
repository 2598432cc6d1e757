"""Positions of a game at any ply, plus a side line the viewer plays, and the legal moves
of a square as JSON. Nothing here writes: the real game is the service's alone."""

from __future__ import annotations

import re
from collections import OrderedDict

import rules
from language import T
from render.position import move_destinations, piece_squares
from rules import RulesError
from rules.move import MoveKind

MAX_LINE = 400  # side-line moves a request may carry


class BadRequest(ValueError):
    """A ply or side line that does not fit the game: said plainly (its one argument a
    Text, said in the reader's language by reach.refusal), nothing changes."""


class PositionCache:
    """(game, start VFEN, LANs) -> Position, the least recently used dropped first;
    a longer line is played on from its longest cached prefix."""

    def __init__(self, size: int = 512):
        self.size = size
        self._cache: OrderedDict[tuple, object] = OrderedDict()

    def get(self, game: str, start_vfen: str, lans: tuple[str, ...]):
        key = (game, start_vfen, lans)
        if key in self._cache:
            self._cache.move_to_end(key)
            return self._cache[key]
        if lans:
            pos = self.get(game, start_vfen, lans[:-1])
            try:
                pos = pos.play(lans[-1])
            except RulesError as e:
                raise BadRequest(T("move {n} ({move}) cannot be played: {reason}", n=len(lans), move=lans[-1],
                                   reason=getattr(e, "text", None) or str(e))) from None
        else:
            pos = rules.from_fen(game, start_vfen)
        self._cache[key] = pos
        while len(self._cache) > self.size:
            self._cache.popitem(last=False)
        return pos


def parse_ply(text: str | None, last: int) -> int:
    if text in (None, ""):
        return last
    try:
        ply = int(text)
    except ValueError:
        raise BadRequest(T("ply must be a whole number, not {text}", text=repr(text))) from None
    if not 0 <= ply <= last:
        raise BadRequest(T("ply must be from 0 to {last}, not {ply}", last=last, ply=ply))
    return ply


def parse_line(text: str | None) -> tuple[str, ...]:
    """The side line as the client sends it: LANs joined by spaces."""
    lans = tuple((text or "").split())
    if len(lans) > MAX_LINE:
        raise BadRequest(T("a side line is at most {n} moves", n=MAX_LINE))
    return lans


def square_moves(pos, square: str) -> dict:
    """The legal moves of the piece on ``square``, grouped by the square a click on the
    board picks: each move's landing squares (a piece on several squares: its new ones;
    a shot: its target); a turn in place is picked on the piece's own square. Each move
    with LAN and SAN."""
    geo = pos.game.geometry
    try:
        sq = geo.parse_square(square)
    except (RulesError, ValueError, KeyError, IndexError):
        raise BadRequest(T("there is no square {square} on this board", square=repr(square))) from None
    if sq is None:
        raise BadRequest(T("there is no square {square} on this board", square=repr(square)))
    own = piece_squares(pos, sq)
    targets: dict[str, list[dict]] = {}
    for m in pos.moves_from(sq):
        landing = move_destinations([m], own) or {sq}
        entry = {"lan": m.lan, "san": pos.san(m)}
        for t in sorted(landing):
            targets.setdefault(geo.names[t], []).append(entry)
    return {"square": geo.names[sq], "piece": [geo.names[s] for s in own],
            "targets": targets}


def line_sans(pos_at, lans: tuple[str, ...]) -> list[str]:
    """SAN of each move of a side line, given a function from a LAN prefix to its position."""
    out = []
    for i, lan in enumerate(lans):
        pos = pos_at(lans[:i])
        out.append(pos.san(pos.parse(lan)))
    return out


_PLACED = re.compile(r"([A-Za-z+]+)@([a-z]+[0-9]+)")


def placements(pos) -> list[dict]:
    """Every legal move that puts pieces on the board from outside it (a drop from the hand,
    a set-up action): the squares it fills, its piece letters, LAN and SAN. A click on a
    square picks among those that fill it; a set-up action that fills two squares is picked
    by a click on each."""
    geo = pos.game.geometry
    out = []
    for m in pos.legal_moves():
        if m.kind not in (MoveKind.DROP, MoveKind.SETUP):
            continue
        placed = _PLACED.findall(m.lan)
        squares = [sq for _, sq in placed] or [geo.names[m.to]]
        out.append({"squares": squares, "piece": "".join(p for p, _ in placed) or m.new.key,
                    "drop": m.kind == MoveKind.DROP, "lan": m.lan, "san": pos.san(m)})
    return out


def piece_names(pos, lang=None) -> dict[str, str]:
    """Each occupied square's piece in words of ``lang`` ("White Knight"; a state after it,
    "(NE)"): the board's buttons are named by their square and this."""
    from language import ENGLISH
    from render.position import board_pieces
    from render.result import side_names_of

    from .figures import kind_name, side_piece
    lang = lang or ENGLISH
    sides = dict(zip("wb", (lang.data(n) for n in side_names_of(pos.game)), strict=True))
    out = {}
    for square, p in board_pieces(pos).items():
        name = side_piece(sides.get(p.colour, p.colour), kind_name(p.game or pos.game.id, p.code, p.promoted, lang),
                          lang)
        out[square] = name + (f" ({p.state})" if p.state else "")
    return out


def describe(pos, pos_at, line: tuple[str, ...], flip: bool, square: int, lang=None) -> dict:
    """What the page draws over the picture of ``pos``: each square's pixel box, the
    pieces in words, the side line's SAN (``pos_at``: from a LAN prefix of the line to its
    position), and the placements; ``lang`` the reader's (English if None)."""
    import render
    lay = render.board_layout(pos, flip=flip, square=square, result="")
    return {"turn": pos.turn, "over": pos.outcome() is not None,
            "width": lay.width, "height": lay.height,
            "squares": {name: lay.box(name) for name in lay.squares()},
            "pieces": piece_names(pos, lang), "line": line_sans(pos_at, line),
            "placements": placements(pos)}
