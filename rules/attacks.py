"""Who attacks a square: the bit tests of the enemy pieces' ways on a board, the squares
whose contents can decide an attack (a searcher's quick check test), and what legality
needs to know of the side to move's royal once per position (``royal_safety``).

An attack is looked up in the attacker's move tables towards the target (rules.tables:
per target, each way as the bits of the squares that must be empty, or hold exactly one
screen for a hopper); only the pieces standing where some piece could attack the target
from (``Game.attack_sources``) are looked at.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from .game import Game, PositionView, Safety
from .pieces import Board

FACING = -1  # marks the squares between royals that the facing rule watches

# game -> per colour {target: (zone, sources)}
_ZONES: dict[Game, tuple[dict[int, tuple[int, list[int] | None]], dict[int, tuple[int, list[int] | None]]]] = {}


def attacked_on(board: Board, squares: Iterable[int], target: int, by: int) -> bool:
    """True if a piece of colour `by`, on one of `squares`, could capture on target."""
    occupied = 0
    for s, k in enumerate(board):
        if k is not None:
            occupied |= 1 << s
    return attacked_bits(board, occupied, squares, target, by)


def squares_of_bits(bits: int) -> list[int]:
    """The squares of a set of bits, lowest first."""
    squares: list[int] = []
    while bits:
        low = bits & -bits
        squares.append(low.bit_length() - 1)
        bits ^= low
    return squares


def sources_hit(sources: Sequence[int], hit: int) -> int:
    """The squares (bits) whose pieces' attack one of the squares of ``hit`` can decide:
    the union of check_sources' entries for them."""
    found = 0
    while hit:
        low = hit & -hit
        found |= sources[low.bit_length() - 1]
        hit ^= low
    return found


def attacked_bits(board: Board, occupied: int, squares: Iterable[int], target: int, by: int) -> bool:
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


def check_zone(game: Game, by: int, target: int) -> int:
    """The bits of the squares whose contents can decide whether a piece of colour `by`
    attacks target: every square a piece could attack it from (Game.attack_sources)
    and every square on such a piece's ways to it; -1 (every square) where a special
    mover cannot say. A move touching none of them leaves that attack as it was: if
    target was not attacked before, it is not after. Built once per (game, colour, target)."""
    return _zone_and_sources(game, by, target)[0]


def check_sources(game: Game, by: int, target: int) -> list[int] | None:
    """Per square s (a list over the board): the bits of the squares x from which a piece
    of colour `by` could attack target and whose attack can depend on what stands on s
    (x itself included), or None where a special mover cannot say. If target was not
    attacked, after a move touching squares s1, s2 ... only a piece on one of
    sources[s1] | sources[s2] | ... can attack it. Built once per (game, colour, target)."""
    return _zone_and_sources(game, by, target)[1]


def _zone_and_sources(game: Game, by: int, target: int) -> tuple[int, list[int] | None]:
    zones = _ZONES.get(game)
    if zones is None:
        zones = _ZONES[game] = ({}, {})
    got = zones[by].get(target)
    if got is None:
        sources: list[int] = [0] * game.geometry.size
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


def royal_safety(pos: PositionView) -> Safety:
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
    us, them = pos.side, 1 - pos.side
    r = pos.royal[us]
    board = pos.board
    game = pos.game
    check, sens, gate, everything = False, 0, 0, False
    ways: list[tuple[int, int]] = []
    cmask = 0
    checkers: list[int] = []
    occupied = pos.bits[0] | pos.bits[1]
    if r is not None:
        for x in pos.occ[them] & game.attack_sources(them, r):
            k = board[x]
            assert k is not None, "attacker squares are occupied"
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
            reach = (t._reach if t._reach is not None else t.reach).get(r)
            if reach is None:
                continue
            if reach:
                sens |= reach
                ways.append((x, reach))
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
                cmask |= reach | (1 << x)
                checkers.append(x)
        if game.facing_royals:
            # a move that is not the royal's can make the royals face only by
            # emptying a square between them on their common file
            other = pos.royal[them]
            between = game.file_between(r, other) if other is not None else None
            if between is not None:
                o = between & occupied
                if not o:
                    everything = True  # facing already: every move is looked at
                else:
                    sens |= between
                    ways.append((FACING, between))
                    if not o & (o - 1):
                        gate |= o   # only one piece keeps them apart
    return (check, gate, None if everything else sens, ways, cmask, checkers)
