"""The SQLite back end (the default): one file, through aiosqlite.

WAL journal, foreign keys on, ``synchronous = FULL``: a commit is on the disk (fsynced)
before the call returns, so an acknowledged move survives a power cut as well as a crash
of the program (in WAL mode that costs one fsync of the log per commit, nothing at
correspondence pace).

Several processes may share the file: ``BEGIN IMMEDIATE`` takes SQLite's write lock before
the first statement, so a game's version check, the move's row and the rest of the write
are one step against every other process's writes, and a transaction cut off by a kill is
rolled back by the next connection (WAL). The file ``<database>-lives`` beside it holds the
processes' life locks (``bot.store.lives``).

``watch()`` polls ``PRAGMA data_version`` on the store's own connection every
``WATCH_SECONDS``: it moves on only when another connection (another process) committed a
change, so this process's own writes and other processes' empty writes wake nobody.

One connection is shared by the whole service. An ``asyncio.Lock`` lets one transaction at
a time use it (aiosqlite runs statements from many coroutines on one thread, and SQLite has
one transaction per connection): ``read()`` opens a ``BEGIN`` snapshot, ``write()`` a
``BEGIN IMMEDIATE`` one. The lock is fair (FIFO).
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

import aiosqlite

from ..domain.errors import DatabaseError, IntegrityError, StorageError
from . import lives
from .base import StoreBase, checked
from .tx import Tx


def translated(e: sqlite3.Error) -> DatabaseError:
    """The driver's error as the store's (the service never sees which database)."""
    kind = IntegrityError if isinstance(e, sqlite3.IntegrityError) else DatabaseError
    return kind(f"{e}")


class SQLiteTx(Tx):
    dialect = "sqlite"

    def __init__(self, conn: aiosqlite.Connection, path: str):
        self._c = conn
        self._path = path

    async def life_ended(self, life: str) -> bool:
        """No process holds the life's lock on this file (``bot.store.lives``)."""
        return self._path != ":memory:" and lives.file_life_ended(self._path, life)

    async def _run(self, sql: str, params: Sequence) -> aiosqlite.Cursor:
        try:
            return await self._c.execute(sql, checked(params))
        except sqlite3.Error as e:
            raise translated(e) from e

    async def _exec(self, sql: str, params: Sequence = ()) -> None:
        await self._run(sql, params)

    async def _one(self, sql: str, params: Sequence = ()):
        cur = await self._run(sql, params)
        try:
            return await cur.fetchone()
        finally:
            await cur.close()

    async def _all(self, sql: str, params: Sequence = ()) -> list:
        cur = await self._run(sql, params)
        try:
            return list(await cur.fetchall())
        finally:
            await cur.close()

    async def _insert(self, sql: str, params: Sequence) -> int:
        return (await self._run(sql, params)).lastrowid

    async def _exec_many(self, sql: str, rows: Sequence[Sequence]) -> None:
        try:
            await self._c.executemany(sql, [checked(r) for r in rows])
        except sqlite3.Error as e:
            raise translated(e) from e

    async def columns(self, table: str) -> list[str]:
        rows = await self._all("SELECT name FROM pragma_table_info(?) ORDER BY cid", (table,))
        return [r[0] for r in rows]

    async def loaded(self, table: str) -> None:
        """After rows were copied in with their ids: nothing to do (SQLite numbers on from
        the largest)."""

    async def _change(self, sql: str, params: Sequence) -> int:
        return (await self._run(sql, params)).rowcount


WATCH_SECONDS = 0.25  # another process's commit is seen this soon (a pragma: microseconds)


