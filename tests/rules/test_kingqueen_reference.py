"""King and Queen against an independent model written straight from the contract.

The model below knows nothing of the engine (no tables, no Betza, no legality shortcut):
it reads the board part of a VFEN itself, walks the 39 squares by hand, applies each
pseudo-legal move to a copy and looks for a capture of the royal or facing royals
(docs/rules/kingqueen.md). The engine's legal moves must equal the model's, move
for move, along seeded random games (drops and promotions included), and perft must agree.
"""
import random

import pytest

import rules

W, H = 9, 7
FILES = "abcdefghi"


def on_board(f, r):
    return 0 <= f < W and 0 <= r < H and (2 <= r <= 4 or 3 <= f <= 5)


def in_castle(f, r, color):
    return 3 <= f <= 5 and (r <= 1 if color == 0 else r >= 5)


def name(f, r):
    return f"{FILES[f]}{r + 1}"


ORTH = [(1, 0), (-1, 0), (0, 1), (0, -1)]
DIAG = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
KNIGHT = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]


class Model:
    """board: {(f, r): (color, code, promoted)}; hands: [{code: n}, {code: n}]."""

    def __init__(self, board, side, hands, dropped):
        self.board, self.side, self.hands, self.dropped = board, side, hands, dropped

    @classmethod
    def from_fen(cls, fen):
        fields = fen.split()
        board = {}
        for i, row in enumerate(fields[0].split("/")):
            r, f, j = H - 1 - i, 0, 0
            while j < len(row):
                ch = row[j]
                if ch.isdigit():
                    f += int(ch)
                elif ch == "*":
                    f += 1
                else:
                    promoted = ch == "+"
                    if promoted:
                        j += 1
                        ch = row[j]
                    board[(f, r)] = (0 if ch.isupper() else 1, ch.upper(), promoted)
                    f += 1
                j += 1
        hands, dropped = [{}, {}], [False, False]
        if len(fields) == 7:
            extras = dict(x.split("=") for x in fields[6].split(";"))
            for ch in extras["hand"].replace("-", ""):
                h = hands[0 if ch.isupper() else 1]
                h[ch.upper()] = h.get(ch.upper(), 0) + 1
            dropped = ["w" in extras["dropped"], "b" in extras["dropped"]]
        return cls(board, 0 if fields[1] == "w" else 1, hands, dropped)

    # (from, to, captured?) targets of one piece, as the contract describes it
    def targets(self, sq, piece):
        board = self.board
        color, code, promoted = piece
        f, r = sq
        out = []

        def step(dx, dy, must_castle=False):
            t = (f + dx, r + dy)
            if not on_board(*t) or (must_castle and not in_castle(*t, color)):
                return
            q = board.get(t)
            if q is None or q[0] != color:
                out.append(t)

        def slide(dirs):
            for dx, dy in dirs:
                t = (f + dx, r + dy)
                while on_board(*t):
                    q = board.get(t)
                    if q is not None:
                        if q[0] != color:
                            out.append(t)
                        break
                    out.append(t)
                    t = (t[0] + dx, t[1] + dy)

        def cannon(dirs):
            for dx, dy in dirs:
                t, screen = (f + dx, r + dy), False
                while on_board(*t):
                    q = board.get(t)
                    if not screen:
                        if q is None:
                            out.append(t)
                        else:
                            screen = True
                    elif q is not None:
                        if q[0] != color:
                            out.append(t)
                        break
                    t = (t[0] + dx, t[1] + dy)

        if code == "P":
            if promoted:
                slide(ORTH)
            else:
                step(0, 1 if color == 0 else -1)
        elif code == "B":
            slide(DIAG) if promoted else [step(dx, dy) for dx, dy in DIAG]
        elif code == "N":
            if promoted:
                for dx, dy in KNIGHT:
                    step(dx, dy)
            else:
                for dx, dy in ORTH:
                    leg = (f + dx, r + dy)
                    if not on_board(*leg) or leg in board:
                        continue
                    for side in (1, -1):
                        step(2 * dx + side * dy, 2 * dy + side * dx)
        elif code == "C":
            cannon(ORTH + DIAG if promoted else ORTH)
        elif code == "K":
            for dx, dy in ORTH + (DIAG if promoted else []):
                step(dx, dy, must_castle=True)
        return out

    def royal(self, color, board=None):
        for sq, p in (board or self.board).items():
            if p[0] == color and p[1] == "K":
                return sq
        return None

    def pseudo(self):
        """(lan, new Model) for every pseudo-legal move of the side to move."""
        us = self.side
        out = []
        for sq, piece in sorted(self.board.items()):
            if piece[0] != us:
                continue
            for t in self.targets(sq, piece):
                victim = self.board.get(t)
                board = dict(self.board)
                del board[sq]
                new = piece
                lan = name(*sq) + name(*t)
                hands = [dict(self.hands[0]), dict(self.hands[1])]
                if victim is not None:
                    hands[us][victim[1]] = hands[us].get(victim[1], 0) + 1
                    if not piece[2]:
                        new = (us, piece[1], True)
                        lan += "=+" + piece[1]
                board[t] = new
                dropped = list(self.dropped)
                dropped[us] = False
                out.append((lan, Model(board, 1 - us, hands, dropped)))
        if not self.dropped[us]:
            for code, n in self.hands[us].items():
                if not n:
                    continue
                for f in range(3, 6):
                    for r in range(H):
                        if in_castle(f, r, us) and (f, r) not in self.board:
                            board = dict(self.board)
                            board[(f, r)] = (us, code, False)
                            hands = [dict(self.hands[0]), dict(self.hands[1])]
                            hands[us][code] -= 1
                            dropped = list(self.dropped)
                            dropped[us] = True
                            out.append((f"{code}@{name(f, r)}", Model(board, 1 - us, hands, dropped)))
        return out

    def attacks(self, color, target):
        return any(target in self.targets(sq, p) for sq, p in self.board.items() if p[0] == color)

    def facing(self):
        a, b = self.royal(0), self.royal(1)
        if a is None or b is None or a[0] != b[0]:
            return False
        lo, hi = sorted((a[1], b[1]))
        return all((a[0], r) not in self.board for r in range(lo + 1, hi))

    def legal(self):
        us = self.side
        out = []
        for lan, child in self.pseudo():
            r = child.royal(us)
            if r is not None and (child.attacks(1 - us, r) or child.facing()):
                continue
            out.append((lan, child))
        return out

    def perft(self, depth):
        moves = self.legal()
        if depth == 1:
            return len(moves)
        return sum(child.perft(depth - 1) for _, child in moves)


