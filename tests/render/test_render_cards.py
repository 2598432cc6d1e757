"""Piece cards: every piece of every game, alone on its game's board, with exactly
the squares the engine lets it reach marked, and its name and description below."""

import io

import pytest
from PIL import Image
from render_pixels import assert_piece_colour, near, square_colour

import rules
from render import palette
from render.board import RING_RADIUS
from render.card import card_layout, draw_card, piece_card, piece_card_png

CARDS = [(g, key, "w") for g in rules.variants() for key in rules.game(g).types]
CARDS += [("kingqueen", key, "b") for key in rules.game("kingqueen").types]


def engine_reach(pos, square):
    """Independently of render: where the piece on square can go by a legal move
    (both new squares of a Wall), minus the squares it stands on."""
    geo = pos.game.geometry
    sq = geo.parse_square(square)
    k = pos.board[sq]
    own = {sq}
    if k.type.hook == "wall":
        own.add(sq + {"E": 1, "W": -1, "N": geo.width, "S": -geo.width}[k.state])
    out = set()
    for m in pos.moves_from(sq):
        out.update(s for s, _ in m.put) if m.kind == "w" else out.add(m.to)
    return {geo.names[s] for s in out - own}, {geo.names[s] for s in own}


def mark_at(img, lay, game, name):
    """Which mark a square's centre shows: "dot", "ring", "cross" or None."""
    plain = square_colour(game, name)
    cx, cy = lay.centre(name)
    c = img.getpixel((cx, cy))
    if near(c, plain, 2):
        ring = img.getpixel((cx + round(lay.square * RING_RADIUS), cy))
        return None if near(ring, plain, 2) else "ring"
    if c[0] > c[1] + 30:
        return "cross"
    if near(c, tuple(round(v) for v in _blend(plain, palette.DESTINATION)), 3):
        return "dot"
    return "other"


def _blend(under, rgba):
    a = rgba[3] / 255
    return [u * (1 - a) + v * a for u, v in zip(under, rgba[:3], strict=True)]


@pytest.mark.parametrize("game_id,key,colour", CARDS)
def test_every_card_marks_exactly_the_engines_moves(game_id, key, colour):
    card = piece_card(game_id, key, colour)
    pos = card.position
    game = pos.game
    # alone on the board (a Wall on its two squares), of the right side, on its turn
    assert {n for n, k in pos.pieces().items()} == set(card.squares)
    assert all(k.key == key and "wb"[k.color] == colour for k in pos.pieces().values())
    assert pos.turn == colour
    reach, own = engine_reach(pos, card.square)
    assert card.moves == reach and set(card.squares) == own
    assert card.quiet <= card.moves and not (card.captures & card.moves)
    img = draw_card(card)
    lay = card_layout(card)
    assert lay.flip == (colour == "b")
    assert img.size[0] == lay.width and img.size[1] > lay.height       # the caption below
    for name in card.squares:
        assert_piece_colour(img, lay, game_id, name, colour)
    expected = {n: "ring" for n in card.quiet}
    expected |= {n: "dot" for n in card.moves - card.quiet}
    expected |= {n: "cross" for n in card.captures}
    for s in game.geometry.squares:
        name = game.geometry.names[s]
        if name in card.squares:
            continue
        assert mark_at(img, lay, game, name) == expected.get(name), name


@pytest.mark.parametrize("game_id,key,square,moves,quiet,captures", [
    ("chess", "P", "d2", {"d3", "d4"}, {"d3", "d4"}, {"c3", "e3"}),     # the double step
    ("chess", "N", "d4", {"b3", "b5", "c2", "c6", "e2", "e6", "f3", "f5"}, set(), set()),
    ("superchess", "A", "e5", {"c4", "c6", "d3", "d7", "f3", "f7", "g4", "g6"}, set(),
     {"a5", "e1", "e9", "j5"}),                                            # the shots
    ("superchess", "S", "e2", {"e3", "e4"}, {"e3", "e4"}, {"d3", "f3", "c4", "g4"}),
    ("superchess", "C", "e5", {"e6", "e7", "e8", "e4", "e3", "e2"}, set(), set()),
    ("kingqueen", "K", "e2", {"d2", "f2", "e1"}, set(), set()),            # in its castle
    ("kingqueen", "P", "e4", {"e5"}, set(), set()),                        # takes ahead
    ("gigachess2", "K", "h2", {"g1", "h1", "i1", "g2", "i2", "g3", "h3", "i3",
                               "f1", "j1", "f2", "j2", "f3", "j3", "f4", "g4", "h4", "i4",
                               "j4"},
     {"f1", "j1", "f2", "j2", "f3", "j3", "f4", "g4", "h4", "i4", "j4"}, set()),  # the jump
    ("ganymede", "W", "f6", None, set(), set()),
])
def test_cards_of_special_pieces(game_id, key, square, moves, quiet, captures):
    card = piece_card(game_id, key)
    assert card.square == square
    if moves is not None:
        assert card.moves == moves
    assert card.quiet == quiet and card.captures == captures


def test_a_wall_card_covers_two_squares_either_way():
    across = piece_card("ganymede", "W")
    assert across.squares == ("f6", "g6")
    along = piece_card("ganymede", "W", state="N")
    assert along.squares == ("f6", "f7")
    assert {"f5", "f8"} <= along.moves and {"e6", "h6"} <= across.moves


def test_black_cards_are_seen_from_black_in_the_mirrored_square():
    white = piece_card("kingqueen", "N", "w")
    black = piece_card("kingqueen", "N", "b")
    assert card_layout(black).flip and not card_layout(white).flip
    assert card_layout(white).box(white.square) == card_layout(black).box(black.square)
    assert white.title.startswith("Rider") and black.title.startswith("Knight")
    assert "Blue" in white.subtitle and "Red's is the Knight" in white.subtitle


def test_captions_come_from_the_data_files():
    card = piece_card("superchess", "C")
    assert card.title.startswith("Cyclops")
    assert card.text == " ".join(rules.game("superchess").types["C"].description.split())
    assert "facing N" in card.subtitle
    assert "Promotes on the last rank to a Queen, Rook, Bishop or Knight" in \
        piece_card("chess", "P").text                   # no description: the usual words
    assert piece_card("ganymede", "S", state="L").subtitle.endswith("set to L")
    with pytest.raises(ValueError):
        piece_card("ganymede", "S", state="X")
    with pytest.raises(ValueError):
        piece_card("chess", "Z")


def test_card_png_is_small():
    data = piece_card_png("gigachess2", "A")
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) < 1_000_000
    img = Image.open(io.BytesIO(data))
    assert 1000 <= img.size[0] <= 1200
