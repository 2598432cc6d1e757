"""fairypost's computer opponent: a searching player for every game of `rules`.

    ai.think(position, level=5, seconds=None, rng=None) -> ai.Thought
    ai.analyse(position, seconds=None, lines=5)        -> ai.Analysis
    ai.evaluate(position)                              -> centipawns for the side to move
    ai.LEVELS                                          -> {number: ai.Level}
    ai.prepare(game_id)                                -> build a game's tables (worker start)

May import: ``rules`` and the standard library (tests/ai/test_layering.py). CPU bound: call
it from a worker process (see ai/README.md).
"""
from __future__ import annotations

from .engine import DEFAULT_SECONDS, Analysis, Thought, analyse, describe_score, evaluate, mate_in, prepare, think
from .levels import DEFAULT_LEVEL, LEVELS, Level

__all__ = ["think", "analyse", "evaluate", "Thought", "Analysis", "LEVELS", "Level",
           "DEFAULT_LEVEL", "DEFAULT_SECONDS", "describe_score", "mate_in", "prepare"]
