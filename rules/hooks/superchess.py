"""Super Chess (Ed Ginsberg): the Cyclops, the Archer's shot, the set-up phase and the
inventor's notation. Rules: docs/rules/superchess.md.

* ``cyclops`` (special mover): 1-3 squares the way it faces (passing its own pieces,
  running over every enemy; never stopping on its own piece) or back, the blind retreat
  (running over every piece, never its own King). Moves are yielded with ``new=None``; the
  core expands them over the 8 facings and adds the turns in place.
* ``archer`` (special mover): the shot, an enemy exactly 4 squares away along a rank or
  file, whatever stands between (LAN ``e6^e10``). The Knight moves are Betza ``N``.
* ``superchess`` (extension): the four set-up actions (``S@e2,S@f2``, ``S@e9,S@f9``,
  ``d1(N)``, ``d10(N)``), the validation of set-up positions, and the inventor's notation
  (``SP`` for the Super Pawn, ``Cf7c7(N)xc7,e7`` with its captured squares checked).

Facings are relative to the owner: for White N is towards rank 10 and E towards file k;
for Black every direction is turned half a circle. A player may also name a facing by a
word that reads the same from either side (``FACING_WORDS``: forward, forward-right,
right, back-right, back, back-left, left, forward-left), wherever a facing is read:
``Cd1d3(forward-right)``, ``d1(back)``, ``=C(forward)``, and the set-up's ``forward``.
Output keeps the letters. ``FACING_NOTE`` is the one sentence that explains the facings
wherever a player meets them (the Cyclops's description, prompts, errors).
"""
from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from itertools import combinations
from typing import Literal, TypeAlias

from language.text import T, Text, known

from ..errors import (
    FenError,
    InvalidMoveError,
    LeavesRoyalInCheckError,
    NoPieceError,
    NoSuchMoveError,
    NotYourPieceError,
    RulesError,
)
from ..game import Game, GameExtension, PositionView, SpecialMover, extension, mover
from ..pieces import BLACK, NORMAL, SETUP, SHOT, WHITE, BoardView, Move, PieceKind, PieceType

FACINGS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
_VECTORS = {"N": (0, 1), "NE": (1, 1), "E": (1, 0), "SE": (1, -1),
            "S": (0, -1), "SW": (-1, -1), "W": (-1, 0), "NW": (-1, 1)}
#: the words a player may use for a facing, seen from the Cyclops's owner
FACING_WORDS = {"forward": "N", "forward-right": "NE", "right": "E", "back-right": "SE",
                "back": "S", "back-left": "SW", "left": "W", "forward-left": "NW"}
FACING_NOTE_TEXT = T("A facing is seen from the Cyclops's owner: N (forward) is toward the opponent, so Black's S "
                "(back) points at Black's own side.")
FACING_NOTE = str(FACING_NOTE_TEXT)  # its English, as the card and `rules` read it
FACING_CHOICES = T("{facings} or the words {words}", facings=", ".join(FACINGS),
                   words=", ".join(FACING_WORDS))  # "N, NE, ... or the words forward, ..." (typed: not translated)


def _in_check(raw: str) -> Text:
    return T("{move} is illegal: {reason}", move=repr(raw), reason=T("it would leave your {royal} in check",
                                                                     royal=known("King")))


RANGE = 3          # the Cyclops moves 1, 2 or 3 squares
SHOT_DISTANCE = 4  # the Archer shoots exactly 4 squares along a rank or file
UNPLACED = "?"     # the Cyclops before its owner turns it in the set-up phase


#: a Cyclops kind on a square: (forward squares, back squares, target -> True or the back
#: squares before it)
CyclopsSquare: TypeAlias = tuple[tuple[int, ...], tuple[int, ...], dict[int, Literal[True] | tuple[int, ...]]]


