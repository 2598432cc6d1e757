"""The playing levels: how deep, how many nodes, how noisy, how often a human mistake.

The levels are a ladder: each searches at least as much as the one below (depth, node
budget, share of the time budget all non-decreasing; noise and mistakes non-increasing),
so it is at least as strong and no faster. The node budgets make the effort the same on
a fast or a slow server; the time budget is only the ceiling. Measured, not guessed:
``python -m bench.ladder`` prints each level's nodes, depth and time per game and plays
adjacent levels against each other (figures in bench/RESULTS.md).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Level:
    number: int
    name: str
    description: str
    max_depth: int          # iterative deepening stops here (or at the time budget)
    noise_cp: int           # gaussian noise added to each candidate's score
    top_n: int              # chooses among this many best moves (1: the best)
    blunder: float          # chance to judge moves by the position right after them (misses replies)
    miss_capture: float     # chance to overlook its own captures this move
    max_nodes: int | None = None  # the search stops after this many nodes (None: no limit)
    time_share: float = 1.0  # the share of the time budget it uses

    @property
    def exact(self) -> bool:
        """Plays the search's best move (no noise, no mistakes)."""
        return self.top_n == 1 and not self.noise_cp and not self.blunder and not self.miss_capture


# Two budgets make the ladder. Node budgets grow fourfold a level: on a fast machine they
# decide, the same everywhere. Shares of the time budget double a level: on a slow or
# busy machine time decides, and a level's search always ends (its hard deadline, 85 % of
# its share) before the next level would stop beginning new iterations (45 % of its
# share, ai.engine.SOFT_SHARE), so the next one searches at least as long.
# Levels 1-3 score every root move exactly (full window) to choose among the best with
# noise, which costs several times what a plain search of the same depth does: their
# depth is capped, and a big game's middle game may stop them a ply short.
LEVELS: dict[int, Level] = {
    1: Level(1, "beginner", "looks one move ahead, often misses replies and captures, "
             "picks loosely among the five best", 1, 150, 5, 0.35, 0.3,
             max_nodes=2_000, time_share=1 / 16),
    2: Level(2, "novice", "two plies, some noise, now and then overlooks a reply",
             2, 60, 3, 0.1, 0.1, max_nodes=8_000, time_share=1 / 8),
    3: Level(3, "club player", "three plies, a little noise", 3, 20, 2, 0.0, 0.0,
             max_nodes=32_000, time_share=1 / 4),
    4: Level(4, "strong", "best move of a search deepened up to 128,000 nodes in half the time budget",
             64, 0, 1, 0.0, 0.0, max_nodes=128_000, time_share=1 / 2),
    5: Level(5, "strongest within the time budget", "deepens until the time is up",
             64, 0, 1, 0.0, 0.0),
}
DEFAULT_LEVEL = 5


def level(number: int) -> Level:
    if number not in LEVELS:
        raise ValueError(f"no level {number}: the levels are {min(LEVELS)} to {max(LEVELS)}")
    return LEVELS[number]
