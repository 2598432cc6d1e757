"""Move generation from per-(kind, square) plans: every ordinary move made once.

A piece kind's move tables (``tables.SquareMoves``) say where it may go; its *plan* on a
square goes one step further and holds the ``Move`` objects themselves: for each square
of each ray, the moves to it when it is empty and the moves capturing there (promotions
and state choices expanded), built the first time the kind stands there and shared by
every position of the process. Generating a position's moves is then a walk over the
rays that looks at the board and appends ready moves: no Move is made per node except
for the dynamic ones (en passant, taking a piece on several squares, hooks, castling,
drops).

Each move also carries its *touch mask*: the bits of the squares it empties or fills,
plus ``royal_bit`` (one past the board) for a royal's move and the bit after it for a
move that empties more than its own square. Legality compares it with the position's
sensitive-square masks (``Position.safety``) in one integer operation.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TypeAlias

from .attacks import squares_of_bits
from .game import Castling, Game, PositionView
from .pieces import (
    CASTLE,
    DROP,
    GENERAL,
    LEAPS,
    NORMAL,
    RAYS,
    SPECIAL,
    TURN,
    Board,
    Move,
    PieceKind,
    Plan,
    PlanEntry,
    Target,
)

__all__ = ["Plan", "LEAPS", "RAYS", "GENERAL", "SPECIAL", "plan_at", "build_plan", "expand",
           "take_spanning", "touch_mask", "touch", "piece_moves", "piece_captures", "pseudo_list",
           "capture_list", "candidate_list", "castling_moves", "drop_moves", "drops_onto",
           "castling_plans", "drop_table", "drop_move", "drop_row", "plan_reach"]


def expand(game: Game, board: Sequence[PieceKind | None], sq: int, k: PieceKind, to: int,
           captures: tuple[int, ...], ep: bool = False, clear: tuple[int, ...] | None = None) -> list[Move]:
    """The moves of the kind k from sq to `to` taking `captures`: one per promotion
    choice and new state. A capture of one square of a piece on several (a Wall) takes
    all of it."""
    if captures:
        for c in captures:
            q = board[c]
            if q is not None and q.hook is not None and q.hook.span > 1:
                extra = tuple(s for s in q.hook.linked(board, c, q) if s not in captures)
                if extra:
                    captures = captures + extra
                    clear = None if clear is None else clear + extra
    t = k.type
    promo = t.promotion
    choices = None
    if promo is not None:
        if promo.on_capture:
            if captures:
                choices = promo.to
        elif game.relative_rank(to, k.color) in promo.ranks:
            choices = promo.to
    if choices:
        return [Move(NORMAL, sq, to, k, nk, captures, clear)
                for key in choices for nk in game.state_kinds(key, k.color)]
    if k.stateful:
        return [Move(NORMAL, sq, to, k, nk, captures, clear) for nk in game.state_kinds(t.key, k.color)]
    return [Move(NORMAL, sq, to, k, k, captures, clear, ep=ep)]


def take_spanning(game: Game, board: Sequence[PieceKind | None], sq: int, k: PieceKind, t: int,
                  q: PieceKind) -> tuple[Move, ...]:
    """The moves of the kind k from sq taking q on t, q a piece standing on several
    squares (a Wall): what expand gives, made once per squares taken and shared."""
    assert q.hook is not None, "only a special mover's piece stands on several squares"
    key = ("span", k, sq, t, q.hook.linked(board, t, q))
    got = game.hook_moves.get(key)
    if got is None:
        got = game.hook_moves[key] = tuple(expand(game, board, sq, k, t, (t,)))
    return got


def touch_mask(m: Move, royal_bit: int) -> int:
    """The bits of the squares a move empties or fills; and royal_bit for a royal's move,
    the next bit (``royal_bit << 1``) for a move that leaves more than one square empty
    (en passant, a Wall, a Cyclops run, a shot): only such a move can open an enemy way
    to the royal that two pieces block."""
    mask = royal_bit if m.piece.royal else 0
    emptied = set(m.clear)
    for s in m.clear:
        mask |= 1 << s
    for s, _k in m.put:
        mask |= 1 << s
        emptied.discard(s)
    if len(emptied) > 1:
        mask |= royal_bit << 1
    return mask


def touch(m: Move, royal_bit: int) -> int:
    """A move's touch mask, computed once."""
    t = m.touch
    if t is None:
        t = m.touch = touch_mask(m, royal_bit)
    return t


