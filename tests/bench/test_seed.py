"""bench/seed.py makes a database the bot runs as it is: the same tables and owners'
versions as one the bot itself opens (its adapters' too), and games the service plays on."""

from __future__ import annotations

import random
from contextlib import asynccontextmanager

import pytest

from bench.seed import seed
from bot.config import Settings
from bot.operations.service import GameService
from bot.store import Store
from bot.timekeeping.clock import ManualClock, from_ts
from tests.bot.backends import BACKENDS, fresh_postgres

NOW = 1_760_000_000


@asynccontextmanager
async def _database(tmp_path, backend: str, name: str):
    if backend == "postgres":
        async with fresh_postgres() as url:
            yield url
    else:
        yield str(tmp_path / f"{name}.db")


async def _shape(target: str) -> tuple[set[str], dict[str, int]]:
    """The tables and each owner's schema version, read by the store alone (the core's
    migrations only: an adapter's missing tables stay missing)."""
    store = await Store.open(target)
    try:
        async with store.read() as tx:
            versions = {r[0]: r[1] for r in await tx.fetch_all("SELECT owner, version FROM schema_versions")}
        return set(await store.tables()), versions
    finally:
        await store.close()


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_seeded_database_is_the_bots_with_nothing_left_to_migrate(tmp_path, backend):
    async with _database(tmp_path, backend, "seeded") as seeded_at, \
            _database(tmp_path, backend, "bot") as bot_at:
        seeded = await seed(seeded_at, 6, ["chess", "kingqueen"], NOW, random.Random(1))
        await (await GameService.open(Settings(db_path=bot_at))).close()
        tables, versions = await _shape(seeded_at)
        assert (tables, versions) == await _shape(bot_at)
        assert {"chat_threads", "email_outbox"} <= tables and {"discord", "email"} <= set(versions)

        service = await GameService.open(Settings(db_path=seeded_at), clock=ManualClock(from_ts(NOW)))
        try:
            game_id, _variant, _start, lans, to_move_id, _days = seeded.games[0]
            view = await service.game(game_id)
            assert view.ply == len(lans) and view.status == "active"
            played = await service.move(game_id, to_move_id, (await service.legal_moves(game_id))[0])
            assert played.game.ply == len(lans) + 1
        finally:
            await service.close()
