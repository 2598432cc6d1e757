"""Super Chess against an independent reference.

The reference below is a second, deliberately naive reading of superchess.md: a board as
a dict, every rule written out in the plainest way, legality by trying every reply
(README "Legality" 2-4 word for word), no tables, no shortcuts. Random games from the
start and from crowded positions compare, position by position, the engine's legal moves
(LAN) with the reference's, and for every move the board, rights and en passant square
after it. This checks the engine's tables, its legality shortcut (sensitive squares and
the movers' watch()) and the movers' attacks() against their pseudo_moves().
"""
from __future__ import annotations

import random
import re

import pytest

import rules

FILES = "abcdefghjk"
SIZE = 10
FACINGS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
VEC = {"N": (0, 1), "NE": (1, 1), "E": (1, 0), "SE": (1, -1),
       "S": (0, -1), "SW": (-1, -1), "W": (-1, 0), "NW": (-1, 1)}
PROMOS = ("Q", "R", "B", "N", "A")
KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
KING = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
ORTHO = ((1, 0), (0, 1), (-1, 0), (0, -1))
DIAG = ((1, 1), (-1, 1), (-1, -1), (1, -1))
# castling: right letter (White's), king from, king to, rook from, rook to (files)
CASTLES = (("a", 4, 2, 0, 3), ("k", 4, 7, 9, 6))


def name(sq):
    return f"{FILES[sq[0]]}{sq[1] + 1}"


def on(f, r):
    return 0 <= f < SIZE and 0 <= r < SIZE


