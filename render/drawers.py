"""The drawing of every glyph, by glyph id, in the 100-unit box of render.pen.

Orthodox silhouettes come from the Noto Sans Symbols 2 font (data/fonts, OFL);
every fairy piece is drawn here from polygons, ellipses and strokes. Each emblem
hints at how the piece moves or what it is called (a Cannon is a barrel, a shooter
a bow, a one-eyed piece an eye), and compound pieces are compositions of orthodox
silhouettes (Marshall = Rook behind a Knight).

A drawer is f(pen, direction): direction is a screen compass point ("N" = up) for
the figures that show their piece's state (``pointing`` at registration: the
spear, the eye), else None. All figures stand on the
line y = 90 so that a row of pieces looks even.
"""

from __future__ import annotations

import math

from .pen import CLEAR, DETAIL, FILL, HOLE, Pen

GROUND = 90.0  # where figures stand
DIRECTIONS = {"N": 0, "NE": 45, "E": 90, "SE": 135, "S": 180, "SW": 225, "W": 270, "NW": 315}

DRAWERS: dict = {}
# How a figure that shows its piece's state reads it: "compass" (the state is a
# compass point) or a table state -> compass point (owner's view, "N" = forward).
POINTING: dict = {}


def drawer(name: str, pointing=None):
    def register(fn):
        DRAWERS[name] = fn
        if pointing is not None:
            POINTING[name] = pointing
        return fn
    return register


# -- shared parts ---------------------------------------------------------------

ORTHODOX_CHARS = {"king": "\u265a", "queen": "\u265b", "rook": "\u265c",
                  "bishop": "\u265d", "knight": "\u265e", "pawn": "\u265f"}
# Heights (units) of the orthodox figures: a set has its King tallest, Pawn smallest.
ORTHODOX_HEIGHT = {"king": 80, "queen": 77, "rook": 68, "bishop": 74, "knight": 74, "pawn": 60}


def orthodox(pen: Pen, name: str, cx: float = 50, ground: float = GROUND,
             height: float | None = None, width: float = 80) -> None:
    h = ORTHODOX_HEIGHT[name] if height is None else height
    pen.glyph(ORTHODOX_CHARS[name], (cx - width / 2, ground - h, cx + width / 2, ground))


def plinth(pen: Pen, w: float = 30, h: float = 8, cx: float = 50, ground: float = GROUND,
           line: bool = True) -> None:
    """The low base that figures stand on, like the foot of a chess piece."""
    pen.path(f"M {cx - w} {ground} L {cx - w} {ground - h * 0.45} Q {cx - w} {ground - h} "
             f"{cx - w + h * 0.6} {ground - h} L {cx + w - h * 0.6} {ground - h} "
             f"Q {cx + w} {ground - h} {cx + w} {ground - h * 0.45} L {cx + w} {ground} Z")
    if line:
        pen.line([(cx - w + 3, ground - h * 0.42), (cx + w - 3, ground - h * 0.42)], 1.6, DETAIL)


def crown(pen: Pen, cx: float, base_y: float, w: float, h: float, points: int = 3) -> None:
    """A small crown: a band with pointed tips, each tip with a ball."""
    band = h * 0.34
    pts = [(cx - w / 2, base_y)]
    for i in range(points * 2 + 1):
        x = cx - w / 2 + w * i / (points * 2)
        y = base_y - h if i % 2 == 1 else base_y - band * 1.3
        pts.append((x, y))
    pts.append((cx + w / 2, base_y))
    pen.poly(pts)
    for i in range(points):
        x = cx - w / 2 + w * (2 * i + 1) / (points * 2)
        pen.ellipse(x, base_y - h, h * 0.13 + 1)
    pen.line([(cx - w / 2 + 1.5, base_y - band), (cx + w / 2 - 1.5, base_y - band)], 1.6, DETAIL)


def star(pen: Pen, cx: float, cy: float, r: float, mode: str = FILL, inner: float = 0.45,
         points: int = 5, rot: float = -90) -> None:
    pts = []
    for i in range(points * 2):
        rr = r if i % 2 == 0 else r * inner
        a = math.radians(rot + 180 * i / points)
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    pen.poly(pts, mode)


