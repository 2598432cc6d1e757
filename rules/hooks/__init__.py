"""Code for what data cannot say: one module per game that needs it, each registering
itself when imported (importing this package, which importing rules does, imports every
module in it).

Three registries; each entry's base class, with documented no-op defaults, is in
rules.game (``SpecialMover`` and ``GameExtension``), and every name a hook module uses
is importable from here:

* ``PATHS``: named path generators (rules.paths). A generator returns, for a piece on a
  square, lists of (dx, dy) offsets from that square: each list is a path the
  piece walks step by step, stopping on any square of it while the squares before
  are empty. (The Mini-rose.)
* ``MOVERS``: special movers, classes with the SpecialMover interface, attached to a
  piece type by ``hook = "name"`` in the game data. They add moves (and attacks)
  beyond the piece's Betza moves: the Cyclops, the Wall, the Archer's shot.
* ``EXTENSIONS``: game-level extensions (``GameExtension``), named by
  ``extension = "name"`` in a game's rules: a set-up phase, the inventor's
  notations, explanations, validation.

A module registers itself with the decorators; ``load_all`` imports them. The modules
import the bases from rules.game and rules.paths, never from this package, so that no
two files here import each other.
"""
from __future__ import annotations

import importlib
import pkgutil

from ..game import EXTENSIONS, MOVERS, GameExtension, SpecialMover, extension, mover
from ..paths import PATHS, path_generator, path_rays

__all__ = ["PATHS", "MOVERS", "EXTENSIONS", "SpecialMover", "GameExtension", "path_generator", "mover",
           "extension", "path_rays", "load_all"]


def load_all() -> None:
    """Import every module of this package (each registers what it holds)."""
    for info in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{info.name}")


load_all()
