"""Boards drawn from rules Positions: every game from any position, seen from either
side, with the last move, captures, check and one piece's destinations where they
belong. Pixels are read at squares through the layout."""

import io
import random

import pytest
from PIL import Image
from render_pixels import (
    assert_board_matches,
    assert_empty,
    assert_piece_colour,
    blend,
    corner,
    count_near,
    near,
    scheme,
    square_colour,
)

import rules
from render import palette
from render.diagram import diagram
from render.glyphs import piece_image
from render.position import (
    board_image,
    board_layout,
    board_png,
    destinations,
    last_move_squares,
)

GAMES = rules.variants()


def test_every_game_is_tested():
    assert set(GAMES) >= {"chess", "ganymede", "gigachess2", "grandducal", "kingqueen",
                          "superchess"}


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("flip", [False, True])
def test_start_position_piece_by_piece(game_id, flip):
    pos = rules.start(game_id)
    img = board_image(pos, flip=flip)
    lay = board_layout(pos, flip=flip)
    assert img.size == (lay.width, lay.height)
    assert_board_matches(img, lay, pos)
    game = pos.game
    occupied = set(pos.pieces())
    for sq in game.geometry.squares:
        name = game.geometry.names[sq]
        if name not in occupied:
            assert_empty(img, lay, game, name)


@pytest.mark.parametrize("game_id", GAMES)
def test_any_position_renders(game_id):
    """Positions of a seeded random game, every 15 plies, each seen from the side to
    move: the pieces are where the engine has them."""
    rng = random.Random(game_id)
    pos = rules.start(game_id)
    for ply in range(46):
        moves = pos.legal_moves()
        if not moves:
            break
        captures = [m for m in moves if m.captures]
        pos = pos.play(rng.choice(captures if captures and rng.random() < 0.4 else moves))
        if ply % 15 == 14:
            img = board_image(pos)
            lay = board_layout(pos)
            assert lay.flip == (pos.side == 1)
            assert_board_matches(img, lay, pos)


def test_board_shape_and_lettering():
    sc = rules.start("superchess")
    lay = board_layout(sc)
    assert lay.files == "abcdefghjk"            # no i file
    assert lay.box("j1")[0] - lay.box("h1")[0] == lay.square
    kq = rules.start("kingqueen")
    lay = board_layout(kq, flip=False)
    assert lay.holes == {"a1", "b1", "c1", "g1", "h1", "i1", "a2", "b2", "c2", "g2", "h2", "i2",
                         "a6", "b6", "c6", "g6", "h6", "i6", "a7", "b7", "c7", "g7", "h7", "i7"}
    img = board_image(kq, flip=False)
    # castles in their owner's colours, the rest of the board in the usual ones
    for name, side in (("d1", "w"), ("f2", "w"), ("e6", "b"), ("d7", "b")):
        assert square_colour(kq.game, name) in palette.CASTLE_SQUARES[side]
    for name in ("d2", "f1", "d6", "f7", "b4", "e4"):
        if name not in kq.pieces():
            assert_empty(img, lay, kq.game, name)
    # the coordinates: ink under every column and left of every row, none under a
    # hole-only column (there is none) nor off the board
    for f in "abcdefghi":
        x0, _, x1, _ = lay.box(f"{f}3")
        under = img.crop((x0, lay.top + lay.board_h, x1, lay.height)).getcolors(10000)
        assert len(under) > 2, f
    for r in range(1, 8):
        _, y0, _, y1 = lay.box(f"e{r}")
        assert len(img.crop((0, y0, lay.left, y1)).getcolors(10000)) > 2, r


def test_flip_defaults_to_the_side_to_move():
    pos = rules.start("chess").play("e4")       # Black to move
    assert board_layout(pos).flip is True
    assert board_image(pos).tobytes() == board_image(pos, flip=True).tobytes()
    white = board_layout(pos, flip=False)
    black = board_layout(pos)
    assert black.box("a1") == white.box("h8")
    img = board_image(pos)
    x0, y0, x1, y1 = black.box("a1")                # top right, a white Rook
    assert x0 > img.size[0] / 2 and y1 < img.size[1] / 2
    assert_piece_colour(img, black, "chess", "a1", "w")
    assert_piece_colour(img, black, "chess", "e8", "b")


