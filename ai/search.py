"""The search: principal-variation alpha-beta with iterative deepening.

One position is walked in place (``Position.push``/``pop``, or for a plain move the
searcher's own one-step make), with a Zobrist hash and the evaluation's board score
updated from each move's board changes; a horizon child that would stand pat is scored
without making its move. Alpha-beta rather than Monte-Carlo tree search: these games
have a material signal an evaluation can read, and in pure Python a playout of a 14x14
game costs more than a thousand evaluations. See ai/README.md.

Parts: a transposition table on the hash (best move, bound, depth; mate scores
stored relative to the node), move ordering (hash move, captures by most valuable
victims - every piece a Cyclops run or Wall takes counts - then promotions, killers
and history), late-move reductions for quiet moves, a check extension, quiescence on
captures (in check: every evasion), repetition as a draw (this line and the game's),
and a hard deadline looked at in every node.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from operator import itemgetter
from typing import Literal, TypeAlias

from rules.attacks import attacked_bits, check_sources, check_zone, sources_hit, squares_of_bits
from rules.game import Game, Hands, Safety
from rules.hands import new_hands
from rules.movegen import touch_mask
from rules.pieces import CASTLE, DROP, NORMAL, SETUP, WHITE, Move, MoveKind, PieceKind
from rules.position import Key, Position

from .evaluation import evaluator
from .values import capture_gain
from .zobrist import _state_keys, board_hash, kind_keys, state_key, state_of

MATE = 100_000
MATE_BOUND = MATE - 1_000     # scores beyond it are mates
INF = MATE + 1
EXACT, LOWER, UPPER = 0, 1, 2
QUIESCENCE_PLIES = 8
NULL_REDUCTION = 2            # a null move is searched this much shallower (beyond the ply)
DELTA_MARGIN = 200
TT_LIMIT = 1_500_000
NO_NODE_LIMIT = 1 << 62


_first = itemgetter(0)
_generation_order = itemgetter(0, 1)   # (from square, index among the piece's moves)
_clock = time.perf_counter


#: a cheap identity of a move within one position: (kind, from, to, new kind, captures)
MoveKey: TypeAlias = tuple[MoveKind, "int | None", int, "PieceKind | None", tuple[int, ...]]
#: a transposition table entry: (depth, score, bound, best move's key)
Entry: TypeAlias = tuple[int, int, int, "MoveKey | None"]
#: what making a plain move in one step needs (Searcher._plain says each)
Plain: TypeAlias = tuple["int | None", int, PieceKind, PieceKind, tuple[int, ...], int, int, "int | None",
                         bool, bool]
#: what a plain move's make keeps for unmake: the state before it (as Position.push keeps
#: it), and the pieces it took with their squares
PlainUndo: TypeAlias = tuple[tuple["int | None", "int | None", int, frozenset[int], "int | None", int, int,
                                   tuple[bool, bool], "list[Move] | None", "Safety | None", "bool | None",
                                   "Key | None", Hands],
                             "list[tuple[int, PieceKind]] | None"]
#: a hand step: the hands and dropped flags after it, and the state key
HandStep: TypeAlias = tuple[Hands, tuple[bool, bool], int]

_HAND_STEPS: dict[Game, dict[tuple[int, bool, object], HandStep]] = {}   # game -> Searcher._hand_step's cache


class Timeout(Exception):
    """The deadline passed (or the node budget is spent): the search unwinds and the last
    complete answer stands."""


def move_key(m: Move) -> MoveKey:
    """A cheap identity of a move within one position (the LAN is built lazily)."""
    return (m.kind, m.frm, m.to, m.new, m.captures)


class Searcher:
    def __init__(self, root: Position, deadline: float, tt: dict[int, Entry] | None = None):
        game = root.game
        # a private position to walk in place: the caller's stays untouched
        self.pos = type(root)(game, root.board.copy(), root.side, root.rights, root.ep,
                              root.halfmove, root.fullmove, root.hands, root.dropped, root.setup)
        self.ev = evaluator(game)
        self.values = self.ev.values
        self.deadline = deadline
        self.tt: dict[int, Entry] = {} if tt is None else tt
        self.nodes = 0
        self.node_limit: float = NO_NODE_LIMIT   # a level's node budget (ai.levels; inf: none)
        self.state = state_key(state_of(self.pos))   # the hash's part for the state
        self.hash = board_hash(self.pos.board) ^ self.state
        self.score = self.ev.board_score(self.pos.board)
        # kind -> (its Zobrist keys, its evaluation table) per square
        self._kinds: dict[PieceKind, tuple[list[int], list[int]]] = {}
        self.drops = game.drop_zone is not None   # pieces in hand count
        self._hands: Hands | None = None   # the last hands scored
        self._hands_score = 0
        # passing the turn is never better than every move (no zugzwang to speak of) where
        # a stalemate is a draw and no piece is dropped; not in a set-up phase
        self.null_ok = game.stalemate == "draw" and game.drop_zone is None
        # hashes of the positions before this one (the game's, then the search line)
        self.line = list(_game_hashes(root))
        self.killers: dict[int, list[MoveKey]] = {}
        self.history: dict[tuple[PieceKind, int], int] = {}
        # (hash, score, state key, undo, memo) before each made move (undo and memo: a plain move's)
        self._stack: list[tuple[int, int, int, PlainUndo | None, Plain | None]] = []
        # the quick check test (make): sound where the side not to move is not attacked at
        # the root (a legal position) and every move made is legal - no set-up action
        pos = self.pos
        them = 1 - pos.side
        r = pos.royal[them]
        self.quick_check = pos.setup is None and (r is None or not pos.is_attacked(r, pos.side))
        # colour -> {royal square: (check_zone, check_sources)}
        self._zones: tuple[dict[int, tuple[int, list[int] | None]], dict[int, tuple[int, list[int] | None]]] = ({}, {})
        self._flipped: dict[int, int] = {}  # state key -> the key after a plain move keeping the rights
        # with hands: (state key, drop, what taken or dropped) -> _hand_step's answer; per game
        # and process, as the state keys are (ai.zobrist)
        self._steps = _HAND_STEPS.setdefault(game, {}) if self.drops else {}   # ({}: unused)
        # captures plain where pieces go to hand: only without castling and en passant
        self._hands_plain = self.drops and not game.castlings and game.jump is None
        self._royal_bit = game.royal_bit
        self._safety_of = self.ev.royal_safety_of

    # --- make / unmake -------------------------------------------------------------
    def _tables(self, kind: PieceKind) -> tuple[list[int], list[int]]:
        t = self._kinds[kind] = (kind_keys(kind), self.ev.table(kind))
        return t

    def make(self, m: Move) -> None:
        """Make m on the private position; the hash and the board score follow its board
        changes, the state's key is drawn once for the new state. ``unmake`` restores.
        A plain move (``_plain``) is made here in one step (Position._make and push for
        it: the same board, occupancy, royal squares and state after it), the mover's part
        of the hash and the score from its memo; any other move by ``Position.push``."""
        pos = self.pos
        memo: Plain | Literal[False] | None = m.memo
        if memo is None:
            memo = m.memo = self._plain(m)
        if not memo:
            self._make_pushed(pos, m)
        else:
            frm, to, piece, new, caps, h_mover, s_mover, passed, resets, royal_mover = memo
            board, occ, bits, royal = pos.board, pos.occ, pos.bits, pos.royal
            side, rights, state = pos.side, pos.rights, self.state
            saved = (royal[0], royal[1], side, rights, pos.ep, pos.halfmove, pos.fullmove,
                     pos.dropped, pos._legal, pos._safety, pos._check, pos._key, pos.hands)
            h = self.hash
            self.line.append(h)
            s = self.score
            c = piece.color
            if frm is not None:   # (a drop only fills its square)
                board[frm] = None
                occ[c].discard(frm)
                bits[c] ^= 1 << frm
            taken: list[tuple[int, PieceKind]] | None = None
            if caps:
                taken = []
                h_taken, s_taken, kinds = 0, 0, self._kinds
                for x in caps:
                    q = board[x]
                    if q is not None:
                        taken.append((x, q))
                        qc = q.color
                        board[x] = None
                        occ[qc].discard(x)
                        bits[qc] ^= 1 << x
                        if royal[qc] == x:
                            royal[qc] = None
                        keys, table = kinds.get(q) or self._tables(q)
                        h_taken ^= keys[x]
                        s_taken += table[x]
                self._stack.append((h, s, state, (saved, taken), memo))
                h ^= h_taken
                s -= s_taken
            else:
                self._stack.append((h, s, state, (saved, None), memo))
            board[to] = new
            occ[c].add(to)
            bits[c] |= 1 << to
            if royal_mover:
                royal[c] = to
            pos._legal = pos._safety = pos._check = pos._key = None
            hands_move = self.drops and (caps or frm is None)
            key: int | None
            if hands_move:
                # a capture or a drop where pieces go to hand (no castling, no en passant
                # in such a game: _plain): the hands and the dropped flags change
                pos.ep = None
                key = self._hand_step(pos, m, frm is None, state, taken)
            elif rights or passed is not None:
                rights, pos.ep, key = self._state_after(pos, memo)
                pos.rights = rights
            else:
                pos.ep = None
                key = self._flipped.get(state)
                if key is None:
                    key = self._flipped_key(pos)
            pos.halfmove = 0 if resets else pos.halfmove + 1
            if side:   # Black moved
                pos.fullmove += 1
            if self.drops and not hands_move:   # the mover did not drop
                pos.dropped = self._dropped_after(pos)
            pos.side = 1 - side
            self.state = key
            self.hash = h ^ state ^ h_mover ^ key
            self.score = s + s_mover
        if self.quick_check:
            # the side now to move was not in check before the move (it was legal); a move
            # touching no square that could decide an attack on its royal gives no check
            side = pos.side
            r = pos.royal[side]
            if r is not None:
                got = self._zones[side].get(r)
                if got is None:
                    them = 1 - side
                    got = self._zones[side][r] = (check_zone(pos.game, them, r),
                                                  check_sources(pos.game, them, r))
                zone, sources = got
                tm = m.touch
                if tm is None:
                    tm = m.touch = touch_mask(m, self._royal_bit)
                hit = tm & zone
                if not hit:
                    pos._check = False
                elif sources is not None:
                    # and of the enemy pieces, only those whose attack a touched square
                    # can decide are looked at
                    them = 1 - side
                    bits = pos.bits
                    found = sources_hit(sources, hit) & bits[them]
                    if not found:
                        pos._check = False
                    else:
                        pos._check = attacked_bits(pos.board, bits[0] | bits[1],
                                                   squares_of_bits(found), r, them)

    def _plain(self, m: Move) -> Plain | Literal[False]:
        """What making m in one step needs, or False where Position.push must make it.
        Plain: an ordinary move (NORMAL) that empties its square and the squares it takes
        and puts its piece (or what it becomes) on its target, which is then empty (as
        every move generator makes them); where pieces go to hand, a capture only in a
        game without castling or en passant, and a drop onto an empty square too
        (``_plain_drop``; the hands after either: ``_hand_step``):
        (from, to, piece, new, captures, the hash's and the score's change for the mover,
        the square passed over by a double step that allows en passant or None, whether
        the 100-ply count starts again, whether the piece is royal)."""
        frm, to, piece, new, caps = m.frm, m.to, m.piece, m.new, m.captures
        if m.kind == DROP and self.drops:
            return self._plain_drop(m)
        if (m.kind != NORMAL or (caps and self.drops and not self._hands_plain) or frm is None
                or new is None or frm == to
                or frm in caps or m.clear != (frm,) + caps or m.put != ((to, new),)
                or piece.royal != new.royal or piece.color != new.color):
            return False
        kinds = self._kinds
        keys_from, table_from = kinds.get(piece) or self._tables(piece)
        keys_to, table_to = kinds.get(new) or self._tables(new)
        ptype = piece.type
        passed = None
        if not caps and ptype.ep_victim:   # as Position._make decides en passant
            geo = piece.game.geometry
            if geo.file_of(frm) == geo.file_of(to) and abs(to - frm) == 2 * geo.width:
                passed = (frm + to) // 2
        return (frm, to, piece, new, caps, keys_from[frm] ^ keys_to[to], table_to[to] - table_from[frm],
                passed, bool(caps) or ptype.pawn, piece.royal)

    def _plain_drop(self, m: Move) -> Plain | Literal[False]:
        """_plain for a drop: the kind put on its square from the hand, nothing emptied,
        the 100-ply count going on (as Position._make counts it)."""
        to, new = m.to, m.new
        if m.frm is not None or m.captures or m.clear or new is None or m.put != ((to, new),):
            return False
        keys_to, table_to = self._kinds.get(new) or self._tables(new)
        return (None, to, new, new, (), keys_to[to], table_to[to], None, False, new.royal)

    def _hand_step(self, pos: Position, m: Move, drop: bool, state: int,
                   taken: list[tuple[int, PieceKind]] | None) -> int:
        """A plain capture's or a drop's hands and dropped flags in a game with hands, set
        on pos as Position._make sets them (pos.side still the mover's), and the state key
        after it: the same from every position of this state with the same thing dropped
        or taken (the rights unchanged, no en passant: _plain), so looked up (``_steps``)
        once worked out."""
        what: object   # the one kind taken, the kinds taken, the kind dropped, or None
        if taken:
            what = taken[0][1] if len(taken) == 1 else tuple(q for _x, q in taken)
        else:
            what = m.new if drop else None
        step = self._steps.get((state, drop, what))
        if step is None:
            hands = pos.hands
            if taken or drop:
                hands = new_hands(pos.game, hands, pos.side, m, [q for _x, q in taken] if taken else [])
            side, d = pos.side, pos.dropped
            dropped = (drop, d[1]) if side == WHITE else (d[0], drop)
            step = (hands, dropped, state_key((1 - side, pos.rights, None, hands, dropped, pos.setup)))
            if len(self._steps) > 100_000:   # a bound for a long-running process
                self._steps.clear()
            self._steps[(state, drop, what)] = step
        pos.hands, pos.dropped, key = step
        return key

    def _stands_after(self, m: Move, memo: Plain, beta: int) -> int | None:
        """The score a horizon child (depth 0) after the plain move m would return by
        standing pat against beta, worked out without making m; None where it would do
        anything else or this cannot tell (the move is then made and the child searched).

        The child, as negamax and quiesce would walk it: two nodes counted; not the 100-ply
        draw nor a repetition; not in check (told by the quick check test alone, as make
        tells it: sound under ``quick_check``); its evaluation at least beta."""
        pos = self.pos
        frm, to, piece, new, caps, h_mover, s_mover, passed, resets, royal_mover = memo
        step = None
        if self.drops and (caps or frm is None):
            # a capture or a drop changes the hands: told here once make has made such a
            # step from this state (_hand_step's cache), else made and searched
            if len(caps) > 1:
                return None
            step = self._steps.get((self.state, frm is None, pos.board[caps[0]] if caps else new))
            if step is None:
                return None
        us = pos.side
        them = 1 - us
        bits, royal = pos.bits, pos.royal
        mine, theirs = bits[us] if frm is None else bits[us] ^ (1 << frm), bits[them]
        s = self.score + s_mover
        h_taken = 0
        if caps:
            board, kinds = pos.board, self._kinds
            for x in caps:
                q = board[x]
                if q is not None:
                    if q.royal:
                        return None
                    if q.color == us:   # a Cyclops's run back takes its own pieces too
                        mine ^= 1 << x
                    else:
                        theirs ^= 1 << x
                    keys, table = kinds.get(q) or self._tables(q)
                    h_taken ^= keys[x]
                    s -= table[x]
        mine |= 1 << to
        ours, r = to if royal_mover else royal[us], royal[them]
        if us == WHITE:
            white = s + self._safety_of(ours, r, mine, theirs)
        else:
            white = s + self._safety_of(r, ours, theirs, mine)
        if self.drops:   # the hands after it
            hands = pos.hands if step is None else step[0]
            white += self._hands_score if hands is self._hands else self.ev.hands_score(hands)
        stand = -white if us == WHITE else white
        if stand < beta:
            return None
        if r is not None:   # in check after m? as make's quick test, or not told here
            got = self._zones[them].get(r)
            if got is None:
                return None
            zone, sources = got
            tm = m.touch
            if tm is None:
                tm = m.touch = touch_mask(m, self._royal_bit)
            hit = tm & zone
            if hit:
                if sources is None:
                    return None
                found = sources_hit(sources, hit) & mine
                if found and self._attacks_after(memo, found, mine | theirs, r, us):
                    return None
        if not resets:
            halfmove = pos.halfmove + 1
            if halfmove >= 100:
                return None
            # a repetition: the child's hash against the line it would have (this
            # position's hash appended)
            key = self._state_after(pos, memo)[2] if step is None else step[2]
            state = self.state
            h = self.hash ^ state ^ h_mover ^ h_taken ^ key
            line = self.line
            for i in range(2, min(len(line) + 1, halfmove + 1) + 1, 2):
                if line[1 - i] == h:
                    return None
        n = self.nodes + 2
        if n > self.node_limit or _clock() >= self.deadline:
            return None   # the child made raises Timeout where it would
        self.nodes = n
        return stand

    def _state_after(self, pos: Position, memo: Plain) -> tuple[frozenset[int], int | None, int]:
        """(castling rights, en passant square, state key) after the plain move of this
        memo, from the position before it (as Position._make decides them)."""
        frm, caps, passed = memo[0], memo[4], memo[7]
        rights = pos.rights
        if rights:
            lost = pos.game.rights_lost_from
            for x in caps if frm is None else (frm,) + caps:
                dead = lost.get(x)
                if dead:
                    rights = rights - dead
        ep = passed if passed is not None and pos.board[passed] is None else None
        if ep is None and rights is pos.rights:
            key = self._flipped.get(self.state)
            return rights, None, self._flipped_key(pos) if key is None else key
        return rights, ep, state_key((1 - pos.side, rights, ep, pos.hands, self._dropped_after(pos), pos.setup))

    def _flipped_key(self, pos: Position) -> int:
        """The state key after a plain move from this position that keeps the castling
        rights and allows no en passant: the side flipped (once per state)."""
        key = self._flipped[self.state] = state_key(
            (1 - pos.side, pos.rights, None, pos.hands, self._dropped_after(pos), pos.setup))
        return key

    def _dropped_after(self, pos: Position) -> tuple[bool, bool]:
        """The dropped flags after a plain move from this position (the mover's cleared)."""
        dropped = pos.dropped
        if not self.drops:
            return dropped
        return (False, dropped[1]) if pos.side == WHITE else (dropped[0], False)

    def _attacks_after(self, memo: Plain, found: int, occupied: int, target: int, by: int) -> bool:
        """Whether, after the plain move of this memo, a piece of colour `by` on one of the
        squares of `found` (bits) attacks target: the move's squares set on the board
        alone for the test (attacked_bits reads no more than the board and `occupied`)."""
        frm, to, piece, new, caps = memo[0], memo[1], memo[2], memo[3], memo[4]
        board = self.pos.board
        squares = squares_of_bits(found)
        before = [(x, board[x]) for x in caps]
        at_to = board[to]
        if frm is not None:   # (a drop)
            board[frm] = None
        for x in caps:
            board[x] = None
        board[to] = new
        try:
            return attacked_bits(board, occupied, squares, target, by)
        finally:
            board[to] = at_to
            for x, q in before:
                board[x] = q
            if frm is not None:
                board[frm] = piece

    def _make_pushed(self, pos: Position, m: Move) -> None:
        """make() for a move that is not plain: Position.push, then the hash and the score
        from its board changes."""
        h = self.hash
        self.line.append(h)
        self._stack.append((h, self.score, self.state, None, None))
        changes = pos.push(m)
        h, s, kinds = h ^ self.state, self.score, self._kinds
        for sq, old, new in changes:
            if old is not None:
                keys, table = kinds.get(old) or self._tables(old)
                h ^= keys[sq]
                s -= table[sq]
            if new is not None:
                keys, table = kinds.get(new) or self._tables(new)
                h ^= keys[sq]
                s += table[sq]
        st = (pos.side, pos.rights, pos.ep, pos.hands, pos.dropped, pos.setup)
        key = _state_keys.get(st)
        if key is None:
            key = state_key(st)
        self.state = key
        self.hash = h ^ key
        self.score = s

    def make_null(self) -> None:
        """Pass the turn (null-move pruning); ``unmake`` restores."""
        pos = self.pos
        self.line.append(self.hash)
        self._stack.append((self.hash, self.score, self.state, None, None))
        pos.push_null()
        state = state_key((pos.side, pos.rights, pos.ep, pos.hands, pos.dropped, pos.setup))
        self.hash ^= self.state ^ state
        self.state = state

    def has_pieces(self) -> bool:
        """Whether the side to move has a piece besides pawns and royals (a null move is
        unsafe without: zugzwang)."""
        board = self.pos.board
        for sq in self.pos.occ[self.pos.side]:
            k = board[sq]
            assert k is not None, "a side's squares are occupied"
            t = k.type
            if not t.pawn and not t.royal:
                return True
        return False

    def unmake(self) -> None:
        self.hash, self.score, self.state, undo, memo = self._stack.pop()
        self.line.pop()
        pos = self.pos
        if memo is None:
            pos.pop()
            return
        # a plain move taken back (make)
        saved, taken = undo   # type: ignore[misc]  # make pushes a plain move's undo with its memo
        frm, to, piece = memo[0], memo[1], memo[2]
        board, occ, bits = pos.board, pos.occ, pos.bits
        c = piece.color
        board[to] = None
        occ[c].discard(to)
        bits[c] ^= 1 << to
        if taken:
            for x, q in reversed(taken):
                board[x] = q
                qc = q.color
                occ[qc].add(x)
                bits[qc] |= 1 << x
        if frm is not None:
            board[frm] = piece
            occ[c].add(frm)
            bits[c] |= 1 << frm
        royal = pos.royal
        (royal[0], royal[1], pos.side, pos.rights, pos.ep, pos.halfmove, pos.fullmove,
         pos.dropped, pos._legal, pos._safety, pos._check, pos._key, pos.hands) = saved

    # --- evaluation --------------------------------------------------------------------
    def evaluate(self) -> int:
        pos = self.pos
        royal, bits = pos.royal, pos.bits
        white = self.score + self._safety_of(royal[0], royal[1], bits[0], bits[1])
        if self.drops:
            hands = pos.hands
            if hands is not self._hands:   # a move changes them only by a capture or a drop
                self._hands, self._hands_score = hands, self.ev.hands_score(hands)
            white += self._hands_score
        return white if pos.side == WHITE else -white

    def gain(self, m: Move) -> int:
        """What a move takes (every captured piece), for ordering."""
        return capture_gain(self.pos.board, self.values, m)

    # --- the tree -------------------------------------------------------------------
    def repeated(self) -> bool:
        """This position occurred before in the game or the search line (a draw to aim at or avoid)."""
        h, line = self.hash, self.line
        n = min(len(line), self.pos.halfmove + 1)
        for i in range(2, n + 1, 2):
            if line[-i] == h:
                return True
        return False

    def terminal(self, ply: int) -> int:
        """The score of a position without legal moves, from the engine's own outcome."""
        out = self.pos.outcome()
        if out is None or out[0] == "1/2-1/2":
            return 0
        winner = WHITE if out[0] == "1-0" else 1 - WHITE
        return MATE - ply if winner == self.pos.side else -(MATE - ply)

    def order(self, moves: Iterable[Move], tt_move: MoveKey | None, ply: int) -> list[Move]:
        """Moves best first: the hash move, captures by what they take (most valuable
        victims, then least valuable attackers), promotions, killers, then by history."""
        taking, quiet = self._split(moves)
        scored = taking + self._quiet_scores(quiet, ply)
        if tt_move is not None:
            for i, (_s, m) in enumerate(scored):
                if m.to == tt_move[2] and move_key(m) == tt_move:
                    scored[i] = (10_000_000, m)
                    break
        scored.sort(key=_first, reverse=True)
        return [m for _s, m in scored]

    def _split(self, moves: Iterable[Move]) -> tuple[list[tuple[int, Move]], list[Move]]:
        """([(score, move)] of the moves that gain something (captures, promotions), best
        first; [the others]), each in generation order."""
        values, board = self.values, self.pos.board
        taking: list[tuple[int, Move]] = []
        quiet: list[Move] = []
        for m in moves:
            if m.captures or m.new is not m.piece:
                g = capture_gain(board, values, m)
                if g > 0:
                    taking.append((1_000_000 + g * 8 - values.get(m.piece.key, 0) // 16, m))
                    continue
            quiet.append(m)
        taking.sort(key=_first, reverse=True)
        return taking, quiet

    def _quiet_scores(self, moves: Iterable[Move], ply: int) -> list[tuple[int, Move]]:
        """[(score, move)]: killers first, then by history (unsorted)."""
        killers = self.killers.get(ply)
        hget = self.history.get
        if not killers:
            return [(hget((m.piece, m.to), 0), m) for m in moves]
        tos = {k[2] for k in killers}
        return [(500_000 if m.to in tos and move_key(m) in killers else hget((m.piece, m.to), 0), m)
                for m in moves]

    def hash_move(self, key: MoveKey) -> Move | None:
        """The remembered best move (a move_key) as a legal move of this position, or None;
        found among its piece's moves alone, so that a cut-off by it costs no full move
        generation."""
        frm = key[1]
        if frm is None or key[0] == CASTLE:
            return None
        pos = self.pos
        for m in pos.piece_moves(frm):
            if m.to == key[2] and move_key(m) == key:
                return m if pos.is_legal(m) else None
        return None

    def ordered(self, tt_move: MoveKey | None, ply: int) -> Iterator[Move]:
        """The legal moves of the node in search order, made lazily and each tested for
        legality only when its turn comes, so that a cut-off costs no more than it needs:
        the hash move (found among its piece's moves); the captures that gain, best first
        (the captures alone generated); the killers (found among their pieces' moves); and
        only then every move generated, the others scored by history and sorted. The
        order is order()'s (but for a quiet promotion, tried after the killers)."""
        pos = self.pos
        if pos.setup is not None:   # set-up actions: every one legal
            yield from self.order(pos.legal_moves(), tt_move, ply)
            return
        if tt_move is not None and (tt_move[1] is None or tt_move[0] == CASTLE):
            yield from self._ordered_after(tt_move, ply)   # a drop or a castling
            return
        is_legal = pos.is_legal
        done: set[MoveKey] = set()    # the keys of the moves tried (or found illegal) before the last stage
        if tt_move is not None:
            first = self.hash_move(tt_move)
            if first is not None:
                yield first
            done.add(tt_move)
        values, board = self.values, pos.board
        taking: list[tuple[int, Move]] = []
        for m in pos.capture_moves():
            g = capture_gain(board, values, m)
            if g > 0:   # as _split scores them
                taking.append((1_000_000 + g * 8 - values.get(m.piece.key, 0) // 16, m))
        if taking:
            taking.sort(key=_first, reverse=True)
            for _s, m in taking:
                key = move_key(m)
                if key not in done:
                    done.add(key)
                    if is_legal(m):
                        yield m
        killers = self.killers.get(ply)
        if killers:
            found: list[tuple[int, int, Move]] = []
            for k in killers:
                frm = k[1]
                if frm is None or k[0] == CASTLE or k in done:
                    continue   # a drop or a castling killer keeps its place in the list
                for i, m in enumerate(pos.piece_moves(frm)):
                    if m.to == k[2] and move_key(m) == k:
                        found.append((frm, i, m))
                        break
            found.sort(key=_generation_order)   # as the sort of order() leaves them
            for _f, _i, m in found:
                done.add(move_key(m))
                if is_legal(m):
                    yield m
        taking, quiet = self._split(pos.candidate_moves())
        tos = {k[2] for k in done}
        for _s, m in taking:
            if not m.captures and not (m.to in tos and move_key(m) in done) and is_legal(m):
                yield m   # a quiet promotion (the captures were tried)
        scored = self._quiet_scores(quiet, ply)
        scored.sort(key=_first, reverse=True)
        for _s, m in scored:
            if not (m.to in tos and move_key(m) in done) and is_legal(m):
                yield m

    def _ordered_after(self, tt_move: MoveKey, ply: int) -> Iterator[Move]:
        """ordered() for a hash move that is a drop or a castling: every move generated,
        the hash move first if it is among them and legal, then order()'s order."""
        pos = self.pos
        is_legal = pos.is_legal
        taking, quiet = self._split(pos.candidate_moves())
        to = tt_move[2]
        first = None
        for m in quiet:
            if m.to == to and move_key(m) == tt_move:
                first = m
                if is_legal(m):
                    yield m
                break
        for _s, m in taking:
            if m is not first and is_legal(m):
                yield m
        scored = self._quiet_scores(quiet, ply)
        scored.sort(key=_first, reverse=True)
        for _s, m in scored:
            if m is not first and is_legal(m):
                yield m

    def negamax(self, depth: int, alpha: int, beta: int, ply: int, null: bool = True) -> int:
        # a node counted (past the deadline or the node budget: unwind), and
        # repeated() inlined: every node passes here
        self.nodes += 1
        if self.nodes > self.node_limit or _clock() >= self.deadline:
            raise Timeout
        pos = self.pos
        if ply:
            halfmove = pos.halfmove
            if halfmove >= 100 and pos.setup is None:
                return 0
            if halfmove:
                # repeated(): every other hash back to the last irreversible move, one C scan
                line = self.line
                if self.hash in line[-2:-min(len(line), halfmove + 1) - 1:-2]:
                    return 0
        in_check = pos.setup is None and pos.in_check()
        if in_check and ply < 40:
            depth += 1
        if depth <= 0:
            return self.quiesce(alpha, beta, ply, 0, in_check)
        entry = self.tt.get(self.hash)
        tt_move = None
        if entry is not None:
            e_depth, e_score, e_flag, tt_move = entry
            if e_depth >= depth and ply:
                e_score = _from_tt(e_score, ply)
                if e_flag == EXACT or (e_flag == LOWER and e_score >= beta) or (e_flag == UPPER and e_score <= alpha):
                    return e_score
        score: int | None
        if (null and self.null_ok and depth >= 3 and ply and not in_check and pos.setup is None
                and abs(beta) < MATE_BOUND and self.evaluate() >= beta and self.has_pieces()):
            # null-move pruning: if passing still holds beta, a real move would too
            self.make_null()
            try:
                score = -self.negamax(depth - 1 - NULL_REDUCTION, -beta, -beta + 1, ply + 1, False)
            finally:
                self.unmake()
            if score >= beta:
                return beta
        alpha0 = alpha
        best_key: MoveKey | None
        best, best_key = -INF, None
        # the children are horizon nodes: one that would stand pat is scored unmade
        leaf = depth == 1 and self.quick_check
        for i, m in enumerate(self.ordered(tt_move, ply)):
            quiet = not m.captures and m.kind != SETUP
            score = None
            if leaf:
                memo: Plain | Literal[False] | None = m.memo
                if memo is None:
                    memo = m.memo = self._plain(m)
                if memo:
                    # both windows a child gets here have -alpha as beta
                    stand = self._stands_after(m, memo, -alpha)
                    if stand is not None:
                        score = -stand   # at most alpha: the window's re-search is not made
            if score is None:
                self.make(m)
                try:
                    if i == 0:
                        score = -self.negamax(depth - 1, -beta, -alpha, ply + 1)
                    else:
                        reduce = 1 if (quiet and depth >= 3 and i >= 4 and not in_check) else 0
                        score = -self.negamax(depth - 1 - reduce, -alpha - 1, -alpha, ply + 1)
                        if score > alpha and (reduce or score < beta):
                            score = -self.negamax(depth - 1, -beta, -alpha, ply + 1)
                finally:
                    self.unmake()
            if score > best:
                best, best_key = score, move_key(m)
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        if quiet:
                            ks = self.killers.setdefault(ply, [])
                            if best_key not in ks:
                                ks.insert(0, best_key)
                                del ks[2:]
                            hk = (m.piece, m.to)
                            self.history[hk] = self.history.get(hk, 0) + depth * depth
                        break
        if best_key is None:   # no legal move
            return self.terminal(ply)
        flag = EXACT if alpha0 < best < beta else (LOWER if best >= beta else UPPER)
        self.store(depth, best, flag, best_key, ply)
        return best

    def store(self, depth: int, score: int, flag: int, key: MoveKey | None, ply: int) -> None:
        if len(self.tt) > TT_LIMIT:
            self.tt.clear()
        self.tt[self.hash] = (depth, _to_tt(score, ply), flag, key)

    def quiesce(self, alpha: int, beta: int, ply: int, qply: int, in_check: bool) -> int:
        """Captures only (every evasion in check). Out of check the side may stand pat, and
        the moves are generated only if it does not: the captures alone, pseudo-legal, each
        tested for legality when its turn comes: most quiescence nodes cost an evaluation,
        not a move generation."""
        self.nodes += 1
        if self.nodes > self.node_limit or _clock() >= self.deadline:
            raise Timeout
        pos = self.pos
        if in_check:
            moves = pos.legal_moves()
            if not moves:
                return self.terminal(ply)
            if qply >= QUIESCENCE_PLIES:
                return self.evaluate()
            best = -INF
            candidates = self.order(moves, None, ply)
        else:
            stand = self.evaluate()
            if stand >= beta or qply >= QUIESCENCE_PLIES:
                return stand
            best = stand
            if stand > alpha:
                alpha = stand
            # delta pruning: a capture that cannot lift the score to alpha even with a
            # margin for what the position gains besides is not looked at
            floor = alpha - stand - DELTA_MARGIN
            values, board = self.values, pos.board
            scored: list[tuple[int, Move]] = []
            for m in pos.capture_moves():
                g = capture_gain(board, values, m)
                if g > floor:   # ordered as order() orders captures
                    scored.append((g * 8 - values.get(m.piece.key, 0) // 16, m))
            if not scored:
                return stand
            scored.sort(key=_first, reverse=True)
            candidates = [m for _s, m in scored]
        for m in candidates:
            if not in_check and not pos.is_legal(m):   # tested only when its turn comes
                continue
            self.make(m)
            try:
                score = -self.quiesce(-beta, -alpha, ply + 1, qply + 1,
                                      pos.setup is None and pos.in_check())
            finally:
                self.unmake()
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best

    def pv(self, first: Move, more: Callable[[], bool] = lambda: True, limit: int = 12) -> list[Move]:
        """The principal variation from the hash table, starting with `first` (moves);
        it stops early when `more()` says there is no time for another step."""
        line, made = [first], 0
        self.make(first)
        made += 1
        seen = {self.hash}
        while len(line) < limit and more():
            entry = self.tt.get(self.hash)
            if entry is None or entry[3] is None:
                break
            moves = {move_key(m): m for m in self.pos.legal_moves()}
            m = moves.get(entry[3])
            if m is None:
                break
            line.append(m)
            self.make(m)
            made += 1
            if self.hash in seen:
                break
            seen.add(self.hash)
        for _ in range(made):
            self.unmake()
        return line


def _to_tt(score: int, ply: int) -> int:
    if score > MATE_BOUND:
        return score + ply
    if score < -MATE_BOUND:
        return score - ply
    return score


def _from_tt(score: int, ply: int) -> int:
    if score > MATE_BOUND:
        return score - ply
    if score < -MATE_BOUND:
        return score + ply
    return score


def _game_hashes(root: Position) -> Iterable[int]:
    """Hashes of the game's positions before root that it could repeat: those since the
    last capture or pawn move (the halfmove count), oldest first."""
    from .zobrist import key_hash
    out: list[int] = []
    cell = root.history
    while cell is not None and len(out) < root.halfmove:
        out.append(key_hash(root.game, cell[0]))
        cell = cell[2]
    return reversed(out)
