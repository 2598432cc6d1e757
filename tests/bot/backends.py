"""The databases the contract tests run on: SQLite always, PostgreSQL too when
``FAIRYPOST_TEST_POSTGRES`` names a server (``tools/pg_throwaway.sh start`` makes one).

On PostgreSQL each test gets a schema of its own (made empty, dropped after), named in the
URL (``?search_path=``, which asyncpg passes to the server), so tests never see each
other's rows and nothing is left behind."""

from __future__ import annotations

import os
import uuid
from contextlib import asynccontextmanager
from urllib.parse import urlsplit, urlunsplit

POSTGRES_URL = os.environ.get("FAIRYPOST_TEST_POSTGRES", "")
BACKENDS = ("sqlite", "postgres") if POSTGRES_URL else ("sqlite",)


def with_schema(url: str, schema: str) -> str:
    parts = urlsplit(url)
    query = "&".join(q for q in (parts.query, f"search_path={schema}") if q)
    return urlunsplit(parts._replace(query=query))


async def make_schema(url: str = POSTGRES_URL) -> tuple[str, str]:
    """A new empty schema on the server: (its name, the URL that uses it)."""
    import asyncpg
    schema = f"t_{uuid.uuid4().hex[:12]}"
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f"CREATE SCHEMA {schema}")
    finally:
        await conn.close()
    return schema, with_schema(url, schema)


async def drop_schema(schema: str, url: str = POSTGRES_URL) -> None:
    import asyncpg
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f"DROP SCHEMA {schema} CASCADE")
    finally:
        await conn.close()


@asynccontextmanager
async def fresh_postgres(url: str = POSTGRES_URL):
    """The URL of an empty schema on the server, dropped at exit."""
    schema, schema_url = await make_schema(url)
    try:
        yield schema_url
    finally:
        await drop_schema(schema, url)


@asynccontextmanager
async def fresh_database(backend: str, tmp_path):
    """A fresh database of that back end ("sqlite" or "postgres"), for code run in other
    processes too: a SQLite file's path, or the URL of an empty PostgreSQL schema."""
    if backend == "sqlite":
        yield str(tmp_path / "games.db")
    else:
        async with fresh_postgres() as url:
            yield url