# -- the last move --------------------------------------------------------------------

def washed(img, lay, game, name, rgba):
    return near(corner(img, lay, name), blend(square_colour(game, name), rgba), 2)


def plain(img, lay, game, name):
    return near(corner(img, lay, name), square_colour(game, name), 2)


def marked_squares(img, lay, pos):
    """Squares whose top-left corner is not the plain square colour."""
    geo = pos.game.geometry
    return {geo.names[s] for s in geo.squares if not plain(img, lay, pos.game, geo.names[s])}


def test_a_normal_move_marks_from_and_to():
    pos = rules.start("chess").play("e4")
    img, lay = board_image(pos), board_layout(pos)
    for name in ("e2", "e4"):
        assert washed(img, lay, pos.game, name, palette.LAST_MOVE), name
    assert marked_squares(img, lay, pos) == {"e2", "e4"}
    assert_piece_colour(img, lay, "chess", "e4", "w")
    quiet = board_image(pos, show_last_move=False)
    assert marked_squares(quiet, lay, pos) == set()


def test_a_capture_marks_the_captured_square():
    pos = rules.start("chess")
    for m in ("e4", "d5", "exd5"):
        pos = pos.play(m)
    img, lay = board_image(pos), board_layout(pos)
    assert washed(img, lay, pos.game, "e4", palette.LAST_MOVE)
    assert washed(img, lay, pos.game, "d5", palette.CAPTURED)
    assert marked_squares(img, lay, pos) == {"e4", "d5"}


def test_en_passant_marks_the_square_of_the_taken_pawn():
    pos = rules.start("chess")
    for m in ("e4", "a6", "e5", "d5", "exd6"):
        pos = pos.play(m)
    img, lay = board_image(pos), board_layout(pos)
    assert marked_squares(img, lay, pos) == {"e5", "d6", "d5"}
    assert washed(img, lay, pos.game, "d5", palette.CAPTURED)
    assert washed(img, lay, pos.game, "d6", palette.LAST_MOVE)


SUPER = {"e1": "K", "e4": "C(N)", "c2": "A", "a2": "P", "e10": "k", "e5": "p", "e6": "p",
         "h8": "c(SW)", "b7": "p"}


def test_a_cyclops_run_marks_every_square_it_took_on():
    pos = diagram("superchess", SUPER).play("e4e7(E)")
    img, lay = board_image(pos), board_layout(pos)
    assert lay.flip
    assert marked_squares(img, lay, pos) == {"e4", "e7", "e5", "e6"}
    for name in ("e5", "e6"):
        assert washed(img, lay, pos.game, name, palette.CAPTURED), name
        assert_empty(img, lay, pos.game, name, palette.CAPTURED)
    assert washed(img, lay, pos.game, "e4", palette.LAST_MOVE)
    assert_piece_colour(img, lay, "superchess", "e7", "w")


def test_an_archer_shot_marks_the_archer_and_its_target():
    pieces = dict(SUPER, c6="q")
    pos = diagram("superchess", pieces).play("c2^c6")
    img, lay = board_image(pos), board_layout(pos)
    assert marked_squares(img, lay, pos) == {"c2", "c6"}
    assert washed(img, lay, pos.game, "c6", palette.CAPTURED)
    assert washed(img, lay, pos.game, "c2", palette.LAST_MOVE)
    assert_piece_colour(img, lay, "superchess", "c2", "w")   # the Archer did not move
    assert_empty(img, lay, pos.game, "c6", palette.CAPTURED)


GANY = {"g1": "K", "c5": "W(N)", "c6": "W(S)", "a2": "W(E)", "b2": "W(W)", "e4": "S(R)",
        "h3": "S(L)", "f4": "S(V)", "b8": "+N", "g3": "P",
        "g12": "k", "h7": "w(E)", "i7": "w(W)", "d9": "s(L)", "g10": "s(V)", "k5": "+p",
        "d5": "p", "d6": "n"}


