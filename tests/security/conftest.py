from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.config import Settings
from bot.operations.service import GameService
from bot.timekeeping.clock import ManualClock
from bot.web.server import RUNNER_OPTIONS, WORKERS, make_app
from bot.web.work import Workers

SECRET = b"security test secret"
START = datetime(2026, 1, 5, 12, tzinfo=UTC)


async def open_service(tmp_path, **settings) -> GameService:
    return await GameService.open(Settings(db_path=str(tmp_path / "games.db"), command_rate_per_minute=0,
                                           **settings),
                                  clock=ManualClock(START), rng=random.Random(1))


@pytest.fixture
async def svc(tmp_path):
    service = await open_service(tmp_path)
    yield service
    await service.close()


async def web_client(service: GameService) -> TestClient:
    app = make_app(service, SECRET)
    app[WORKERS] = Workers(processes=1)   # one worker process is enough here (the suite's CPU)
    c = TestClient(TestServer(app, **RUNNER_OPTIONS))
    await c.start_server()
    return c


@pytest.fixture
async def client(svc):
    c = await web_client(svc)
    yield c
    await c.close()