class Ref:
    """A position: board {(f, r): (colour 'w'/'b', letter, facing or None)}."""

    def __init__(self, board, side, rights, ep):
        self.board, self.side, self.rights, self.ep = board, side, rights, ep

    @classmethod
    def from_fen(cls, fen):
        fields = fen.split()
        board = {}
        for i, row in enumerate(fields[0].split("/")):
            r, f = SIZE - 1 - i, 0
            for num, letter, state in re.findall(r"(\d+)|([A-Za-z])(?:\(([^)]*)\))?", row):
                if num:
                    f += int(num)
                    continue
                board[(f, r)] = ("w" if letter.isupper() else "b", letter.upper(), state or None)
                f += 1
        ep = None
        if fields[3] != "-":
            ep = (FILES.index(fields[3][0]), int(fields[3][1:]) - 1)
        rights = set() if fields[2] == "-" else set(fields[2])
        return cls(board, fields[1], rights, ep)

    # --- pseudo-legal moves: (lan, board after, captured squares, ep after) -------------
    def pseudo(self, side=None, castling=True):
        side = side or self.side
        out = []
        for sq, (c, letter, state) in list(self.board.items()):
            if c == side:
                out += getattr(self, "_" + letter)(sq, side, state)
        if castling:
            out += self._castlings(side)
        return out

    def _result(self, frm, to, side, piece, captured, ep=None):
        b = dict(self.board)
        for s in captured:
            del b[s]
        if frm is not None:
            b.pop(frm, None)
        if to is not None:
            b[to] = piece
        return b, tuple(captured), ep

    def _simple(self, frm, to, side, lan=None):
        q = self.board.get(to)
        caps = [to] if q else []
        b, caps, ep = self._result(frm, to, side, self.board[frm], caps)
        return (lan or name(frm) + name(to), b, caps, ep)

    def _slides(self, sq, side, dirs, limit):
        out = []
        for dx, dy in dirs:
            f, r = sq
            for _ in range(limit):
                f, r = f + dx, r + dy
                if not on(f, r):
                    break
                q = self.board.get((f, r))
                if q is None:
                    out.append(self._simple(sq, (f, r), side))
                    continue
                if q[0] != side:
                    out.append(self._simple(sq, (f, r), side))
                break
        return out

    def _K(self, sq, side, state):
        return self._slides(sq, side, KING, 1)

    def _Q(self, sq, side, state):
        return self._slides(sq, side, KING, 99)

    def _R(self, sq, side, state):
        return self._slides(sq, side, ORTHO, 99)

    def _B(self, sq, side, state):
        return self._slides(sq, side, DIAG, 99)

    def _N(self, sq, side, state):
        return self._slides(sq, side, KNIGHT, 1)

    def _A(self, sq, side, state):
        out = self._slides(sq, side, KNIGHT, 1)
        for dx, dy in ORTHO:
            t = (sq[0] + 4 * dx, sq[1] + 4 * dy)
            q = self.board.get(t)
            if q is not None and q[0] != side:
                b = dict(self.board)
                del b[t]
                out.append((f"{name(sq)}^{name(t)}", b, (t,), None))
        return out

    def _pawnlike(self, sq, side, super_):
        fwd = 1 if side == "w" else -1
        start = 1 if side == "w" else SIZE - 2
        last = SIZE - 1 if side == "w" else 0
        piece = self.board[sq]
        out = []

        def add(to, caps, ep=None):
            if to[1] == last:
                for p in PROMOS:
                    b, cs, _ = self._result(sq, to, side, (side, p, None), caps)
                    out.append((f"{name(sq)}{name(to)}={p}", b, cs, None))
                for fc in FACINGS:
                    b, cs, _ = self._result(sq, to, side, (side, "C", fc), caps)
                    out.append((f"{name(sq)}{name(to)}=C({fc})", b, cs, None))
            else:
                b, cs, e = self._result(sq, to, side, piece, caps, ep)
                out.append((name(sq) + name(to), b, cs, e))

        one = (sq[0], sq[1] + fwd)
        if on(*one) and one not in self.board:
            add(one, [])
        two = (sq[0], sq[1] + 2 * fwd)
        if sq[1] == start and on(*two) and two not in self.board and (super_ or one not in self.board):
            add(two, [], one if one not in self.board else None)
        for d in ((1, 2) if super_ else (1,)):
            for dx in (-1, 1):
                to = (sq[0] + d * dx, sq[1] + d * fwd)
                if not on(*to):
                    continue
                q = self.board.get(to)
                if q is not None and q[0] != side:
                    add(to, [to])
                elif q is None and to == self.ep and side == self.side:
                    add(to, [(to[0], to[1] - fwd)])
        return out

    def _P(self, sq, side, state):
        return self._pawnlike(sq, side, False)

    def _S(self, sq, side, state):
        return self._pawnlike(sq, side, True)

    def _C(self, sq, side, state):
        sign = 1 if side == "w" else -1
        dx, dy = VEC[state][0] * sign, VEC[state][1] * sign
        out = []
        for back in (False, True):
            ex, ey = (-dx, -dy) if back else (dx, dy)
            caps = []
            f, r = sq
            for _ in range(3):
                f, r = f + ex, r + ey
                if not on(f, r):
                    break
                q = self.board.get((f, r))
                if back:
                    if q is not None and q[0] == side and q[1] == "K":
                        break
                    if q is not None:
                        caps.append((f, r))
                else:
                    if q is not None and q[0] != side:
                        caps.append((f, r))
                    if q is not None and q[0] == side:
                        continue  # passes its own piece, cannot stop there
                for fc in FACINGS:
                    b, cs, _ = self._result(sq, (f, r), side, (side, "C", fc), list(caps))
                    out.append((f"{name(sq)}{name((f, r))}({fc})", b, cs, None))
        for fc in FACINGS:
            if fc != state:
                b = dict(self.board)
                b[sq] = (side, "C", fc)
                out.append((f"{name(sq)}({fc})", b, (), None))
        return out

    def _castlings(self, side):
        out = []
        rank = 0 if side == "w" else SIZE - 1
        other = "b" if side == "w" else "w"
        for letter, kf, kt, rf, rt in CASTLES:
            if (letter.upper() if side == "w" else letter) not in self.rights:
                continue
            if self.board.get((kf, rank)) != (side, "K", None) or self.board.get((rf, rank)) != (side, "R", None):
                continue
            lo, hi = min(kf, kt, rf, rt), max(kf, kt, rf, rt)
            if any((f, rank) in self.board for f in range(lo + 1, hi) if f not in (kf, rf)):
                continue
            if self.attacked((kf, rank), other):
                continue
            step = 1 if kt > kf else -1
            if any(self.attacked((f, rank), other) for f in range(kf + step, kt + step, step)):
                continue
            b = dict(self.board)
            del b[(kf, rank)]
            del b[(rf, rank)]
            b[(kt, rank)] = (side, "K", None)
            b[(rt, rank)] = (side, "R", None)
            out.append((name((kf, rank)) + name((kt, rank)), b, (), None))
        return out

    def attacked(self, sq, by):
        """README Legality 4: would a pseudo-legal move of `by` capture an enemy piece on sq?"""
        probe = self
        if sq not in self.board:
            b = dict(self.board)
            b[sq] = ("b" if by == "w" else "w", "N", None)
            probe = Ref(b, by, set(), None)
        return any(sq in caps for _l, _b, caps, _e in probe.pseudo(by, castling=False))

    def king(self, side):
        for sq, p in self.board.items():
            if p[0] == side and p[1] == "K":
                return sq
        return None

    def after(self, move):
        lan, b, caps, ep = move
        cleared = set(caps)
        frm = re.match(r"[a-k]\d+", lan).group()
        frm_sq = (FILES.index(frm[0]), int(frm[1:]) - 1)
        if "^" not in lan and re.fullmatch(r"[a-k]\d+\(\w+\)", lan) is None:
            cleared.add(frm_sq)
        rights = set(self.rights)
        for letter, kf, _kt, rf, _rt in CASTLES:
            for side, rank in (("w", 0), ("b", SIZE - 1)):
                if (kf, rank) in cleared or (rf, rank) in cleared:
                    rights.discard(letter.upper() if side == "w" else letter)
        return Ref(b, "b" if self.side == "w" else "w", rights, ep)

    def legal(self):
        """{lan: position after} of the legal moves (README Legality 2)."""
        out = {}
        them = "b" if self.side == "w" else "w"
        for mv in self.pseudo():
            child = self.after(mv)
            k = child.king(self.side)
            if k is not None and any(k in caps for _l, _b, caps, _e in child.pseudo(them, castling=False)):
                continue
            out[mv[0]] = child
        return out


