"""Pictures and names for what a player chooses on the page: the piece a promotion makes,
the way a piece faces after its move, the piece a drop or a set-up places, and the pieces
in hand (each a place on the game's sprite sheet, render.parts, and a name in words).

Runs in the worker processes (work.py), beside the rules and the renderer."""

from __future__ import annotations

from render import parts
from render.board import Sprite, hand_sprites, piece_sprites
from render.glyphs import glyph_id, piece_type, screen_direction
from render.position import board_pieces, hands_of
from render.result import side_names_of

# a piece's facing (its state) in words
FACINGS = {"N": "north", "NE": "north-east", "E": "east", "SE": "south-east", "S": "south",
           "SW": "south-west", "W": "west", "NW": "north-west"}


def kind_name(game: str, code: str, promoted: bool = False) -> str:
    try:
        t = piece_type(game, code, promoted)
    except Exception:  # noqa: BLE001 - a kind without a name: its letter
        t = None
    return getattr(t, "name", None) or code


def _figure(index: dict, sprite: Sprite) -> list[int] | None:
    at = index.get(sprite.key)
    return list(at) if at else None


def choice_figures(pos, answer: dict, flip: bool, square: int) -> dict:
    """``answer`` (analysis.square_moves of ``pos``) with, for each target that several
    moves reach (a promotion's pieces, a piece's facings), each move's ``name`` (a piece's
    name, with its facing where it has one) and ``figure`` (its place on the sprite sheet, the piece
    as it stands after the move)."""
    game = pos.game
    index = parts.sheet_index(game.id, square)
    lay = parts.face_layout(game, flip, square)
    for target, moves in answer["targets"].items():
        if len(moves) < 2:
            continue
        for entry in moves:
            try:
                piece = board_pieces(pos.play(entry["lan"])).get(target)
            except Exception:  # noqa: BLE001 - a move the rules refuse here: no picture
                piece = None
            if piece is None:
                continue
            name = kind_name(piece.game or game.id, piece.code, piece.promoted)
            if piece.state:
                name += f" facing {FACINGS.get(piece.state, piece.state)}"
            entry["name"] = name
            sprites = piece_sprites(lay, {target: piece})
            if sprites:
                entry["figure"] = _figure(index, sprites[0])
    return answer


def letter_figures(pos, letters, flip: bool, square: int) -> dict[str, dict]:
    """For each piece letter the side to move may place (drops, set-up), its name and the
    figure of that side's piece as it first stands."""
    game = pos.game
    index = parts.sheet_index(game.id, square)
    side = pos.turn if pos.turn in ("w", "b") else "w"
    scheme = _scheme(game.id, side)
    out = {}
    for letter in letters:
        codes = [c for c in letter.replace("+", "")] if len(letter) > 1 else [letter]
        names = [kind_name(game.id, c) for c in codes]
        figures = []
        for c in codes:
            gid = glyph_id(game.id, c, False, side)
            figures.append(_figure(index, Sprite(gid, scheme, False,
                                                 screen_direction(gid, None, side, flip),
                                                 1, False, 0, 0, square)))
        out[letter] = {"name": " and ".join(names), "figures": [f for f in figures if f]}
    return out


def hand_pieces(pos, flip: bool, square: int) -> list[dict]:
    """Each kind in either hand as the picture shows it: its box (x, y, w, h in px of the
    picture), side, letter, count and name: the page puts a button over each."""
    hands = hands_of(pos) or {}
    if not hands:
        return []
    game = pos.game
    lay = parts.face_layout(game, flip, square)
    kinds, _ = hand_sprites(lay, hands, game.id)
    sides = dict(zip("wb", side_names_of(game), strict=True))
    out = []
    for kind in kinds:
        s = kind.sprite
        for side, held in hands.items():
            code = next((c for c in held if glyph_id(game.id, c, False, side) == s.glyph
                         and _scheme(game.id, side) == s.scheme), None)
            if code is not None:
                out.append({"box": [s.x, s.y, s.size, s.size], "side": side, "piece": code,
                            "count": kind.count,
                            "name": f"{sides.get(side, side)} {kind_name(game.id, code)}"})
                break
    return out


def _scheme(game: str, side: str) -> str:
    from render import palette
    return palette.scheme_name(game, side)