def engine_lans(pos):
    return {m.lan for m in pos.legal_moves()}


POSITIONS = [
    rules.game("kingqueen").start_fen,
    # both sides with pieces in hand, promoted pieces about, five pieces on the e-file
    "***1kc***/***1+b1***/p1p1p1p1p/4+C4/P3N3P/***1B1***/***CK1*** w - - 0 12 hand=PNc;dropped=-",
    # Red has just dropped (Blue may, Red may not next); Blue's Empress out of line
    "***nk1***/***c2***/p3p3p/2+P6/4P4/***+KB1***/***2N*** w - - 4 20 hand=Cpp;dropped=b",
]


@pytest.mark.parametrize("fen", POSITIONS)
def test_random_games_agree_with_the_model(fen):
    rng = random.Random(fen)
    for _game in range(6):
        pos = rules.from_fen("kingqueen", fen)
        for _ply in range(40):
            model = Model.from_fen(pos.fen())
            want = {lan for lan, _ in model.legal()}
            assert engine_lans(pos) == want, pos.fen()
            if not want:
                break
            pos = pos.apply(pos.parse(rng.choice(sorted(want))))


@pytest.mark.parametrize("fen", POSITIONS)
def test_perft_agrees_with_the_model(fen):
    assert rules.from_fen("kingqueen", fen).perft(3) == Model.from_fen(fen).perft(3)
