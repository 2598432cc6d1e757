"""A real GameService on a SQLite file with a ManualClock, the computer as its notifier for
the ``computer`` platform, and one worker process shared by the module's tests."""

from __future__ import annotations

import random

import pytest

from bot.computer.player import Computer, make_pool
from bot.config import Settings
from bot.delivery.events import MemoryNotifier
from bot.delivery.notifiers import Notifiers
from bot.operations.service import GameService
from bot.timekeeping.clock import ManualClock
from tests.bot.conftest import T0


@pytest.fixture(scope="package")
def pool():
    p = make_pool(1, games=("chess", "superchess"))
    yield p
    p.shutdown(wait=True, cancel_futures=True)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(T0)


@pytest.fixture
def settings(tmp_path) -> Settings:
    # the computer and a scripted human send many commands at one instant of a ManualClock
    return Settings(db_path=str(tmp_path / "games.db"), command_rate_per_minute=0)


class Table:
    """A service, the humans' notices (``seen``) and the computer."""

    def __init__(self, service: GameService, seen: MemoryNotifier, computer: Computer):
        self.service, self.seen, self.computer = service, seen, computer

    async def close(self) -> None:
        await self.computer.close()
        await self.service.close()


async def open_table(settings, clock, pool, *, seconds: float = 0.2) -> Table:
    seen = MemoryNotifier()
    computer = Computer(pool, seconds=seconds, hint_seconds=0.2, review_seconds=0.05)
    service = await GameService.open(settings, clock=clock, notifier=Notifiers([seen, computer]),
                                     rng=random.Random(3))
    computer.bind(service)
    return Table(service, seen, computer)


@pytest.fixture
async def table(settings, clock, pool):
    t = await open_table(settings, clock, pool)
    yield t
    await t.close()