def composition(pen: Pen, back, front, back_shift=(-19, -5), front_shift=(13, 0),
                s_back=0.82, s_front=0.8) -> None:
    """Two figures, one behind the other: a compound piece shows both parents."""
    with pen.transform(back_shift[0], back_shift[1], s_back, about=(50, GROUND)):
        back(pen)
    pen.layer()
    with pen.transform(front_shift[0], front_shift[1], s_front, about=(50, GROUND)):
        front(pen)


def _ortho(name):
    return lambda pen: orthodox(pen, name)


# -- orthodox -------------------------------------------------------------------

for _name in ORTHODOX_CHARS:
    DRAWERS[_name] = (lambda n: (lambda pen, direction=None: orthodox(pen, n)))(_name)


# -- compounds of orthodox pieces -------------------------------------------------

@drawer("amazon")      # Queen + Knight
def amazon(pen, direction=None):
    composition(pen, _ortho("queen"), _ortho("knight"))


@drawer("marshall")    # Rook + Knight
def marshall(pen, direction=None):
    composition(pen, _ortho("rook"), _ortho("knight"), back_shift=(-15, -2))


@drawer("cardinal")    # Bishop + Knight
def cardinal(pen, direction=None):
    composition(pen, _ortho("bishop"), _ortho("knight"))


@drawer("centaur")     # King + Knight: a Knight wearing a crown
def centaur(pen, direction=None):
    # a large crown: it must still tell the Centaur from the Knight when a phone shows
    # a 14 x 14 board 400 px wide (a square of 27 px)
    orthodox(pen, "knight", cx=50, height=60, width=68)
    pen.layer()
    crown(pen, 56, 36, 42, 28)


@drawer("prince")      # a Pawn wearing a crown (steps like a King, double-steps like a Pawn)
def prince(pen, direction=None):
    orthodox(pen, "pawn", height=50)          # a large crown, as the Centaur's
    pen.layer()
    crown(pen, 50, 44, 44, 30)


@drawer("mann")        # a commoner: a bust in a cap
def mann(pen, direction=None):
    plinth(pen, w=30)
    pen.path("M 24 84 C 24 66 32 58 42 56 L 58 56 C 68 58 76 66 76 84 Z")
    pen.rect(44, 46, 56, 58)
    pen.ellipse(50, 36, 13, 14)
    pen.line([(42, 58), (50, 70), (58, 58)], 1.8, DETAIL, caps=False)
    pen.layer()
    # a flat cap with a peak
    pen.path("M 35 31 C 35 20 44 16 52 17 C 62 18 67 24 66 31 Z")
    pen.path("M 30 31 L 66 31 L 64 34 L 32 34 Z")


@drawer("superpawn")   # two Pawns: a Pawn that steps and takes two squares
def superpawn(pen, direction=None):
    composition(pen, _ortho("pawn"), _ortho("pawn"), back_shift=(15, -12), front_shift=(-9, 0),
                s_back=0.82, s_front=0.9)


@drawer("nightrider")  # two Knights: repeated Knight leaps
def nightrider(pen, direction=None):
    composition(pen, _ortho("knight"), _ortho("knight"), back_shift=(14, -10), front_shift=(-8, 0),
                s_back=0.74, s_front=0.84)


@drawer("moonrider")   # a Knight under a crescent moon
def moonrider(pen, direction=None):
    pen.ellipse(70, 27, 21)
    pen.ellipse(79, 20, 18, mode=HOLE)
    pen.layer()
    orthodox(pen, "knight", cx=42, height=70, width=70)


@drawer("gnu")         # a Knight with wildebeest horns (Knight + Camel)
def gnu(pen, direction=None):
    pen.path("M 44 30 C 30 30 20 28 16 18 C 13 12 14 7 18 4 C 18 10 20 16 28 20 "
             "C 36 23 44 22 52 22 Z")
    pen.path("M 56 26 C 66 26 78 24 82 14 C 84 9 83 5 80 2 C 80 8 78 13 72 16 "
             "C 66 19 58 18 52 19 Z")
    pen.layer()
    orthodox(pen, "knight", cx=50, height=70, width=74)


# -- animals and emblems ----------------------------------------------------------

