"""Move tables: Betza components compiled once per (piece kind, square).

Every ordinary move is a *ray*: a required-empty prefix, then squares in order.
The piece may stop on each square of the ray while the squares before it are
empty, and stops at the first occupied one (capturing it if allowed). A leap is
a ray of one square; a lame leap has its blocking squares as prefix; a bent
rider's first step is its prefix. Hoppers (cannons) have rays of their own.

From the same rays an attack map is derived on demand: target square -> the
ways to capture there (squares that must be empty, or hold exactly one screen).
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import TypeAlias

from .betza import COMPASS, Component, lame_squares
from .geometry import Geometry

#: (squares that must be empty first, the ray's squares, can move, can capture, en passant)
RayEntry: TypeAlias = tuple[tuple[int, ...], tuple[int, ...], bool, bool, bool]
#: a hopper's ray: (its squares, can move, can capture)
HopEntry: TypeAlias = tuple[tuple[int, ...], bool, bool]
#: a way to capture on a square: (squares that must be empty, or hold exactly one screen
#: when it hops; whether it hops)
Way: TypeAlias = tuple[tuple[int, ...], bool]


class SquareMoves:
    __slots__ = ("entries", "hops", "overlap", "_attacks", "_reach", "_ways")

    def __init__(self, entries: Iterable[RayEntry], hops: Iterable[HopEntry]):
        # entries: (prefix, ray, can_move, can_capture, en_passant)
        self.entries = tuple(entries)
        # hops: (ray, can_move, can_capture)
        self.hops = tuple(hops)
        seen: set[int] = set()
        overlap = False
        for e in self.entries:
            for t in e[1]:
                if t in seen:
                    overlap = True
                seen.add(t)
        for h in self.hops:
            for t in h[0]:
                if t in seen:
                    overlap = True
                seen.add(t)
        self.overlap = overlap
        self._attacks: dict[int, tuple[Way, ...]] | None = None
        self._reach: dict[int, int] | None = None
        self._ways: dict[int, tuple[tuple[int, bool], ...]] | None = None

    @property
    def attacks(self) -> dict[int, tuple[Way, ...]]:
        """target -> ways: (squares that must be empty, is_hop)."""
        if self._attacks is None:
            amap: dict[int, list[Way]] = {}
            for prefix, ray, _mv, cap, _ep in self.entries:
                if not cap:
                    continue
                for i, t in enumerate(ray):
                    amap.setdefault(t, []).append((prefix + ray[:i], False))
            for ray, _mv, cap in self.hops:
                if not cap:
                    continue
                for i in range(1, len(ray)):
                    amap.setdefault(ray[i], []).append((ray[:i], True))
            self._attacks = {t: tuple(w) for t, w in amap.items()}
        return self._attacks

    @property
    def ways(self) -> dict[int, tuple[tuple[int, bool], ...]]:
        """target -> ways to capture there as bits: (squares that must be empty, or hold
        exactly one screen when is_hop; is_hop)."""
        if self._ways is None:
            out: dict[int, tuple[tuple[int, bool], ...]] = {}
            for t, ways in self.attacks.items():
                masks: list[tuple[int, bool]] = []
                for req, hop in ways:
                    mask = 0
                    for s in req:
                        mask |= 1 << s
                    masks.append((mask, hop))
                out[t] = tuple(masks)
            self._ways = out
        return self._ways

    @property
    def reach(self) -> dict[int, int]:
        """target -> the squares of every way to capture there, as bits (the squares whose
        change could change whether it can: Position.safety)."""
        if self._reach is None:
            reach: dict[int, int] = {}
            for t, ways in self.attacks.items():
                mask = 0
                for req, _hop in ways:
                    for s in req:
                        mask |= 1 << s
                reach[t] = mask
            self._reach = reach
        return self._reach


def _ray(geo: Geometry, sq: int, dx: int, dy: int, limit: int,
         allowed: frozenset[int] | None) -> tuple[int, ...]:
    out: list[int] = []
    cur = sq
    while limit == 0 or len(out) < limit:
        nxt = geo.step(cur, dx, dy)
        if nxt is None or (allowed is not None and nxt not in allowed):
            break
        out.append(nxt)
        cur = nxt
    return tuple(out)


def compile_square(components: list[Component], geo: Geometry, color: int, sq: int,
                   on_initial: bool, allowed: frozenset[int] | None) -> SquareMoves:
    """The moves of a piece with these components, of this colour, standing on sq.

    allowed: the squares it may enter (a confined royal), or None for anywhere.
    """
    sign = 1 if color == 0 else -1
    entries: list[RayEntry] = []
    hops: list[HopEntry] = []
    for comp in components:
        if comp.initial and not on_initial:
            continue
        for ox, oy in comp.offsets:
            dx, dy = ox * sign, oy * sign
            if comp.turns:
                first = geo.step(sq, dx, dy)
                if first is None:
                    continue
                d = COMPASS.index((dx // max(abs(dx), 1), dy // max(abs(dy), 1)))
                for turn in comp.turns:
                    ex, ey = COMPASS[(d + turn) % 8]
                    ray = _ray(geo, first, ex, ey, 0 if comp.slide2 else 1, allowed)
                    if ray:
                        entries.append(((first,), ray, comp.move, comp.capture, comp.en_passant))
                continue
            if comp.hop:
                ray = _ray(geo, sq, dx, dy, comp.range, allowed)
                if len(ray) > 1:
                    hops.append((ray, comp.move, comp.capture))
                continue
            if comp.lame:
                blocks = lame_squares(dx, dy)
                assert blocks is not None, "betza.parse makes only a leap with one path lame"
                cur = sq
                prefix: tuple[int, ...] = ()
                steps = 0
                while comp.range == 0 or steps < comp.range:
                    jumped = [geo.step(cur, bx, by) for bx, by in blocks]
                    mids = [m for m in jumped if m is not None]
                    to = geo.step(cur, dx, dy)
                    if to is None or len(mids) < len(jumped) or (allowed is not None and to not in allowed):
                        break
                    entries.append((prefix + tuple(mids), (to,), comp.move, comp.capture, comp.en_passant))
                    prefix = prefix + tuple(mids) + (to,)
                    cur = to
                    steps += 1
                continue
            ray = _ray(geo, sq, dx, dy, comp.range, allowed)
            if ray:
                entries.append(((), ray, comp.move, comp.capture, comp.en_passant))
    return SquareMoves(entries, hops)
