from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.config import Settings
from bot.identity import page_tokens as tokens
from bot.operations.service import GameService
from bot.timekeeping.clock import ManualClock
from bot.web.server import RUNNER_OPTIONS, WORKERS, make_app
from bot.web.work import Workers

SECRET = b"test secret"


async def new_game(svc: GameService, game: str, moves: list[str] = (), *, days=3):
    """A game between Alice (White) and Bob, the moves played in turn."""
    alice = await svc.player("test", "a", "Alice <b>&")
    bob = await svc.player("test", "b", "Bob")
    ch = await svc.challenge(alice.id, game, opponent_id=bob.id, days=days, colour="white")
    view = await svc.accept_challenge(ch.id, bob.id)
    for i, text in enumerate(moves):
        view = (await svc.move(view.id, (alice if i % 2 == 0 else bob).id, text)).game
    return view


@pytest.fixture
async def svc(tmp_path):
    settings = Settings(db_path=str(tmp_path / "games.db"), command_rate_per_minute=0)
    service = await GameService.open(settings, clock=ManualClock(datetime(2026, 1, 5, 12, tzinfo=UTC)),
                                     rng=random.Random(1))
    yield service
    await service.close()


@pytest.fixture
async def client(svc):
    app = make_app(svc, SECRET)
    app[WORKERS] = Workers(processes=1)   # one worker process is enough here (the suite's CPU)
    c = TestClient(TestServer(app, **RUNNER_OPTIONS))
    await c.start_server()
    yield c
    await c.close()


def path(game_id: int, rest: str = "") -> str:
    return f"/g/{game_id}/{tokens.sign(SECRET, game_id)}{rest}"
