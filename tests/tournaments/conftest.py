"""A game service on a real SQLite file, and on a fresh PostgreSQL database when
FAIRYPOST_TEST_POSTGRES names a server, with a clock the tests move (no sleeps) and the
real rules (chess), for the directors' tests."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.config import Settings
from bot.delivery.events import MemoryNotifier
from bot.operations.service import GameService
from bot.timekeeping.clock import ManualClock
from tests.bot.backends import BACKENDS, fresh_postgres

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(T0)


@pytest.fixture
def notifier() -> MemoryNotifier:
    return MemoryNotifier()


@pytest.fixture(params=BACKENDS)
async def db_target(request, tmp_path):
    if request.param == "sqlite":
        yield str(tmp_path / "games.db")
    else:
        async with fresh_postgres() as url:
            yield url


@pytest.fixture
def settings(db_target) -> Settings:
    return Settings(db_path=db_target, command_rate_per_minute=0)


@pytest.fixture
async def svc(settings, clock, notifier):
    service = await GameService.open(settings, clock=clock, notifier=notifier)
    yield service
    await service.close()


async def people(svc, n: int, prefix: str = "p"):
    return [await svc.player("test", f"{prefix}{i}", f"Player {i}") for i in range(1, n + 1)]


async def entered(svc, players, *, creator=..., **kw):
    """An event made by ``creator`` (default the first player; None: the owner) that
    ``players`` joined."""
    kw.setdefault("format", "round-robin")
    maker = players[0].id if creator is ... else creator
    t = await svc.create_tournament("chess", name=kw.pop("name", "Spring cup"), creator_id=maker, **kw)
    for p in players:
        await svc.join_tournament(t.id, p.id)
    return await svc.tournament(t.id)
