import sqlite3

import pytest

from bot.domain.errors import IntegrityError, StorageError
from bot.store import MIGRATIONS, Store

pytestmark = pytest.mark.contract  # every test taking db_target runs on each back end


async def test_open_sets_wal_foreign_keys_and_schema(tmp_path):
    path = tmp_path / "s.db"
    store = await Store.open(path)
    async with store.read() as tx:
        assert await tx.schema_version() == len(MIGRATIONS)
    await store.close()
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"schema_version", "players", "vacations", "challenges", "games", "moves", "reminders",
            "events", "digests"} <= tables
    con.close()


async def test_open_makes_the_schema(db_target):
    store = await Store.open(db_target)
    try:
        assert {"schema_version", "players", "vacations", "challenges", "games", "moves", "reminders",
                "events", "digests"} <= set(await store.tables())
        async with store.read() as tx:
            assert await tx.schema_version() == len(MIGRATIONS)
    finally:
        await store.close()
    store = await Store.open(db_target)  # a second open finds it made: nothing runs again
    async with store.read() as tx:
        assert await tx.schema_version() == len(MIGRATIONS)
    await store.close()


async def test_foreign_keys_are_enforced(db_target):
    store = await Store.open(db_target)
    with pytest.raises(IntegrityError):
        async with store.write() as tx:
            await tx.insert_move(999, 1, "e2e4", "e4", 12345, "w", 0)
    await store.close()


async def test_migrations_apply_in_order_once(db_target):
    path = db_target
    first = ("CREATE TABLE a (x INTEGER)",)
    second = ("ALTER TABLE a ADD COLUMN y INTEGER", "CREATE INDEX a_y ON a (y)")
    store = await Store.open(path, migrations=(first,))
    async with store.write() as tx:
        await tx._exec("INSERT INTO a (x) VALUES (1)")
    await store.close()
    store = await Store.open(path, migrations=(first, second))  # only the new one runs
    async with store.read() as tx:
        assert await tx.schema_version() == 2
        row = await tx._one("SELECT x, y FROM a")
        assert (row["x"], row["y"]) == (1, None)
    await store.close()
    store = await Store.open(path, migrations=(first, second))  # nothing to do, nothing fails
    await store.close()
    with pytest.raises(StorageError, match="newer"):
        await Store.open(path, migrations=(first,))


async def test_write_rolls_back_on_error(db_target):
    store = await Store.open(db_target)
    with pytest.raises(RuntimeError):
        async with store.write() as tx:
            await tx.insert_player("p", "1", "One", "{}", 0)
            raise RuntimeError("boom")
    async with store.read() as tx:
        assert await tx.find_player("p", "1") is None
    await store.close()


async def test_optimistic_version_check(db_target):
    store = await Store.open(db_target)
    async with store.write() as tx:
        a = await tx.insert_player("p", "1", "One", "{}", 0)
        b = await tx.insert_player("p", "2", "Two", "{}", 0)
        gid = await tx.insert_game(game="chess", challenge_id=None, white_id=a, black_id=b,
                                   start_vfen="x", to_move="w", to_move_id=a, days=3, now=0, deadline=10)
        assert await tx.bump_version(gid, 0)
        assert not await tx.bump_version(gid, 0)
        assert await tx.bump_version(gid, 1)
        with pytest.raises(ValueError):
            await tx.update_game(gid, **{"white_id = 5, ply": 1})
    await store.close()


async def test_check_constraints(db_target):
    store = await Store.open(db_target)
    async with store.write() as tx:
        a = await tx.insert_player("p", "1", "One", "{}", 0)
    with pytest.raises(IntegrityError):
        async with store.write() as tx:
            await tx.insert_challenge(a, a, "chess", 3, "white", "default", 0)
    with pytest.raises(IntegrityError):
        async with store.write() as tx:
            await tx.insert_challenge(a, None, "chess", 3, "purple", "default", 0)
    await store.close()


async def test_a_cancelled_write_rolls_back_and_the_next_one_starts_at_once(db_target):
    import asyncio
    store = await Store.open(db_target)
    inside, never = asyncio.Event(), asyncio.Event()

    async def interrupted():
        async with store.write() as tx:
            await tx.insert_player("p", "1", "One", "{}", 0)
            inside.set()
            await never.wait()  # a shutdown cancels it here, in the middle of its transaction

    try:
        task = asyncio.ensure_future(interrupted())
        await inside.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        async with asyncio.timeout(5):  # the write lock was let go
            async with store.write() as tx:
                assert await tx.find_player("p", "1") is None
                await tx.insert_player("p", "2", "Two", "{}", 0)
        async with store.read() as tx:
            assert (await tx.find_player("p", "2")).name == "Two"
    finally:
        await store.close()