@drawer("griffon")     # an eagle's head (one diagonal step, then outward straight)
def griffon(pen, direction=None):
    pen.path("M 30 90 C 30 76 36 66 42 58 C 38 52 36 48 36 46 L 28 47 "
             "C 22 48 18 52 17 56 C 12 48 12 38 20 32 C 26 27 34 24 40 22 "
             "C 46 14 56 12 64 15 C 72 18 76 26 74 32 L 82 36 L 74 40 L 84 48 "
             "L 75 51 L 86 60 L 77 63 L 86 74 L 78 76 L 84 90 Z")
    pen.ellipse(47, 30, 3.2, mode=DETAIL)
    pen.line([(22, 39), (34, 37), (40, 33)], 1.8, DETAIL)
    pen.line([(52, 44), (58, 56), (56, 70)], 1.6, DETAIL)


@drawer("roc")         # a great bird with spread wings
def roc(pen, direction=None):
    for m in (False, True):
        with pen.transform(mirror=m):
            pen.poly([(46, 40), (30, 30), (8, 6), (20, 28), (3, 22), (20, 38), (3, 40),
                      (22, 48), (8, 56), (28, 56), (18, 66), (44, 60)])
    pen.layer()
    pen.path("M 50 30 C 58 30 60 38 59 46 C 60 56 58 66 56 72 L 66 90 L 50 84 L 34 90 "
             "L 44 72 C 42 66 40 56 41 46 C 40 40 42 30 50 30 Z")
    pen.line([(44, 78), (50, 86)], 1.4, DETAIL)
    pen.line([(56, 78), (50, 86)], 1.4, DETAIL)
    pen.line([(46, 48), (50, 56), (54, 48)], 1.4, DETAIL, caps=False)
    pen.layer()
    pen.path("M 44 24 C 44 16 50 12 56 14 C 62 16 62 26 58 30 C 54 34 48 34 46 32 "
             "L 36 34 C 37 29 40 26 44 24 Z")
    pen.ellipse(51, 21, 2.2, mode=DETAIL)


@drawer("dragon")      # a horned dragon's head
def dragon(pen, direction=None):
    pen.path("M 32 90 C 30 78 36 68 44 60 L 24 58 L 12 54 L 16 50 L 36 50 L 14 44 "
             "L 10 40 L 14 34 L 26 31 L 40 28 L 46 24 L 74 6 L 58 26 L 62 28 L 82 18 "
             "L 70 32 L 78 36 L 72 40 L 84 46 L 76 50 L 86 60 L 78 63 L 86 74 L 79 77 "
             "L 85 90 Z")
    pen.ellipse(42, 36, 3.4, 2.6, mode=DETAIL)
    pen.poly([(16, 44), (20, 48), (22, 44)], mode=DETAIL)
    pen.poly([(26, 46), (29, 50), (31, 46)], mode=DETAIL)
    pen.line([(50, 48), (58, 60), (58, 72)], 1.6, DETAIL)


@drawer("flyingdragon")  # a dragon's head with a bat wing (Bishop + Camel)
def flyingdragon(pen, direction=None):
    pen.path("M 58 66 L 60 36 L 98 30 C 94 36 94 42 96 48 C 90 46 86 50 86 56 "
             "C 80 54 76 58 76 64 C 70 62 64 66 62 72 Z")
    pen.line([(60, 38), (94, 44)], 1.6, DETAIL)
    pen.line([(60, 38), (84, 54)], 1.6, DETAIL)
    pen.line([(60, 38), (74, 62)], 1.6, DETAIL)
    pen.layer()
    with pen.transform(-9, 0, 0.86, about=(50, GROUND)):
        dragon(pen)


@drawer("rhinoceros")  # a rhino's head (one straight step, then outward diagonally)
def rhinoceros(pen, direction=None):
    pen.path("M 36 90 C 36 82 40 76 40 72 L 22 71 C 15 70 11 66 10 62 C 8 58 9 53 13 49 "
             "C 13 37 15 25 20 14 C 24 27 27 37 32 43 L 36 42 L 42 28 L 47 40 "
             "C 51 37 54 34 58 32 L 61 13 L 69 28 C 81 34 87 54 87 90 Z")
    pen.ellipse(46, 51, 2.8, mode=DETAIL)
    pen.line([(12, 62), (22, 63)], 1.6, DETAIL)
    pen.arc(62, 66, 8, 14, 200, 340, 1.6, DETAIL)
    pen.line([(63, 28), (63, 36)], 1.6, DETAIL)