def plan_at(game: Game, kind: PieceKind, sq: int) -> Plan:
    """The kind's plan on sq (its game: game), made the first time it is asked for."""
    p = kind._plans[sq]
    if p is None:
        p = kind._plans[sq] = build_plan(game, kind, sq)
    return p


def build_plan(game: Game, kind: PieceKind, sq: int) -> Plan:
    sm = kind.moves_at(sq)
    empty: Board = [None] * game.geometry.size
    royal_bit = game.royal_bit
    parts = game.move_parts

    def ready(moves: list[Move]) -> tuple[Move, ...]:
        for m in moves:
            m.touch = touch_mask(m, royal_bit)
            # the tuples many moves have alike are held once (a game holds ~10^5 moves)
            m.captures = parts.setdefault(m.captures, m.captures)
            m.clear = parts.setdefault(m.clear, m.clear)
            m.put = parts.setdefault(m.put, m.put)
        return tuple(moves)

    def target(t: int, mv: bool, cap: bool) -> Target:
        quiet = ready(expand(game, empty, sq, kind, t, ())) if mv else ()
        taking = ready(expand(game, empty, sq, kind, t, (t,))) if cap else ()
        return (t, quiet, taking)

    entries: tuple[PlanEntry, ...] = tuple((prefix, tuple(target(t, mv, cap) for t in ray), epok)
                                          for prefix, ray, mv, cap, epok in sm.entries)
    hops = tuple((tuple(target(t, mv, cap) for t in ray),) for ray, mv, cap in sm.hops)
    turns: tuple[Move, ...] = ()
    if kind.stateful:
        turns = ready([Move(TURN, sq, sq, kind, nk, (), (), ((sq, nk),))
                       for nk in game.state_kinds(kind.key, kind.color) if nk is not kind])
    return Plan(entries, hops, turns, sm.overlap, special=kind.hook is not None)


def piece_moves(pos: PositionView, out: list[Move], sq: int, k: PieceKind, plan: Plan) -> None:
    """Append the pseudo-legal moves of the kind k on sq (its plan's, then its hook's
    and its turns) to out, in the order of its tables."""
    board = pos.board
    color = k.color
    if plan.overlap:
        _piece_moves_overlapping(pos, out, sq, k, plan)
    else:
        for prefix, targets, epok in plan.entries:
            for p in prefix:
                if board[p] is not None:
                    break
            else:
                for t, quiet, taking in targets:
                    q = board[t]
                    if q is None:
                        if quiet:
                            out += quiet
                        elif epok and t == pos.ep:
                            out += _en_passant(pos, sq, k, t)
                        continue
                    if taking and q.color != color:
                        if q.hook is not None and q.hook.span > 1:
                            out += take_spanning(pos.game, board, sq, k, t, q)
                        else:
                            out += taking
                    break
        for (targets,) in plan.hops:
            screened = False
            for t, quiet, taking in targets:
                q = board[t]
                if not screened:
                    if q is not None:
                        screened = True
                    continue
                if q is None:
                    if quiet:
                        out += quiet
                    continue
                if taking and q.color != color:
                    out += taking
                break
    if k.hook is not None:
        _hook_moves(pos, out, sq, k)
    if plan.turns:
        out += plan.turns


