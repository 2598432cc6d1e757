"""The databases the contract tests run on: SQLite always, PostgreSQL too when
``FAIRYPOST_TEST_POSTGRES`` names a server (``tools/pg_throwaway.sh start`` makes one).

On PostgreSQL each test gets a database of its own on that server (made empty from
``template0``, dropped after), so tests never see each other's rows and nothing is left
behind. A database, not a schema: the store's advisory locks (the write lock every write
transaction takes, the players', the process lives') are the database's, whatever the
schema, so tests in schemas of one database run in parallel (pytest-xdist) would wait on
each other's locks, and could wait in a circle that the server cannot see (a test's two
services, one holding the shared write lock while it waits for the other, queued behind
another test's exclusive request)."""

from __future__ import annotations

import os
import uuid
from contextlib import asynccontextmanager
from urllib.parse import urlsplit, urlunsplit

POSTGRES_URL = os.environ.get("FAIRYPOST_TEST_POSTGRES", "")
BACKENDS = ("sqlite", "postgres") if POSTGRES_URL else ("sqlite",)


def with_database(url: str, name: str) -> str:
    """The server's URL with another database named in it."""
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


async def make_database(url: str = POSTGRES_URL) -> tuple[str, str]:
    """A new empty database on the server: (its name, the URL that uses it)."""
    import asyncpg
    name = f"t_{uuid.uuid4().hex[:12]}"
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f"CREATE DATABASE {name} TEMPLATE template0")
    finally:
        await conn.close()
    return name, with_database(url, name)


async def drop_database(name: str, url: str = POSTGRES_URL) -> None:
    """Drop it, ending any session still on it (a killed process's, not yet noticed)."""
    import asyncpg
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    finally:
        await conn.close()


@asynccontextmanager
async def fresh_postgres(url: str = POSTGRES_URL):
    """The URL of an empty database on the server, dropped at exit."""
    name, database_url = await make_database(url)
    try:
        yield database_url
    finally:
        await drop_database(name, url)


@asynccontextmanager
async def fresh_database(backend: str, tmp_path):
    """A fresh database of that back end ("sqlite" or "postgres"), for code run in other
    processes too: a SQLite file's path, or the URL of an empty PostgreSQL database."""
    if backend == "sqlite":
        yield str(tmp_path / "games.db")
    else:
        async with fresh_postgres() as url:
            yield url
