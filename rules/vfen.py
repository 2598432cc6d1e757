"""VFEN: the position string (FEN with holes, states, several-digit runs and extras)."""
from __future__ import annotations

import re

from .attacks import attacked_on
from .errors import FenError, RulesError
from .game import Game, Hands
from .pieces import BLACK, WHITE, Board, PieceType
from .position import Position
from .vfen_write import write_fen

__all__ = ["read_fen", "write_fen", "MAX_FEN"]

_TOKEN = re.compile(r"(\d+)|(\*)|(\+?)([A-Za-z])(?:\(([^)]*)\))?")
MAX_FEN = 1000


def read_fen(game: Game, text: str) -> Position:
    if not isinstance(text, str):
        raise FenError("a position must be a string")
    if len(text) > MAX_FEN:
        raise FenError(f"position string too long ({len(text)} characters)")
    fields = text.split()
    if len(fields) < 6 or len(fields) > 7:
        raise FenError(f"a position has 6 or 7 fields separated by spaces, this has {len(fields)}")
    board_text, side_text, rights_text, ep_text, half_text, full_text = fields[:6]
    extras = _read_extras(game, fields[6] if len(fields) == 7 else "")
    board = _read_board(game, board_text)
    if side_text not in ("w", "b"):
        raise FenError(f"side to move must be 'w' or 'b', not {side_text!r}")
    side = WHITE if side_text == "w" else BLACK
    try:
        halfmove, fullmove = int(half_text), int(full_text)
    except ValueError:
        raise FenError(f"halfmove and fullmove must be numbers, not {half_text!r} {full_text!r}") from None
    if halfmove < 0 or fullmove < 1:
        raise FenError("halfmove must be 0 or more and fullmove 1 or more")
    royals = [0, 0]
    for k in board:
        if k is not None and k.royal:
            royals[k.color] += 1
    if max(royals) > 1:
        raise FenError("each side may have at most one royal piece")
    rights = _read_rights(game, board, rights_text)
    ep = _read_ep(game, board, side, ep_text)
    hands = _read_hands(game, extras.get("hand", "-"))
    dropped_text = extras.get("dropped", "-")
    if dropped_text not in ("-", "w", "b", "wb"):
        raise FenError(f"dropped= must be -, w, b or wb, not {dropped_text!r}")
    dropped = ("w" in dropped_text, "b" in dropped_text)
    setup = extras.get("setup")
    if setup is not None:
        if not game.extension.setup_phases:
            raise FenError(f"{game.name} has no set-up phase")
        if setup not in game.extension.setup_phases:
            raise FenError(f"unknown set-up step {setup!r}; expected one of "
                           f"{', '.join(game.extension.setup_phases)}")
    pos = Position(game, board, side, rights, ep, halfmove, fullmove, hands, dropped, setup)
    if setup is None:
        for sq, k in enumerate(board):
            if k is not None and k.state == "?":
                raise FenError(f"the piece on {game.geometry.names[sq]} has no state set")
    game.extension.validate(pos)  # a set-up position is wholly the extension's to check
    if setup is None:
        them = 1 - side
        r = pos.royal[them]
        if r is not None and attacked_on(board, pos.occ[side], r, side):
            raise FenError(f"impossible position: {game.side_name(side)} to move could capture "
                           f"{game.side_name(them)}'s royal piece")
    return pos


