"""Pixel checks shared by the render tests: what should be at a square, read from
the picture through the layout (never by comparing with stored pictures)."""

from render import palette

COLOURS = "wb"


def near(c1, c2, tol=8):
    return all(abs(a - b) <= tol for a, b in zip(c1[:3], c2[:3], strict=True))


def count_near(img, box, colour, tol=8):
    data = img.crop(box).convert("RGB").tobytes()
    r, g, b = colour[:3]
    return sum(1 for i in range(0, len(data), 3)
               if abs(data[i] - r) <= tol and abs(data[i + 1] - g) <= tol
               and abs(data[i + 2] - b) <= tol)


def blend(under, rgba):
    a = rgba[3] / 255
    return tuple(round(u * (1 - a) + c * a) for u, c in zip(under, rgba[:3], strict=True))


def inner(box, frac=0.1):
    x0, y0, x1, y1 = box
    k = round((x1 - x0) * frac)
    return x0 + k, y0 + k, x1 - k, y1 - k


def scheme(game_id, colour):
    return palette.SCHEMES[palette.scheme_name(game_id, colour)]


def square_colour(game, name):
    """The plain colour of a square: its castle's colours in King and Queen, else
    light or dark (a1 dark)."""
    geo = game.geometry
    sq = geo.parse_square(name)
    fi, ri = geo.file_of(sq), geo.rank_of(sq)
    dark = (fi + ri) % 2 == 0
    if game.drop_zone:
        for c in (0, 1):
            if sq in game.zone(game.drop_zone, c):
                light_c, dark_c = palette.CASTLE_SQUARES[COLOURS[c]]
                return dark_c if dark else light_c
    return palette.DARK_SQUARE if dark else palette.LIGHT_SQUARE


def assert_piece_colour(img, lay, game_id, name, colour):
    """The square shows a piece of that side: its body colour clearly outweighs the
    other side's."""
    # (tight tolerance: anti-aliased edges of thin figures come near the other
    # side's body colour with a loose one)
    box = inner(lay.box(name))
    mine = count_near(img, box, scheme(game_id, colour).fill, tol=3)
    theirs = count_near(img, box, scheme(game_id, "b" if colour == "w" else "w").fill, tol=3)
    assert mine > 3 * theirs + 20, (name, colour, mine, theirs)


def assert_empty(img, lay, game, name, wash=None):
    """Nothing drawn at the centre of an empty square (its plain or washed colour)."""
    expected = square_colour(game, name)
    if wash is not None:
        expected = blend(expected, wash)
    got = img.getpixel(lay.centre(name))
    assert near(got, expected, 2), (name, got, expected)


def corner(img, lay, name):
    x0, y0, _, _ = lay.box(name)
    return img.getpixel((x0 + 2, y0 + 2))


def assert_board_matches(img, lay, pos):
    """Every piece of the position at its square in its side's colour, every other
    square of the board with nothing at its centre, every hole all background."""
    game = pos.game
    geo = game.geometry
    pieces = pos.pieces()
    for sq in geo.squares:
        name = geo.names[sq]
        k = pieces.get(name)
        if k is not None:
            assert_piece_colour(img, lay, game.id, name, COLOURS[k.color])
    for h in geo.holes:
        box = lay.box(geo.names[h])
        assert img.crop(box).getcolors() == [(lay.square ** 2, palette.BACKGROUND)], geo.names[h]
