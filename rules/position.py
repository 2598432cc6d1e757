"""Positions: move generation, legality, playing moves, game end.

A Position is immutable by convention: ``play`` returns a new one. Legality
follows the contract: a pseudo-legal move is legal when, after it, no enemy
piece could capture the mover's royal. The test is a lookup in the enemy
pieces' attack maps towards the royal's square, and most moves skip even that:
a move that changes no square on any enemy path to the royal (and is not a
royal move, and is not made in check) cannot expose the royal.
"""
from __future__ import annotations

from .errors import GameOverError
from .move import CASTLE, DROP, NORMAL, SETUP, SPAN, Move
from .movegen import LEAPS, RAYS, piece_captures, piece_moves, take_spanning, touch
from .pieces import BLACK, WHITE, COLOR_CHARS


FACING = -1  # marks the squares between royals that the facing rule watches

_CASTLING_PLANS: dict = {}   # game -> per colour: ((castling, squares between as bits), ...)


def _castling_plans(game) -> tuple:
    """Per colour, each castling with the squares between its pieces that must be empty
    (those strictly between the outermost of its four squares, but its King's and Rook's)."""
    got = _CASTLING_PLANS.get(game)
    if got is None:
        got = ([], [])
        for c in game.castlings:
            lo, hi = min(c.king, c.rook, c.king_to, c.rook_to), max(c.king, c.rook, c.king_to, c.rook_to)
            between = 0
            for sq in range(lo + 1, hi):
                if sq not in (c.king, c.rook):
                    between |= 1 << sq
            got[c.color].append((c, between))
        got = _CASTLING_PLANS[game] = (tuple(got[0]), tuple(got[1]))
    return got


def attacked_on(board, squares, target: int, by: int) -> bool:
    """True if a piece of colour `by`, on one of `squares`, could capture on target."""
    occupied = 0
    for s, k in enumerate(board):
        if k is not None:
            occupied |= 1 << s
    return attacked_bits(board, occupied, squares, target, by)


def check_zone(game, by: int, target: int) -> int:
    """The bits of the squares whose contents can decide whether a piece of colour `by`
    attacks target: every square a piece could attack it from (Game.attack_sources)
    and every square on such a piece's ways to it; -1 (every square) where a special
    mover cannot say. A move touching none of them leaves that attack as it was: if
    target was not attacked before, it is not after. Built once per (game, colour, target)."""
    return _zone_and_sources(game, by, target)[0]


def check_sources(game, by: int, target: int):
    """Per square s (a list over the board): the bits of the squares x from which a piece
    of colour `by` could attack target and whose attack can depend on what stands on s
    (x itself included), or None where a special mover cannot say. If target was not
    attacked, after a move touching squares s1, s2 ... only a piece on one of
    sources[s1] | sources[s2] | ... can attack it. Built once per (game, colour, target)."""
    return _zone_and_sources(game, by, target)[1]


def _zone_and_sources(game, by: int, target: int):
    zones = _ZONES.get(game)
    if zones is None:
        zones = _ZONES[game] = ({}, {})
    got = zones[by].get(target)
    if got is None:
        sources = [0] * game.geometry.size
        kinds = game.all_kinds(by)
        for x in game.attack_sources(by, target):
            z = 1 << x
            for k in kinds:
                if k.hook is not None:
                    squares = k.hook.zone(x, k, target)
                    if squares is None:
                        z = -1
                        break
                    for s in squares:
                        z |= 1 << s
                t = k._tables[x] or k.moves_at(x)
                if t._ways is not None:
                    for mask, _hop in t._ways.get(target, ()):
                        z |= mask
                else:   # the ways to this target alone (all of them as bits: a whole table)
                    for squares, _hop in t.attacks.get(target, ()):
                        for s in squares:
                            z |= 1 << s
            if z == -1:
                got = (-1, None)
                break
            bit = 1 << x
            while z:
                low = z & -z
                sources[low.bit_length() - 1] |= bit
                z ^= low
        if got is None:
            zone = 0
            for s, xs in enumerate(sources):
                if xs:
                    zone |= 1 << s
            got = (zone, sources)
        zones[by][target] = got
    return got


_ZONES: dict = {}
_DROP_TABLES: dict = {}   # game -> per colour (its drop zone as bits, {key: drop per square})