@drawer("crocodile")   # a crocodile's long head (a diagonal Cannon)
def crocodile(pen, direction=None):
    pen.path("M 46 90 C 48 78 46 70 40 66 L 12 64 C 6 63 4 58 6 54 C 7 50 9 49 12 49 "
             "L 14 46 L 18 48 L 46 42 L 50 34 C 54 29 62 29 66 34 L 70 40 "
             "C 82 44 88 58 88 72 L 90 90 Z")
    pen.ellipse(59, 37, 2.8, mode=DETAIL)
    pen.line([(10, 56), (14, 54), (17, 57), (20, 54), (23, 57), (26, 54), (29, 57), (32, 54),
              (35, 57), (38, 54), (44, 56)], 1.5, DETAIL)
    for x, y in ((64, 58), (72, 62), (64, 70), (74, 74), (66, 80)):
        pen.ellipse(x, y, 2.6, 2.0, mode=DETAIL)


@drawer("giraffe")     # a giraffe's head on its long neck
def giraffe(pen, direction=None):
    pen.path("M 46 90 C 46 72 42 54 38 40 L 28 38 L 16 36 C 10 35 10 28 14 26 L 28 18 "
             "L 32 16 L 31 6 L 36 6 L 37 15 L 42 14 L 42 5 L 47 5 L 47 15 L 52 17 L 64 13 "
             "L 56 22 C 60 40 68 60 74 74 L 76 90 Z")
    pen.ellipse(39, 23, 2.6, mode=DETAIL)
    for x, y, rx, ry in ((50, 36, 3, 3.5), (48, 50, 3.5, 4), (58, 48, 3, 3.5), (54, 62, 4, 4),
                         (64, 64, 3, 3.5), (54, 76, 4, 4), (66, 80, 3.5, 3.5)):
        pen.ellipse(x, y, rx, ry, mode=DETAIL)


@drawer("camel")       # a dromedary (the (3,1) leaper)
def camel(pen, direction=None):
    for top, foot in (((37, 60), (32, 89)), ((45, 60), (47, 89)),
                      ((72, 60), (68, 89)), ((81, 58), (86, 89))):
        pen.line([top, ((top[0] + foot[0]) / 2 + 1, 74), foot], 5.0)
    pen.path("M 16 24 L 8 28 L 9 33 L 20 34 C 24 40 24 48 30 54 C 32 60 36 66 44 66 "
             "L 74 66 C 82 66 88 60 88 52 C 90 44 88 40 83 40 C 77 38 75 22 63 20 "
             "C 53 20 49 36 41 38 C 35 39 31 33 29 27 C 27 21 22 20 16 24 Z")
    pen.ellipse(17, 27, 1.8, mode=DETAIL)
    pen.line([(89, 46), (92, 60)], 2.4)


@drawer("elephant")    # an elephant's head, ears spread, trunk down
def elephant(pen, direction=None):
    for m in (False, True):
        with pen.transform(mirror=m):
            pen.path("M 38 26 C 26 16 10 18 8 34 C 6 50 14 62 28 64 L 38 56 Z")
            pen.line([(16, 32), (24, 48)], 1.6, DETAIL)
    pen.layer()
    pen.path("M 50 14 C 64 14 70 26 68 40 C 66 50 60 54 57 60 C 56 68 57 76 62 82 "
             "C 64 86 60 90 55 88 C 48 84 44 76 44 62 C 38 54 32 50 32 40 C 30 26 36 14 50 14 Z")
    pen.ellipse(41, 38, 2.5, mode=DETAIL)
    pen.ellipse(59, 38, 2.5, mode=DETAIL)
    pen.line([(48, 66), (52, 66)], 1.4, DETAIL)
    pen.line([(48, 74), (53, 74)], 1.4, DETAIL)
    pen.layer()
    pen.path("M 40 56 C 36 62 32 66 26 68 C 32 70 38 66 43 60 Z")
    pen.path("M 60 56 C 64 62 68 66 74 68 C 68 70 62 66 57 60 Z")


