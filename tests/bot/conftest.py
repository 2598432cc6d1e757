from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.config import Settings
from bot.delivery.events import MemoryNotifier
from bot.timekeeping.clock import ManualClock

from . import fake_rules
from .backends import BACKENDS, fresh_postgres

T0 = datetime(2025, 1, 6, 12, 0, tzinfo=UTC)  # a Monday, noon UTC


def real_engine():
    """The real rules package if it is there and works, else None."""
    try:
        import rules
        rules.start("chess")
        return rules
    except Exception:  # noqa: BLE001 - not there, or not working yet
        return None


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(T0)


@pytest.fixture
def notifier() -> MemoryNotifier:
    return MemoryNotifier()


def pytest_configure(config):
    config.addinivalue_line("markers", "contract: runs on every database back end (tests/bot/backends.py)")


def pytest_generate_tests(metafunc):
    """A test marked ``contract`` runs once per back end; the others on SQLite alone."""
    chosen = any("backend" in m.args[0] for m in metafunc.definition.iter_markers("parametrize"))
    if "backend" in metafunc.fixturenames and metafunc.definition.get_closest_marker("contract") and not chosen:
        metafunc.parametrize("backend", BACKENDS, indirect=True)


@pytest.fixture
def backend(request) -> str:
    return getattr(request, "param", "sqlite")


@pytest.fixture
async def db_target(backend, tmp_path: Path):
    """What ``Store.open`` is given: a file on SQLite, a fresh database's URL on PostgreSQL."""
    if backend == "sqlite":
        yield str(tmp_path / "games.db")
    else:
        async with fresh_postgres() as url:
            yield url


@pytest.fixture
def settings(db_target: str) -> Settings:
    return Settings(db_path=db_target, vacation_days_per_year=14)


@pytest.fixture
def fake_engine(monkeypatch):
    # every module of the service's operations that asks the rules engine itself (the
    # others get positions from these): a snapshot's replay, a challenge's game, a game's
    # start, a record
    from bot.operations import challenges, games, moves, snapshots
    for module in (challenges, games, moves, snapshots):
        monkeypatch.setattr(module, "rules", fake_rules)
    return fake_rules


@pytest.fixture
def engine():
    rules = real_engine()
    if rules is None:
        pytest.skip("the rules engine is not there yet")
    return rules


class Opener:
    """Opens (and at the end closes) services on the test's database file."""

    def __init__(self, settings, clock, notifier):
        self.settings, self.clock, self.notifier = settings, clock, notifier
        self.open_services = []

    async def __call__(self, **kw):
        import random

        from bot.operations.service import GameService
        svc = await GameService.open(kw.pop("settings", self.settings), clock=kw.pop("clock", self.clock),
                                     notifier=kw.pop("notifier", self.notifier),
                                     rng=kw.pop("rng", random.Random(7)))
        self.open_services.append(svc)
        return svc

    async def close(self, svc):
        await svc.close()
        self.open_services.remove(svc)


@pytest.fixture
async def opener(settings, clock, notifier):
    o = Opener(settings, clock, notifier)
    yield o
    for svc in list(o.open_services):
        await svc.close()


@pytest.fixture
async def svc(opener, fake_engine):
    return await opener()


@pytest.fixture
async def alice(svc):
    return await svc.player("test", "a", "Alice")


@pytest.fixture
async def bob(svc):
    return await svc.player("test", "b", "Bob")


@pytest.fixture
async def carol(svc):
    return await svc.player("test", "c", "Carol")


async def new_game(svc, white, black, game="fake", days=3, **kw):
    """A game with ``white`` as White, started now."""
    c = await svc.challenge(white.id, game, opponent_id=black.id, days=days, colour="white", **kw)
    return await svc.accept_challenge(c.id, black.id)
