"""The PostgreSQL back end, for a bot run as several processes on one database: asyncpg
with a connection pool.

The statements are ``Tx``'s, written once with SQLite's ``?`` placeholders; here they are
numbered (``$1``, ``$2``, ...) once per text and cached. ``read()`` is a REPEATABLE READ
transaction (one snapshot, as SQLite's).

Writes are READ COMMITTED transactions of two kinds, told apart by one transaction-scoped
advisory lock that every write takes first:

- ``row_write()`` takes it shared, and then locks the rows it works on: a game by its
  version check (``UPDATE ... WHERE version = ?``: a second writer waits for the first's
  commit, then finds the version moved on, so ``expected_ply`` stays exact across
  processes) or by a claim (``SELECT ... FOR UPDATE SKIP LOCKED``: the sweeps of several
  processes share out due timeouts, reminders, digests and notices, and never wait for a
  game a player is moving in); players by advisory locks in id order before their ratings.
  Moves in different games, and the sweeps' work, go on in parallel across processes.
- ``write()`` takes it exclusive: one at a time, with no row write running, as every write
  is on SQLite. Whatever the service checks across rows (a challenge still open and the
  limits on them, a vacation and the deadlines it moves, settings) is written so.

Deadlocks cannot arise: a row write locks one game (or claimed rows) first, then only that
game's rows and then players in order; an exclusive write holds nothing while it waits.
Each write that changes a row also notifies (``pg_notify``, sent at its commit) so that other processes'
``watch`` hears it.

Within one process transactions take turns, first come first served, as on SQLite (a fair
``asyncio.Lock``): the service's commands then meet in the same order on either database
(two commands on one game that overlap both read before either writes, and the second is
refused with ``GameChanged``). Across processes the same race may instead find the first
already done, and is refused for what it then sees.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import uuid
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager

from ..domain.errors import DatabaseError, IntegrityError, StorageError
from . import lives
from .base import StoreBase, checked, printable
from .tx import Tx

try:
    import asyncpg
except ImportError:  # an optional dependency: SQLite needs nothing more
    asyncpg = None

#: the advisory lock every write transaction holds, exclusive or shared (any constant: "fp")
WRITE_LOCK = 0x6670
#: process lives' session advisory locks (``bot.store.lives``): 2**61 plus 60 bits of the life's id,
#: apart from the write lock (a small number) and the players' (``tx_players.PLAYER_LOCKS``, 2**62 up)
LIFE_LOCKS = 1 << 61
#: the channel each write transaction notifies (at its commit) with its process's token
CHANNEL = "fairypost_changes"
# one connection for the transactions (they take turns), one for listening, one spare
POOL_SIZE = 3


@functools.lru_cache(maxsize=1024)
def numbered(sql: str) -> str:
    """``?`` placeholders as ``$1``, ``$2``, ... (none of the store's SQL has a ``?`` inside a
    string literal; one there is kept as it is)."""
    out, n, quoted = [], 0, False
    for ch in sql:
        if ch == "'":
            quoted = not quoted
        if ch == "?" and not quoted:
            n += 1
            out.append(f"${n}")
        else:
            out.append(ch)
    return "".join(out)


def translated(e: Exception) -> DatabaseError:
    kind = IntegrityError if isinstance(e, asyncpg.IntegrityConstraintViolationError) else DatabaseError
    return kind(f"{e}")


def _driver_errors() -> tuple[type[BaseException], ...]:
    return (asyncpg.PostgresError, asyncpg.InterfaceError)


async def _driver(awaitable):
    """Await a step of the connection's own (connect, begin, commit), its errors the store's."""
    try:
        return await awaitable
    except _driver_errors() as e:
        raise translated(e) from e
    except OSError as e:  # the server went away
        raise DatabaseError(f"the database connection failed: {e}") from e


async def _to_the_end(awaitable):
    """Await a BEGIN, COMMIT or ROLLBACK to its end though the task be cancelled meanwhile
    (a stop), the cancellation raised after: one cut off midway leaves the connection in a
    transaction, which the pool resets with an error in the log."""
    step = asyncio.ensure_future(awaitable)
    cancelled = False
    while not step.done():
        try:
            await asyncio.shield(step)
        except asyncio.CancelledError:
            cancelled = True
    if cancelled:
        raise asyncio.CancelledError
    return step.result()


class PostgresTx(Tx):
    dialect = "postgres"

    def __init__(self, conn, url: str = ""):
        self._c = conn
        self._url = url

    async def life_ended(self, life: str) -> bool:
        """No session holds the life's advisory lock on this database."""
        if lives.held_here(self._url, life):
            return False
        key = LIFE_LOCKS + lives.lock_key(life)
        row = await self._one(
            "SELECT NOT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted "
            "AND database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
            "AND objsubid = 1 AND ((classid::bigint << 32) | objid::bigint) = ?)", (key,))
        return bool(row[0])

    async def _call(self, method: str, sql: str, params: Sequence):
        try:
            return await getattr(self._c, method)(numbered(sql), *checked(params))
        except _driver_errors() as e:
            raise translated(e) from e

    async def _exec(self, sql: str, params: Sequence = ()) -> None:
        await self._call("execute", sql, params)

    async def _one(self, sql: str, params: Sequence = ()):
        return await self._call("fetchrow", sql, params)

    async def _all(self, sql: str, params: Sequence = ()) -> list:
        return await self._call("fetch", sql, params)

    async def _exec_many(self, sql: str, rows: Sequence[Sequence]) -> None:
        try:
            await self._c.executemany(numbered(sql), [checked(r) for r in rows])
        except _driver_errors() as e:
            raise translated(e) from e

    async def columns(self, table: str) -> list[str]:
        rows = await self._all("SELECT column_name FROM information_schema.columns "
                               "WHERE table_schema = current_schema() AND table_name = ? "
                               "ORDER BY ordinal_position", (table,))
        return [r[0] for r in rows]

    async def loaded(self, table: str) -> None:
        """After rows were copied in with their ids: the table's numbering goes on after the
        largest (an identity column does not follow ids given to it)."""
        if "id" in await self.columns(table):
            row = await self._one("SELECT pg_get_serial_sequence(?, 'id')", (table,))
            if row[0] is not None:
                await self._exec(f"SELECT setval(?, COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)",
                                 (row[0],))

    async def _change(self, sql: str, params: Sequence) -> int:
        status = await self._call("execute", sql, params)  # "UPDATE 3", "DELETE 0", "INSERT 0 1"
        return int(status.rsplit(" ", 1)[-1])