def _read_extras(game: Game, text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    if not text:
        return out
    for item in text.split(";"):
        if "=" not in item:
            raise FenError(f"extras are key=value pairs separated by ';', not {item!r}")
        k, v = item.split("=", 1)
        if k not in ("hand", "dropped", "setup"):
            raise FenError(f"unknown extra {k!r}")
        if k in ("hand", "dropped") and game.drop_zone is None:
            raise FenError(f"{game.name} has no pieces in hand")
        if k in out:
            raise FenError(f"extra {k!r} given twice")
        out[k] = v
    return out


def _read_board(game: Game, text: str) -> Board:
    geo = game.geometry
    rows = text.split("/")
    if len(rows) != geo.height:
        raise FenError(f"the board has {geo.height} ranks, the position string {len(rows)}")
    board: Board = [None] * geo.size
    for i, row in enumerate(rows):
        rank = geo.height - 1 - i
        f = 0
        pos = 0
        while pos < len(row):
            m = _TOKEN.match(row, pos)
            if not m:
                raise FenError(f"rank {rank + 1}: cannot read {row[pos:]!r}")
            pos = m.end()
            run, hole, plus, letter, state = m.groups()
            if run is not None:
                n = int(run)
                if n == 0:
                    raise FenError(f"rank {rank + 1}: an empty run of 0")
                if f + n > geo.width:
                    raise FenError(f"rank {rank + 1} has more than {geo.width} squares")
                for _ in range(n):
                    if rank * geo.width + f in geo.holes:
                        raise FenError(f"rank {rank + 1}: {geo.files[f]}{rank + 1} is a hole, write it as *")
                    f += 1
                continue
            if f >= geo.width:
                raise FenError(f"rank {rank + 1} has more than {geo.width} squares")
            sq = rank * geo.width + f
            if hole:
                if sq not in geo.holes:
                    raise FenError(f"{geo.names[sq]} is a square of this board, not a hole")
                f += 1
                continue
            if sq in geo.holes:
                raise FenError(f"{geo.names[sq]} is a hole; no piece can stand there")
            key = plus + letter.upper()
            if key not in game.types:
                raise FenError(f"{game.name} has no piece {plus + letter!r} (on {geo.names[sq]})")
            t = game.types[key]
            color = WHITE if letter.isupper() else BLACK
            if state is None and t.states:
                raise FenError(f"the {t.name} on {geo.names[sq]} needs its state, e.g. {plus + letter}({t.states[0]})")
            if state is not None and state not in t.states and state not in t_extra_states(t):
                if not t.states:
                    raise FenError(f"the {t.name} on {geo.names[sq]} has no state")
                raise FenError(f"the {t.name} on {geo.names[sq]}: unknown state {state!r}; "
                               f"one of {', '.join(t.states)}")
            board[sq] = game.kind(key, color, state)
            f += 1
        if f != geo.width:
            raise FenError(f"rank {rank + 1} has {f} squares, the board {geo.width}")
    return board


def t_extra_states(t: PieceType) -> tuple[str, ...]:
    return getattr(t, "extra_states", ())


def _read_rights(game: Game, board: Board, text: str) -> frozenset[int]:
    if text == "-":
        return frozenset()
    geo = game.geometry
    rights = set()
    for ch in text:
        color = WHITE if ch.isupper() else BLACK
        sq = None
        if game.castling_letters and ch.upper() in "KQ":
            short = ch.upper() == "K"
            for c in game.castlings:
                if c.color == color and c.short == short:
                    sq = c.rook
        elif ch.lower() in geo.files:
            f = geo.files.index(ch.lower())
            for c in game.castlings:
                if c.color == color and geo.file_of(c.rook) == f:
                    sq = c.rook
            if sq is None and game.jump is not None:
                sq = game.jump.right_for_file(color, f)
        if sq is None:
            raise FenError(f"castling right {ch!r} names no castling or jump in {game.name}")
        _check_right(game, board, color, sq, ch)
        if sq in rights:
            raise FenError(f"castling right {ch!r} given twice")
        rights.add(sq)
    return frozenset(rights)


def _check_right(game: Game, board: Board, color: int, sq: int, ch: str) -> None:
    geo = game.geometry
    for c in game.castlings:
        if c.color == color and c.rook == sq:
            k, r = board[c.king], board[c.rook]
            if k is None or not k.royal or k.color != color:
                raise FenError(f"right {ch!r}: the King is not on {geo.names[c.king]}")
            if r is None or r.color != color or r.key != c_rook_key(game):
                raise FenError(f"right {ch!r}: no Rook on {geo.names[c.rook]}")
            return
    k = board[sq]
    if k is None or not k.royal or k.color != color:
        raise FenError(f"right {ch!r}: the King is not on {geo.names[sq]}")


def c_rook_key(game: Game) -> str:
    return game.castling_rook


def _read_ep(game: Game, board: Board, side: int, text: str) -> int | None:
    if text == "-":
        return None
    geo = game.geometry
    try:
        sq = geo.parse_square(text)
    except RulesError as e:
        raise FenError(f"en passant square: {e}") from None
    if text != text.lower():
        raise FenError(f"en passant square {text!r} must be lower-case")
    mover = 1 - side
    victim = sq + geo.width * (1 if mover == WHITE else -1)
    v = board[victim] if 0 <= victim < geo.size else None
    if board[sq] is not None or v is None or v.color != mover or not v.type.ep_victim:
        raise FenError(f"en passant square {text}: no piece can just have passed over it")
    return sq


def _read_hands(game: Game, text: str) -> Hands:
    if text == "-":
        return ((), ())
    counts: tuple[dict[str, int], dict[str, int]] = ({}, {})
    for ch in text:
        key = ch.upper()
        if key not in game.drop_order:
            raise FenError(f"hand: {ch!r} is not a piece that can be held in {game.name}")
        c = WHITE if ch.isupper() else BLACK
        counts[c][key] = counts[c].get(key, 0) + 1
    order = game.drop_order
    white, black = (tuple(sorted(d.items(), key=lambda kv: order.index(kv[0]))) for d in counts)
    return white, black
