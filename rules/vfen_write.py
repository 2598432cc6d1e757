"""VFEN writing: a position's string (rules.vfen reads it back, and keeps ``write_fen``
in its namespace). Apart from the reader because the position's ``fen()`` calls it, and
the reader makes positions."""
from __future__ import annotations

from .game import PositionView
from .pieces import BLACK, WHITE


def write_fen(pos: PositionView) -> str:
    game = pos.game
    geo = game.geometry
    rows = []
    for rank in range(geo.height - 1, -1, -1):
        row, run = [], 0
        for f in range(geo.width):
            sq = rank * geo.width + f
            k = pos.board[sq]
            if k is None and sq not in geo.holes:
                run += 1
                continue
            if run:
                row.append(str(run))
                run = 0
            row.append("*" if k is None else k.symbol)   # here only a hole is empty
        if run:
            row.append(str(run))
        rows.append("".join(row))
    fields = ["/".join(rows), pos.turn, _write_rights(pos), "-", str(pos.halfmove), str(pos.fullmove)]
    ep = pos.ep_square() if pos.setup is None else None
    if ep is not None:
        fields[3] = geo.names[ep]
    extras = []
    if game.drop_zone is not None:
        hand = "".join(k * n for k, n in pos.hands[WHITE]) + "".join(k.lower() * n for k, n in pos.hands[BLACK])
        dropped = ("w" if pos.dropped[WHITE] else "") + ("b" if pos.dropped[BLACK] else "")
        extras += [f"hand={hand or '-'}", f"dropped={dropped or '-'}"]
    if pos.setup is not None:
        extras.append(f"setup={pos.setup}")
    if extras:
        fields.append(";".join(extras))
    return " ".join(fields)


def _write_rights(pos: PositionView) -> str:
    game = pos.game
    geo = game.geometry
    if not pos.rights:
        return "-"
    out = []
    for color in (WHITE, BLACK):
        letters = []
        for sq in sorted(pos.rights, key=geo.file_of):
            owner = None
            for c in game.castlings:
                if c.rook == sq:
                    owner = c.color
                    if game.castling_letters and owner == color:
                        letters.append((0 if c.short else 1, "K" if c.short else "Q"))
            if owner is None and game.jump is not None and game.jump.is_right(color, sq):
                owner = color
                letters.append((geo.file_of(sq), geo.files[geo.file_of(sq)].upper()))
            elif owner == color and not game.castling_letters:
                letters.append((geo.file_of(sq), geo.files[geo.file_of(sq)].upper()))
        text = "".join(letter for _, letter in sorted(letters))
        out.append(text if color == WHITE else text.lower())
    return "".join(out) or "-"
