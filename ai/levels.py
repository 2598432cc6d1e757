"""The playing levels: how deep, how noisy, how often a human mistake.

Measured, not guessed: bench/ai_ladder.py plays adjacent levels against each other in
every game (figures in bench/RESULTS.md).
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
    time_share: float = 1.0  # the share of the time budget it uses

    @property
    def exact(self) -> bool:
        """Plays the search's best move (no noise, no mistakes)."""
        return self.top_n == 1 and not self.noise_cp and not self.blunder and not self.miss_capture


LEVELS: dict[int, Level] = {
    1: Level(1, "beginner", "looks one move ahead, often misses replies and captures, "
             "picks loosely among the five best", 1, 150, 5, 0.35, 0.3),
    2: Level(2, "novice", "two plies, some noise, now and then overlooks a reply",
             2, 60, 3, 0.1, 0.1),
    3: Level(3, "club player", "three plies, a little noise", 3, 20, 2, 0.0, 0.0),
    4: Level(4, "strong", "best move of a search of up to 3 plies in half the time budget",
             3, 0, 1, 0.0, 0.0, time_share=0.5),
    5: Level(5, "strongest within the time budget", "deepens until the time is up",
             64, 0, 1, 0.0, 0.0),
}
DEFAULT_LEVEL = 5


def level(number: int) -> Level:
    if number not in LEVELS:
        raise ValueError(f"no level {number}: the levels are {min(LEVELS)} to {max(LEVELS)}")
    return LEVELS[number]
