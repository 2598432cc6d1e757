"""Code for what data cannot say.

Three registries (each entry's base class, with documented no-op defaults, is
below: ``SpecialMover`` and ``GameExtension``):

* ``PATHS``: named path generators. A generator returns, for a piece on a
  square, lists of (dx, dy) offsets from that square: each list is a path the
  piece walks step by step, stopping on any square of it while the squares
  before are empty. (The Mini-rose.)
* ``MOVERS``: special movers, classes with the SpecialMover interface below,
  attached to a piece type by ``hook = "name"`` in the game data. They add
  moves (and attacks) beyond the piece's Betza moves: the Cyclops, the Wall,
  the Archer's shot.
* ``EXTENSIONS``: game-level extensions (``GameExtension``), named by
  ``extension = "name"`` in a game's rules: a set-up phase, the inventor's
  notations, explanations, validation.

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
    """The base of every special mover: one instance per game and piece type.

    Every method has a no-op default, so callers call, never probe.

    pseudo_moves(pos, sq, kind): yield Move objects (pseudo-legal) beyond the
        Betza moves of the piece on sq. Stateful kinds: yield moves with
        new=None to let the core expand them over every state; or set new.
    attacks(board, sq, kind, target): True if the piece on sq could capture a
        piece on target (whatever stands there now), by its special moves. On an
        empty board it must be True wherever it could be on some board (pieces may
        only stop an attack): Game.attack_sources relies on it.
    watch(board, sq, kind, target): the squares whose change of occupancy
        could change attacks(...) -- or None to mean "always check again".
    zone(sq, kind, target): the squares besides sq whose contents can decide
        attacks(...) on any board, or None (any may): a searcher's quick check test.
    linked(board, sq, kind): the other squares of a piece standing on several;
        a capture on sq empties them too (Position._emit).
    span / partner_steps(state): how many squares one such piece stands on, and
        the (file, rank) steps from one of its squares to the others in a state
        (pictures draw it as one figure over them).
    san(pos, move): the SAN of a move of the mover's own kind (MoveKind.SPAN).
    state_words(state): how a state is described to a player ("facing NE").
    """

    #: squares one piece of this type stands on
    span = 1

    def __init__(self, game, ptype):
        self.game = game
        self.ptype = ptype

    def pseudo_moves(self, pos, sq, kind):
        return ()

    def attacks(self, board, sq, kind, target) -> bool:
        return False

    def watch(self, board, sq, kind, target):
        return None

    def zone(self, sq, kind, target):
        """The squares (besides sq) whose contents can decide whether this piece on sq
        attacks target, on any board; None: it cannot say (any square may)."""
        return None

    def linked(self, board, sq, kind) -> tuple:
        return ()

    def partner_steps(self, state) -> tuple:
        return ()

    def san(self, pos, move) -> str:
        return move.lan

    def state_words(self, state: str) -> str:
        return f"set to {state}"


EXTENSIONS: dict = {}


def extension(name):
    """Register a game-level extension (a subclass of GameExtension)."""
    def deco(cls):
        EXTENSIONS[name] = cls
        return cls
    return deco


class GameExtension:
    """The base of every game-level extension (``extension = "name"`` in the data).

    Every method has a documented no-op default, so callers never probe.

    Set-up phase (a game whose players first choose part of the start position):
    ``setup_phases`` names its steps (VFEN ``setup=<step>``); ``setup_moves(pos)``
    lists the actions of the current step; ``after_setup(pos, move)`` gives (side
    to act next, next step or None when the set-up is over); ``setup_hint(pos)``
    says in the game's words what the action now due is; ``setup_choice()`` and
    ``setup_default()`` say what the players choose and what the usual start is
    (for a player deciding whether to make the set-up).

    Reading moves: ``rewrite(pos, text)`` gives candidate texts for the inventor's
    notations; ``explain(pos, text)`` says why such a text names no legal move (an
    error, or None to let the core say); ``ambiguity_hint(pos, moves)`` adds advice
    to an ambiguity. ``validate(pos)`` refuses a position the game cannot have
    (raises FenError).
    """

    setup_phases: tuple[str, ...] = ()

    def __init__(self, game):
        self.game = game

    def setup_moves(self, pos):
        return ()

    def after_setup(self, pos, move):
        return 1 - pos.side, None

    def setup_hint(self, pos) -> str | None:
        return None

    def setup_choice(self) -> str | None:
        return None

    def setup_default(self) -> str | None:
        return None

    def rewrite(self, pos, text: str):
        return ()

    def explain(self, pos, text: str):
        return None

    def ambiguity_hint(self, pos, moves) -> str | None:
        return None

    def validate(self, pos) -> None:
        return None