@drawer("lion")        # a lion's face in its mane
def lion(pen, direction=None):
    pts = []
    for i in range(32):
        a = 2 * math.pi * i / 32
        r = 40 if i % 2 == 0 else 31
        pts.append((50 + r * math.sin(a), 50 - r * math.cos(a) * 0.98))
    pen.poly(pts)
    pen.layer()
    pen.path("M 50 26 C 62 26 68 34 68 46 C 68 60 60 72 50 74 C 40 72 32 60 32 46 "
             "C 32 34 38 26 50 26 Z")
    pen.ellipse(34, 30, 5.5)
    pen.ellipse(66, 30, 5.5)
    pen.ellipse(42, 44, 2.6, mode=DETAIL)
    pen.ellipse(58, 44, 2.6, mode=DETAIL)
    pen.poly([(45, 54), (55, 54), (50, 60)], mode=DETAIL)
    pen.line([(50, 60), (50, 64), (45, 67)], 1.6, DETAIL)
    pen.line([(50, 64), (55, 67)], 1.6, DETAIL)


@drawer("buffalo")     # a buffalo's head with sweeping horns
def buffalo(pen, direction=None):
    for m in (False, True):
        with pen.transform(mirror=m):
            pen.path("M 34 48 L 22 44 C 18 46 16 50 20 52 L 36 56 Z")
    pen.layer()
    pen.path("M 36 36 C 40 32 60 32 64 36 C 66 48 64 62 62 72 C 60 84 56 88 50 88 "
             "C 44 88 40 84 38 72 C 36 62 34 48 36 36 Z")
    pen.ellipse(42, 52, 2.4, mode=DETAIL)
    pen.ellipse(58, 52, 2.4, mode=DETAIL)
    pen.ellipse(46, 80, 2.0, 2.6, mode=DETAIL)
    pen.ellipse(54, 80, 2.0, 2.6, mode=DETAIL)
    pen.layer()
    for m in (False, True):
        with pen.transform(mirror=m):
            pen.path("M 50 28 C 36 26 24 30 18 40 C 14 34 10 26 10 14 C 4 28 4 44 16 48 "
                     "C 26 50 36 44 50 42 Z")


@drawer("frog")        # a sitting frog (Frog: King step + (3,0) leap)
def frog(pen, direction=None):
    pen.path("M 16 86 C 8 86 6 78 12 74 C 10 62 16 48 28 44 C 36 40 64 40 72 44 "
             "C 84 48 90 62 88 74 C 94 78 92 86 84 86 Z")
    pen.ellipse(32, 40, 12)
    pen.ellipse(68, 40, 12)
    pen.ellipse(32, 39, 5, mode=DETAIL)
    pen.ellipse(68, 39, 5, mode=DETAIL)
    pen.ellipse(33, 37, 1.6, mode=CLEAR)
    pen.ellipse(69, 37, 1.6, mode=CLEAR)
    pen.arc(50, 52, 24, 12, 20, 160, 1.8, DETAIL)
    pen.line([(28, 86), (30, 74)], 1.6, DETAIL)
    pen.line([(72, 86), (70, 74)], 1.6, DETAIL)


@drawer("squirrel")    # a squirrel (leaps to the second ring around it)
def squirrel(pen, direction=None):
    pen.path("M 56 88 C 86 90 98 62 88 42 C 82 30 90 18 80 10 C 70 2 56 8 58 20 "
             "C 60 28 70 34 68 48 C 66 60 56 70 56 88 Z")
    pen.line([(72, 22), (80, 34), (80, 50), (74, 68)], 1.6, DETAIL)
    pen.layer()
    pen.path("M 30 90 C 24 80 28 66 36 58 C 30 56 24 50 22 44 L 14 42 C 10 40 12 34 16 32 "
             "C 20 26 26 22 32 22 L 36 12 L 40 22 C 48 24 52 32 50 42 C 60 50 64 64 62 78 "
             "C 62 84 60 88 56 90 Z")
    pen.ellipse(30, 31, 2.4, mode=DETAIL)
    pen.ellipse(30, 52, 5, mode=DETAIL)
    pen.line([(40, 64), (48, 78)], 1.6, DETAIL)