@mover("cyclops")
class Cyclops(SpecialMover):
    """The Cyclops. Per kind (colour x facing) and square, precomputed once:
    the forward squares, the back squares, and the attack map target -> True (forward:
    nothing can stop it) or the back squares before the target (where its own King
    would forbid the retreat)."""

    def __init__(self, game: Game, ptype: PieceType):
        super().__init__(game, ptype)
        self._tables: dict[PieceKind, list[CyclopsSquare]] = {}

    def state_text(self, state: str) -> Text:
        return T("facing {state}", state=state)

    def _table(self, kind: PieceKind) -> list[CyclopsSquare]:
        t = self._tables.get(kind)
        if t is None:
            t = self._tables[kind] = self._build(kind)
        return t

    def _build(self, kind: PieceKind) -> list[CyclopsSquare]:
        geo = self.game.geometry
        vec = _VECTORS.get(kind.state) if kind.state is not None else None
        nothing: CyclopsSquare = ((), (), {})
        out = [nothing] * geo.size   # (holes keep it: nothing stands there)
        for sq in geo.squares:
            if vec is None:  # unplaced: it neither moves nor attacks
                out[sq] = nothing
                continue
            sign = 1 if kind.color == WHITE else -1
            dx, dy = vec[0] * sign, vec[1] * sign
            fwd: list[int] = []
            back: list[int] = []
            for ray, (ex, ey) in ((fwd, (dx, dy)), (back, (-dx, -dy))):
                cur = sq
                for _ in range(RANGE):
                    nxt = geo.step(cur, ex, ey)
                    if nxt is None:
                        break
                    ray.append(nxt)
                    cur = nxt
            amap: dict[int, Literal[True] | tuple[int, ...]] = {t: True for t in fwd}
            for i, t in enumerate(back):
                amap[t] = tuple(back[:i])
            out[sq] = (tuple(fwd), tuple(back), amap)
        return out

    def pseudo_moves(self, pos: BoardView, sq: int, kind: PieceKind) -> Iterator[Move]:
        fwd, back, _ = self._table(kind)[sq]
        board = pos.board
        color = kind.color
        caps: tuple[int, ...] = ()
        for t in fwd:
            q = board[t]
            if q is None:
                yield Move(NORMAL, sq, t, kind, None, caps, (sq,) + caps)
            elif q.color != color:
                caps += (t,)
                yield Move(NORMAL, sq, t, kind, None, caps, (sq,) + caps)
            # its own piece: passed over unharmed, but no stopping there
        caps = ()
        for t in back:
            q = board[t]
            if q is not None:
                if q.royal and q.color == color:
                    break  # a blind retreat over its own King is not a move
                caps += (t,)
            yield Move(NORMAL, sq, t, kind, None, caps, (sq,) + caps)

    def attacks(self, board: Sequence[PieceKind | None], sq: int, kind: PieceKind, target: int) -> bool:
        way = self._table(kind)[sq][2].get(target)
        if way is None:
            return False
        if way is True:
            return True
        color = kind.color
        for s in way:
            q = board[s]
            if q is not None and q.royal and q.color == color:
                return False
        return True

    def watch(self, board: Sequence[PieceKind | None], sq: int, kind: PieceKind,
              target: int) -> tuple[int, ...]:
        # Nothing the other side can do blocks a Cyclops: forward it runs over everything,
        # back only its owner's King stops it, and the side to move never moves that.
        return ()

    def zone(self, sq: int, kind: PieceKind, target: int) -> tuple[int, ...]:
        # the squares behind it up to target: its owner's King there stops it
        way = self._table(kind)[sq][2].get(target)
        return way if isinstance(way, tuple) else ()


@mover("archer")
class ArcherShot(SpecialMover):
    """The Archer's shot; its Knight moves are Betza N."""

    def __init__(self, game: Game, ptype: PieceType):
        super().__init__(game, ptype)
        geo = game.geometry
        self._targets: list[tuple[int, ...]] = [()] * geo.size
        for sq in geo.squares:
            ts = []
            for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0)):
                t = geo.step(sq, dx * SHOT_DISTANCE, dy * SHOT_DISTANCE)
                if t is not None:
                    ts.append(t)
            self._targets[sq] = tuple(ts)
        self._target_sets = [frozenset(ts) for ts in self._targets]

    def pseudo_moves(self, pos: BoardView, sq: int, kind: PieceKind) -> Iterator[Move]:
        board = pos.board
        color = kind.color
        for t in self._targets[sq]:
            q = board[t]
            if q is not None and q.color != color:
                yield Move(SHOT, sq, t, kind, kind, (t,), (t,), ())

    def attacks(self, board: Sequence[PieceKind | None], sq: int, kind: PieceKind, target: int) -> bool:
        return target in self._target_sets[sq]

    def watch(self, board: Sequence[PieceKind | None], sq: int, kind: PieceKind,
              target: int) -> tuple[int, ...]:
        return ()  # the arrow flies over everything

    def zone(self, sq: int, kind: PieceKind, target: int) -> tuple[int, ...]:
        return ()


