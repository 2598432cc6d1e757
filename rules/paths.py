"""Named path generators: moves that data cannot write in Betza (the Mini-rose).

A generator returns lists of (dx, dy) offsets from a piece's square: each list is a path
the piece walks step by step, stopping on any square of it while the squares before
are empty. A hook module registers one with ``@path_generator(name)``; a piece type names
it with ``paths = "name"`` (rules.game checks the name when it reads the game).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from .errors import GameDefinitionError
from .geometry import Geometry
from .tables import RayEntry

#: a generator's paths: each a sequence of (dx, dy) offsets from the piece's square
PathGenerator = Callable[[], Sequence[Sequence[tuple[int, int]]]]

PATHS: dict[str, PathGenerator] = {}


def path_generator(name: str) -> Callable[[PathGenerator], PathGenerator]:
    def deco(fn: PathGenerator) -> PathGenerator:
        PATHS[name] = fn
        return fn
    return deco


def path_rays(name: str, geo: Geometry, color: int, sq: int,
              allowed: frozenset[int] | None) -> list[RayEntry]:
    """Entries (prefix, ray, move, capture, ep) for a named path generator."""
    gen = PATHS.get(name)
    if gen is None:
        raise GameDefinitionError(f"no path generator {name!r} (the generators: {', '.join(sorted(PATHS))})")
    sign = 1 if color == 0 else -1
    out: list[RayEntry] = []
    for path in gen():
        ray = []
        for dx, dy in path:
            t = geo.step(sq, dx * sign, dy * sign)
            if t is None or (allowed is not None and t not in allowed):
                break
            ray.append(t)
        if ray:
            out.append(((), tuple(ray), True, True, False))
    return out