@drawer("machine")     # a cog wheel
def machine(pen, direction=None):
    cx, cy, n = 50, 50, 9
    pts = []
    for i in range(n * 4):
        a = 2 * math.pi * (i - 0.5) / (n * 4)
        r = 42 if i % 4 in (1, 2) else 32
        pts.append((cx + r * math.sin(a), cy - r * math.cos(a)))
    pen.poly(pts)
    pen.ellipse(cx, cy, 12, mode=HOLE)
    pen.ellipse(cx, cy, 24, mode=DETAIL)
    pen.ellipse(cx, cy, 22, mode=CLEAR)


@drawer("cannon")      # a cannon on its carriage
def cannon(pen, direction=None):
    pen.path("M 6 86 L 40 64 L 50 74 L 18 90 Z")
    pen.layer()
    with pen.transform(rot=-26, about=(48, 62)):
        pen.path("M 14 50 C 8 50 5 55 5 61 C 5 67 8 72 14 72 L 84 67 L 90 68 L 90 53 "
                 "L 84 54 Z")
        pen.ellipse(4, 61, 4)
        pen.line([(28, 52), (28, 70)], 1.8, DETAIL)
        pen.line([(80, 55), (80, 66)], 1.8, DETAIL)
    pen.layer()
    cx, cy, r = 44, 72, 17
    pen.ellipse(cx, cy, r)
    pen.ellipse(cx, cy, r - 3, mode=DETAIL)
    pen.ellipse(cx, cy, r - 5.5, mode=CLEAR)
    pen.ellipse(cx, cy, 4.5, mode=DETAIL)
    for k in range(6):
        a = math.pi * k / 3 + 0.3
        pen.line([(cx + 4 * math.cos(a), cy + 4 * math.sin(a)),
                  (cx + (r - 4) * math.cos(a), cy + (r - 4) * math.sin(a))], 2.0, DETAIL)


@drawer("sorceress")   # a witch's hat (a Cannon and a Crocodile at once)
def sorceress(pen, direction=None):
    pen.path("M 6 80 C 6 72 30 68 50 68 C 70 68 94 72 94 80 C 94 88 70 90 50 90 "
             "C 30 90 6 88 6 80 Z")
    pen.layer()
    pen.path("M 28 76 C 34 58 38 40 46 28 C 52 18 62 10 78 8 C 68 16 64 24 62 34 "
             "C 62 50 68 64 72 76 C 58 80 42 80 28 76 Z")
    pen.path("M 30 70 C 44 74 58 74 70 70 L 72 76 C 58 80 42 80 28 76 Z", mode=DETAIL)
    pen.ellipse(52, 50, 5, mode=DETAIL)
    pen.ellipse(55, 48, 4.2, mode=CLEAR)


@drawer("missionary")  # a cross on a hill (Bishop + one straight step)
def missionary(pen, direction=None):
    pen.path("M 18 90 C 22 78 36 72 50 72 C 64 72 78 78 82 90 Z")
    pen.layer()
    pen.rect(44, 8, 56, 80, r=1.5)
    pen.rect(26, 24, 74, 35, r=1.5)
    pen.line([(50, 12), (50, 76)], 1.4, DETAIL)


@drawer("admiral")     # an anchor (Rook + one diagonal step)
def admiral(pen, direction=None):
    pen.ellipse(50, 14, 8)
    pen.ellipse(50, 14, 3.8, mode=HOLE)
    pen.rect(45, 20, 55, 82)
    pen.rect(28, 26, 72, 34, r=3)
    pen.arc(50, 52, 34, 30, 20, 160, 8, caps=False)
    for m in (False, True):
        with pen.transform(mirror=m):
            pen.poly([(74, 50), (91, 60), (80, 70), (82, 64)])


@drawer("duchess")     # a lady's folding fan (leaps 1, 2 or 3 squares every way)
def duchess(pen, direction=None):
    cx, cy = 50, 84
    pts = [(cx, cy)]
    n = 7
    for i in range(n * 6 + 1):
        a = math.radians(-165 + 150 * i / (n * 6))
        bump = 1.0 - 0.07 * math.sin(math.pi * ((i % 6) / 6))
        pts.append((cx + 44 * bump * math.cos(a), cy + 44 * bump * math.sin(a)))
    pen.poly(pts)
    for i in range(1, n):
        a = math.radians(-165 + 150 * i / n)
        pen.line([(cx + 8 * math.cos(a), cy + 8 * math.sin(a)),
                  (cx + 40 * math.cos(a), cy + 40 * math.sin(a))], 1.5, DETAIL)
    pen.arc(cx, cy, 22, 22, -160, -20, 1.5, DETAIL)
    pen.layer()
    pen.ellipse(cx, cy, 5)


