"""Perft from the data files: every case within the node budget (all with FAIRYPOST_FULL_PERFT=1)."""
import pytest

import rules
from tests.rules.perft_data import in_budget, load_cases

CASES = [c for c in load_cases() if in_budget(c)]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_perft(case):
    pos = rules.from_fen(case.game, case.fen)
    assert pos.perft(case.depth) == case.count


def test_every_game_has_perft_data():
    games = {c.game for c in load_cases()}
    assert {"chess", "grandducal"} <= games


def test_suite_covers_required_depths():
    """Issue 2: startpos to 4, Kiwipete to 3, positions 3-6 at depth 3 or more."""
    have = {(c.id, c.depth) for c in load_cases("chess") if in_budget(c)}
    assert ("startpos", 4) in have and ("kiwipete", 3) in have
    for pid in ("position3", "position4", "position5", "position6"):
        assert any(i == pid and d >= 3 for i, d in have), pid