class SQLiteStore(StoreBase):
    """The database file."""

    dialect = "sqlite"

    def __init__(self, conn: aiosqlite.Connection, path: str):
        self._conn = conn
        self._lock = asyncio.Lock()
        self.path = path
        self._watcher: asyncio.Task | None = None

    @classmethod
    async def _open(cls, path: str | os.PathLike, schemas: Sequence) -> SQLiteStore:
        path = os.fspath(path)
        try:
            conn = await aiosqlite.connect(path, isolation_level=None)
        except sqlite3.Error as e:
            raise translated(e) from e
        try:
            conn.row_factory = aiosqlite.Row
            await conn.execute("PRAGMA busy_timeout = 10000")
            mode = await (await conn.execute("PRAGMA journal_mode = WAL")).fetchone()
            if path != ":memory:" and mode[0].lower() != "wal":
                raise StorageError(f"cannot put {path} in WAL mode (got {mode[0]})")
            await conn.execute("PRAGMA foreign_keys = ON")
            await conn.execute("PRAGMA synchronous = FULL")
            store = cls(conn, path)
            await store._migrate(schemas)
            return store
        except sqlite3.Error as e:
            await conn.close()
            raise translated(e) from e
        except BaseException:
            await conn.close()
            raise

    async def close(self) -> None:
        if self._watcher is not None:
            self._watcher.cancel()
            await asyncio.gather(self._watcher, return_exceptions=True)
            self._watcher = None
        async with self._lock:
            await self._conn.close()
        if self.life:
            await self.end_life(self.life)

    async def hold_life(self, life: str) -> None:
        """A byte-range lock of the file ``<database>-lives`` (``bot.store.lives``): the system lets
        go of it when the process ends, however it ends."""
        if self.path != ":memory:":
            lives.hold_file_life(self.path, life)

    async def end_life(self, life: str) -> None:
        if self.path != ":memory:":
            lives.end_file_life(self.path, life)

    async def watch(self, changed) -> None:
        """Call ``changed()`` within ``WATCH_SECONDS`` of another process's committed change."""
        if self._watcher is not None:
            raise RuntimeError("this store is watched already")
        if self.path == ":memory:":  # no other process can see it
            return
        seen = await self._data_version()
        self._watcher = asyncio.get_running_loop().create_task(self._poll(changed, seen))

    async def _poll(self, changed, seen: int) -> None:
        while True:
            await asyncio.sleep(WATCH_SECONDS)
            try:
                now = await self._data_version()
            except (DatabaseError, ValueError):  # closed under us: the store is ending
                return
            if now != seen:
                seen = now
                changed()

    async def _data_version(self) -> int:
        async with self._lock:
            try:
                cur = await self._conn.execute("PRAGMA data_version")
                row = await cur.fetchone()
                await cur.close()
            except sqlite3.Error as e:
                raise translated(e) from e
        return row[0]

    async def tables(self) -> list[str]:
        async with self.read() as tx:
            rows = await tx._all("SELECT name FROM sqlite_master WHERE type = 'table' "
                                 "AND name NOT LIKE 'sqlite_%' ORDER BY name")
        return [r[0] for r in rows]

    @asynccontextmanager
    async def read(self) -> AsyncIterator[SQLiteTx]:
        """A consistent snapshot (a deferred transaction, ended at exit)."""
        async with self._lock:
            await self._begin("BEGIN")
            try:
                yield SQLiteTx(self._conn, self.path)
            finally:
                await self._end("COMMIT")

    @asynccontextmanager
    async def write(self) -> AsyncIterator[SQLiteTx]:
        """``BEGIN IMMEDIATE``; commit at exit, roll back on any exception."""
        async with self._lock:
            await self._begin("BEGIN IMMEDIATE")
            try:
                yield SQLiteTx(self._conn, self.path)
            except BaseException:
                await self._end("ROLLBACK")
                raise
            else:
                await self._end("COMMIT")

    # Cancellation safety. aiosqlite runs a statement on its own thread: a caller cancelled
    # while awaiting one does not stop it. So a BEGIN whose caller was cancelled may still
    # open a transaction, and a ROLLBACK or COMMIT abandoned half way would leave one open
    # (holding SQLite's write lock against every later call and every other process). The
    # statements that open and close a transaction are therefore awaited to the end, a
    # cancellation meanwhile being raised only once the connection is out of the transaction.

    async def _begin(self, sql: str) -> None:
        try:
            await _to_the_end(self._conn.execute(sql))
        except BaseException as e:
            if self._conn.in_transaction:  # it began, but the caller is gone (or it failed late)
                await _to_the_end(self._conn.execute("ROLLBACK"))
            if isinstance(e, sqlite3.Error):
                raise translated(e) from e
            raise

    async def _end(self, sql: str) -> None:
        try:
            await _to_the_end(self._conn.execute(sql))
        except sqlite3.Error as e:
            raise translated(e) from e
        finally:
            if self._conn.in_transaction:  # a COMMIT that failed (busy, I/O): nothing half written
                await _to_the_end(self._conn.execute("ROLLBACK"))


async def _to_the_end(awaitable):
    """Await ``awaitable`` to completion even if the caller is cancelled meanwhile; the
    cancellation is raised afterwards (its result or error then goes unread)."""
    future = asyncio.ensure_future(awaitable)
    cancelled = False
    while not future.done():
        try:
            await asyncio.shield(future)
        except asyncio.CancelledError:
            cancelled = True  # raised below, even if the statement ended in the same moment
            if future.done():
                break
        except BaseException:  # noqa: BLE001 - the future's own error: read below
            break
    if cancelled:
        if not future.cancelled():
            future.exception()  # read, so that asyncio does not log it as never retrieved
        raise asyncio.CancelledError()
    return future.result()