@drawer("grandduke")   # a ducal coronet over its cap (Bishop + even Rook steps)
def grandduke(pen, direction=None):
    plinth(pen, w=34, h=8)
    pen.path("M 26 70 C 24 44 36 30 50 30 C 64 30 76 44 74 70 Z")
    pen.ellipse(50, 27, 5)
    pen.arc(50, 70, 20, 38, 200, 340, 1.6, DETAIL)
    pen.layer()
    pen.path("M 18 82 L 20 64 C 34 60 66 60 80 64 L 82 82 C 66 78 34 78 18 82 Z")
    for x, y in ((24, 57), (50, 53), (76, 57)):
        pen.poly([(x - 9, y + 8), (x - 8, y - 2), (x - 3, y + 2), (x, y - 10), (x + 3, y + 2),
                  (x + 8, y - 2), (x + 9, y + 8)])
    pen.line([(20, 70), (80, 70)], 1.6, DETAIL)
    for x in (30, 50, 70):
        pen.ellipse(x, 75, 2.6, 2.2, mode=DETAIL)


@drawer("fort")        # a fort of two towers (Rook + Ferz + (3,3) leap)
def fort(pen, direction=None):
    plinth(pen, w=40, h=6)
    for x in (10, 64):
        pen.rect(x, 30, x + 26, 86)
        for k in range(3):
            pen.rect(x + k * 10, 22, x + k * 10 + 6, 31)
    pen.rect(36, 44, 64, 86)
    for k in range(3):
        pen.rect(36 + k * 10 + 2, 38, 36 + k * 10 + 7, 45)
    pen.path("M 43 86 L 43 70 C 43 64 57 64 57 70 L 57 86 Z", mode=DETAIL)
    pen.rect(20, 46, 26, 56, mode=DETAIL)
    pen.rect(74, 46, 80, 56, mode=DETAIL)


@drawer("galero")      # a cardinal's hat with its tassels (Bishop + Wazir + (3,0) leap)
def galero(pen, direction=None):
    def tassel(x, y):
        pen.ellipse(x, y - 3, 2.8)
        pen.poly([(x - 2.4, y - 2), (x + 2.4, y - 2), (x + 5.5, y + 8), (x - 5.5, y + 8)])
    for m in (False, True):
        with pen.transform(mirror=m):
            pen.line([(17, 46), (22, 58)], 2.0)
            pen.line([(22, 66), (14, 76)], 2.0)
            pen.line([(22, 66), (30, 76)], 2.0)
            tassel(22, 60)
            tassel(14, 78)
            tassel(30, 78)
    pen.layer()
    pen.path("M 6 44 C 6 36 28 34 50 34 C 72 34 94 36 94 44 C 94 50 72 50 50 50 "
             "C 28 50 6 50 6 44 Z")
    pen.path("M 32 40 C 32 24 40 18 50 18 C 60 18 68 24 68 40 Z")
    pen.line([(32, 38), (68, 38)], 1.6, DETAIL)


@drawer("minirose")    # a rose (the circular King)
def minirose(pen, direction=None):
    pen.line([(50, 60), (50, 90)], 5)
    pen.path("M 50 78 C 40 68 28 70 22 74 C 30 82 42 82 50 78 Z")
    pen.path("M 50 72 C 60 62 72 64 78 68 C 70 76 58 76 50 72 Z")
    pen.layer()
    pts = []
    for i in range(72):
        a = 2 * math.pi * i / 72
        r = 26 + 4 * abs(math.sin(2.5 * a))
        pts.append((50 + r * math.cos(a), 38 + r * math.sin(a)))
    pen.poly(pts)
    pen.arc(50, 38, 18, 17, 200, 520, 1.6, DETAIL)
    pen.arc(50, 38, 11, 10, 30, 330, 1.6, DETAIL)
    pen.arc(50, 38, 5, 5, 200, 480, 1.6, DETAIL)


