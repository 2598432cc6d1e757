"""A database out of reach is no refusal (issue #45, item 1): ``DatabaseUnavailable`` is not a
``ServiceError`` (nothing was decided: the same command later will be done), each front end
answers it as "busy, try again"; a store whose connections the server ended goes on at once
(a transaction begun again, the life lock re-taken). The whole path, with the server stopped
and restarted between two processes' moves: tests/robustness/test_database_restart.py."""

from __future__ import annotations

import pytest

from bot.domain.errors import DatabaseError, DatabaseUnavailable, ServiceError

from .backends import POSTGRES_URL, fresh_postgres
from .test_run_processes import until


def test_it_is_not_a_refusal_and_says_try_again():
    e = DatabaseUnavailable()
    assert not isinstance(e, ServiceError) and not isinstance(e, DatabaseError)
    assert str(e) == "the game server is busy, try again in a moment" and e.retry_after > 0


def test_discord_answers_it_privately_as_busy():
    from bot.discord_bot.replies import user_message
    assert user_message(DatabaseUnavailable()) == "The game server is busy, try again in a moment."


@pytest.mark.skipif(not POSTGRES_URL, reason="FAIRYPOST_TEST_POSTGRES is not set")
async def test_a_store_whose_connections_the_server_ended_goes_on_at_once():
    import asyncpg

    from bot.store import Store

    async with fresh_postgres() as url:
        store = await Store.open(url)
        try:
            admin = await asyncpg.connect(url)
            try:  # the store's connections ended by the server, as at a restart
                await admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                    "WHERE datname = current_database() AND pid <> pg_backend_pid()")
            finally:
                await admin.close()
            async with store.write() as tx:  # begun again on a new connection: no error
                await tx.insert_player("test", "a", "Alice", "{}", 0)
            async with store.read() as tx:
                assert tuple(await tx.fetch_one("SELECT count(*) FROM players")) == (1,)
            await until(lambda: store.health() == {"life lock": True}, "its session made again, its lock re-taken",
                        timeout=5)
            assert store.outages == 1
        finally:
            await store.close()