def _drop_table(game, color: int):
    """A colour's drop zone as bits and, per piece key held in hand, its drops per square
    (_drop_row: the Moves _drops gives, made once per game)."""
    got = _DROP_TABLES.get(game)
    if got is None:
        got = _DROP_TABLES[game] = [None, None]
    t = got[color]
    if t is None:
        t = got[color] = (sum(1 << sq for sq in game.zone(game.drop_zone, color)), {})
    return t


def _drop_row(game, key: str, color: int) -> list:
    """Per square, the drop of the piece `key` there (None off the drop zone)."""
    row = [None] * game.geometry.size
    for sq in game.zone(game.drop_zone, color):
        row[sq] = _drop_move(game, game.kind(key, color), sq)
    return row


def _drop_move(game, kind, sq: int) -> Move:
    """The drop of kind on sq, made once per game (as the plans' moves are)."""
    made = game.hook_moves
    m = made.get((kind, sq))
    if m is None:
        m = made[(kind, sq)] = Move(DROP, None, sq, kind, kind, (), (), ((sq, kind),))
    return m
_REACH: dict = {}   # plan -> the squares its moves can fill or empty besides its own, as bits


def _plan_reach(game, kind, plan) -> int:
    """The squares a piece's moves from its square can touch besides that square (the
    squares they go to and take on), as bits; -1 (every square) where a move can touch
    others: en passant, a hook's moves, taking a piece that stands on several squares."""
    r = _REACH.get(plan)
    if r is None:
        r = 0
        if kind.hook is not None or game.spans or any(epok for _p, _t, epok in plan.entries):
            r = -1
        else:
            for _p, targets, _e in plan.entries:
                for t, quiet, taking in targets:
                    if quiet or taking:
                        r |= 1 << t
            for (targets,) in plan.hops:
                for t, quiet, taking in targets:
                    if quiet or taking:
                        r |= 1 << t
        _REACH[plan] = r
    return r
_HANDS: dict = {}   # game -> {id(hands): (hands, per side moving {what changes them: hands after})}
_HANDS_MADE: dict = {}   # game -> {hands: the one object of that value}


def squares_of_bits(bits: int) -> list[int]:
    """The squares of a set of bits, lowest first."""
    squares = []
    while bits:
        low = bits & -bits
        squares.append(low.bit_length() - 1)
        bits ^= low
    return squares


def sources_hit(sources, hit: int) -> int:
    """The squares (bits) whose pieces' attack one of the squares of ``hit`` can decide:
    the union of check_sources' entries for them."""
    found = 0
    while hit:
        low = hit & -hit
        found |= sources[low.bit_length() - 1]
        hit ^= low
    return found


def attacked_bits(board, occupied: int, squares, target: int, by: int) -> bool:
    """attacked_on, for a board whose occupied squares are the bits of `occupied`: each
    way is one integer test."""
    for x in squares:
        if x < 0:
            continue
        k = board[x]
        if k is None or k.color != by:
            continue
        if k.hook is not None and k.hook.attacks(board, x, k, target):
            return True
        t = k._tables[x] or k.moves_at(x)
        ways = (t._ways if t._ways is not None else t.ways).get(target)
        if ways:
            for mask, hop in ways:
                o = mask & occupied
                if hop:
                    if o and not o & (o - 1):
                        return True
                elif not o:
                    return True
    return False