# a shield and a spear; the spear lies along the line its setting names. The spear is the
# setting's mark: it crosses the whole square, with a shaft and head bold enough to read
# on a phone (render/README.md, "Marks").
@drawer("spear", pointing={"V": "N", "R": "NE", "L": "NW"})
def spear(pen, direction=None):
    pen.ellipse(50, 50, 21)
    pen.ellipse(50, 50, 16, mode=DETAIL)
    pen.ellipse(50, 50, 14, mode=CLEAR)
    pen.ellipse(50, 50, 4, mode=DETAIL)
    if direction is None:   # no setting: the shield alone
        return
    pen.layer()
    with pen.transform(rot=DIRECTIONS[direction], about=(50, 50)):
        pen.rect(46, 24, 54, 95, r=2.5)
        pen.path("M 50 4 C 61 12 65 21 61 28 L 50 33 L 39 28 C 35 21 39 12 50 4 Z")
        pen.line([(50, 10), (50, 28)], 1.6, DETAIL)
        pen.rect(43, 31, 57, 36, r=1.5)


@drawer("pikeman")     # three spears: forward every way, like the Pikeman moves
def pikeman(pen, direction=None):
    plinth(pen, w=22, h=7)
    for ang in (-34, 0, 34):
        with pen.transform(rot=ang, about=(50, 80)):
            pen.rect(47.5, 20, 52.5, 82, r=2)
            pen.path("M 50 4 C 56 12 58 18 56 24 L 50 28 L 44 24 C 42 18 44 12 50 4 Z")
            pen.line([(50, 8), (50, 24)], 1.3, DETAIL)
    pen.rect(40, 66, 60, 72, r=2)


@drawer("bricks")      # brickwork; on the board it spans the piece's two squares
def bricks(pen, direction=None):
    x0, x1 = 6, pen.units_w - 6
    y0, y1 = 28, 80
    pen.rect(x0, y0, x1, y1, r=2)
    rows = 4
    hgt = (y1 - y0) / rows
    for r in range(1, rows):
        y = y0 + r * hgt
        pen.line([(x0 + 1, y), (x1 - 1, y)], 1.6, DETAIL, caps=False)
    brick = 22.0
    for r in range(rows):
        off = 0 if r % 2 == 0 else brick / 2
        x = x0 + off + brick
        while x < x1 - 4:
            pen.line([(x, y0 + r * hgt + 1), (x, y0 + (r + 1) * hgt - 1)], 1.6, DETAIL, caps=False)
            x += brick


@drawer("bow")         # a bow with an arrow nocked
def bow(pen, direction=None):
    pen.arc(50, 56, 40, 36, 194, 346, 6)
    pen.line([(12, 48), (50, 70), (88, 48)], 1.8, caps=False)
    pen.layer()
    pen.rect(47.5, 14, 52.5, 84, r=1.5)
    pen.poly([(50, 4), (58, 18), (50, 15), (42, 18)])
    pen.poly([(47, 72), (40, 84), (40, 90), (48, 80)])
    pen.poly([(53, 72), (60, 84), (60, 90), (52, 80)])


@drawer("eye", pointing="compass")  # a one-eyed head and a broad arrowhead the way it faces
def eye(pen, direction=None):
    # The arrowhead is the facing's mark: 54 units wide, from under the head's rim nearly
    # to the square's edge, drawn over the head so that its outline parts them. Outside
    # the head it is more than a third of a square both ways, and reads at a glance on a
    # phone (render/README.md, "Marks"); its core in the detail colour (dark in a light
    # piece, light in a dark one) makes it stand out on either square. No pupil shift:
    # the arrow says it all.
    pen.ellipse(50, 50, 25)
    pen.path("M 28 50 C 36 38 64 38 72 50 C 64 62 36 62 28 50 Z", mode=DETAIL)
    pen.path("M 32 50 C 39 42 61 42 68 50 C 61 58 39 58 32 50 Z", mode=CLEAR)
    pen.ellipse(50, 50, 7.5, mode=DETAIL)
    pen.ellipse(52, 47.5, 2.2, mode=CLEAR)
    if direction in DIRECTIONS:
        pen.layer()
        with pen.transform(rot=DIRECTIONS[direction], about=(50, 50)):
            pen.poly([(50, 3), (77, 41), (50, 31), (23, 41)])
            pen.poly([(50, 12), (67, 36), (50, 30), (33, 36)], mode=DETAIL)