# --- the set-up phase and the inventor's notation -------------------------------------

PHASES = ("sp-w", "sp-b", "face-w", "face-b")
_PHASE_SIDE: dict[str | None, int] = {"sp-w": WHITE, "sp-b": BLACK, "face-w": WHITE, "face-b": BLACK}
_NEXT: dict[str | None, tuple[int, str | None]] = {"sp-w": (BLACK, "sp-b"), "sp-b": (WHITE, "face-w"),
         "face-w": (BLACK, "face-b"), "face-b": (WHITE, None)}
_SQ = r"[A-Za-z]\d{1,2}"
_TRAILING = re.compile(r"(?:\s*(?:[+#!?]|ch))+$", re.IGNORECASE)
_I_SQUARE = re.compile(r"[iI]\d{1,2}")
_CAPTURE_LIST = re.compile(
    rf"(?P<body>.+?)\s*[x:]\s*(?P<list>{_SQ}(?:\s*(?:,|;|&|and)\s*{_SQ})+)", re.IGNORECASE)
_CAPTURE_ONE = re.compile(rf"(?P<body>.+\))\s*[x:]\s*(?P<list>{_SQ})", re.IGNORECASE)
_SHOT = re.compile(rf"(?P<code>[A-Za-z])?(?P<frm>{_SQ})?\s*\^\s*(?P<to>{_SQ})")
_WORD = r"(?:forward|back)(?:[-_ ]?(?:left|right))?|left|right"
_FACING = rf"{_WORD}|[NESW]{{1,2}}"
_FACE = re.compile(rf"(?:C?(?P<sq>{_SQ}))?\s*\(?\s*(?P<f>{_FACING})\s*\)?"
                   rf"|C\s*\(\s*(?P<f2>{_FACING})\s*\)", re.IGNORECASE)
# a piece's move in the set-up, when no set-up action reads it: Nf3, Ng1-f3, Pe4, e4
_PIECE_MOVE = re.compile(rf"\+?(?P<code>[A-Z])?(?:{_SQ}|[a-k])?\s*[-x:]?\s*{_SQ}(?:=?[A-Z]|\(\w+\))?")
_WORD_IN_BRACKETS = re.compile(rf"\(\s*({_WORD})\s*\)", re.IGNORECASE)
_BRACKETS = re.compile(r"\(([^()]*)\)")
_TURN = re.compile(rf"C?(?P<sq>{_SQ})\((?P<f>[NESW]{{1,2}})\)", re.IGNORECASE)


def facing_of(text: str) -> str | None:
    """The facing (N ... NW) a text names, by its letters or its word, any case; else None."""
    t = text.strip()
    if t.upper() in FACINGS:
        return t.upper()
    return FACING_WORDS.get(re.sub(r"^(forward|back)[-_ ]*(left|right)$", r"\1-\2", t.lower()))


def with_letters(text: str) -> str:
    """``Cd1d3(forward-right)`` -> ``Cd1d3(NE)``: facing words in brackets as letters."""
    return _WORD_IN_BRACKETS.sub(lambda m: f"({facing_of(m[1])})", text)