class Position:
    __slots__ = ("game", "board", "side", "rights", "ep", "halfmove", "fullmove", "hands",
                 "dropped", "setup", "occ", "bits", "royal", "history", "last_move", "_legal", "_safety", "_check",
                 "_key", "_undo", "_evasion")

    def __init__(self, game, board, side, rights=frozenset(), ep=None, halfmove=0, fullmove=1,
                 hands=((), ()), dropped=(False, False), setup=None, occ=None, royal=None,
                 bits=None):
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
        self.history = None
        self.last_move = None
        self._legal = None
        self._safety = None
        self._check = None
        self._key = None
        self._undo = None           # push/pop records (searchers), made on the first push
        self._evasion = None        # (the safety it was made from, _evasion_gate's answer)

    # --- public views --------------------------------------------------------

    @property
    def turn(self) -> str:
        return COLOR_CHARS[self.side]

    def piece_at(self, square):
        sq = self.game.geometry.parse_square(square) if isinstance(square, str) else square
        return self.board[sq]

    def pieces(self) -> dict:
        names = self.game.geometry.names
        return {names[sq]: k for sq, k in enumerate(self.board) if k is not None}

    def hand(self, color: str | int) -> dict[str, int]:
        c = COLOR_CHARS.index(color) if isinstance(color, str) else color
        return dict(self.hands[c])

    def royal_square(self, color: str | int | None = None):
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

    def safety(self):
        """What legality needs to know of the side to move's royal, once per position:
        (in_check, gate, sensitive, ways, check_mask, checkers), squares as bits.

        sensitive: every square on any enemy way to our royal (FACING's: the squares
        between facing-rule royals), or None to mean "look at every move in full"; gate:
        the part of it a move emptying at most one square must touch to matter - the one
        piece standing on a way that only it blocks (a pin), every square of a hopper's or
        a hook's way, FACING's squares; ways: (enemy square or FACING, its ways' squares)
        per such piece; check_mask: the checking pieces' squares and their ways' squares
        (a move that touches none of them leaves the check standing); checkers: their
        squares.
        """
        if self._safety is None:
            us, them = self.side, 1 - self.side
            r = self.royal[us]
            board = self.board
            check, sens, gate, everything = False, 0, 0, False
            ways, cmask, checkers = [], 0, []
            occupied = self.bits[0] | self.bits[1]
            if r is not None:
                for x in self.attacker_squares(r, them):
                    k = board[x]
                    if k.hook is not None:
                        w = k.hook.watch(board, x, k, r)
                        if w is None:
                            everything = True
                        else:
                            wm = 0
                            for s in w:
                                wm |= 1 << s
                            if wm:
                                sens |= wm
                                gate |= wm
                                ways.append((x, wm))
                            if k.hook.attacks(board, x, k, r):
                                check = True
                                cmask |= wm | (1 << x)
                                checkers.append(x)
                    t = k._tables[x] or k.moves_at(x)
                    wm = (t._reach if t._reach is not None else t.reach).get(r)
                    if wm is None:
                        continue
                    if wm:
                        sens |= wm
                        ways.append((x, wm))
                    gives = False
                    for mask, hop in (t._ways if t._ways is not None else t.ways)[r]:
                        o = mask & occupied
                        if hop:
                            gate |= mask
                            if o and not o & (o - 1):
                                gives = True
                        elif not o:
                            gives = True
                        elif not o & (o - 1):
                            gate |= o   # the one piece on this way: a pin
                    if gives:
                        check = True
                        cmask |= wm | (1 << x)
                        checkers.append(x)
                if self.game.facing_royals:
                    # a move that is not the royal's can make the royals face only by
                    # emptying a square between them on their common file
                    other, w = self.royal[them], self.game.geometry.width
                    if other is not None and (other - r) % w == 0:
                        wm = self.game.file_between(r, other)
                        o = wm & occupied
                        if not o:
                            everything = True  # facing already: every move is looked at
                        else:
                            sens |= wm
                            ways.append((FACING, wm))
                            if not o & (o - 1):
                                gate |= o   # only one piece keeps them apart
            self._safety = (check, gate, None if everything else sens, ways, cmask, checkers)
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
        return sorted(x for x in self.occ[them] if attacked_on(self.board, (x,), r, them))

    # --- move generation -----------------------------------------------------
    def pseudo_moves(self):
        """Every pseudo-legal move of the side to move (set-up actions during set-up)."""
        if self.setup is not None:
            yield from self.game.extension.setup_moves(self)
            return
        yield from self._pseudo_list()

    def _pseudo_list(self) -> list[Move]:
        # the walks of rules.movegen.piece_moves inlined for the common plans (this is
        # the engine's innermost loop); the others call it
        out = []
        board = self.board
        color = self.side
        game = self.game
        spans = game.spans
        for sq in sorted(self.occ[color]):
            k = board[sq]
            plan = k._plans[sq] or k.plan_at(sq)
            mode = plan.mode
            if mode == LEAPS:
                for t, quiet, taking in plan.flat:
                    q = board[t]
                    if q is None:
                        if quiet:
                            out += quiet
                    elif taking and q.color != color:
                        if spans and q.hook is not None and q.hook.span > 1:
                            out += take_spanning(game, board, sq, k, t, q)
                        else:
                            out += taking
            elif mode == RAYS:
                for targets in plan.rays:
                    for t, quiet, taking in targets:
                        q = board[t]
                        if q is None:
                            if quiet:
                                out += quiet
                            continue
                        if taking and q.color != color:
                            if spans and q.hook is not None and q.hook.span > 1:
                                out += take_spanning(game, board, sq, k, t, q)
                            else:
                                out += taking
                        break
            else:
                piece_moves(self, out, sq, k, plan)
        if self.rights:
            out += self._castlings()
        if game.drop_zone is not None:
            out += self._drops()
        return out

    def piece_moves(self, sq: int) -> list[Move]:
        """The pseudo-legal moves of the piece on sq (castlings aside), in the order
        pseudo_moves gives them: a searcher checks a remembered move with it."""
        k = self.board[sq]
        out = []
        if k is not None and k.color == self.side and self.setup is None:
            piece_moves(self, out, sq, k, k._plans[sq] or k.plan_at(sq))
        return out

    def capture_moves(self) -> list[Move]:
        """The pseudo-legal moves that take something (the same Move objects, in the same
        order, as pseudo_moves gives them): quiescence searches look at no other."""
        if self.setup is not None:
            return [m for m in self.game.extension.setup_moves(self) if m.captures]
        out = []
        board = self.board
        # a piece none of whose capture squares holds an enemy (or is the en passant
        # square) is passed over at once
        color = self.side
        prey = self.bits[1 - color] | (0 if self.ep is None else 1 << self.ep)
        spans = self.game.spans
        for sq in sorted(self.occ[color]):
            k = board[sq]
            plan = k._plans[sq] or k.plan_at(sq)
            if not plan.prey & prey:
                continue
            mode = plan.mode
            if mode == LEAPS:   # piece_captures' walk, inlined
                for t, _quiet, taking in plan.flat:
                    q = board[t]
                    if q is not None and taking and q.color != color:
                        if spans and q.hook is not None and q.hook.span > 1:
                            out += take_spanning(self.game, board, sq, k, t, q)
                        else:
                            out += taking
            elif mode == RAYS:
                for targets in plan.rays:
                    for t, _quiet, taking in targets:
                        q = board[t]
                        if q is not None:
                            if taking and q.color != color:
                                if spans and q.hook is not None and q.hook.span > 1:
                                    out += take_spanning(self.game, board, sq, k, t, q)
                                else:
                                    out += taking
                            break
            else:
                piece_captures(self, out, sq, k, plan)
        return out

    def _castlings(self) -> list:
        out = []
        game = self.game
        rights = self.rights
        if not rights:
            return out
        if game.castlings:
            us, them = self.side, 1 - self.side
            board = self.board
            occupied = self.bits[0] | self.bits[1]
            for c, between in _castling_plans(game)[us]:
                if c.rook not in rights or between & occupied:
                    continue
                king, rook = board[c.king], board[c.rook]
                if king is None or not king.royal or rook is None or rook.color != us:
                    continue
                if self.in_check():
                    continue
                step = 1 if c.king_to > c.king else -1
                if any(self.is_attacked(s, them) for s in range(c.king + step, c.king_to + step, step)):
                    continue
                key = ("castle", c.king, c.king_to, c.rook, c.rook_to, king, rook)   # made once, as plans' moves are
                m = game.hook_moves.get(key)
                if m is None:
                    m = game.hook_moves[key] = Move(CASTLE, c.king, c.king_to, king, king, (), (c.king, c.rook),
                                                    ((c.king_to, king), (c.rook_to, rook)))
                out.append(m)
        if game.jump is not None:
            out += game.jump.moves(self)
        return out

    def _drops(self):
        game = self.game
        if game.drop_zone is None or self.dropped[self.side] or not self.hands[self.side]:
            return
        zone = sorted(game.zone(game.drop_zone, self.side))
        board = self.board
        for key, _count in self.hands[self.side]:
            kind = game.kind(key, self.side)
            for sq in zone:
                if board[sq] is None:
                    yield _drop_move(game, kind, sq)

    def _drops_onto(self, mask: int) -> list:
        """The drops onto the squares of mask, in _drops' order (by the hand's order, then
        by square): in check, those that can block it."""
        game = self.game
        side = self.side
        if game.drop_zone is None or self.dropped[side] or not self.hands[side]:
            return []
        zone, drops = _drop_table(game, side)
        bits = self.bits
        free = zone & mask & ~(bits[0] | bits[1])
        if not free:
            return []
        squares = squares_of_bits(free)
        out = []
        for key, _count in self.hands[side]:
            row = drops.get(key)
            if row is None:
                row = drops[key] = _drop_row(game, key, side)
            out += [row[sq] for sq in squares]
        return out

    def legal_moves(self) -> list[Move]:
        if self._legal is None:
            if self.setup is not None:
                self._legal = list(self.pseudo_moves())
            else:
                self._legal = self.legal_among(self.candidate_moves())
        return self._legal

    def candidate_moves(self) -> list[Move]:
        """The pseudo-legal moves that legality cannot rule out at a glance, in the order
        _pseudo_list gives them: out of check every one; in check (where legal_among keeps
        only moves touching a checker's square or ways, or the royal's) only the royal's
        moves, those of the pieces standing on such a square or able to reach one, and
        the drops onto one. The legal moves among them are the position's legal moves."""
        check, _gate, sens, _ways, cmask, _checkers = self._safety or self.safety()
        if not check or sens is None:
            return self._pseudo_list()
        out = []
        board = self.board
        game = self.game
        reach = _REACH
        for sq in sorted(self.occ[self.side]):
            k = board[sq]
            plan = k._plans[sq] or k.plan_at(sq)
            r = reach.get(plan)
            if r is None:
                r = _plan_reach(game, k, plan)
            if r & cmask or (1 << sq) & cmask or k.royal:
                piece_moves(self, out, sq, k, plan)
        if self.rights:
            out += self._castlings()
        if game.drop_zone is not None:
            out += self._drops_onto(cmask)
        return out

    def legal_among(self, moves) -> list[Move]:
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
        out = []
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

    def _legal_in_check(self, m, tm, rb, ways, checkers) -> bool:
        """In check, whether a move touching a checker's square or ways (or the royal's) is
        legal. A move that is not the royal's, fills one square (its target), empties at
        most one and touches no square of the other enemy pieces' gate (their pins and
        hoppers' ways, the facing squares): after it no enemy piece but the checkers can
        attack the royal (safety's reasoning), so only their ways are looked at, on the
        occupancy after it, nothing made. The others are tested in full."""
        if not tm & rb:
            got = self._evasion
            if got is None or got[0] is not self._safety:
                got = self._evasion = (self._safety, self._evasion_gate())
            gate = got[1]
            if gate is not None and not tm & gate:
                put = m.put
                if len(put) == 1 and not put[0][1].royal:
                    bits = self.bits
                    after = ((bits[0] | bits[1]) & ~tm) | (1 << put[0][0])
                    caps = m.captures
                    # the checkers it does not take stand where they stood
                    standing = [x for x in checkers if x not in caps]
                    return not (standing and attacked_bits(self.board, after, standing,
                                                           self.royal[self.side], 1 - self.side))
        return self._legal_touched(m, tm, rb, ways, checkers)

    def _evasion_gate(self):
        """What _legal_in_check needs of a position in check: the squares a move judged
        there must not touch - the gate of the enemy pieces that do not give check (a
        single blocker of one of their ways, a hopper's whole way), the facing rule's
        single blocker, and the bit of a move emptying several squares; None in a game
        with special movers."""
        check, _gate, sens, ways, _cmask, checkers = self._safety
        if not check or sens is None or self.game.movers:
            return None
        r = self.royal[self.side]
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
            t = k._tables[x] or k.moves_at(x)
            for mask, hop in (t._ways if t._ways is not None else t.ways)[r]:
                if hop:
                    others |= mask
                else:
                    o = mask & occupied
                    if not o & (o - 1):
                        others |= o
        return others

    def _legal_touched(self, m, tm, rb, ways, checkers) -> bool:
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
        attackers = self.occ[them] & self.game.attack_sources(them, to)
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

    def _legal_after(self, m: Move, attackers) -> bool:
        """Whether, after m, none of these enemy pieces (None: any) could take our royal
        (made on the board in place and taken back)."""
        us, them = self.side, 1 - self.side
        board = self.board
        bits = self.bits
        occupied = bits[0] | bits[1]
        undo = []
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
    def apply(self, m: Move) -> "Position":
        """The position after a pseudo-legal move, without checking it (engine use)."""
        child = Position(self.game, self.board.copy(), self.side, self.rights, self.ep, self.halfmove,
                         self.fullmove, self.hands, self.dropped, self.setup,
                         [set(self.occ[0]), set(self.occ[1])], list(self.royal), list(self.bits))
        child._make(m, [])
        return child

    def _make(self, m: Move, changes: list) -> None:
        """Make m in place: its board effect (clear, then put) on the board, the occupancy
        (sets and bits) and the royal squares, each change noted in ``changes`` as (square,
        before, after); then the state after it. No caches are touched (push does that)."""
        board, occ, bits, royal = self.board, self.occ, self.bits, self.royal
        caps = m.captures
        captured = []
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
            if geo.file_of(m.frm) == geo.file_of(m.to) and abs(m.to - m.frm) == 2 * geo.width:
                mid = (m.frm + m.to) // 2
                if board[mid] is None:
                    self.ep = mid
        if game.drop_zone is not None:
            drop = kind == DROP
            if captured or drop:
                self.hands = self._new_hands(m, captured)
            dropped = self.dropped
            self.dropped = (drop, dropped[1]) if us == WHITE else (dropped[0], drop)
        self.halfmove = 0 if caps or (normal and ptype.pawn) else self.halfmove + 1
        if us == BLACK:
            self.fullmove += 1
        self.side = 1 - us
        self.setup = None

    # --- make / unmake in place (search use) ----------------------------------------
    def push(self, m: Move) -> list:
        """Make a pseudo-legal move on this position in place; ``pop`` undoes it.

        For searchers that walk a tree on one position instead of copying a board
        per node. Returns the board changes as (square, before, after) in order.
        ``history`` and ``last_move`` are left alone: a searcher keeps its own line.
        """
        royal = self.royal
        saved = (royal[0], royal[1], self.side, self.rights, self.ep, self.halfmove,
                 self.fullmove, self.hands, self.dropped, self.setup, self._legal,
                 self._safety, self._check, self._key)
        changes = []
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

    def _new_hands(self, m: Move, captured):
        """The hands after a drop or a capture (the same few come back in a search: each
        made once per game, one object per value). Looked up by the hands' identity and the
        side, then by the one kind taken or dropped: no tuple of tuples hashed."""
        hands = self.hands
        game = self.game
        made = _HANDS.get(game)
        if made is None:
            made = _HANDS[game] = {}
        got = made.get(id(hands))
        if got is None or got[0] is not hands:   # held in the entry: its id stays its own
            if len(made) > 100_000:   # a bound for a long-running process
                made.clear()
            got = made[id(hands)] = (hands, ({}, {}))
        drop = m.kind == DROP
        if not drop and len(captured) == 1:
            key = captured[0]
        elif drop and not captured:
            key = (m.new,)
        else:
            key = (m.new if drop else None, tuple(captured))
        transitions = got[1][self.side]
        after = transitions.get(key)
        if after is None:
            after = self._hands_after(m, captured)
            values = _HANDS_MADE.get(game)
            if values is None or len(values) > 100_000:
                values = _HANDS_MADE[game] = {}
            after = transitions[key] = values.setdefault(after, after)
        return after

    def _hands_after(self, m: Move, captured):
        order = self.game.drop_order
        us = self.side
        mine = dict(self.hands[us])
        if m.kind == DROP:
            mine[m.new.key] -= 1
            if not mine[m.new.key]:
                del mine[m.new.key]
        for q in captured:
            base = q.type.code
            mine[base] = mine.get(base, 0) + 1
        packed = tuple(sorted(mine.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order else 99))
        return (packed, self.hands[1]) if us == WHITE else (self.hands[0], packed)

    def play(self, move) -> "Position":
        """The position after a legal move (a Move or any accepted text)."""
        if isinstance(move, Move):
            legal = {m.lan: m for m in self.legal_moves()}
            if move.lan not in legal:
                if self.outcome() is not None:
                    raise GameOverError(f"the game is over ({self.outcome()[1]})")
                from .notation import explain_illegal
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
        from .notation import parse_move
        return parse_move(self, text)

    def san(self, move) -> str:
        from .notation import san
        if not isinstance(move, Move):
            move = self.parse(move)
        return san(self, move)

    def fen(self) -> str:
        from .vfen import write_fen
        return write_fen(self)

    def moves_from(self, square) -> list[Move]:
        """The legal moves of the piece on a square (a Wall from either of its squares)."""
        sq = self.game.geometry.parse_square(square) if isinstance(square, str) else square
        return [m for m in self.legal_moves() if m.frm == sq or (m.kind == SPAN and sq in m.clear[:2])]

    # --- game end ----------------------------------------------------------------
    def ep_square(self):
        """The en passant square as VFEN writes it: only if a capture onto it is pseudo-legal."""
        if self.ep is None:
            return None
        for m in self.pseudo_moves():
            if m.ep:
                return self.ep
        return None

    def key(self):
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
        out, cell = [], self.history
        while cell is not None:
            out.append(cell[1])
            cell = cell[2]
        return out[::-1]

    def outcome(self):
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

    def __repr__(self):
        return f"Position({self.game.id!r}, {self.fen()!r})"

