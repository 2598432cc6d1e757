"""bench/strength.py's equal time: sunfish's limit for its next move follows fairypost's
mean time a move and sunfish's own overrun, within the budget and sunfish's floor."""
from __future__ import annotations

import pytest

from bench.strength import equal_time


@pytest.mark.parametrize("our_mean, overrun, limit", [
    (None, 1.0, 1.0),    # before our first move: the budget
    (0.6, 1.0, 0.6),     # sunfish keeps to its limits: our mean
    (0.6, 2.0, 0.3),     # it took twice what it was asked: half of it
    (0.6, 0.5, 1.0),     # it stopped early: more, but never over the budget
    (0.1, 3.0, 0.2),     # never under sunfish's own floor
])
def test_sunfish_is_asked_what_makes_its_time_ours(our_mean, overrun, limit):
    assert equal_time(1.0, our_mean, overrun) == pytest.approx(limit)


def test_the_floor_is_the_opponents():
    assert equal_time(1.0, 0.3, 3.0, floor=0.05) == pytest.approx(0.1)
    assert equal_time(1.0, 0.1, 30.0, floor=0.05) == 0.05