class PostgresStore(StoreBase):
    """A PostgreSQL database, by its ``postgresql://user:password@host:port/dbname`` URL."""

    dialect = "postgres"
    shared_between_processes = True

    def __init__(self, pool, url: str):
        self._pool = pool
        self._lock = asyncio.Lock()
        self._token = uuid.uuid4().hex  # this store's own notifications are not news to it
        self._listener = None
        self._life = None  # the connection whose session holds this process's life
        self.url = url
        self.path = printable(url)

    @classmethod
    async def _open(cls, url: str, schemas: Sequence) -> PostgresStore:
        if asyncpg is None:
            raise StorageError("PostgreSQL needs the asyncpg package: pip install 'fairypost[postgres]'")
        try:
            pool = await asyncpg.create_pool(url, min_size=1, max_size=POOL_SIZE)
        except (OSError, *_driver_errors()) as e:
            raise StorageError(f"cannot connect to {printable(url)}: {e}") from e
        except ValueError as e:  # a malformed URL
            raise StorageError(f"not a usable database URL: {printable(url)}: {e}") from e
        store = cls(pool, url)
        try:
            await store._migrate(schemas)
        except BaseException:
            await pool.close()
            raise
        return store

    async def close(self) -> None:
        if self._listener is not None:
            listener, self._listener = self._listener, None
            await listener.close()
        if self._life is not None:
            conn, self._life = self._life, None
            lives.mark_held(self.url, self.life, False)
            await conn.close()  # and its lock with it
        await self._pool.close()

    async def hold_life(self, life: str) -> None:
        """A session advisory lock on a connection of its own, held while the store is open:
        the server lets go of it when the connection ends (the process died)."""
        if self._life is None:
            self._life = await _driver(asyncpg.connect(self.url))
        # shared: every store the process has open holds it, and it runs while any does
        await _driver(self._life.fetchval("SELECT pg_try_advisory_lock_shared($1)",
                                          LIFE_LOCKS + lives.lock_key(life)))
        lives.mark_held(self.url, life, True)

    async def end_life(self, life: str) -> None:
        lives.mark_held(self.url, life, False)
        if self._life is not None:
            await _driver(self._life.fetchval("SELECT pg_advisory_unlock_shared($1)",
                                              LIFE_LOCKS + lives.lock_key(life)))

    async def watch(self, changed: Callable[[], None]) -> None:
        """LISTEN on a connection of its own: every other store's committed write calls
        ``changed()`` (a burst of writes may call it once or many times)."""
        if self._listener is not None:
            raise RuntimeError("this store is watched already")

        def heard(_conn, _pid, _channel, payload):
            if payload != self._token:
                changed()

        self._listener = await _driver(asyncpg.connect(self.url))
        await _driver(self._listener.add_listener(CHANNEL, heard))

    async def tables(self) -> list[str]:
        async with self.read() as tx:
            rows = await tx._all("SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
                                 "ORDER BY tablename")
        return [r[0] for r in rows]

    async def take_token(self, player_id: int, budget: str, now: float, rate: float,
                         burst: float) -> tuple[float, bool]:
        """One statement in autocommit: no transaction, not the database's write lock (other
        processes' writes do not hold it up), no notification (nothing for the other
        processes to look at). It takes this process's turn, as a transaction does, so that
        two commands sent at once still both read before either writes, as on SQLite."""
        async with self._lock:
            conn = await _driver(self._pool.acquire())
            try:
                return await PostgresTx(conn, self.url).take_token(player_id, budget, now, rate, burst)
            finally:
                await self._pool.release(conn)

    @asynccontextmanager
    async def _transaction(self, isolation: str, lock: str | None) -> AsyncIterator[PostgresTx]:
        """``lock``: None (a read), "exclusive" or "shared" (the write lock's mode)."""
        async with self._lock:
            conn = await _driver(self._pool.acquire())
            try:
                transaction = conn.transaction(isolation=isolation)
                try:
                    await _to_the_end(_driver(transaction.start()))
                    tx = PostgresTx(conn, self.url)
                    if lock == "exclusive":
                        await tx._exec("SELECT pg_advisory_xact_lock(?)", (WRITE_LOCK,))
                    elif lock == "shared":
                        await tx._exec("SELECT pg_advisory_xact_lock_shared(?)", (WRITE_LOCK,))
                    yield tx
                    if lock:  # sent at the commit, only if it commits, and only if it changed
                        # something (a row written gives the transaction its id): a write that
                        # found nothing to do woke the others, whose own such writes woke it
                        await tx._exec("SELECT pg_notify(?, ?) WHERE txid_current_if_assigned() "
                                       "IS NOT NULL", (CHANNEL, self._token))
                except BaseException:
                    # the error (or cancellation) that got here is the one to raise: a
                    # connection too broken to roll back is closed by the pool on release
                    with contextlib.suppress(Exception):
                        await _to_the_end(transaction.rollback())
                    raise
                else:
                    await _to_the_end(_driver(transaction.commit()))
            finally:
                await self._pool.release(conn)

    def read(self):
        """One snapshot (REPEATABLE READ), ended at exit."""
        return self._transaction("repeatable_read", lock=None)

    def write(self):
        """A transaction holding the database's write lock alone: commit at exit, roll back
        on any exception."""
        return self._transaction("read_committed", lock="exclusive")

    def row_write(self):
        """A transaction holding the write lock shared, beside other row writes: its body
        locks the rows it changes (see the module's doc)."""
        return self._transaction("read_committed", lock="shared")