@extension("superchess")
class SuperChess(GameExtension):
    setup_phases = PHASES

    def __init__(self, game: Game):
        super().__init__(game)
        cyclops = game.types.get("C")
        if cyclops is not None and FACING_NOTE not in cyclops.description:
            # the one wording, said once: the card, `rules` and `piece C` read it here
            cyclops.description = f"{cyclops.description.strip()} {FACING_NOTE}"
        geo = game.geometry
        self.pawn_rank = {WHITE: 1, BLACK: geo.height - 2}   # 0-based ranks 2 and 9
        self._sp_moves: dict[int, list[Move]] = {}

    # --- set-up -------------------------------------------------------------------------
    def _pawn_moves(self, color: int) -> list[Move]:
        got = self._sp_moves.get(color)
        if got is None:
            game, geo = self.game, self.game.geometry
            sp, p = game.kind("S", color), game.kind("P", color)
            row = [self.pawn_rank[color] * geo.width + f for f in range(geo.width)]
            got = []
            for a, b in combinations(row, 2):
                put = tuple((s, sp if s in (a, b) else p) for s in row)
                got.append(Move(SETUP, None, a, sp, sp, (), (), put,
                                lan=f"S@{geo.names[a]},S@{geo.names[b]}"))
            self._sp_moves[color] = got
        return got

    def _unplaced(self, pos: PositionView, color: int) -> list[int]:
        board = pos.board
        return [sq for sq in sorted(pos.occ[color]) if (k := board[sq]) is not None
                and k.key == "C" and k.state == UNPLACED]

    def setup_moves(self, pos: PositionView) -> list[Move]:
        phase = pos.setup
        assert phase is not None, "set-up actions are asked for during the set-up"
        color = _PHASE_SIDE[phase]
        if phase.startswith("sp-"):
            return list(self._pawn_moves(color))
        names = self.game.geometry.names
        out = []
        for sq in self._unplaced(pos, color):
            k = pos.board[sq]
            assert k is not None
            for f in FACINGS:
                nk = self.game.kind("C", color, f)
                out.append(Move(SETUP, sq, sq, k, nk, (), (sq,), ((sq, nk),),
                                lan=f"{names[sq]}({f})"))
        return out

    def setup_hint(self, pos: PositionView) -> str | None:
        """What the set-up action now due is, for a prompt (the terminal's, the bot's)."""
        color = _PHASE_SIDE.get(pos.setup)
        if color is None or pos.setup is None:
            return None
        if pos.setup.startswith("sp-"):
            rank = self.pawn_rank[color] + 1
            return (f"the files of the two Super Pawns on rank {rank}, "
                    f"like S@e{rank},S@f{rank} or just ef")
        unplaced = self._unplaced(pos, color)
        where = f"{self.game.geometry.names[unplaced[0]]}(N), " if unplaced else ""
        return (f"the way the Cyclops faces: {FACING_CHOICES}; like {where}just N, or forward. "
                f"{FACING_NOTE}")

    def setup_hint_text(self, pos: PositionView) -> Text | str | None:
        """``setup_hint`` said in its reader's language."""
        color = _PHASE_SIDE.get(pos.setup) if pos.setup is not None else None
        if color is None or pos.setup is None:
            return None
        if pos.setup.startswith("sp-"):
            rank = self.pawn_rank[color] + 1
            example = f"S@e{rank},S@f{rank}"
            return T("the files of the two Super Pawns on rank {rank}, like {example} or just ef", rank=rank,
                     example=example)
        unplaced = self._unplaced(pos, color)
        if unplaced:
            example = self.game.geometry.names[unplaced[0]] + "(N)"
            return T("the way the Cyclops faces: {choices}; like {example}, just N, or forward. {note}",
                     choices=FACING_CHOICES, example=example, note=FACING_NOTE_TEXT)
        return T("the way the Cyclops faces: {choices}; like just N, or forward. {note}", choices=FACING_CHOICES,
                 note=FACING_NOTE_TEXT)

    def setup_choice(self) -> Text:
        return T("each side chooses where its two Super Pawns stand and which way its Cyclops faces")

    def setup_default(self) -> Text:
        return T("Super Pawns on e and f, Cyclopes facing N, forward")

    def after_setup(self, pos: PositionView, move: Move) -> tuple[int, str | None]:
        return _NEXT[pos.setup]

    def validate(self, pos: PositionView) -> None:
        """A set-up position must be one the set-up phase can reach from its start."""
        phase = pos.setup
        if phase is None:
            return
        geo = self.game.geometry
        unplaced = [self._unplaced(pos, c) for c in (WHITE, BLACK)]
        side = _PHASE_SIDE[phase]
        if pos.side != side:
            raise FenError(f"set-up step {phase} is {self.game.side_name(side)}'s, "
                           f"but the side field says {pos.turn}")
        if pos.ep is not None:
            raise FenError("no en passant square during the set-up")
        order = PHASES.index(phase)
        for color in (WHITE, BLACK):
            placed = order > PHASES.index(("sp-w", "sp-b")[color])
            rank = self.pawn_rank[color]
            row = [rank * geo.width + f for f in range(geo.width)]
            if not placed and any(pos.board[s] is not None for s in row):
                raise FenError(f"set-up step {phase}: {self.game.side_name(color)}'s rank "
                               f"{rank + 1} must still be empty")
            faced = order > PHASES.index(("face-w", "face-b")[color])
            if faced and unplaced[color]:
                raise FenError(f"set-up step {phase}: {self.game.side_name(color)}'s Cyclops on "
                               f"{geo.names[unplaced[color][0]]} should have a facing by now")
            if not faced and len(unplaced[color]) != 1:
                raise FenError(f"set-up step {phase}: {self.game.side_name(color)} needs exactly "
                               f"one unplaced Cyclops, C(?)")

    # --- reading moves ------------------------------------------------------------------
    def rewrite(self, pos: PositionView, text: str) -> list[str]:
        """Candidate texts for the inventor's notations (and the set-up actions)."""
        t = _TRAILING.sub("", text.strip())
        bad = _I_SQUARE.search(t)
        if bad:
            try:
                self.game.geometry.parse_square(bad.group())
            except RulesError as e:  # the geometry's own message: no file 'i'
                raise InvalidMoveError(e.text) from None
        if pos.setup is not None:
            return [self._setup_text(pos, t)]
        if re.match(r"S@|[a-k]\d{1,2}\(\?\)", t, re.IGNORECASE):
            raise NoSuchMoveError(T("{move}: the set-up is over; the game is under way", move=repr(text.strip())))
        out: list[str] = []
        lettered = with_letters(t)
        if lettered != t:
            t = lettered
            out.append(t)
        if t.startswith("SP"):   # the inventor's letters for the Super Pawn
            t = "S" + t[2:]
            out.append(t)
        m = _CAPTURE_LIST.fullmatch(t) or _CAPTURE_ONE.fullmatch(t)
        if m:
            out.append(self._checked_captures(pos, text.strip(), m["body"], m["list"]))
        return out

    def explain(self, pos: PositionView, text: str) -> RulesError | None:
        """Why an inventor's form or a shot names no legal move; None to let the core say."""
        t = _TRAILING.sub("", text.strip())
        if t.startswith("SP"):
            from ..notation import explain, requoted
            as_s = "S" + t[2:]
            err = explain(pos, as_s)
            return type(err)(requoted(err.text, repr(as_s), repr(text.strip())))
        m = _SHOT.fullmatch(t)
        if m:
            if m["code"] not in (None, "A", "a") and not m["frm"]:
                return NoSuchMoveError(T("{move}: only an Archer shoots ({example})", move=repr(text.strip()),
                                         example="A^square"))
            return self._shot_refusal(pos, text.strip(), m["frm"], m["to"])
        return self._facing_refusal(pos, text.strip(), t)

    def _facing_refusal(self, pos: PositionView, raw: str, t: str) -> RulesError | None:
        """Why a text with a facing in brackets names no legal move; None to let the core say."""
        bracket = _BRACKETS.search(t)
        if bracket is None or pos.setup is not None:
            return None
        inner = bracket[1].strip()
        if facing_of(inner) is None:
            return InvalidMoveError(T("{move}: {said} is not a facing; a facing is {choices}. {note}", move=repr(raw),
                                      said=repr(inner), choices=FACING_CHOICES, note=FACING_NOTE_TEXT))
        lettered = with_letters(t)
        turn = _TURN.fullmatch(lettered)
        if turn:
            return self._turn_refusal(pos, raw, turn["sq"], turn["f"].upper())
        if lettered != t:  # the core's reason for the same move written in letters
            from ..notation import explain, requoted
            err = explain(pos, lettered)
            return type(err)(requoted(err.text, repr(lettered), repr(raw)))
        return None

    def _not_this_piece(self, pos: PositionView, raw: str, sq: int, key: str, only: Text) -> RulesError | None:
        """Why the piece on sq cannot do what only a piece ``key`` does ("only an Archer
        shoots"): none there, the other side's, another piece; None if it can."""
        piece, name = pos.board[sq], self.game.geometry.names[sq]
        if piece is None:
            return NoPieceError(T("there is no piece on {square}", square=name))
        if piece.color != pos.side:
            return NotYourPieceError(T("the {piece} on {square} is {side}'s", piece=known(piece.name), square=name,
                                       side=known(self.game.side_name(piece.color))))
        if piece.key != key:
            return NoSuchMoveError(T("{move}: {only}; that is {a_piece}", move=repr(raw), only=only,
                                     a_piece=T("a {piece}", piece=known(piece.name))))
        return None

    def _turn_refusal(self, pos: PositionView, raw: str, square: str, facing: str) -> RulesError:
        geo = self.game.geometry
        try:
            sq = geo.parse_square(square)
        except RulesError as e:
            return InvalidMoveError(e.text)
        err = self._not_this_piece(pos, raw, sq, "C", T("only a Cyclops turns in place"))
        if err is not None:
            return err
        piece, name = pos.board[sq], geo.names[sq]
        if piece is not None and piece.state == facing:
            return NoSuchMoveError(T("{move}: the Cyclops on {square} already faces {facing}; turning in place must "
                                     "change its facing. {note}", move=repr(raw), square=name, facing=facing,
                                     note=FACING_NOTE_TEXT))
        return LeavesRoyalInCheckError(_in_check(raw))

    def ambiguity_hint(self, pos: PositionView, moves: Sequence[Move]) -> Text | None:
        """Moves that differ only in the facing they end with: ask for one."""
        if len({(m.frm, m.to) for m in moves}) == 1 and all(m.piece.key == "C" for m in moves):
            example = pos.san(moves[0]).split("(")[0]
            return T(". Add the facing it ends with, like {one} or {other}. {note}", one=example + "(N)",
                     other=example + "(forward)", note=FACING_NOTE_TEXT)
        return None

    def _shot_refusal(self, pos: PositionView, raw: str, frm_text: str | None, to_text: str) -> RulesError:
        geo = self.game.geometry
        try:
            to = geo.parse_square(to_text)
            frm = geo.parse_square(frm_text) if frm_text else None
        except RulesError as e:
            return InvalidMoveError(e.text)
        target = pos.board[to]
        if frm is not None:
            err = self._not_this_piece(pos, raw, frm, "A", T("only an Archer shoots"))
            if err is not None:
                return err
            shooters = [frm]
        else:
            board = pos.board
            shooters = [s for s in pos.occ[pos.side] if (k := board[s]) is not None and k.key == "A"]
            if not shooters:
                return NoPieceError(T("{move}: you have no Archer on the board", move=repr(raw)))
        in_range = [s for s in shooters if to in self._shot_squares(s)]
        if not in_range and frm is not None:
            return NoSuchMoveError(T("{move}: no Archer on {square} stands exactly {n} squares from {dest} along a "
                                     "rank or file", move=repr(raw), square=geo.names[frm], n=SHOT_DISTANCE,
                                     dest=geo.names[to]))
        if not in_range:
            return NoSuchMoveError(T("{move}: no Archer of yours stands exactly {n} squares from {dest} along a "
                                     "rank or file", move=repr(raw), n=SHOT_DISTANCE, dest=geo.names[to]))
        if target is None:
            return NoSuchMoveError(T("{move}: there is nothing on {square} to shoot", move=repr(raw),
                                     square=geo.names[to]))
        if target.color == pos.side:
            return NoSuchMoveError(T("{move}: an Archer never shoots its own pieces", move=repr(raw)))
        return LeavesRoyalInCheckError(_in_check(raw))

    def _shot_squares(self, sq: int) -> set[int]:
        geo = self.game.geometry
        out = set()
        for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            t = geo.step(sq, dx * SHOT_DISTANCE, dy * SHOT_DISTANCE)
            if t is not None:
                out.add(t)
        return out

    def _checked_captures(self, pos: PositionView, raw: str, body: str, listed: str) -> str:
        """`Cf7c7(N)xc7,e7`: the move named by body, if it captures exactly those squares."""
        geo = self.game.geometry
        move = pos.parse(body)
        named = set()
        for s in re.findall(_SQ, listed):
            try:
                named.add(geo.parse_square(s))
            except RulesError as e:
                raise InvalidMoveError(e.text) from None
        real = set(move.captures)
        if named != real:
            said = ", ".join(geo.names[s] for s in sorted(named))
            if real:
                raise NoSuchMoveError(T("{move}: {san} captures {squares}, not {said}", move=repr(raw),
                                        san=pos.san(move), squares=", ".join(geo.names[s] for s in sorted(real)),
                                        said=said))
            raise NoSuchMoveError(T("{move}: {san} captures nothing, not {said}", move=repr(raw), san=pos.san(move),
                                    said=said))
        return move.lan

    def _setup_text(self, pos: PositionView, t: str) -> str:
        """The LAN of the set-up action a text names, or a clear error; a move of a piece
        on the board (``Nf3``) is refused naming that piece, with what is due instead."""
        try:
            return self._setup_action(pos, t)
        except RulesError as err:
            move = _PIECE_MOVE.fullmatch(t.strip())
            if move is None:
                raise
            code = move["code"] or "P"
            kinds = {k.key: k for sq in pos.occ[pos.side] if (k := pos.board[sq]) is not None}
            if code not in kinds or code == ("S" if pos.setup and pos.setup.startswith("sp-") else "C"):
                raise
            if move["code"] is None and ("(" in t or self._unplaced(pos, pos.side)[:1] == [
                    sq for s in re.findall(_SQ, t) if (sq := self._square(s)) is not None][:1]):
                raise  # d1, d1(X): the Cyclops's facing written wrong, not a Pawn's move
            reason = err.text
            if isinstance(reason, Text) and reason.msgid == "{move}: {reason}" and reason.params["move"] == repr(t):
                reason = reason.params["reason"]
            elif isinstance(reason, str) and reason.startswith(repr(t) + ": "):
                reason = reason[len(repr(t)) + 2:]
            raise NoSuchMoveError(T("{move}: your {piece} cannot move yet, the set-up comes first: {reason}",
                                    move=repr(t), piece=known(kinds[code].name), reason=reason)) from None

    def _square(self, name: str) -> int | None:
        try:
            return self.game.geometry.parse_square(name)
        except RulesError:
            return None

    def _setup_action(self, pos: PositionView, t: str) -> str:
        """The LAN of the set-up action a text names, or a clear error."""
        game, geo = self.game, self.game.geometry
        phase = pos.setup
        assert phase is not None, "only a set-up action is read in the set-up"
        color = _PHASE_SIDE[phase]
        who = known(game.side_name(color))
        move = repr(t)
        if phase.startswith("sp-"):
            rank = self.pawn_rank[color] + 1
            example = f"S@e{rank},S@f{rank}"
            hint = T("{side} chooses the files of its two Super Pawns on rank {rank}, e.g. {example}", side=who,
                     rank=rank, example=example)
            squares = re.findall(_SQ, t)
            rest = re.sub(_SQ, "", t)
            if len(squares) == 0:
                letters = re.fullmatch(r"\s*([a-zA-Z])\s*[,;&\s]?\s*([a-zA-Z])\s*", t)
                if not letters:
                    raise InvalidMoveError(T("{move}: {reason}", move=move, reason=hint))
                squares = [f"{ch}{rank}" for ch in letters.groups()]
            elif len(squares) != 2 or re.sub(r"SP|S|@|[\s,;&+-]", "", rest, flags=re.I):
                raise InvalidMoveError(T("{move}: {reason}", move=move, reason=hint))
            sqs = []
            for s in squares:
                try:
                    sqs.append(geo.parse_square(s))
                except RulesError as e:
                    raise InvalidMoveError(T("{first}; {then}", first=e.text, then=hint)) from None
            if any(geo.rank_of(s) + 1 != rank for s in sqs):
                raise NoSuchMoveError(T("{move}: the Super Pawns go on rank {rank}; {hint}", move=move, rank=rank,
                                        hint=hint))
            if sqs[0] == sqs[1]:
                raise NoSuchMoveError(T("{move}: choose two different files; {hint}", move=move, hint=hint))
            a, b = sorted(sqs)
            return f"S@{geo.names[a]},S@{geo.names[b]}"
        unplaced = self._unplaced(pos, color)
        if not unplaced:  # validate() prevents this; stay clear anyway
            raise NoSuchMoveError(T("{side} has no Cyclops to turn", side=who))
        home = unplaced[0]
        hint = T("{side} turns its Cyclops to face {choices}, e.g. {example} or forward. {note}", side=who,
                 choices=FACING_CHOICES, example=geo.names[home] + "(N)", note=FACING_NOTE_TEXT)
        m = _FACE.fullmatch(t.strip())
        if not m:
            raise InvalidMoveError(T("{move}: {reason}", move=move, reason=hint))
        said = m["f"] or m["f2"]
        facing = facing_of(said)
        if facing is None:
            raise InvalidMoveError(T("{move}: {said} is not a direction; {hint}", move=move, said=repr(said.upper()),
                                     hint=hint))
        if m["sq"]:
            try:
                sq = geo.parse_square(m["sq"])
            except RulesError as e:
                raise InvalidMoveError(T("{first}; {then}", first=e.text, then=hint)) from None
            if sq != home:
                raise NoSuchMoveError(T("{move}: {side}'s Cyclops stands on {square}; {hint}", move=move, side=who,
                                        square=geo.names[home], hint=hint))
        return f"{geo.names[home]}({facing})"
