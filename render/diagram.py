"""Positions from a short description, for the gallery and the tests.

    diagram(game_id, {"g1": "K", "c5": "W(N)", "c6": "W(S)", "g12": "k"}, side="w")

A piece is written as in VFEN (upper-case White, lower-case Black, "+" before a
promoted piece, a state in parentheses). The result is a rules Position read by
rules.from_fen, so the engine checks it as it checks any position string.
"""

from __future__ import annotations

from collections.abc import Mapping


def diagram_fen(game, pieces: Mapping[str, str], side: str = "w", rights: str = "-",
                extras: str = "") -> str:
    """The VFEN string of a diagram (empty squares elsewhere, holes kept)."""
    geo = game.geometry
    by_index = {geo.parse_square(sq): text for sq, text in pieces.items()}
    rows = []
    for rank in range(geo.height - 1, -1, -1):
        row, run = [], 0
        for f in range(geo.width):
            sq = rank * geo.width + f
            if sq in geo.holes or sq in by_index:
                if run:
                    row.append(str(run))
                    run = 0
                row.append("*" if sq in geo.holes else by_index[sq])
            else:
                run += 1
        if run:
            row.append(str(run))
        rows.append("".join(row))
    fen = f"{'/'.join(rows)} {side} {rights} - 0 1"
    return f"{fen} {extras}" if extras else fen


def diagram(game_id: str, pieces: Mapping[str, str], side: str = "w", rights: str = "-",
            extras: str = ""):
    """A rules Position with these pieces."""
    import rules

    return rules.from_fen(game_id, diagram_fen(rules.game(game_id), pieces, side, rights, extras))