def piece_captures(pos: PositionView, out: list[Move], sq: int, k: PieceKind, plan: Plan) -> None:
    """Append only the captures among the kind k's pseudo-legal moves from sq (the same
    moves piece_moves gives that take something, in the same order)."""
    if k.hook is not None:
        mine: list[Move] = []
        piece_moves(pos, mine, sq, k, plan)
        out += [m for m in mine if m.captures]
        return
    if plan.taking_overlap:
        _piece_moves_overlapping(pos, out, sq, k, plan, captures_only=True)
        return
    board = pos.board
    color = k.color
    for prefix, targets, epok in plan.taking_entries:
        for p in prefix:
            if board[p] is not None:
                break
        else:
            for t, quiet, taking in targets:
                q = board[t]
                if q is None:
                    if not quiet and epok and t == pos.ep:
                        out += _en_passant(pos, sq, k, t)
                    continue
                if taking and q.color != color:
                    if q.hook is not None and q.hook.span > 1:
                        out += take_spanning(pos.game, board, sq, k, t, q)
                    else:
                        out += taking
                break
    for (targets,) in plan.hops:
        screened = False
        for t, _quiet, taking in targets:
            q = board[t]
            if not screened:
                if q is not None:
                    screened = True
                continue
            if q is not None:
                if taking and q.color != color:
                    out += taking
                break


def _en_passant(pos: PositionView, sq: int, k: PieceKind, t: int) -> list[Move]:
    victim = t + pos.game.geometry.width * (1 if k.color == 1 else -1)
    return expand(pos.game, pos.board, sq, k, t, (victim,), ep=True)


def _hook_moves(pos: PositionView, out: list[Move], sq: int, k: PieceKind) -> None:
    game, board = pos.game, pos.board
    made = game.hook_moves
    assert k.hook is not None, "only a special mover's piece has hook moves"
    for m in k.hook.pseudo_moves(pos, sq, k):
        if m.new is None:
            if game.spans:   # what a capture takes depends on the board (a whole Wall)
                out += expand(game, board, sq, k, m.to, m.captures, clear=m.clear)
                continue
            # expanded over states and promotions once, as the plans' moves are: the same
            # hook move comes back in many positions (a Cyclops run)
            key = (k, sq, m.to, m.captures, m.clear)
            got = made.get(key)
            if got is None:
                got = made[key] = tuple(expand(game, board, sq, k, m.to, m.captures, clear=m.clear))
            out += got
        else:
            out.append(m)


def _piece_moves_overlapping(pos: PositionView, out: list[Move], sq: int, k: PieceKind, plan: Plan,
                             captures_only: bool = False) -> None:
    """As piece_moves, for a piece two of whose ways reach one square: each square is
    given once (a Mini-rose's paths cross; a cannon's slide and hop share squares).
    captures_only: the captures alone (a square taken on was never an empty one, so
    the squares the quiet moves reach do not matter to them)."""
    board = pos.board
    color = k.color
    seen: set[int] = set()
    for prefix, targets, epok in (plan.taking_entries if captures_only else plan.entries):
        for p in prefix:
            if board[p] is not None:
                break
        else:
            for t, quiet, taking in targets:
                q = board[t]
                if q is None:
                    if quiet:
                        if not captures_only and t not in seen:
                            seen.add(t)
                            out += quiet
                    elif epok and t == pos.ep:
                        out += _en_passant(pos, sq, k, t)
                    continue
                if taking and q.color != color and t not in seen:
                    seen.add(t)
                    if q.hook is not None and q.hook.span > 1:
                        out += take_spanning(pos.game, board, sq, k, t, q)
                    else:
                        out += taking
                break
    for (targets,) in plan.hops:
        screened = False
        for t, quiet, taking in targets:
            q = board[t]
            if not screened:
                if q is not None:
                    screened = True
                continue
            if q is None:
                if quiet and not captures_only and t not in seen:
                    out += quiet
                continue
            if taking and q.color != color and t not in seen:
                seen.add(t)
                out += taking
            break


# --- a position's moves: the walks over its pieces' plans, castlings, drops ------------------

def pseudo_list(pos: PositionView) -> list[Move]:
    # the walks of rules.movegen.piece_moves inlined for the common plans (this is
    # the engine's innermost loop); the others call it
    out: list[Move] = []
    board = pos.board
    color = pos.side
    game = pos.game
    spans = game.spans
    for sq in sorted(pos.occ[color]):
        k = board[sq]
        assert k is not None
        plan = k._plans[sq] or plan_at(game, k, sq)
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
            piece_moves(pos, out, sq, k, plan)
    if pos.rights:
        out += castling_moves(pos)
    if game.drop_zone is not None:
        out += drop_moves(pos)
    return out