def test_a_wall_capture_marks_its_old_squares_and_both_pieces_taken():
    pos = diagram("ganymede", GANY).play("c5c6-d5d6")
    img, lay = board_image(pos, flip=False), board_layout(pos, flip=False)
    assert marked_squares(img, lay, pos) == {"c5", "c6", "d5", "d6"}
    for name in ("c5", "c6"):
        assert washed(img, lay, pos.game, name, palette.LAST_MOVE), name
    # d5 and d6 are under the Wall now: washed at their corners, the Wall on both
    for name in ("d5", "d6"):
        assert washed(img, lay, pos.game, name, palette.CAPTURED), name
        assert_piece_colour(img, lay, "ganymede", name, "w")
    # one figure across the shared edge of d5 and d6
    x0, y0, x1, _ = lay.box("d5")
    seam = ((x0 + x1) // 2 - 2, y0 - 3, (x0 + x1) // 2 + 2, y0 + 3)
    assert count_near(img, seam, scheme("ganymede", "w").fill) > 10


def test_a_drop_marks_its_square_and_check_its_royal():
    pieces = {"d1": "+K", "e2": "N", "a3": "+P", "c4": "+N", "e3": "P", "f7": "+k",
              "d6": "+b", "f5": "p", "a5": "p", "i5": "+c", "e6": "p"}
    before = diagram("kingqueen", pieces, extras="hand=CPPNbccp;dropped=-")
    pos = before.play("C@f2")
    assert pos.in_check()
    img, lay = board_image(pos), board_layout(pos)
    assert lay.flip                                       # Red to move
    # f2: the drop (washed inside the checker's red corners); f7: the royal's red frame
    assert marked_squares(img, lay, pos) == {"f2", "f7"}
    x0, y0, _, y1 = lay.box("f2")
    assert near(img.getpixel((x0 + 1, (y0 + y1) // 2)), blend(square_colour(pos.game, "f2"),
                                                             palette.LAST_MOVE), 2)
    assert_piece_colour(img, lay, "kingqueen", "f2", "w")
    # the check: a red glow on f7, the Red royal's square, strongest near its edge
    x0, y0, x1, y1 = lay.box("f7")
    glow = img.getpixel((x0 + lay.square // 8, (y0 + y1) // 2))
    assert glow[0] > glow[1] + 40 and glow[0] > glow[2] + 40
    quiet = board_image(before, flip=True)
    assert quiet.getpixel((x0 + lay.square // 8, (y0 + y1) // 2)) == square_colour(
        pos.game, "f7")
    # nothing on the holes, hands beside the board with their pieces
    for h in ("a1", "c2", "g6", "i7"):
        assert img.crop(lay.box(h)).getcolors() == [(lay.square ** 2, palette.BACKGROUND)]
    red = lay.hand_box(False)      # Red, to move, sees its own hand at the bottom
    blue = lay.hand_box(True)
    assert count_near(img, red, scheme("kingqueen", "b").fill, 3) > 200
    assert count_near(img, red, scheme("kingqueen", "w").fill, 3) == 0
    assert count_near(img, blue, scheme("kingqueen", "w").fill, 3) > 200
    assert count_near(img, blue, scheme("kingqueen", "b").fill, 3) == 0


def test_check_marks_the_royal_in_chess():
    pos = rules.start("chess")
    for m in "e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#".split():
        pos = pos.play(m)
    img, lay = board_image(pos), board_layout(pos)
    x0, y0, x1, y1 = lay.box("e8")
    px = img.getpixel((x0 + lay.square // 8, (y0 + y1) // 2))
    assert px[0] > px[1] + 40 and px[0] > px[2] + 40
    assert_piece_colour(img, lay, "chess", "e8", "b")
    x0, y0, x1, y1 = lay.box("e1")                       # White is not in check
    assert img.getpixel((x0 + lay.square // 8, (y0 + y1) // 2)) == square_colour(pos.game, "e1")


def test_last_move_squares_of_every_kind():
    names = rules.game("ganymede").geometry.names
    wall = diagram("ganymede", GANY).play("c5c6-d5d6").last_move
    assert last_move_squares(wall, names) == (["c5", "c6"], ["d5", "d6"])
    assert last_move_squares(None, names) == ([], [])
    turn = diagram("ganymede", GANY).play("e4(V)").last_move
    assert last_move_squares(turn, names) == (["e4"], [])


def test_the_super_chess_set_up_phase_renders():
    game = rules.game("superchess")
    pos = rules.from_fen("superchess", game.setup_start_fen).play("S@c2,S@g2")
    assert last_move_squares(pos.last_move, game.geometry.names) == (["c2", "g2"], [])
    img, lay = board_image(pos), board_layout(pos)
    assert_board_matches(img, lay, pos)
    assert marked_squares(img, lay, pos) == {"c2", "g2"}
    pos = pos.play("S@a9,S@b9").play("d1(NE)")              # White's Cyclops faces NE
    img, lay = board_image(pos), board_layout(pos)
    assert marked_squares(img, lay, pos) == {"d1"}
    assert_piece_colour(img, lay, "superchess", "d1", "w")
    # Black's Cyclops, not yet placed ("?"), is drawn without a pointer
    k = pos.pieces()["d10"]
    assert k.state == "?"
    want = tile(game, "d10", ("superchess", "C", False, "b", "?"), lay, lay.flip)
    assert img.crop(lay.box("d10")).tobytes() == want.tobytes()
    facing = tile(game, "d10", ("superchess", "C", False, "b", "N"), lay, lay.flip)
    assert want.tobytes() != facing.tobytes()


# -- states ---------------------------------------------------------------------------

def tile(game, name, piece_args, lay, flip):
    """What the square should look like: the piece's figure on the square's colour."""
    gid, code, promoted, colour, state = piece_args
    t = Image.new("RGBA", (lay.square, lay.square), square_colour(game, name) + (255,))
    t.alpha_composite(piece_image(gid, code, promoted, colour, lay.square, state, flip))
    return t.convert("RGB")


@pytest.mark.parametrize("flip", [False, True])
def test_states_are_drawn(flip):
    """Each Spearman in its setting and each Cyclops in its facing: the square shows
    exactly that figure, and not the figure of another state."""
    gpos = diagram("ganymede", GANY)
    spos = diagram("superchess", dict(SUPER, a6="C(E)", j3="c(W)"))
    for pos, states in ((gpos, "VRL"), (spos, ["N", "NE", "E", "S", "W"])):
        img, lay = board_image(pos, flip=flip), board_layout(pos, flip=flip)
        for name, k in pos.pieces().items():
            if k.key not in ("S", "C"):
                continue
            args = (pos.game.id, k.type.code, False, "wb"[k.color])
            got = img.crop(lay.box(name))
            assert got.tobytes() == tile(pos.game, name, args + (k.state,), lay, flip).tobytes()
            other = next(s for s in states if s != k.state)
            assert got.tobytes() != tile(pos.game, name, args + (other,), lay, flip).tobytes()


def test_walls_span_their_two_squares_both_ways():
    pos = diagram("ganymede", GANY)
    img, lay = board_image(pos, flip=False), board_layout(pos, flip=False)
    # vertical (c5-c6): across the horizontal edge between them
    x0, y0, x1, _ = lay.box("c5")
    seam = ((x0 + x1) // 2 - 2, y0 - 3, (x0 + x1) // 2 + 2, y0 + 3)
    assert count_near(img, seam, scheme("ganymede", "w").fill, 3) > 10
    # horizontal (h7-i7, Black's): across the vertical edge
    _, y0, x1, y1 = lay.box("h7")
    seam = (x1 - 3, (y0 + y1) // 2 - 2, x1 + 3, (y0 + y1) // 2 + 2)
    assert count_near(img, seam, scheme("ganymede", "b").fill, 3) > 10
    # and no seam between two Walls that are not one piece (b2 and c2 is empty)
    _, y0, x1, y1 = lay.box("b2")
    gap = (x1 - 2, (y0 + y1) // 2 - 2, x1 + 2, (y0 + y1) // 2 + 2)
    assert count_near(img, gap, scheme("ganymede", "w").fill, 3) == 0


# -- one piece's destinations -----------------------------------------------------------

def engine_destinations(pos, name):
    """From the engine, independently of render: landing squares of the piece's
    legal moves (both new squares of a Wall move), but not its own squares."""
    geo = pos.game.geometry
    sq = geo.parse_square(name)
    own = {sq}
    k = pos.board[sq]
    if k.type.hook == "wall":
        step = {"E": 1, "W": -1, "N": geo.width, "S": -geo.width}[k.state]
        own.add(sq + step)
    out = set()
    for m in pos.moves_from(sq):
        if m.kind == "w":
            out.update(s for s, _ in m.put)
        else:
            out.add(m.to)
    return {geo.names[s] for s in out - own}, {geo.names[s] for s in own}


def changed_squares(a, b, lay, pos):
    """Squares whose centre or corner differs between two pictures."""
    geo = pos.game.geometry
    out = set()
    for s in geo.squares:
        name = geo.names[s]
        x0, y0, _, _ = lay.box(name)
        for xy in (lay.centre(name), (x0 + 2, y0 + 2)):
            if a.getpixel(xy) != b.getpixel(xy):
                out.add(name)
    return out


def highlight_cases():
    chess = rules.start("chess")
    for m in "e4 e5 Nf3 Nc6 Bb5 a6".split():
        chess = chess.play(m)
    kq = diagram("kingqueen", {"d1": "+K", "e2": "N", "c4": "+N", "e3": "P", "f7": "+k",
                               "d6": "+b", "f5": "p", "a5": "p"},
                 extras="hand=C;dropped=-")
    return [(chess, "b5"), (chess, "e1"), (diagram("superchess", SUPER), "e4"),
            (diagram("superchess", SUPER), "c2"), (diagram("ganymede", GANY), "c5"),
            (diagram("ganymede", GANY), "b2"), (diagram("ganymede", GANY), "e4"),
            (kq, "c4"), (kq, "d1"), (rules.start("gigachess2"), "h3"),
            (rules.start("grandducal"), "c1")]


@pytest.mark.parametrize("case", range(11))
def test_highlight_marks_exactly_the_engines_destinations(case):
    pos, name = highlight_cases()[case]
    expected, own = engine_destinations(pos, name)
    assert destinations(pos, name) == expected
    plain_img = board_image(pos)
    img = board_image(pos, highlight=name)
    lay = board_layout(pos)
    assert changed_squares(plain_img, img, lay, pos) == expected | own
    occupied = set(pos.pieces())
    for d in expected:
        if d not in occupied:   # a dot, darker than the square, at the centre
            assert sum(img.getpixel(lay.centre(d))) < sum(plain_img.getpixel(lay.centre(d))) - 40
    for o in own:
        assert washed(img, lay, pos.game, o, palette.SELECTED)


def test_highlight_of_an_empty_square_or_an_enemy_piece_marks_no_destination():
    pos = rules.start("chess")
    assert destinations(pos, "e5") == set()
    assert destinations(pos, "e7") == set()           # Black's, White to move
    lay = board_layout(pos)
    plain_img = board_image(pos)
    assert changed_squares(plain_img, board_image(pos, highlight="e5"), lay, pos) == set()
    assert changed_squares(plain_img, board_image(pos, highlight="e7"), lay, pos) == {"e7"}


# -- size --------------------------------------------------------------------------------

def test_a_14x14_board_is_phone_sized():
    pos = rules.start("gigachess2")
    lay = board_layout(pos)
    assert lay.square >= 60
    data = board_png(pos, highlight="h3")
    img = Image.open(io.BytesIO(data))
    assert 1000 <= img.size[0] <= 1200
    assert len(data) < 1_000_000


@pytest.mark.parametrize("game_id", GAMES)
def test_every_board_png_is_small(game_id):
    pos = rules.start(game_id)
    data = board_png(pos)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) < 1_000_000
    img = Image.open(io.BytesIO(data))
    assert img.size == (board_layout(pos).width, board_layout(pos).height)
    assert board_layout(pos).square >= 60
