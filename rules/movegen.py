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

from .move import NORMAL, TURN, Move


class Plan:
    """The moves of one kind on one square, in the generation order of its tables.

    entries: (prefix, targets, ep_ok) with targets ((square, quiet moves, capturing moves),
    ...) - a tuple of moves is empty where the piece may not move or capture; hops:
    (targets,) for hoppers; turns: its changes of state in place; overlap: whether two
    ways reach one square (a square is then given once, by the first way).

    mode says which walk Position._pseudo_list may inline: LEAPS (every entry one square,
    nothing to find empty first, no en passant: ``flat`` holds the targets), RAYS (no
    prefix, no en passant: ``rays`` holds each entry's targets), GENERAL (entries with
    prefixes or en passant), or SPECIAL (hops, overlaps, hooks or turns:
    ``piece_moves``)."""
    __slots__ = ("entries", "hops", "turns", "overlap", "mode", "flat", "rays", "prey", "taking_entries",
                 "taking_overlap")

    def __init__(self, entries, hops, turns, overlap, special=False):
        self.entries = entries
        self.hops = hops
        self.turns = turns
        self.overlap = overlap
        self.rays = tuple(targets for _p, targets, _e in entries)
        # the entries that can take something (a captures-only walk needs no other: a
        # Cannon's slides only move)
        self.taking_entries = tuple(e for e in entries if e[2] or any(taking for _t, _q, taking in e[1]))
        # whether two of its ways could take on one square (a Cannon's slides and hops
        # share squares, but only the hops take): a captures-only walk then needs no
        # record of the squares given
        taken, self.taking_overlap = set(), False
        for targets in [e[1] for e in self.taking_entries] + [h[0] for h in hops]:
            for t, _quiet, taking in targets:
                if taking:
                    if t in taken:
                        self.taking_overlap = True
                    taken.add(t)
        self.flat = tuple(ts[0] for ts in self.rays if len(ts) == 1)
        # the squares it could take on (en passant: the square it moves to), as bits;
        # -1 (all) for a special mover
        prey = -1 if special else 0
        for _p, targets, epok in entries:
            for t, _quiet, taking in targets:
                if taking or epok:
                    prey |= 1 << t
        for (targets,) in hops:
            for t, _quiet, taking in targets:
                if taking:
                    prey |= 1 << t
        self.prey = prey
        if special or hops or turns or overlap:
            self.mode = SPECIAL
        elif any(prefix or epok for prefix, _t, epok in entries):
            self.mode = GENERAL
        elif len(self.flat) == len(entries):
            self.mode = LEAPS
        else:
            self.mode = RAYS


LEAPS, RAYS, GENERAL, SPECIAL = range(4)


def expand(game, board, sq, k, to, captures, ep=False, clear=None) -> list:
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


def take_spanning(game, board, sq, k, t, q) -> tuple:
    """The moves of the kind k from sq taking q on t, q a piece standing on several
    squares (a Wall): what expand gives, made once per squares taken and shared."""
    key = ("span", k, sq, t, q.hook.linked(board, t, q))
    got = game.hook_moves.get(key)
    if got is None:
        got = game.hook_moves[key] = tuple(expand(game, board, sq, k, t, (t,)))
    return got


def touch_mask(m, royal_bit: int) -> int:
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


def touch(m, royal_bit: int) -> int:
    """A move's touch mask, computed once."""
    t = m.touch
    if t is None:
        t = m.touch = touch_mask(m, royal_bit)
    return t


def build_plan(kind, sq: int) -> Plan:
    game = kind.game
    sm = kind.moves_at(sq)
    empty = [None] * game.geometry.size
    royal_bit = game.royal_bit
    parts = game.move_parts

    def ready(moves):
        for m in moves:
            m.touch = touch_mask(m, royal_bit)
            # the tuples many moves have alike are held once (a game holds ~10^5 moves)
            m.captures = parts.setdefault(m.captures, m.captures)
            m.clear = parts.setdefault(m.clear, m.clear)
            m.put = parts.setdefault(m.put, m.put)
        return tuple(moves)

    def target(t, mv, cap):
        quiet = ready(expand(game, empty, sq, kind, t, ())) if mv else ()
        taking = ready(expand(game, empty, sq, kind, t, (t,))) if cap else ()
        return (t, quiet, taking)

    entries = tuple((prefix, tuple(target(t, mv, cap) for t in ray), epok)
                    for prefix, ray, mv, cap, epok in sm.entries)
    hops = tuple((tuple(target(t, mv, cap) for t in ray),) for ray, mv, cap in sm.hops)
    turns = ()
    if kind.stateful:
        turns = ready([Move(TURN, sq, sq, kind, nk, (), (), ((sq, nk),))
                       for nk in game.state_kinds(kind.key, kind.color) if nk is not kind])
    return Plan(entries, hops, turns, sm.overlap, special=kind.hook is not None)


def piece_moves(pos, out: list, sq: int, k, plan: Plan) -> None:
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


def piece_captures(pos, out: list, sq: int, k, plan: Plan) -> None:
    """Append only the captures among the kind k's pseudo-legal moves from sq (the same
    moves piece_moves gives that take something, in the same order)."""
    if k.hook is not None:
        mine = []
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


def _en_passant(pos, sq, k, t):
    victim = t + pos.game.geometry.width * (1 if k.color == 1 else -1)
    return expand(pos.game, pos.board, sq, k, t, (victim,), ep=True)


def _hook_moves(pos, out, sq, k):
    game, board = pos.game, pos.board
    made = game.hook_moves
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


def _piece_moves_overlapping(pos, out, sq, k, plan, captures_only=False):
    """As piece_moves, for a piece two of whose ways reach one square: each square is
    given once (a Mini-rose's paths cross; a cannon's slide and hop share squares).
    captures_only: the captures alone (a square taken on was never an empty one, so
    the squares the quiet moves reach do not matter to them)."""
    board = pos.board
    color = k.color
    seen = set()
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