def capture_list(pos: PositionView) -> list[Move]:
    """The pseudo-legal moves that take something (the same Move objects, in the same
    order, as pseudo_moves gives them): quiescence searches look at no other."""
    if pos.setup is not None:
        return [m for m in pos.game.extension.setup_moves(pos) if m.captures]
    out: list[Move] = []
    board = pos.board
    # a piece none of whose capture squares holds an enemy (or is the en passant
    # square) is passed over at once
    color = pos.side
    prey = pos.bits[1 - color] | (0 if pos.ep is None else 1 << pos.ep)
    spans = pos.game.spans
    for sq in sorted(pos.occ[color]):
        k = board[sq]
        assert k is not None
        plan = k._plans[sq] or plan_at(pos.game, k, sq)
        if not plan.prey & prey:
            continue
        mode = plan.mode
        if mode == LEAPS:   # piece_captures' walk, inlined
            for t, _quiet, taking in plan.flat:
                q = board[t]
                if q is not None and taking and q.color != color:
                    if spans and q.hook is not None and q.hook.span > 1:
                        out += take_spanning(pos.game, board, sq, k, t, q)
                    else:
                        out += taking
        elif mode == RAYS:
            for targets in plan.rays:
                for t, _quiet, taking in targets:
                    q = board[t]
                    if q is not None:
                        if taking and q.color != color:
                            if spans and q.hook is not None and q.hook.span > 1:
                                out += take_spanning(pos.game, board, sq, k, t, q)
                            else:
                                out += taking
                        break
        else:
            piece_captures(pos, out, sq, k, plan)
    return out


def castling_moves(pos: PositionView) -> list[Move]:
    out: list[Move] = []
    game = pos.game
    rights = pos.rights
    if not rights:
        return out
    if game.castlings:
        us, them = pos.side, 1 - pos.side
        board = pos.board
        occupied = pos.bits[0] | pos.bits[1]
        for c, between in castling_plans(game)[us]:
            if c.rook not in rights or between & occupied:
                continue
            king, rook = board[c.king], board[c.rook]
            if king is None or not king.royal or rook is None or rook.color != us:
                continue
            if pos.in_check():
                continue
            step = 1 if c.king_to > c.king else -1
            if any(pos.is_attacked(s, them) for s in range(c.king + step, c.king_to + step, step)):
                continue
            key = ("castle", c.king, c.king_to, c.rook, c.rook_to, king, rook)   # made once, as plans' moves are
            m = game.made_moves.get(key)
            if m is None:
                m = game.made_moves[key] = Move(CASTLE, c.king, c.king_to, king, king, (), (c.king, c.rook),
                                                ((c.king_to, king), (c.rook_to, rook)))
            out.append(m)
    if game.jump is not None:
        out += game.jump.moves(pos)
    return out


def drop_moves(pos: PositionView) -> Iterator[Move]:
    game = pos.game
    if game.drop_zone is None or pos.dropped[pos.side] or not pos.hands[pos.side]:
        return
    zone = sorted(game.zone(game.drop_zone, pos.side))
    board = pos.board
    for key, _count in pos.hands[pos.side]:
        kind = game.kind(key, pos.side)
        for sq in zone:
            if board[sq] is None:
                yield drop_move(game, kind, sq)


def drops_onto(pos: PositionView, mask: int) -> list[Move]:
    """The drops onto the squares of mask, in _drops' order (by the hand's order, then
    by square): in check, those that can block it."""
    game = pos.game
    side = pos.side
    if game.drop_zone is None or pos.dropped[side] or not pos.hands[side]:
        return []
    zone, drops = drop_table(game, side)
    bits = pos.bits
    free = zone & mask & ~(bits[0] | bits[1])
    if not free:
        return []
    squares = squares_of_bits(free)
    out: list[Move] = []
    for key, _count in pos.hands[side]:
        row = drops.get(key)
        if row is None:
            row = drops[key] = drop_row(game, key, side)
        out += [m for m in (row[sq] for sq in squares) if m is not None]
    return out


