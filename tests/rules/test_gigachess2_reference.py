"""Gigachess II against an independent reference written straight from gigachess2.md.

The reference below shares no code with the engine (no Betza, no tables, no attack
maps): each piece is spelled out as offsets, slides, hops and bent paths in (x, y)
coordinates, "attacked" is worked out literally as README Legality 4 says (put an
enemy piece on the square and see whether a pseudo-legal move captures it), and a
move is legal when no pseudo-legal reply captures the King (Legality 2). It covers
what Fairy-Stockfish cannot: the 14 x 14 board, the Eagle, the Rhinoceros and the
King's jump. Seeded random games from the start and seeded random sparse positions
(Kings on h2/h13 with their jump) must give the same legal moves, check and VFEN.
"""
from __future__ import annotations

import random

import pytest

import rules

GAME = "gigachess2"
FILES = "abcdefghijklmn"
SIZE = 14
WHITE, BLACK = 0, 1


def _sym(a, b):
    return {(sa * x, sb * y) for x, y in ((a, b), (b, a)) for sa in (1, -1) for sb in (1, -1)}


KING = _sym(1, 0) | _sym(1, 1)
ORTH = [(1, 0), (-1, 0), (0, 1), (0, -1)]
DIAG = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
LEAPS = {  # plain leaps and steps, moving or capturing
    "K": KING, "N": _sym(2, 1), "E": _sym(1, 1) | _sym(2, 2), "W": _sym(1, 0) | _sym(2, 0),
    "J": KING | _sym(2, 1), "M": _sym(3, 1), "Z": _sym(3, 2), "I": KING,
    "L": KING | _sym(2, 1) | _sym(2, 2) | _sym(2, 0),
    "D": KING | _sym(2, 0) | _sym(2, 2) | _sym(3, 0) | _sym(3, 3),
    "F": _sym(2, 1) | _sym(3, 1) | _sym(3, 2),
    "Y": _sym(1, 0), "S": _sym(1, 1), "H": _sym(2, 1), "X": _sym(2, 1), "A": _sym(2, 1),
}
SLIDES = {"Q": ORTH + DIAG, "R": ORTH, "B": DIAG, "Y": DIAG, "S": ORTH, "H": ORTH, "X": DIAG,
          "A": ORTH + DIAG}
HOPPERS = {"C": ORTH, "V": DIAG, "O": ORTH + DIAG}   # slide without capturing, capture by a hop
BENT = {"G": [((dx, dy), [(dx, 0), (0, dy)]) for dx, dy in DIAG],          # Eagle
        "U": [((dx, dy), [(dx + dy, dy + dx), (dx - dy, dy - dx)]) for dx, dy in ORTH]}  # Rhino
PROMO = {"P": "Q", "I": "A", "N": "F", "M": "F", "Z": "F", "E": "L", "W": "L", "J": "L"}
JUMP_FROM = {WHITE: (7, 1), BLACK: (7, 12)}


def on(x, y):
    return 0 <= x < SIZE and 0 <= y < SIZE


def name(sq):
    return f"{FILES[sq[0]]}{sq[1] + 1}"


