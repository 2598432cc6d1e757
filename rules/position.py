"""Positions: legality, playing moves, game end.

A Position is immutable by convention: ``play`` returns a new one. Legality
follows the contract: a pseudo-legal move is legal when, after it, no enemy
piece could capture the mover's royal. The test is a lookup in the enemy
pieces' attack maps towards the royal's square, and most moves skip even that:
a move that changes no square on any enemy path to the royal (and is not a
royal move, and is not made in check) cannot expose the royal.

Beside it: rules.movegen (the plans' moves and the walks over them; castlings and
drops), rules.attacks (the attack tests, and what legality needs to know of the royal:
``royal_safety``), rules.hands (the hands after a drop or capture); rules.notation and
rules.vfen_write for the text.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TypeAlias

from language.text import T

from .attacks import FACING, attacked_bits, attacked_on, royal_safety
from .errors import GameOverError
from .game import Game, Hands, Safety
from .hands import new_hands
from .movegen import candidate_list, capture_list, piece_moves, plan_at, pseudo_list, touch
from .notation import explain_illegal, outcome_text, parse_move, san
from .pieces import BLACK, COLOR_CHARS, DROP, NORMAL, SETUP, SPAN, WHITE, Board, Move, PieceKind
from .vfen_write import write_fen

#: the line that led to a position, newest first: (key, lan of the move from it, older...)
History: TypeAlias = tuple["Key", str, "History | None"]
#: what the repetition rule compares
Key: TypeAlias = tuple[tuple[PieceKind | None, ...], int, frozenset[int], int | None, Hands, tuple[bool, bool],
                       str | None]
#: one board change of a move made in place: (square, kind before, kind after)
Change: TypeAlias = tuple[int, PieceKind | None, PieceKind | None]
#: what push keeps to restore: both royal squares, the state, and the caches
Saved: TypeAlias = tuple[int | None, int | None, int, frozenset[int], int | None, int, int, Hands,
                         tuple[bool, bool], str | None, "list[Move] | None", "Safety | None", "bool | None",
                         "Key | None"]


class Position:
    __slots__ = ("game", "board", "side", "rights", "ep", "halfmove", "fullmove", "hands",
                 "dropped", "setup", "occ", "bits", "royal", "history", "last_move", "_legal", "_safety", "_check",
                 "_key", "_undo", "_evasion")

    def __init__(self, game: Game, board: Board, side: int, rights: frozenset[int] = frozenset(),
                 ep: int | None = None, halfmove: int = 0, fullmove: int = 1, hands: Hands = ((), ()),
                 dropped: tuple[bool, bool] = (False, False), setup: str | None = None,
                 occ: list[set[int]] | None = None, royal: list[int | None] | None = None,
                 bits: list[int] | None = None):
        self.game = game
        self.board = board
        self.side = side
        self.rights = rights
        self.ep = ep
        self.halfmove = halfmove
        self.fullmove = fullmove
        self.hands = hands          # per colour: tuple of (key, count), sorted by the game's drop order
        self.dropped = dropped
        self.setup = setup
        if occ is None:
            occ = [set(), set()]
            for sq, k in enumerate(board):
                if k is not None:
                    occ[k.color].add(sq)
        self.occ = occ
        if bits is None:   # each side's occupied squares as the bits of an int
            bits = [sum(1 << s for s in occ[0]), sum(1 << s for s in occ[1])]
        self.bits = bits
        if royal is None:
            royal = [None, None]
            for sq, k in enumerate(board):
                if k is not None and k.royal:
                    royal[k.color] = sq
        self.royal = royal
        # the line that led here, newest first: (key, lan of the move from it, older...)
        # keys only, not positions, so a long game's history stays small
        self.history: History | None = None
        self.last_move: Move | None = None
        self._legal: list[Move] | None = None
        self._safety: Safety | None = None
        self._check: bool | None = None
        self._key: Key | None = None
        # push/pop records (searchers), made on the first push
        self._undo: list[tuple[Sequence[Change], Saved]] | None = None
        # (the safety it was made from, _evasion_gate's answer)
        self._evasion: tuple[Safety, int | None] | None = None

    # --- public views --------------------------------------------------------

    @property
    def turn(self) -> str:
        return COLOR_CHARS[self.side]

    def piece_at(self, square: str | int) -> PieceKind | None:
        sq = self.game.geometry.parse_square(square) if isinstance(square, str) else square
        return self.board[sq]

    def pieces(self) -> dict[str, PieceKind]:
        names = self.game.geometry.names
        return {names[sq]: k for sq, k in enumerate(self.board) if k is not None}

    def hand(self, color: str | int) -> dict[str, int]:
        c = COLOR_CHARS.index(color) if isinstance(color, str) else color
        return dict(self.hands[c])

    def royal_square(self, color: str | int | None = None) -> str | None:
        c = self.side if color is None else (COLOR_CHARS.index(color) if isinstance(color, str) else color)
        sq = self.royal[c]
        return None if sq is None else self.game.geometry.names[sq]

    # --- attacks and check ---------------------------------------------------
    def is_attacked(self, sq: int, by: int) -> bool:
        bits = self.bits
        return attacked_bits(self.board, bits[0] | bits[1], self.attacker_squares(sq, by), sq, by)

    def attacker_squares(self, sq: int, by: int) -> set[int]:
        """The squares of the pieces of colour `by` that could attack sq were the board
        otherwise empty (Game.attack_sources): the only ones worth looking at."""
        return self.occ[by] & self.game.attack_sources(by, sq)

    def safety(self) -> Safety:
        """What legality needs to know of the side to move's royal, once per position:
        (in_check, gate, sensitive, ways, check_mask, checkers), squares as bits
        (rules.attacks.royal_safety says each)."""
        if self._safety is None:
            self._safety = royal_safety(self)
        return self._safety

    @property
    def in_setup(self) -> bool:
        """True while the players are still making a set-up phase (no move made yet)."""
        return self.setup is not None

    def in_check(self) -> bool:
        if self.setup is not None:
            return False
        if self._safety is not None:
            return self._safety[0]
        if self._check is None:   # without the rest of safety(): a searcher asks at every node
            r, them = self.royal[self.side], 1 - self.side
            if r is None:
                self._check = False
            else:
                bits = self.bits
                self._check = attacked_bits(self.board, bits[0] | bits[1],
                                            self.occ[them] & self.game.attack_sources(them, r), r, them)
        return self._check

    def checkers(self) -> list[int]:
        """The squares of the enemy pieces that give check to the side to move's
        royal, in square order; empty when not in check (pictures mark them)."""
        if not self.in_check():
            return []
        r, them = self.royal[self.side], 1 - self.side
        assert r is not None, "a side in check has a royal"
        return sorted(x for x in self.occ[them] if attacked_on(self.board, (x,), r, them))

    # --- move generation -----------------------------------------------------
    def pseudo_moves(self) -> Iterator[Move]:
        """Every pseudo-legal move of the side to move (set-up actions during set-up)."""
        if self.setup is not None:
            yield from self.game.extension.setup_moves(self)
            return
        yield from pseudo_list(self)

    def capture_moves(self) -> list[Move]:
        """The pseudo-legal moves that take something (the same Move objects, in the same
        order, as pseudo_moves gives them): quiescence searches look at no other."""
        return capture_list(self)

    def piece_moves(self, sq: int) -> list[Move]:
        """The pseudo-legal moves of the piece on sq (castlings aside), in the order
        pseudo_moves gives them: a searcher checks a remembered move with it."""
        k = self.board[sq]
        out: list[Move] = []
        if k is not None and k.color == self.side and self.setup is None:
            piece_moves(self, out, sq, k, k._plans[sq] or plan_at(self.game, k, sq))
        return out

    def legal_moves(self) -> list[Move]:
        if self._legal is None:
            if self.setup is not None:
                self._legal = list(self.pseudo_moves())
            else:
                self._legal = self.legal_among(candidate_list(self))
        return self._legal

    def candidate_moves(self) -> list[Move]:
        """The pseudo-legal moves that legality cannot rule out at a glance, in the order
        pseudo_moves gives them: out of check every one, in check only those that can
        answer it (rules.movegen.candidate_list). Its legal ones are the legal moves."""
        return candidate_list(self)

    def legal_among(self, moves: Iterable[Move]) -> list[Move]:
        """The legal ones of some pseudo-legal moves of the side to move, in their order.

        A move's touch mask (the squares it changes) against the sensitive squares settles
        most moves in one integer operation: out of check, one that touches no enemy way to
        the royal is legal; in check, one that touches no checker's way or square is not.
        The rest are made on the board and the royal's square looked up, against only the
        enemy pieces whose ways they touch (and the checkers)."""
        check, gate, sens, ways, cmask, checkers = self.safety()
        rb = self.game.royal_bit
        if sens is None:
            return [m for m in moves if self._legal_after(m, None)]
        out: list[Move] = []
        if check:
            cm = cmask | rb
            for m in moves:
                tm = m.touch
                if tm is None:
                    tm = touch(m, rb)
                if tm & cm and self._legal_in_check(m, tm, rb, ways, checkers):
                    out.append(m)
        else:
            mb = rb << 1   # a move emptying several squares: tested against all of sens
            gm, sm = gate | rb | mb, sens | rb
            for m in moves:
                tm = m.touch
                if tm is None:
                    tm = touch(m, rb)
                if (not tm & gm or (tm & mb and not tm & sm)
                        or self._legal_touched(m, tm, rb, ways, checkers)):
                    out.append(m)
        return out

    def is_legal(self, m: Move) -> bool:
        """Whether a pseudo-legal move of the side to move is legal (legal_among's test
        for one move)."""
        check, gate, sens, ways, cmask, checkers = self._safety or self.safety()
        rb = self.game.royal_bit
        if sens is None:
            return self._legal_after(m, None)
        tm = m.touch
        if tm is None:
            tm = touch(m, rb)
        if check:
            return bool(tm & (cmask | rb)) and self._legal_in_check(m, tm, rb, ways, checkers)
        mb = rb << 1
        if not tm & (gate | rb | mb) or (tm & mb and not tm & (sens | rb)):
            return True
        return self._legal_touched(m, tm, rb, ways, checkers)

    def _legal_in_check(self, m: Move, tm: int, rb: int, ways: list[tuple[int, int]],
                        checkers: list[int]) -> bool:
        """In check, whether a move touching a checker's square or ways (or the royal's) is
        legal. A move that is not the royal's, fills one square (its target), empties at
        most one and touches no square of the other enemy pieces' gate (their pins and
        hoppers' ways, the facing squares): after it no enemy piece but the checkers can
        attack the royal (safety's reasoning), so only their ways are looked at, on the
        occupancy after it, nothing made. The others are tested in full."""
        if not tm & rb:
            got = self._evasion
            if got is None or got[0] is not self._safety:
                got = self._evasion = (self.safety(), self._evasion_gate())
            gate = got[1]
            if gate is not None and not tm & gate:
                put = m.put
                if len(put) == 1 and not put[0][1].royal:
                    bits = self.bits
                    after = ((bits[0] | bits[1]) & ~tm) | (1 << put[0][0])
                    caps = m.captures
                    # the checkers it does not take stand where they stood
                    standing = [x for x in checkers if x not in caps]
                    r = self.royal[self.side]
                    assert r is not None, "a side in check has a royal"
                    return not (standing and attacked_bits(self.board, after, standing, r, 1 - self.side))
        return self._legal_touched(m, tm, rb, ways, checkers)

    def _evasion_gate(self) -> int | None:
        """What _legal_in_check needs of a position in check: the squares a move judged
        there must not touch - the gate of the enemy pieces that do not give check (a
        single blocker of one of their ways, a hopper's whole way), the facing rule's
        single blocker, and the bit of a move emptying several squares; None in a game
        with special movers."""
        check, _gate, sens, ways, _cmask, checkers = self.safety()
        r = self.royal[self.side]
        if not check or sens is None or self.game.movers or r is None:
            return None
        board = self.board
        bits = self.bits
        occupied = bits[0] | bits[1]
        others = self.game.royal_bit << 1
        for x, wm in ways:
            if x in checkers:
                continue
            if x == FACING:
                o = wm & occupied
                if not o & (o - 1):
                    others |= o
                continue
            k = board[x]
            assert k is not None, "a piece stands on every way's square but FACING's"
            t = k._tables[x] or k.moves_at(x)
            for mask, hop in (t._ways if t._ways is not None else t.ways)[r]:
                if hop:
                    others |= mask
                else:
                    o = mask & occupied
                    if not o & (o - 1):
                        others |= o
        return others

    def _legal_touched(self, m: Move, tm: int, rb: int, ways: list[tuple[int, int]],
                       checkers: list[int]) -> bool:
        """The full test of a move that touches the sensitive squares (or is the royal's)."""
        if tm & rb:
            put = m.put
            if len(put) == 1 and not self.game.movers:
                return self._royal_step_legal(put[0][0], tm)
            return self._legal_after(m, None)
        who = set(checkers)
        for x, wm in ways:
            if wm & tm:
                who.add(x)
        return self._legal_after(m, who)

    def _royal_step_legal(self, to: int, tm: int) -> bool:
        """_legal_after for the royal's move to `to` that fills no other square, in a game
        without special movers, on the occupancy after it, nothing made: the enemy pieces
        that could attack `to` (but one it takes) stand where they stood."""
        them = 1 - self.side
        bits = self.bits
        after = ((bits[0] | bits[1]) & ~tm) | (1 << to)
        attackers: Iterable[int] = self.occ[them] & self.game.attack_sources(them, to)
        if tm & bits[them]:   # it takes: the piece taken attacks no more
            attackers = [x for x in attackers if not tm >> x & 1]
        if attackers and attacked_bits(self.board, after, attackers, to, them):
            return False
        if self.game.facing_royals:
            other = self.royal[them]
            # the other royal is off the board after it only if this move took it
            if other is not None and (other == to or not tm >> other & 1) and self._royals_face(after, to, other):
                return False
        return True

    def _legal_after(self, m: Move, attackers: Iterable[int] | None) -> bool:
        """Whether, after m, none of these enemy pieces (None: any) could take our royal
        (made on the board in place and taken back)."""
        us, them = self.side, 1 - self.side
        board = self.board
        bits = self.bits
        occupied = bits[0] | bits[1]
        undo: list[tuple[int, PieceKind | None]] = []
        for s in m.clear:
            undo.append((s, board[s]))
            board[s] = None
            occupied &= ~(1 << s)
        r = self.royal[us]
        for s, k in m.put:
            undo.append((s, board[s]))
            board[s] = k
            occupied |= 1 << s
            if k.royal and k.color == us:
                r = s
        try:
            if r is None:
                return True
            if r in m.clear and board[r] is None:
                return False  # the move removed its own royal
            if attackers is None:
                attackers = self.attacker_squares(r, them)
            if attacked_bits(board, occupied, attackers, r, them):
                return False
            if self.game.facing_royals:
                other = self.royal[them]
                if other is not None and board[other] is not None and self._royals_face(occupied, r, other):
                    return False
            return True
        finally:
            for s, q in reversed(undo):
                board[s] = q

    def _royals_face(self, occupied: int, a: int, b: int) -> bool:
        """Whether royals on a and b face each other on a file (occupied: the board's bits)."""
        between = self.game.file_between(a, b)
        return between is not None and not between & occupied

    # --- making moves --------------------------------------------------------
    def apply(self, m: Move) -> Position:
        """The position after a pseudo-legal move, without checking it (engine use)."""
        child = Position(self.game, self.board.copy(), self.side, self.rights, self.ep, self.halfmove,
                         self.fullmove, self.hands, self.dropped, self.setup,
                         [set(self.occ[0]), set(self.occ[1])], list(self.royal), list(self.bits))
        child._make(m, [])
        return child

    def _make(self, m: Move, changes: list[Change]) -> None:
        """Make m in place: its board effect (clear, then put) on the board, the occupancy
        (sets and bits) and the royal squares, each change noted in ``changes`` as (square,
        before, after); then the state after it. No caches are touched (push does that)."""
        board, occ, bits, royal = self.board, self.occ, self.bits, self.royal
        caps = m.captures
        captured: list[PieceKind] = []
        for s in m.clear:
            q = board[s]
            if q is not None:
                changes.append((s, q, None))
                c = q.color
                occ[c].discard(s)
                bits[c] ^= 1 << s
                board[s] = None
                if royal[c] == s:
                    royal[c] = None
                if caps and s in caps:
                    captured.append(q)
        for s, k in m.put:
            q = board[s]
            changes.append((s, q, k))
            if q is not None:   # a piece put on a piece (a state change in place): replaced
                occ[q.color].discard(s)
                bits[q.color] ^= 1 << s
            c = k.color
            board[s] = k
            occ[c].add(s)
            bits[c] |= 1 << s
            if k.royal:
                royal[c] = s
        # then the state, from the fields not yet changed; the en passant test looks at
        # the square a double step passes over, which the move leaves alone
        game = self.game
        us = self.side
        kind = m.kind
        if kind == SETUP:
            self.side, self.setup = game.extension.after_setup(self, m)
            self.ep = None
            return
        rights = self.rights
        if rights:
            lost = game.rights_lost_from
            for s in m.clear:
                dead = lost.get(s)
                if dead:
                    rights = rights - dead
            self.rights = rights
        normal = kind == NORMAL
        ptype = m.piece.type
        self.ep = None
        if normal and not caps and ptype.ep_victim:
            geo = game.geometry
            frm = m.frm
            assert frm is not None, "a normal move comes from a square"
            if geo.file_of(frm) == geo.file_of(m.to) and abs(m.to - frm) == 2 * geo.width:
                mid = (frm + m.to) // 2
                if board[mid] is None:
                    self.ep = mid
        if game.drop_zone is not None:
            drop = kind == DROP
            if captured or drop:
                self.hands = new_hands(game, self.hands, us, m, captured)
            dropped = self.dropped
            self.dropped = (drop, dropped[1]) if us == WHITE else (dropped[0], drop)
        self.halfmove = 0 if caps or (normal and ptype.pawn) else self.halfmove + 1
        if us == BLACK:
            self.fullmove += 1
        self.side = 1 - us
        self.setup = None

    # --- make / unmake in place (search use) ----------------------------------------
    def push(self, m: Move) -> list[Change]:
        """Make a pseudo-legal move on this position in place; ``pop`` undoes it.

        For searchers that walk a tree on one position instead of copying a board
        per node. Returns the board changes as (square, before, after) in order.
        ``history`` and ``last_move`` are left alone: a searcher keeps its own line.
        """
        royal = self.royal
        saved = (royal[0], royal[1], self.side, self.rights, self.ep, self.halfmove,
                 self.fullmove, self.hands, self.dropped, self.setup, self._legal,
                 self._safety, self._check, self._key)
        changes: list[Change] = []
        self._make(m, changes)
        self._legal = self._safety = self._check = self._key = None
        if self._undo is None:
            self._undo = []
        self._undo.append((changes, saved))
        return changes

    def push_null(self) -> None:
        """Pass the turn in place (a searcher's null move: no such move exists in these
        games); ``pop`` undoes it."""
        royal = self.royal
        saved = (royal[0], royal[1], self.side, self.rights, self.ep, self.halfmove,
                 self.fullmove, self.hands, self.dropped, self.setup, self._legal,
                 self._safety, self._check, self._key)
        self.side = 1 - self.side
        self.ep = None
        self.halfmove += 1
        self._legal = self._safety = self._check = self._key = None
        if self._undo is None:
            self._undo = []
        self._undo.append(((), saved))

    def pop(self) -> None:
        """Undo the last ``push``."""
        assert self._undo is not None, "pop follows a push"
        changes, saved = self._undo.pop()
        board, occ, bits = self.board, self.occ, self.bits
        for s, before, after in reversed(changes):
            if after is not None:
                occ[after.color].discard(s)
                bits[after.color] ^= 1 << s
            board[s] = before
            if before is not None:
                occ[before.color].add(s)
                bits[before.color] |= 1 << s
        (self.royal[0], self.royal[1], self.side, self.rights, self.ep, self.halfmove,
         self.fullmove, self.hands, self.dropped, self.setup, self._legal, self._safety,
         self._check, self._key) = saved

    def play(self, move: Move | str) -> Position:
        """The position after a legal move (a Move or any accepted text)."""
        if isinstance(move, Move):
            legal = {m.lan: m for m in self.legal_moves()}
            if move.lan not in legal:
                over = self.outcome()
                if over is not None:
                    raise GameOverError(T("the game is over ({why})", why=outcome_text(over[1])))
                raise explain_illegal(self, move)
            move = legal[move.lan]
        else:
            move = self.parse(move)
        child = self.apply(move)
        child.history = (self.key(), move.lan, self.history)
        child.last_move = move
        return child

    # --- text ------------------------------------------------------------------
    def parse(self, text: str) -> Move:
        return parse_move(self, text)

    def san(self, move: Move | str) -> str:
        if not isinstance(move, Move):
            move = self.parse(move)
        return san(self, move)

    def fen(self) -> str:
        return write_fen(self)

    def moves_from(self, square: str | int) -> list[Move]:
        """The legal moves of the piece on a square (a Wall from either of its squares)."""
        sq = self.game.geometry.parse_square(square) if isinstance(square, str) else square
        return [m for m in self.legal_moves() if m.frm == sq or (m.kind == SPAN and sq in m.clear[:2])]

    # --- game end ----------------------------------------------------------------
    def ep_square(self) -> int | None:
        """The en passant square as VFEN writes it: only if a capture onto it is pseudo-legal."""
        if self.ep is None:
            return None
        for m in self.pseudo_moves():
            if m.ep:
                return self.ep
        return None

    def key(self) -> Key:
        """What the repetition rule compares."""
        if self._key is None:
            self._key = (tuple(self.board), self.side, self.rights, self.ep_square(),
                         self.hands, self.dropped, self.setup)
        return self._key

    def repetitions(self) -> int:
        """How many times this position has occurred in the line that led to it."""
        key = self.key()
        n, cell = 1, self.history
        while cell is not None:
            if cell[0] == key:
                n += 1
            cell = cell[2]
        return n

    def line(self) -> list[str]:
        """The LANs of the moves played since this position's history began."""
        out: list[str] = []
        cell = self.history
        while cell is not None:
            out.append(cell[1])
            cell = cell[2]
        return out[::-1]

    def outcome(self) -> tuple[str, str] | None:
        """None while the game goes on, else (result, reason)."""
        if self.setup is not None:
            return None
        if not self.legal_moves():
            winner_if_loss = "0-1" if self.side == WHITE else "1-0"
            if self.in_check():
                return (winner_if_loss, "checkmate")
            if self.game.stalemate == "loss":
                return (winner_if_loss, "stalemate")
            return ("1/2-1/2", "stalemate")
        if self.repetitions() >= 3:
            return ("1/2-1/2", "threefold repetition")
        if self.halfmove >= 100:
            return ("1/2-1/2", "100-ply rule")
        return None

    def perft(self, depth: int) -> int:
        """The number of move paths of this length (the last ply counted by the length of
        the legal move list). Walked on a copy of this position with push/pop."""
        if depth <= 1:
            return len(self.legal_moves()) if depth == 1 else 1
        walker = Position(self.game, self.board.copy(), self.side, self.rights, self.ep,
                          self.halfmove, self.fullmove, self.hands, self.dropped, self.setup)
        return walker._perft(depth)

    def _perft(self, depth: int) -> int:
        moves = self.legal_moves()
        if depth == 1:
            return len(moves)
        n = 0
        for m in moves:
            self.push(m)
            n += self._perft(depth - 1)
            self.pop()
        return n

    def __repr__(self) -> str:
        return f"Position({self.game.id!r}, {self.fen()!r})"