def candidate_list(pos: PositionView) -> list[Move]:
    """The pseudo-legal moves that legality cannot rule out at a glance, in the order
    pseudo_list gives them: out of check every one; in check (where legal_among keeps
    only moves touching a checker's square or ways, or the royal's) only the royal's
    moves, those of the pieces standing on such a square or able to reach one, and
    the drops onto one. The legal moves among them are the position's legal moves."""
    check, _gate, sens, _ways, cmask, _checkers = pos.safety()
    if not check or sens is None:
        return pseudo_list(pos)
    out: list[Move] = []
    board = pos.board
    game = pos.game
    for sq in sorted(pos.occ[pos.side]):
        k = board[sq]
        assert k is not None
        plan = k._plans[sq] or plan_at(game, k, sq)
        r = plan_reach(game, k, plan)
        if r & cmask or (1 << sq) & cmask or k.royal:
            piece_moves(pos, out, sq, k, plan)
    if pos.rights:
        out += castling_moves(pos)
    if game.drop_zone is not None:
        out += drops_onto(pos, cmask)
    return out


# --- the moves a position adds to its pieces' plans: castlings, drops ---------------------

#: per colour, each castling with the squares between its pieces as bits
CastlingPlans: TypeAlias = tuple[tuple[tuple[Castling, int], ...], tuple[tuple[Castling, int], ...]]
_CASTLING_PLANS: dict[Game, CastlingPlans] = {}


def castling_plans(game: Game) -> CastlingPlans:
    """Per colour, each castling with the squares between its pieces that must be empty
    (those strictly between the outermost of its four squares, but its King's and Rook's)."""
    got = _CASTLING_PLANS.get(game)
    if got is None:
        lists: tuple[list[tuple[Castling, int]], list[tuple[Castling, int]]] = ([], [])
        for c in game.castlings:
            lo, hi = min(c.king, c.rook, c.king_to, c.rook_to), max(c.king, c.rook, c.king_to, c.rook_to)
            between = 0
            for sq in range(lo + 1, hi):
                if sq not in (c.king, c.rook):
                    between |= 1 << sq
            lists[c.color].append((c, between))
        got = _CASTLING_PLANS[game] = (tuple(lists[0]), tuple(lists[1]))
    return got


#: a colour's drop zone as bits, and per piece key its drop per square (None off the zone)
DropTable: TypeAlias = tuple[int, dict[str, list[Move | None]]]
_DROP_TABLES: dict[Game, list[DropTable | None]] = {}   # game -> per colour


def drop_table(game: Game, color: int) -> DropTable:
    """A colour's drop zone as bits and, per piece key held in hand, its drops per square
    (drop_row: the Moves Position._drops gives, made once per game)."""
    got = _DROP_TABLES.get(game)
    if got is None:
        got = _DROP_TABLES[game] = [None, None]
    t = got[color]
    if t is None:
        assert game.drop_zone is not None, "only a drop game has a drop table"
        t = got[color] = (sum(1 << sq for sq in game.zone(game.drop_zone, color)), {})
    return t


def drop_row(game: Game, key: str, color: int) -> list[Move | None]:
    """Per square, the drop of the piece `key` there (None off the drop zone)."""
    assert game.drop_zone is not None, "only a drop game has drops"
    row: list[Move | None] = [None] * game.geometry.size
    for sq in game.zone(game.drop_zone, color):
        row[sq] = drop_move(game, game.kind(key, color), sq)
    return row


def drop_move(game: Game, kind: PieceKind, sq: int) -> Move:
    """The drop of kind on sq, made once per game (as the plans' moves are)."""
    made = game.made_moves
    m = made.get((kind, sq))
    if m is None:
        m = made[(kind, sq)] = Move(DROP, None, sq, kind, kind, (), (), ((sq, kind),))
    return m


_REACH: dict[Plan, int] = {}   # plan -> the squares its moves can fill or empty besides its own, as bits


def plan_reach(game: Game, kind: PieceKind, plan: Plan) -> int:
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