class Ref:
    """board: {(x, y): (colour, letter)}; rights: colours whose King may still jump."""

    def __init__(self, board, side, rights, ep):
        self.board, self.side, self.rights, self.ep = board, side, rights, ep

    # ---- pseudo-legal moves: (from, to, victim square or None) ----
    def piece_moves(self, frm, board=None, ep=None):
        board = self.board if board is None else board
        color, letter = board[frm]
        x, y = frm
        fwd = 1 if color == WHITE else -1
        out = []

        def add(to, victim=None):
            out.append((frm, to, victim))

        def target(to, capture=True, move=True):
            q = board.get(to)
            if q is None:
                if move:
                    add(to)
            elif capture and q[0] != color:
                add(to, to)

        if letter == "P":
            one, two = (x, y + fwd), (x, y + 2 * fwd)
            if on(*one) and one not in board:
                add(one)
                if on(*two) and two not in board:
                    add(two)
            for dx in (-1, 1):
                to = (x + dx, y + fwd)
                if not on(*to):
                    continue
                if to in board and board[to][0] != color:
                    add(to, to)
                elif to == ep:
                    add(to, (to[0], to[1] - fwd))
            return out
        if letter == "I":
            one, two = (x, y + fwd), (x, y + 2 * fwd)
            if on(*two) and one not in board and two not in board:
                add(two)
        for dx, dy in LEAPS.get(letter, ()):
            if on(x + dx, y + dy):
                target((x + dx, y + dy))
        for dx, dy in SLIDES.get(letter, ()):
            cx, cy = x + dx, y + dy
            while on(cx, cy):
                target((cx, cy))
                if (cx, cy) in board:
                    break
                cx, cy = cx + dx, cy + dy
        for dx, dy in HOPPERS.get(letter, ()):
            cx, cy, screened = x + dx, y + dy, False
            while on(cx, cy):
                q = board.get((cx, cy))
                if not screened:
                    if q is None:
                        add((cx, cy))
                    else:
                        screened = True
                elif q is not None:
                    if q[0] != color:
                        add((cx, cy), (cx, cy))
                    break
                cx, cy = cx + dx, cy + dy
        for (fx, fy), legs in BENT.get(letter, ()):
            first = (x + fx, y + fy)
            if not on(*first):
                continue
            target(first)
            if first in board:
                continue
            for dx, dy in legs:
                cx, cy = first[0] + dx, first[1] + dy
                while on(cx, cy):
                    target((cx, cy))
                    if (cx, cy) in board:
                        break
                    cx, cy = cx + dx, cy + dy
        return out

    def attacked(self, sq, by, board=None):
        """Legality 4: would a pseudo-legal move of `by` capture an enemy piece on sq?"""
        board = dict(self.board if board is None else board)
        board[sq] = (1 - by, "Q")
        for frm, (color, _l) in list(board.items()):
            if color == by and any(to == sq and v == sq for _f, to, v in self.piece_moves(frm, board)):
                return True
        return False

    def king(self, color, board=None):
        board = self.board if board is None else board
        for sq, (c, letter) in board.items():
            if c == color and letter == "K":
                return sq
        return None

    def in_check(self):
        k = self.king(self.side)
        return k is not None and self.attacked(k, 1 - self.side)

    def jumps(self):
        us, them = self.side, 1 - self.side
        k = self.king(us)
        if us not in self.rights or k != JUMP_FROM[us] or self.in_check():
            return []
        out = []
        x, y = k
        for dx in range(-2, 3):
            for dy in range(-2, 3):
                if max(abs(dx), abs(dy)) != 2:
                    continue
                to = (x + dx, y + dy)
                if not on(*to) or to in self.board:
                    continue
                # the contract's middle squares: the one square between for (2,0) and
                # (2,2); both squares a King could pass through for (2,1)
                if dx == 0 or dy == 0 or abs(dx) == abs(dy):
                    mids = {(x + dx // 2, y + dy // 2)}
                else:
                    mids = {(x + ax, y + ay) for ax, ay in KING
                            if max(abs(dx - ax), abs(dy - ay)) == 1}
                if all(self.attacked(m, them) for m in mids):
                    continue
                if self.attacked(to, them):
                    continue
                out.append((k, to, None))
        return out

    def after(self, mv):
        frm, to, victim = mv
        board = dict(self.board)
        color, letter = board.pop(frm)
        if victim is not None:
            del board[victim]
        last = SIZE - 1 if color == WHITE else 0
        board[to] = (color, PROMO[letter] if letter in PROMO and to[1] == last else letter)
        rights = set(self.rights)
        if letter == "K":
            rights.discard(color)
        ep = None
        if letter in "PI" and frm[0] == to[0] and abs(to[1] - frm[1]) == 2:
            ep = (frm[0], (frm[1] + to[1]) // 2)
        return Ref(board, 1 - color, rights, ep)

    def legal(self):
        out = {}
        moves = [m for sq, (c, _l) in self.board.items() if c == self.side
                 for m in self.piece_moves(sq, ep=self.ep)] + self.jumps()
        for mv in moves:
            child = self.after(mv)
            k = child.king(self.side)
            if k is not None and child.attacked(k, child.side):
                continue
            frm, to, _v = mv
            letter = self.board[frm][1]
            lan = name(frm) + name(to)
            if child.board[to][1] != letter:
                lan += "=" + child.board[to][1]
            out[lan] = mv
        return out

    def ep_text(self):
        if self.ep is None:
            return "-"
        fwd = 1 if self.side == WHITE else -1
        ex, ey = self.ep
        for dx in (-1, 1):
            if self.board.get((ex + dx, ey - fwd)) == (self.side, "P"):
                return name(self.ep)
        return "-"


def ref_from_fen(fen):
    f = fen.split()
    board = {}
    for i, row in enumerate(f[0].split("/")):
        y, x = SIZE - 1 - i, 0
        num = ""
        for ch in row + " ":
            if ch.isdigit():
                num += ch
                continue
            if num:
                x += int(num)
                num = ""
            if ch == " ":
                break
            board[(x, y)] = (WHITE if ch.isupper() else BLACK, ch.upper())
            x += 1
    rights = {WHITE for c in f[2] if c == "H"} | {BLACK for c in f[2] if c == "h"}
    ep = None
    if f[3] != "-":
        ep = (FILES.index(f[3][0]), int(f[3][1:]) - 1)
    return Ref(board, WHITE if f[1] == "w" else BLACK, rights, ep)


def compare(pos, ref):
    want = ref.legal()
    got = {m.lan for m in pos.legal_moves()}
    assert got == set(want), (pos.fen(), sorted(got - set(want)), sorted(set(want) - got))
    assert pos.in_check() == ref.in_check(), pos.fen()
    assert pos.fen().split()[3] == ref.ep_text(), pos.fen()
    assert ("H" in pos.fen().split()[2]) == (WHITE in ref.rights and ref.king(WHITE) == JUMP_FROM[WHITE])
    return want


@pytest.mark.parametrize("seed", [1, 2])
def test_random_games_from_the_start(seed):
    """Both sides play seeded random games, preferring captures to open the board."""
    rng = random.Random(seed)
    pos = rules.start(GAME)
    ref = ref_from_fen(pos.fen())
    for _ply in range(60):
        want = compare(pos, ref)
        if not want:
            break
        lans = sorted(want)
        caps = [lan for lan in lans if want[lan][2] is not None]
        lan = rng.choice(caps if caps and rng.random() < 0.7 else lans)
        pos, ref = pos.play(lan), ref.after(want[lan])


def _random_position(rng):
    letters = "QRBNPPPPIIEWJMZCVOUGLYSDHXAF"
    board = {(7, 1): (WHITE, "K"), (7, 12): (BLACK, "K")}
    squares = [(x, y) for x in range(SIZE) for y in range(SIZE)]
    for _ in range(rng.randint(12, 30)):
        sq = rng.choice(squares)
        if sq in board:
            continue
        letter = rng.choice(letters)
        if letter == "P" and sq[1] in (0, SIZE - 1):
            continue
        # crowd the Kings' second rings now and then, to exercise the jump
        board[sq] = (rng.randint(0, 1), letter)
    for _ in range(rng.randint(0, 6)):
        color = rng.randint(0, 1)
        kx, ky = JUMP_FROM[color]
        sq = (kx + rng.randint(-3, 3), ky + rng.randint(-3, 3))
        if on(*sq) and sq not in board:
            board[sq] = (rng.randint(0, 1), rng.choice("NMZCVOUGLDFP"))
    # a Pawn or Prince with an enemy Pawn waiting beside its double step's landing
    # square (en passant next move), sometimes with a piece just in front of it
    for _ in range(rng.randint(0, 3)):
        color = rng.randint(0, 1)
        fwd = 1 if color == WHITE else -1
        x, y = rng.randrange(SIZE), rng.randrange(2, SIZE - 2)
        group = {(x, y): (color, rng.choice("PI")),
                 (x + rng.choice((-1, 1)), y + 2 * fwd): (1 - color, "P")}
        if rng.random() < 0.3:
            group[(x, y + fwd)] = (rng.randint(0, 1), rng.choice("NPQ"))
        if all(on(*s) and s not in board for s in group):
            board.update(group)
    return board


def _fen(board, side):
    rows = []
    for y in range(SIZE - 1, -1, -1):
        row, run = "", 0
        for x in range(SIZE):
            p = board.get((x, y))
            if p is None:
                run += 1
                continue
            row += (str(run) if run else "") + (p[1] if p[0] == WHITE else p[1].lower())
            run = 0
        rows.append(row + (str(run) if run else ""))
    return f"{'/'.join(rows)} {'wb'[side]} Hh - 0 1"


def test_random_sparse_positions_with_the_jump():
    """Seeded random positions; each legal move's child is compared too (en passant, rights)."""
    rng = random.Random(20240601)
    checked = 0
    while checked < 40:
        side = rng.randint(0, 1)
        board = _random_position(rng)
        ref = Ref(board, side, {WHITE, BLACK}, None)
        enemy_king = ref.king(1 - side)
        if ref.attacked(enemy_king, side):
            continue  # illegal: the side to move could capture the enemy King
        pos = rules.from_fen(GAME, _fen(board, side))
        want = compare(pos, ref)
        checked += 1
        # follow the double steps (en passant next move) and two other random moves
        lans = sorted(want)
        follow = [lan for lan in lans if ref.board[want[lan][0]][1] in "PI"
                  and abs(want[lan][1][1] - want[lan][0][1]) == 2] + rng.sample(lans, min(2, len(lans)))
        for lan in follow:
            compare(pos.play(lan), ref.after(want[lan]))
