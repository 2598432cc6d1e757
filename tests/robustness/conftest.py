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

from bot.config import Settings
from tests.bot.conftest import clock, notifier  # noqa: F401 - the service tests' fixtures

from .common import register_profiles

register_profiles()


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """No rate limit here: the tests of the limit set their own."""
    return Settings(db_path=str(tmp_path / "games.db"), command_rate_per_minute=0)


@pytest.fixture
async def svc(settings, clock, notifier):  # noqa: F811 - fixtures, imported above
    from bot.operations.service import GameService
    service = await GameService.open(settings, clock=clock, notifier=notifier, rng=random.Random(7))
    yield service
    await service.close()


@pytest.fixture
async def people(svc):
    """alice, bob, carol."""
    return tuple([await svc.player("test", k, n) for k, n in (("a", "Alice"), ("b", "Bob"), ("c", "Carol"))])
