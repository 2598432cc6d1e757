"""Code for what data cannot say.

Two registries:

* ``PATHS``: named path generators. A generator returns, for a piece on a
  square, lists of (dx, dy) offsets from that square: each list is a path the
  piece walks step by step, stopping on any square of it while the squares
  before are empty. (The Mini-rose.)
* ``MOVERS``: special movers, classes with the SpecialMover interface below,
  attached to a piece type by ``hook = "name"`` in the game data. They add
  moves (and attacks) beyond the piece's Betza moves: the Cyclops, the Wall,
  the Archer's shot.

A module registers itself with the decorators; ``load_all`` imports them.
"""
from __future__ import annotations

import importlib
import pkgutil

PATHS: dict = {}
MOVERS: dict = {}


def path_generator(name):
    def deco(fn):
        PATHS[name] = fn
        return fn
    return deco


def mover(name):
    def deco(cls):
        MOVERS[name] = cls
        return cls
    return deco


def load_all():
    for info in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{info.name}")


def path_rays(name, geo, color, sq, allowed):
    """Entries (prefix, ray, move, capture, ep) for a named path generator."""
    if name not in PATHS:
        load_all()
    gen = PATHS[name]
    sign = 1 if color == 0 else -1
    out = []
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


class SpecialMover:
    """Interface of a special mover. One instance per game and piece type.

    pseudo_moves(pos, sq, kind): yield Move objects (pseudo-legal) beyond the
        Betza moves of the piece on sq. Stateful kinds: yield moves with
        new=None to let the core expand them over every state; or set new.
    attacks(board, sq, kind, target): True if the piece on sq could capture a
        piece on target (whatever stands there now), by its special moves.
    watch(board, sq, kind, target): the squares whose change of occupancy
        could change attacks(...) -- or None to mean "always check again".
    linked(board, sq, kind) (optional): the other squares of a piece standing on
        several (the Wall); a capture on sq empties them too (Position._emit).
    """

    def __init__(self, game, ptype):
        self.game = game
        self.ptype = ptype

    def pseudo_moves(self, pos, sq, kind):
        return ()

    def attacks(self, board, sq, kind, target) -> bool:
        return False

    def watch(self, board, sq, kind, target):
        return None


EXTENSIONS: dict = {}


def extension(name):
    """Register a game-level extension (e.g. Super Chess's set-up phase)."""
    def deco(cls):
        EXTENSIONS[name] = cls
        return cls
    return deco