def engine_view(pos):
    board = {}
    for sqname, kind in pos.pieces().items():
        sq = (FILES.index(sqname[0]), int(sqname[1:]) - 1)
        board[sq] = ("w" if kind.color == 0 else "b", kind.key, kind.state)
    fields = pos.fen().split()
    rights = set() if fields[2] == "-" else set(fields[2])
    return board, rights, fields[3]


def _squares(lan):
    return [(FILES.index(t[0]), int(t[1:]) - 1) for t in re.findall(r"[a-k]\d+", lan)]


def ep_written(ref):
    """VFEN writes the ep square only when an en passant capture onto it is pseudo-legal."""
    if ref.ep is None:
        return "-"
    for lan, _b, caps, _e in ref.pseudo(castling=False):
        sqs = _squares(lan)
        if (len(sqs) == 2 and "^" not in lan and sqs[1] == ref.ep and caps
                and ref.board[sqs[0]][1] in "PS"):
            return name(ref.ep)
    return "-"


def compare(pos, ref):
    ref_legal = ref.legal()
    eng = {m.lan: m for m in pos.legal_moves()}
    assert set(eng) == set(ref_legal), (pos.fen(), sorted(set(eng) ^ set(ref_legal)))
    them = "b" if ref.side == "w" else "w"
    k = ref.king(ref.side)
    assert pos.in_check() == (k is not None and ref.attacked(k, them)), pos.fen()
    for lan, m in eng.items():
        rc = ref_legal[lan]
        board, rights, ep = engine_view(pos.apply(m))
        assert board == rc.board, (pos.fen(), lan)
        assert rights == rc.rights, (pos.fen(), lan)
        assert ep == ep_written(rc), (pos.fen(), lan)


START = rules.start("superchess").fen()
CROWDED = [
    # Cyclopes and Archers in contact with both Kings, Super Pawns on their start squares
    "r3k3nr/pp1sp1s1pp/3c(SW)2q3/2A3b3/4C(NE)5/1n2a5/3B1N4/10/PPSP2PSPP/R3K1Q2R w AKak - 0 1",
    # blind retreats towards own pieces; a King in front of its own Cyclops's back ray
    "4k5/3pc(S)p4/4A5/10/1S6s1/10/2a7/10/3PC(N)P4/4K5 w - - 0 1",
    # promotions (Pawn and Super Pawn) with captures two squares away, shots along the 10th rank
    "r3k4r/1P1S4p1/10/10/10/10/10/10/1p4s1P1/R3K4R b AKak - 0 1",
]


@pytest.mark.parametrize("fen", [START] + CROWDED)
def test_random_games_agree_with_reference(fen):
    rng = random.Random(fen)
    for _game in range(2):
        pos = rules.from_fen("superchess", fen)
        for _ply in range(40):
            compare(pos, Ref.from_fen(pos.fen()))
            moves = pos.legal_moves()
            if not moves:
                break
            caps = [m for m in moves if m.captures]
            pick = rng.choice(caps if caps and rng.random() < 0.5 else moves)
            pos = pos.apply(pick)
