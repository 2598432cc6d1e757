"""The crosstable picture (render/crosstable.py): what each cell says (results mirrored,
double round robins, byes, games still going, aborted games), the picture's structure read
through its layout (holes on the diagonal, squares like the board's, a dot for a game
still going), long and non-Latin names, and sizes for a phone."""

from PIL import Image, ImageDraw

from render import palette
from render.crosstable import (
    INK,
    MUTED_INK,
    NAME_MAX,
    PAD,
    Crosstable,
    Game,
    Player,
    cells,
    crosstable_image,
    crosstable_layout,
    crosstable_png,
)
from render.text import ELLIPSIS, drawable, fit, font_chain, runs, width


def round_robin(n=4, double=False, games=None):
    players = [Player(f"P{i + 1}", n - i, (float(i),), 1500 + i) for i in range(n)]
    return Crosstable("Cup", "round-robin", players, games or [], tiebreak_names=("SB",), double=double)


def ink(img, box, colour, tolerance=40):
    x0, y0, x1, y1 = box
    return sum(1 for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)
               if all(abs(a - b) <= tolerance for a, b in zip(img.getpixel((x, y)), colour, strict=True)))


def test_a_round_robin_cell_holds_the_row_players_result_mirrored_in_the_other():
    t = round_robin(games=[Game(1, 0, 1, "1-0"), Game(1, 2, 3, "1/2-1/2"), Game(2, 3, 0, None),
                           Game(2, 1, 2, "*")])
    c = cells(t)
    assert c[(0, 1)] == ("1",) and c[(1, 0)] == ("0",)
    assert c[(2, 3)] == c[(3, 2)] == ("½",)
    assert c[(0, 3)] == c[(3, 0)] == ("\u2022",)  # still going
    assert c[(1, 2)] == ("\u00d7",)  # aborted
    assert (0, 2) not in c


def test_a_double_round_robin_shows_both_games_in_one_cell_in_round_order():
    t = round_robin(n=2, double=True, games=[Game(2, 1, 0, "1-0"), Game(1, 0, 1, "1-0")])
    assert cells(t)[(0, 1)] == ("1", "0") and cells(t)[(1, 0)] == ("0", "1")


def test_a_swiss_cell_says_colour_opponents_place_and_result_and_a_bye_its_points():
    players = [Player(n, 1) for n in ("A", "B", "C")]
    t = Crosstable("Swiss", "swiss", players, [Game(1, 2, 0, "0-1"), Game(1, 1, None, None, 1.0),
                                              Game(2, 0, 1, None)], rounds=3, tiebreak_names=("Buchholz",))
    c = cells(t)
    assert c[(0, 1)] == ("b", "3", "1") and c[(2, 1)] == ("w", "1", "0")
    assert c[(1, 1)] == ("bye", "1")
    assert c[(0, 2)] == ("w", "2", "\u2022") and c[(1, 2)] == ("b", "1", "\u2022")


def test_the_picture_draws_holes_squares_results_and_dots_where_the_layout_says():
    t = round_robin(games=[Game(1, 0, 1, "1-0"), Game(2, 0, 2, None)])
    img = crosstable_image(t)
    lay = crosstable_layout(t)
    assert img.size == (lay.width, lay.height)
    hole = lay.cell(1, "game", 1)
    assert ink(img, hole, palette.BACKGROUND, 2) == (hole[2] - hole[0] + 1) * (hole[3] - hole[1] + 1)
    result = lay.cell(0, "game", 1)
    assert ink(img, result, INK) > 30  # the "1"
    going = lay.cell(0, "game", 2)
    cx, cy = (going[0] + going[2]) // 2, (going[1] + going[3]) // 2
    assert img.getpixel((cx, cy)) == MUTED_INK and ink(img, going, INK, 20) == 0
    empty = lay.cell(0, "game", 3)  # no game yet: a bare square, light or dark as the board's
    assert img.getpixel((empty[0] + 2, empty[1] + 2)) in (palette.LIGHT_SQUARE, palette.DARK_SQUARE)
    neighbours = {img.getpixel((lay.cell(0, "game", k)[0] + 2, lay.cell(0, "game", k)[1] + 2)) for k in (2, 3)}
    assert neighbours == {palette.LIGHT_SQUARE, palette.DARK_SQUARE}  # they alternate


def test_text_is_big_enough_for_a_phone():
    """Discord shows a picture about 400 px wide: a four-player table's result digits are
    still 8 px high there (the board's coordinates are 7)."""
    t = round_robin(games=[Game(1, 0, 1, "1-0")])
    img = crosstable_image(t)
    x0, y0, x1, y1 = crosstable_layout(t).cell(0, "game", 1)
    ys = [y for y in range(y0, y1 + 1) for x in range(x0, x1 + 1)
          if all(abs(a - b) <= 60 for a, b in zip(img.getpixel((x, y)), INK, strict=True))]
    assert (max(ys) - min(ys) + 1) * 400 / img.width >= 8


def test_a_long_name_is_cut_short_and_the_column_stays_narrow():
    long = "Bartholomew Featherstonehaugh-Cholmondeley the Third of That Ilk"
    t = Crosstable("Cup", "swiss", [Player(long, 1), Player("Al", 0)], rounds=1)
    lay = crosstable_layout(t)
    x0, _, x1, _ = lay.cell(0, "name")
    assert x1 - x0 + 1 == NAME_MAX + 2 * PAD
    d = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    cut = fit(d, long, 21, NAME_MAX)
    assert cut.endswith(ELLIPSIS) and width(d, cut, 21) <= NAME_MAX and long.startswith(cut[:-1])


def test_names_in_other_scripts_are_drawn_in_a_font_that_has_them_never_as_boxes():
    main = font_chain()[0]
    assert runs("Борис Γιώργος Łukasz") == [(main, "Борис Γιώργος Łukasz")]
    # an unassigned code point: no font has it; drawn as one ellipsis, not as boxes
    assert runs("Al\u0378\u0379x") == [(main, "Al" + ELLIPSIS + "x")]
    assert not drawable("\u0378\u0379") and drawable("Zoë")
    t = Crosstable("Cup", "round-robin", [Player("\u0378\u0379", 1), Player("Борис", 0)], double=False)
    img = crosstable_image(t)  # the undrawable name stands as "player 1"
    x0, y0, x1, y1 = crosstable_layout(t).cell(0, "name")
    assert ink(img, (x0, y0, x1, y1), palette.HAND_TEXT) > 40


def test_an_empty_event_and_a_hundred_player_swiss_both_make_pictures_under_a_megabyte():
    assert crosstable_png(Crosstable("New", "swiss", [], rounds=5))[:8] == b"\x89PNG\r\n\x1a\n"
    players = [Player(f"Player {i}", 7 - i / 20, (30.0, 20.0), 1500) for i in range(100)]
    games = [Game(r, i, (i + r) % 100, "1-0") for r in range(1, 8) for i in range(0, 100, 2)]
    png = crosstable_png(Crosstable("Big", "swiss", players, games, rounds=7,
                                    tiebreak_names=("Buchholz", "Median")))
    assert len(png) < 1_000_000
