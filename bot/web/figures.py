"""Pictures and names for what a player chooses on the page: the piece a promotion makes,
the way a piece faces after its move, the piece a drop or a set-up places, and the pieces
in hand (each a place on the game's sprite sheet, render.parts, and a name in words).

Runs in the worker processes (work.py), beside the rules and the renderer."""

from __future__ import annotations

from language import ENGLISH, Language
from render import parts
from render.board import Sprite, hand_sprites, piece_sprites
from render.glyphs import glyph_id, piece_type, screen_direction
from render.position import board_pieces, hands_of
from render.result import side_names_of


def facing(state: str, lang: Language = ENGLISH) -> str:
    """A piece's facing (its state: "N", "NE", ...) in words of ``lang``; another state as it is."""
    words = {"N": lang.tr("north"), "NE": lang.tr("north-east"), "E": lang.tr("east"),
             "SE": lang.tr("south-east"), "S": lang.tr("south"), "SW": lang.tr("south-west"),
             "W": lang.tr("west"), "NW": lang.tr("north-west")}
    return words.get(state, state)


def kind_name(game: str, code: str, promoted: bool = False, lang: Language = ENGLISH) -> str:
    """A kind of piece's name in ``lang`` (a data text), else its letter."""
    try:
        t = piece_type(game, code, promoted)
    except Exception:  # noqa: BLE001 - a kind without a name: its letter
        t = None
    name = getattr(t, "name", None)
    return lang.data(name) if name else code


def side_piece(side: str, piece: str, lang: Language = ENGLISH) -> str:
    """A side's piece in words ("White Knight"); ``side`` and ``piece`` in ``lang`` already."""
    return lang.tr("{side} {piece}", side=side, piece=piece)


def _figure(index: dict, sprite: Sprite) -> list[int] | None:
    at = index.get(sprite.key)
    return list(at) if at else None


def choice_figures(pos, answer: dict, flip: bool, square: int, lang: Language = ENGLISH) -> dict:
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
            name = kind_name(piece.game or game.id, piece.code, piece.promoted, lang)
            if piece.state:
                name = lang.tr("{piece} facing {direction}", piece=name, direction=facing(piece.state, lang))
            entry["name"] = name
            sprites = piece_sprites(lay, {target: piece})
            if sprites:
                entry["figure"] = _figure(index, sprites[0])
    return answer


def letter_figures(pos, letters, flip: bool, square: int, lang: Language = ENGLISH) -> dict[str, dict]:
    """For each piece letter the side to move may place (drops, set-up), its name and the
    figure of that side's piece as it first stands."""
    game = pos.game
    index = parts.sheet_index(game.id, square)
    side = pos.turn if pos.turn in ("w", "b") else "w"
    scheme = _scheme(game.id, side)
    out = {}
    for letter in letters:
        codes = [c for c in letter.replace("+", "")] if len(letter) > 1 else [letter]
        names = [kind_name(game.id, c, lang=lang) for c in codes]
        figures = []
        for c in codes:
            gid = glyph_id(game.id, c, False, side)
            figures.append(_figure(index, Sprite(gid, scheme, False,
                                                 screen_direction(gid, None, side, flip),
                                                 1, False, 0, 0, square)))
        name = names[0]
        for more in names[1:]:
            name = lang.tr("{first} and {second}", first=name, second=more)
        out[letter] = {"name": name, "figures": [f for f in figures if f]}
    return out


def hand_pieces(pos, flip: bool, square: int, lang: Language = ENGLISH) -> list[dict]:
    """Each kind in either hand as the picture shows it: its box (x, y, w, h in px of the
    picture), side, letter, count and name: the page puts a button over each."""
    hands = hands_of(pos) or {}
    if not hands:
        return []
    game = pos.game
    lay = parts.face_layout(game, flip, square)
    kinds, _ = hand_sprites(lay, hands, game.id)
    sides = dict(zip("wb", (lang.data(n) for n in side_names_of(game)), strict=True))
    out = []
    for kind in kinds:
        s = kind.sprite
        for side, held in hands.items():
            code = next((c for c in held if glyph_id(game.id, c, False, side) == s.glyph
                         and _scheme(game.id, side) == s.scheme), None)
            if code is not None:
                out.append({"box": [s.x, s.y, s.size, s.size], "side": side, "piece": code,
                            "count": kind.count,
                            "name": side_piece(sides.get(side, side), kind_name(game.id, code, lang=lang), lang)})
                break
    return out


def _scheme(game: str, side: str) -> str:
    from render import palette
    return palette.scheme_name(game, side)
