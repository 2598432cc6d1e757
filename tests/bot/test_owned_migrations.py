"""Migrations per owner: the core's in the store, the Discord and email adapters' own
(bot/discord_bot/schema.py, bot/email/schema.py), each versioned apart. A database made
before owners (the fixtures, made by the program as it was) upgrades to exactly the
schema a new database gets, its rows kept."""

from __future__ import annotations

import re
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from bot.domain.errors import StorageError
from bot.schemas import ADAPTER_SCHEMAS
from bot.store import MIGRATIONS, Schema, Store

pytestmark = pytest.mark.contract

FIXTURES = Path(__file__).parent / "fixtures"
ADAPTER_TABLES = {"chat_threads", "chat_challenges", "chat_prefs", "chat_offer_messages",
                  "email_inbox", "email_outbox", "email_addresses", "email_links"}


def _old_database(tmp_path: Path, name: str) -> Path:
    """A copy of a database made by the program before adapters owned their tables (schema
    version 11 with rows in every adapter's table, or version 4: before scopes)."""
    path = tmp_path / name
    shutil.copyfile(FIXTURES / name, path)
    return path


async def _sqlite_schema(path) -> set[tuple[str, str, str]]:
    """Every table and index as SQLite keeps it (its CREATE text, whitespace aside)."""
    store = await Store.open(path, schemas=ADAPTER_SCHEMAS)
    try:
        async with store.read() as tx:
            rows = await tx._all("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
        return {(r[0], r[1], re.sub(r"\s+", " ", r[2] or "")) for r in rows}
    finally:
        await store.close()


async def _rows(store, columns: dict[str, list[str]]) -> dict[str, list[tuple]]:
    """The rows of each table, in the columns it had (a later migration may add some)."""
    out = {}
    async with store.read() as tx:
        for table, names in columns.items():
            rows = await tx._all(f"SELECT {', '.join(names)} FROM {table}")
            out[table] = sorted(tuple(r) for r in rows)
    return out


async def _versions(store) -> dict[str, int]:
    async with store.read() as tx:
        rows = await tx._all("SELECT owner, version FROM schema_versions")
    return {r[0]: r[1] for r in rows}


async def test_a_database_from_before_owners_upgrades_to_what_a_new_one_gets(tmp_path):
    old = _old_database(tmp_path, "main_schema11.db")
    with closing(sqlite3.connect(old)) as conn:  # what it held, read without migrating it
        before = {t: sorted(conn.execute(f"SELECT * FROM {t}").fetchall())
                  for (t,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                           "AND name NOT LIKE 'sqlite_%' AND name <> 'schema_version'")}
        columns = {t: [c[1] for c in conn.execute(f"PRAGMA table_info({t})")] for t in before}
    assert ADAPTER_TABLES <= set(before) and all(before[t] for t in ADAPTER_TABLES)

    upgraded = await _sqlite_schema(old)
    fresh = await _sqlite_schema(tmp_path / "new.db")
    assert upgraded == fresh
    assert {n for kind, n, _ in fresh if kind == "table"} >= ADAPTER_TABLES | {"schema_versions"}

    store = await Store.open(old, schemas=ADAPTER_SCHEMAS)
    try:
        assert await _rows(store, columns) == before  # (later migrations may add tables, columns)
        assert await _versions(store) == {"core": len(MIGRATIONS)} | {
            s.owner: len(s.migrations) for s in ADAPTER_SCHEMAS}
        async with store.read() as tx:
            assert await tx.schema_version() == len(MIGRATIONS)  # where the core's always was
    finally:
        await store.close()


async def test_games_and_challenges_from_before_scopes_get_their_server(tmp_path):
    """The Discord adapter's migration fills in what the core's version 5 once did from its tables."""
    old = _old_database(tmp_path, "main_schema4.db")
    store = await Store.open(old, schemas=ADAPTER_SCHEMAS)
    try:
        async with store.read() as tx:
            game, challenge = await tx.game(1), await tx.challenge(1)
            other = await tx._one("SELECT COUNT(*) FROM games WHERE scope IS NULL")
        assert (game.scope, challenge.scope) == ("discord:guild:4242", "discord:guild:4242")
        assert other[0] == 0
    finally:
        await store.close()


async def test_a_scope_set_since_is_not_overwritten_by_the_discord_migration(db_target):
    """Its backfill only fills scopes that are missing (it runs once per database, after the core's)."""
    store = await Store.open(db_target)
    async with store.write() as tx:
        a = await tx.insert_player("discord", "1", "A", "{}", 0)
        await tx._exec("INSERT INTO challenges (challenger_id, game, colour, created_at, scope) "
                       "VALUES (?, 'chess', 'random', 0, 'email')", (a,))
    await store.close()
    store = await Store.open(db_target, schemas=ADAPTER_SCHEMAS)
    try:
        async with store.read() as tx:
            assert (await tx._one("SELECT scope FROM challenges"))[0] == "email"
    finally:
        await store.close()


async def test_each_owner_is_versioned_apart_and_a_later_set_is_added_to_a_database(db_target):
    store = await Store.open(db_target)  # the core's alone: no adapter's table
    try:
        assert not ADAPTER_TABLES & set(await store.tables())
        assert await _versions(store) == {"core": len(MIGRATIONS)}
    finally:
        await store.close()
    extra = Schema("extra", (("CREATE TABLE extra_notes (player_id INTEGER REFERENCES players(id), note TEXT)",),
                             ("ALTER TABLE extra_notes ADD COLUMN at INTEGER",)))
    store = await Store.open(db_target, schemas=[*ADAPTER_SCHEMAS, extra])
    try:
        assert ADAPTER_TABLES | {"extra_notes"} <= set(await store.tables())
        assert await _versions(store) == {"core": len(MIGRATIONS), "extra": 2} | {
            s.owner: len(s.migrations) for s in ADAPTER_SCHEMAS}
        async with store.read() as tx:
            assert await tx.columns("extra_notes") == ["player_id", "note", "at"]
    finally:
        await store.close()
    # this program knows one version of "extra": a database at two is newer, and refused
    older = Schema("extra", extra.migrations[:1])
    with pytest.raises(StorageError, match="schema version 2 for extra, newer than this program's 1"):
        await Store.open(db_target, schemas=[older])


async def test_the_core_set_is_the_stores_own(db_target):
    with pytest.raises(ValueError, match="the store's own"):
        await Store.open(db_target, schemas=[Schema("core", MIGRATIONS)])
