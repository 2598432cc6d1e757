"""Robustness tests (issue #12). ``FAIRYPOST_LONG=1`` runs the long versions; see common.py.

The hypothesis profiles ("fairypost-robustness", and "fairypost-robustness-long" with
100,000 examples per target) are registered here and applied per test with
``@profile()`` -- never loaded globally, so the rest of the suite keeps its own settings.
The fixtures give a real service on a real SQLite file in tmp_path, with the real rules
engine, a ManualClock and a MemoryNotifier.
"""
import random
from pathlib import Path

import pytest

from bot.clock import ManualClock
from bot.config import Settings
from bot.events import MemoryNotifier

from .common import T0, register_profiles

register_profiles()


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(T0)


@pytest.fixture
def notifier() -> MemoryNotifier:
    return MemoryNotifier()


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """No rate limit here: the tests of the limit set their own."""
    return Settings(db_path=str(tmp_path / "games.db"), command_rate_per_minute=0)


@pytest.fixture
async def svc(settings, clock, notifier):
    from bot.service import GameService
    service = await GameService.open(settings, clock=clock, notifier=notifier, rng=random.Random(7))
    yield service
    await service.close()


@pytest.fixture
async def people(svc):
    """alice, bob, carol."""
    return tuple([await svc.player("test", k, n) for k, n in (("a", "Alice"), ("b", "Bob"), ("c", "Carol"))])
