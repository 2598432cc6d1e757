"""Ganymede Chess (ganymede): what its data cannot say.

* ``minirose``: the Mini-rose's sixteen octagonal paths (path generator).
* ``wall``: the Wall, one piece on two squares (special mover). Each of its squares holds
  a ``W`` whose state names the board direction of the other square: ``W(E)`` + ``W(W)``
  for a horizontal Wall, ``W(N)`` + ``W(S)`` for a vertical one. Its moves are generated,
  and its attacks looked up, once, from its *anchor*: the square with state E or N (the
  lower-left one, first in board order).
* ``ganymede`` extension: the inventor's notations (``S-g5\\S\\``, ``S(f)xf6\\S\\``,
  ``W-(c2-d2)``, ``0-h11``, ``NN-g2``), Wall LAN with its pairs in any order, the reason a
  Wall text names no legal move, and the check that every Wall in a VFEN is whole.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal, TypeAlias

from language.text import T, Text, known

from ..betza import COMPASS
from ..errors import (
    AmbiguousMoveError,
    FenError,
    InvalidMoveError,
    LeavesRoyalInCheckError,
    NoPieceError,
    NoSuchMoveError,
    NotYourPieceError,
    RulesError,
)
from ..game import Game, GameExtension, PositionView, SpecialMover, extension, mover
from ..geometry import Geometry
from ..paths import path_generator
from ..pieces import SPAN, Board, BoardView, Move, PieceKind, PieceType

# --- Mini-rose ---------------------------------------------------------------------------

_ROSE: tuple[tuple[tuple[int, int], ...], ...] | None = None


@path_generator("minirose")
def minirose() -> tuple[tuple[tuple[int, int], ...], ...]:
    """16 paths: a first King step in any of 8 directions, then each step turned 45 degrees
    from the one before, always the same way; 7 steps (the 8th would return home)."""
    global _ROSE
    if _ROSE is None:
        paths: list[tuple[tuple[int, int], ...]] = []
        for d in range(8):
            for turn in (1, -1):
                x = y = 0
                path: list[tuple[int, int]] = []
                for i in range(7):
                    dx, dy = COMPASS[(d + turn * i) % 8]
                    x, y = x + dx, y + dy
                    path.append((x, y))
                paths.append(tuple(path))
        _ROSE = tuple(paths)
    return _ROSE


# --- Wall ----------------------------------------------------------------------------------

class _WallGeometry:
    """Everything a Wall with this anchor and orientation can do, on an empty board."""
    __slots__ = ("a", "across", "along", "b", "turns", "watch", "ways")

    def __init__(self, geo: Geometry, a: int, vertical: bool):
        names = geo.names
        w = geo.width
        line = (0, 1) if vertical else (1, 0)
        perp = (1, 0) if vertical else (0, 1)
        d_line = w if vertical else 1
        self.a = a
        self.b = b = a + d_line

        def lan(n1: int, n2: int) -> str:
            return f"{names[a]}{names[b]}-{names[n1]}{names[n2]}"

        # along its line: (leading square, new first square, new second square, LAN)
        fwd: list[tuple[int, int, int, str]] = []
        lead = b
        while (ahead := geo.step(lead, *line)) is not None:
            lead = ahead
            fwd.append((lead, lead - d_line, lead, lan(lead - d_line, lead)))
        back: list[tuple[int, int, int, str]] = []
        lead = a
        while (ahead := geo.step(lead, -line[0], -line[1])) is not None:
            lead = ahead
            back.append((lead, lead, lead + d_line, lan(lead, lead + d_line)))
        self.along = [r for r in (fwd, back) if r]
        # across its line: (new first square, new second square, LAN)
        self.across: list[list[tuple[int, int, str]]] = []
        for sgn in (1, -1):
            ray: list[tuple[int, int, str]] = []
            n1 = a
            while (beside := geo.step(n1, perp[0] * sgn, perp[1] * sgn)) is not None:
                n1 = beside
                n2 = n1 + d_line
                ray.append((n1, n2, lan(n1, n2)))
            if ray:
                self.across.append(ray)
        # quarter turns on either square: (square entered, new first, new second, LAN)
        self.turns: list[tuple[int, int, int, str]] = []
        for pivot in (a, b):
            for sgn in (1, -1):
                t = geo.step(pivot, perp[0] * sgn, perp[1] * sgn)
                if t is not None:
                    n1, n2 = min(pivot, t), max(pivot, t)
                    self.turns.append((t, n1, n2, lan(n1, n2)))
        # attack ways: target -> ((squares that must be empty), square that must not hold
        # a piece of the Wall's side, or -1)
        ways: dict[int, list[tuple[tuple[int, ...], int]]] = {}
        for t, _n1, _n2, _l in self.turns:
            ways.setdefault(t, []).append(((), -1))
        for line_ray in self.along:
            passed: list[int] = []
            for ahead, _n1, _n2, _l in line_ray:
                ways.setdefault(ahead, []).append((tuple(passed), -1))
                passed.append(ahead)
        for ray in self.across:
            passed = []
            for n1, n2, _l in ray:
                ways.setdefault(n1, []).append((tuple(passed), n2))
                ways.setdefault(n2, []).append((tuple(passed), n1))
                passed += [n1, n2]
        self.ways = {t: tuple(v) for t, v in ways.items()}
        self.watch = {t: tuple(sorted({s for req, o in v for s in req + ((o,) if o >= 0 else ())}))
                      for t, v in self.ways.items()}


@mover("wall")
class WallMover(SpecialMover):
    """The Wall: slides like a Rook keeping its orientation, or turns a quarter on either
    square; enemy pieces on its new squares are taken (two at once sliding across its line).
    Taking either of its squares takes the whole Wall (``linked``)."""

    DELTA_STATES = ("E", "W", "N", "S")
    # state -> (file, rank) step to the other half: the state names the side it is on
    STEPS = {"E": (1, 0), "W": (-1, 0), "N": (0, 1), "S": (0, -1)}
    span = 2

    def __init__(self, game: Game, ptype: PieceType):
        super().__init__(game, ptype)
        w = game.geometry.width
        # state -> the step to the other square (keyed as kinds hold a state: every W has one)
        self._delta: dict[str | None, int] = {s: dx + dy * w for s, (dx, dy) in self.STEPS.items()}
        self._geo: dict[tuple[int, bool], _WallGeometry] = {}
        self._kinds: list[tuple[PieceKind, PieceKind, PieceKind, PieceKind] | None] = [None, None]
        # (anchor, kind) -> its moves onto empty squares: along, across, turns
        self._made: dict[tuple[int, PieceKind], _QuietMoves] = {}
        # (id of the quiet move, squares taken) -> the capturing move
        self._captures: dict[tuple[int, tuple[int, ...]], Move] = {}

    def _geometry(self, a: int, vertical: bool) -> _WallGeometry:
        g = self._geo.get((a, vertical))
        if g is None:
            g = self._geo[(a, vertical)] = _WallGeometry(self.game.geometry, a, vertical)
        return g

    def _fits(self, a: int, vertical: bool) -> bool:
        """Whether a Wall anchored on a has its other square on the board."""
        return self.game.geometry.step(a, 0, 1) is not None if vertical else \
            self.game.geometry.step(a, 1, 0) is not None

    def kinds(self, color: int) -> tuple[PieceKind, PieceKind, PieceKind, PieceKind]:
        """(W(E), W(W), W(N), W(S)) of a colour."""
        k = self._kinds[color]
        if k is None:
            kE, kW, kN, kS = (self.game.kind(self.ptype.key, color, s) for s in self.DELTA_STATES)
            k = self._kinds[color] = (kE, kW, kN, kS)
        return k

    def partner_steps(self, state: str) -> tuple[tuple[int, int], ...]:
        step = self.STEPS.get(state)
        return (step,) if step else ()

    def state_text(self, state: str) -> Text:
        return T("lying across the board") if state in ("E", "W") else T("lying along a file")

    def partner(self, sq: int, kind: PieceKind) -> int:
        return sq + self._delta[kind.state]

    def linked(self, board: Sequence[PieceKind | None], sq: int, kind: PieceKind) -> tuple[int, ...]:
        """The other square of the Wall standing on sq."""
        return (sq + self._delta[kind.state],)

    def _taken(self, board: Board, squares: tuple[int, ...]) -> tuple[int, ...]:
        """The squares emptied by taking what stands on these squares (whole Walls)."""
        out = list(squares)
        for s in squares:
            q = board[s]
            if q is not None and q.type is self.ptype:
                p = s + self._delta[q.state]
                if p not in out:
                    out.append(p)
        return tuple(out)

    def pseudo_moves(self, pos: BoardView, sq: int, kind: PieceKind) -> Sequence[Move]:
        st = kind.state
        if st != "E" and st != "N":
            return ()
        # the moves are made once per anchor, kind, new squares (and what they take):
        # positions share them, as the plans' moves are shared (rules.movegen)
        made = self._made.get((sq, kind))
        if made is None:
            made = self._made[(sq, kind)] = self._quiet_moves(sq, kind)
        along_q, across_q, turns_q = made
        board = pos.board
        color = kind.color
        g = self._geometry(sq, st == "N")
        out: list[Move] = []
        for ray, quiet in zip(g.along, along_q, strict=True):  # made from this geometry
            for (lead, _n1, _n2, _lan), m in zip(ray, quiet, strict=True):
                q = board[lead]
                if q is None:
                    out.append(m)
                    continue
                if q.color != color:
                    out.append(self._taking(board, m, (lead,)))
                break
        for across, quiet in zip(g.across, across_q, strict=True):
            for (n1, n2, _lan), m in zip(across, quiet, strict=True):
                q1, q2 = board[n1], board[n2]
                if q1 is None and q2 is None:
                    out.append(m)
                    continue
                if (q1 is not None and q1.color == color) or (q2 is not None and q2.color == color):
                    break
                out.append(self._taking(board, m, tuple(s for s in (n1, n2) if board[s] is not None)))
                break
        for (t, _n1, _n2, _lan), m in zip(g.turns, turns_q, strict=True):
            q = board[t]
            if q is None:
                out.append(m)
            elif q.color != color:
                out.append(self._taking(board, m, (t,)))
        return out

    def _quiet_moves(self, a: int, kind: PieceKind) -> _QuietMoves:
        """The Wall's moves from anchor a onto empty squares, laid out as its geometry's
        along, across and turns."""
        st = kind.state
        g = self._geometry(a, st == "N")
        old = (a, g.b)
        kE, kW, kN, kS = self.kinds(kind.color)
        h1, h2 = (kN, kS) if st == "N" else (kE, kW)
        along = tuple(tuple(Move(SPAN, a, n1, kind, h1, (), old, ((n1, h1), (n2, h2)), lan)
                            for _lead, n1, n2, lan in ray) for ray in g.along)
        across = tuple(tuple(Move(SPAN, a, n1, kind, h1, (), old, ((n1, h1), (n2, h2)), lan)
                             for n1, n2, lan in ray) for ray in g.across)
        turns: list[Move] = []
        for _t, n1, n2, lan in g.turns:
            v1, v2 = (kN, kS) if n2 - n1 != 1 else (kE, kW)
            turns.append(Move(SPAN, a, n1, kind, v1, (), old, ((n1, v1), (n2, v2)), lan))
        return along, across, tuple(turns)

    def _taking(self, board: Board, quiet: Move, squares: tuple[int, ...]) -> Move:
        """The move `quiet` taking what stands on these squares (whole Walls), made once."""
        caps = self._taken(board, squares)
        key = (id(quiet), caps)   # quiet moves live as long as the mover
        m = self._captures.get(key)
        if m is None:
            m = self._captures[key] = Move(SPAN, quiet.frm, quiet.to, quiet.piece, quiet.new, caps,
                                           quiet.clear + caps, quiet.put, quiet.lan)
        return m

    def attacks(self, board: Sequence[PieceKind | None], sq: int, kind: PieceKind, target: int) -> bool:
        st = kind.state
        if st != "E" and st != "N" or not self._fits(sq, st == "N"):
            return False
        ways = self._geometry(sq, st == "N").ways.get(target)
        if ways:
            color = kind.color
            for req, other in ways:
                for s in req:
                    if board[s] is not None:
                        break
                else:
                    if other < 0:
                        return True
                    q = board[other]
                    if q is None or q.color != color:
                        return True
        return False

    def watch(self, board: Sequence[PieceKind | None] | None, sq: int, kind: PieceKind,
              target: int) -> tuple[int, ...]:
        st = kind.state
        if st != "E" and st != "N":
            return ()
        return self._geometry(sq, st == "N").watch.get(target, ())

    def zone(self, sq: int, kind: PieceKind, target: int) -> tuple[int, ...]:
        st = kind.state
        if st != "E" and st != "N" or not self._fits(sq, st == "N"):
            return ()   # as attacks(): no attack from here
        return self.watch(None, sq, kind, target)   # its watch reads no board

    def san(self, pos: BoardView, move: Move) -> str:
        names = self.game.geometry.names
        a, b = move.clear[0], move.clear[1]
        (n1, _k1), (n2, _k2) = move.put
        sep = "x" if move.captures else "-"
        return f"W({names[a]}{names[b]}){sep}{names[n1]}{names[n2]}"


# --- the inventor's notations -----------------------------------------------------------

_SQ = r"[a-zA-Z]\d{1,2}"
_WALL = known("Wall")  # the piece's name in the data (data/variants/ganymede.toml)
_MARKS = re.compile(r"(?:[+#!?]|ch)+$", re.IGNORECASE)
_CASTLE = re.compile(r"[0Oo](?:-[0Oo]){1,2}")
# the inventor's Wall move names only the new squares: W-(c2-d2)
_WALL_TO = re.compile(rf"[Ww]\s*[-x:]?\s*\(?\s*({_SQ})\s*[-x:]?\s*({_SQ})\s*\)?")
# a Wall's LAN (or SAN) with its pairs in any order: b2a2-d2c2, W(a2b2)xc2d2
_WALL_PAIR = rf"\(?\s*({_SQ})\s*[-]?\s*({_SQ})\s*\)?"
_WALL_LAN = re.compile(rf"(?:[Ww]\s*)?{_WALL_PAIR}\s*[-x:]\s*{_WALL_PAIR}")
_SETTING_WORD = {"\\": "L", "/": "R", "|": "V"}
_SETTING_MARK = re.compile(r"\s*(?:([\\/|])\s*[Ss]\s*\1|\(\s*([\\/|])\s*\)|([\\/|]))$")
_PAREN_DIS = re.compile(r"^(\+?[A-Z])\(([a-l]|[a-l]?\d{1,2})\)")


@extension("ganymede")
class Ganymede(GameExtension):

    # --- reading ----------------------------------------------------------------
    def _plain(self, text: str) -> str:
        """The inventor's forms of pieces and settings turned into the engine's."""
        t = _MARKS.sub("", text.strip()).strip()
        m = _SETTING_MARK.search(t)
        if m:
            mark = m.group(1) or m.group(2) or m.group(3)
            t = t[:m.start()] + f"({_SETTING_WORD[mark]})"
        if not _CASTLE.fullmatch(t):
            if t.startswith("0"):          # the Mini-rose: 0-h11
                t = "O" + t[1:]
            t = re.sub(r"^(\+?)NN(?=[-x:(a-l]|$)", r"\1I", t)   # the Nightrider: NN-g2
            t = _PAREN_DIS.sub(r"\1\2", t)                      # S(f)xf6
        return t

    def _wall_text(self, pos: PositionView, text: str) -> _WallText | None:
        """('to', squares) for W-(c2-d2); ('lan', canonical LAN) for a Wall LAN; or None."""
        t = _MARKS.sub("", text.strip()).strip()
        m = _WALL_LAN.fullmatch(t)
        geo = self.game.geometry
        if m:
            try:
                sqs = [geo.parse_square(s) for s in m.groups()]
            except RulesError as e:
                raise InvalidMoveError(e.text) from None
            a, b = sorted(sqs[:2])
            c, d = sorted(sqs[2:])
            n = geo.names
            return "lan", (a, b, c, d), f"{n[a]}{n[b]}-{n[c]}{n[d]}"
        m = _WALL_TO.fullmatch(t)
        if m:
            try:
                c, d = sorted(geo.parse_square(s) for s in m.groups())
            except RulesError as e:
                raise InvalidMoveError(e.text) from None
            return "to", (c, d), None
        return None

    def rewrite(self, pos: PositionView, text: str) -> list[str]:
        wall = self._wall_text(pos, text)
        if wall is not None:
            form, sqs, lan = wall
            if form == "lan":
                assert lan is not None
                return [lan]
            hits = [m for m in pos.legal_moves()
                    if m.kind == SPAN and (m.put[0][0], m.put[1][0]) == sqs]
            if len(hits) > 1:
                from ..notation import san
                sans = sorted(san(pos, m) for m in hits)
                raise AmbiguousMoveError(T("{move} is ambiguous: it could be {moves} or {last}",
                                           move=repr(text.strip()), moves=", ".join(sans[:-1]), last=sans[-1]),
                                         sans)
            return [m.lan for m in hits]
        t = self._plain(text)
        return [t] if t != text.strip() else []

    def explain(self, pos: PositionView, text: str) -> RulesError | None:
        """Why a Wall text, or one in the inventor's notation, names no legal move."""
        from ..notation import explain, why_illegal_text
        wall = self._wall_text(pos, text)
        if wall is None:
            t = self._plain(text)
            if t != text.strip():
                return explain(pos, t)
            return self._one_wall_square(pos, text)
        game, board = self.game, pos.board
        names = game.geometry.names
        form, sqs, lan = wall
        span = "{}-{}".format  # a Wall's two squares, "c2-d2"
        pseudo = [m for m in pos.pseudo_moves() if m.kind == SPAN]
        if form == "lan":
            a, b, c, d = sqs
            k = board[a]
            if k is None or k.type.key != "W":
                return NoPieceError(T("there is no {piece} on {square}", piece=_WALL, square=names[a]))
            if k.color != pos.side:
                return NotYourPieceError(T("the {piece} on {square} is {side}'s; it is {mover}'s move", piece=_WALL,
                                           square=span(names[a], names[b]), side=known(game.side_name(k.color)),
                                           mover=known(game.side_name(pos.side))))
            other = _wall_mover(k).partner(a, k)
            if other != b:
                lo, hi = min(a, other), max(a, other)
                return NoPieceError(T("{one} and {other} are not the two squares of one {piece} (that {piece} stands "
                                      "on {squares})", one=names[a], other=names[b], piece=_WALL,
                                      squares=span(names[lo], names[hi])))
            if any(m.lan == lan for m in pseudo):
                return LeavesRoyalInCheckError(T("{move} is illegal: {reason}", move=repr(text.strip()),
                                                 reason=why_illegal_text(pos)))
            return NoSuchMoveError(T("the {piece} on {square} cannot move to {dest}", piece=_WALL,
                                     square=span(names[a], names[b]), dest=span(names[c], names[d])))
        c, d = sqs
        mine = [s for s in pos.occ[pos.side] if _is_wall(board[s])]
        if not mine:
            return NoPieceError(T("you have no {piece} on the board", piece=_WALL))
        if any((m.put[0][0], m.put[1][0]) == sqs for m in pseudo):
            return LeavesRoyalInCheckError(T("{move} is illegal: {reason}", move=repr(text.strip()),
                                             reason=why_illegal_text(pos)))
        return NoSuchMoveError(T("no {piece} of yours can move to {dest}", piece=_WALL, dest=span(names[c], names[d])))

    def _one_wall_square(self, pos: PositionView, text: str) -> RulesError | None:
        """``b2c2``, ``Wc2``: a Wall written like a one-square piece. Its move names both its
        squares and both new ones: say so, with its moves that reach the square named."""
        plain = _MARKS.sub("", text.strip())
        squares = re.findall(_SQ, plain)
        letter = re.match(r"\+?([A-Za-z])(?![0-9])", plain)
        if (letter.group(1).upper() != "W") if letter else len(squares) != 2:
            return None  # another piece's letter (Qa5, Sf5), or a Pawn's square alone (h7)
        geo, board = self.game.geometry, pos.board
        try:
            sqs = [geo.parse_square(s) for s in squares]
        except RulesError:
            return None
        if not sqs or len(sqs) > 2:
            return None
        walls = [sqs[0]] if len(sqs) == 2 else [s for s in pos.occ[pos.side] if _is_wall(board[s])]
        pieces = [board[s] for s in walls]
        if not walls or any(k is None or k.type.key != "W" or k.color != pos.side for k in pieces):
            return None
        from ..notation import san
        to = sqs[-1]
        wall_squares = {w for s, k in zip(walls, pieces, strict=True) if k is not None
                        for w in (s, _wall_mover(k).partner(s, k))}
        moves = [m for m in pos.legal_moves() if m.kind == SPAN and m.clear[0] in wall_squares
                 and to in (m.put[0][0], m.put[1][0])]
        names = geo.names
        if not moves:
            return NoSuchMoveError(T("{move}: no {piece} of yours can move onto {square}; a {piece} stands on two "
                                     "squares and moves to two, like {example}", move=repr(text.strip()),
                                     piece=_WALL, square=names[to], example="W(a2b2)-c2d2"))
        options = " or ".join(san(pos, m) for m in moves)
        return InvalidMoveError(T("{move}: a {piece} stands on two squares and its move names both and the two it "
                                  "goes to: write {moves}", move=repr(text.strip()), piece=_WALL, moves=options))

    # --- positions ------------------------------------------------------------------
    def validate(self, pos: PositionView) -> None:
        """Every Wall square must have its other half beside it, in the same colour."""
        game = self.game
        geo = game.geometry
        names = geo.names
        step = {"E": (1, 0), "W": (-1, 0), "N": (0, 1), "S": (0, -1)}
        back = {"E": "W", "W": "E", "N": "S", "S": "N"}
        board = pos.board
        for sq, k in enumerate(board):
            if k is None or k.type.hook != "wall":
                continue
            other = geo.step(sq, *step[_state(k)])
            if other is None:
                raise FenError(f"the Wall square on {names[sq]} points off the board ({k.state})")
            q = board[other]
            if q is None or q.type is not k.type or q.color != k.color or q.state != back[_state(k)]:
                raise FenError(f"the Wall square on {names[sq]} ({k.symbol}) needs its other half, "
                               f"{'W' if k.color == 0 else 'w'}({back[_state(k)]}), on {names[other]}")


#: a Wall's moves from one anchor onto empty squares: along its line, across it, its turns
_QuietMoves: TypeAlias = tuple[tuple[tuple[Move, ...], ...], tuple[tuple[Move, ...], ...], tuple[Move, ...]]
#: a Wall text read: ("lan", its four squares, its LAN) or ("to", the two new squares, None)
_WallText: TypeAlias = tuple[Literal["lan", "to"], tuple[int, ...], str | None]


def _state(kind: PieceKind) -> str:
    """A Wall square's state: the side its other square is on (every W has one)."""
    assert kind.state is not None, f"{kind} has no state"
    return kind.state


def _is_wall(kind: PieceKind | None) -> bool:
    return kind is not None and kind.type.key == "W"


def _wall_mover(kind: PieceKind) -> WallMover:
    """The special mover of a Wall square's kind."""
    assert isinstance(kind.hook, WallMover), f"{kind} is no Wall"
    return kind.hook
