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

**Connections come back by themselves** (a server restart, a failover to a standby at the same
address). The pool's connections are made again as they are next used, and a transaction whose
connection the server had ended before it began is begun again on a new one. The session of the
store's own, which holds the process's life lock (``hold_life``) and LISTENs (``watch``), is
kept: when the server ends it (or it stops answering the ping every ``PING_SECONDS``) one line is
logged, and it is made again, the life lock taken again and LISTEN said again, tried every
``RECONNECT_MAX_SECONDS`` at most; then the watcher is called once, to catch up on what
changed meanwhile (pages, notices), at once rather than at the next sweep. Meanwhile a
statement raises ``DatabaseUnavailable`` (bot/domain/errors.py: not a refusal, nothing was
done, try again in a moment), which each front end answers so: 503 with ``Retry-After``,
mail handled again later, a private "busy" on Discord; the loops that retry (delivery, the
sweep) retry quietly. ``health()`` says which of the session's parts are up.

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
import logging
import time
import uuid
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager

from ..domain.errors import DatabaseError, DatabaseUnavailable, IntegrityError, StorageError
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
# one connection for the transactions (they take turns), one for the rate limits, one spare
POOL_SIZE = 3
#: how long a connection may take to be made: a server gone at a failover may not refuse at once
CONNECT_SECONDS = 5.0
#: the session's reconnection: the first pause, doubling up to the last
RECONNECT_FIRST_SECONDS, RECONNECT_MAX_SECONDS = 0.05, 0.25
#: the session is asked every this many seconds whether it still answers (a server gone
#: without closing the connection, at a failover), and given this long to answer
PING_SECONDS, PING_ANSWER_SECONDS = 10.0, 5.0

log = logging.getLogger("bot.store")


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


def unreachable(e: BaseException) -> bool:
    """Whether an error of the driver's is the server out of reach (stopped, restarting,
    failing over, the network) rather than a statement refused."""
    if isinstance(e, (OSError, asyncpg.PostgresConnectionError,
                      asyncpg.AdminShutdownError, asyncpg.CrashShutdownError,
                      asyncpg.CannotConnectNowError)):
        return True
    # "connection is closed"; "... released back to the pool": the pool let go of a connection
    # the server closed while a transaction used it
    return isinstance(e, asyncpg.InterfaceError) and ("closed" in str(e) or "released back" in str(e))


def translated(e: Exception) -> Exception:
    if unreachable(e):
        return DatabaseUnavailable()
    kind = IntegrityError if isinstance(e, asyncpg.IntegrityConstraintViolationError) else DatabaseError
    return kind(f"{e}")


def _driver_errors() -> tuple[type[BaseException], ...]:
    # OSError: TimeoutError too; InternalClientError: a connection lost in mid-statement
    return (asyncpg.PostgresError, asyncpg.InterfaceError, asyncpg.InternalClientError, OSError)


async def _driver(awaitable):
    """Await a step of the connection's own (connect, begin, commit), its errors the store's."""
    try:
        return await awaitable
    except _driver_errors() as e:
        raise translated(e) from e


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


async def _released(pool, conn) -> None:
    """Give a connection back to the pool, which closes it if it is broken."""
    with contextlib.suppress(Exception):
        await pool.release(conn)


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
            raise self._failed(e) from e

    def _failed(self, e: BaseException) -> Exception:
        """The store's error for the driver's: on a connection now closed, whatever the driver
        said of it (a statement cut off mid-way), the server went away."""
        return DatabaseUnavailable() if self._c.is_closed() else translated(e)

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
            raise self._failed(e) from e

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
        self._session = None  # the connection holding this process's life, LISTENing once watched
        self._held: str | None = None  # the life its session holds
        self._changed: Callable[[], None] | None = None  # the watcher
        self._lost: asyncio.Event | None = None  # set when the session ends
        self._keeper: asyncio.Task | None = None  # makes the session again
        self._closing = False
        self.outages = 0  # sessions lost and made again (tests read it)
        self.url = url
        self.path = printable(url)

    @classmethod
    async def _open(cls, url: str, schemas: Sequence) -> PostgresStore:
        if asyncpg is None:
            raise StorageError("PostgreSQL needs the asyncpg package: pip install 'fairypost[postgres]'")
        try:
            # no floor kept: the pool would make one again in the background, a traceback each time
            # it fails while the server is away; connections are made as they are needed
            pool = await asyncpg.create_pool(url, min_size=0, max_size=POOL_SIZE, timeout=CONNECT_SECONDS)
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
        self._closing = True
        if self._keeper is not None:
            self._keeper.cancel()
            await asyncio.gather(self._keeper, return_exceptions=True)
        if self._held is not None:
            lives.mark_held(self.url, self._held, False)
        if self._session is not None:
            session, self._session = self._session, None
            with contextlib.suppress(Exception):
                await session.close()  # and the life's lock with it
        await self._pool.close()

    async def hold_life(self, life: str) -> None:
        """A shared session advisory lock on the store's own connection, held while the store
        is open: the server lets go of it when the connection ends (the process died). Taken
        again, on a new connection, after the server ended the old one (a restart)."""
        self._held = life
        self._lost = asyncio.Event()
        await self._open_session()
        lives.mark_held(self.url, life, True)
        self._keeper = asyncio.get_running_loop().create_task(self._keep(), name="fairypost-db-session")

    async def end_life(self, life: str) -> None:
        lives.mark_held(self.url, life, False)
        if self._held == life:
            self._held = None
            if self._session is not None:
                await _driver(self._session.fetchval("SELECT pg_advisory_unlock_shared($1)",
                                                     LIFE_LOCKS + lives.lock_key(life)))

    async def watch(self, changed: Callable[[], None]) -> None:
        """LISTEN on the store's own connection: every other store's committed write calls
        ``changed()`` (a burst of writes may call it once or many times), and so does the
        session's coming back after an outage (what changed meanwhile was not heard)."""
        if self._changed is not None:
            raise RuntimeError("this store is watched already")
        self._changed = changed
        if self._session is not None:
            await _driver(self._session.add_listener(CHANNEL, self._heard))

    def health(self) -> dict[str, bool]:
        """Whether the session is up: its life lock held, and its LISTEN (once watched)."""
        up = self._session is not None and not self._session.is_closed()
        parts = {"life lock": up and self._held is not None}
        if self._changed is not None:
            parts["listener"] = up
        return parts

    def _heard(self, _conn, _pid, _channel, payload) -> None:
        if payload != self._token and self._changed is not None:
            self._changed()

    def _ended(self, conn) -> None:
        """The session's connection ended (the server closed it, or we did)."""
        if conn is self._session and not self._closing:
            self._session = None
            self._lost.set()

    async def _open_session(self) -> None:
        conn = await _driver(asyncpg.connect(self.url, timeout=CONNECT_SECONDS))
        try:
            if self._held is not None:
                # shared: every store the process has open holds it, and it runs while any does
                await _driver(conn.fetchval("SELECT pg_try_advisory_lock_shared($1)",
                                            LIFE_LOCKS + lives.lock_key(self._held)))
            if self._changed is not None:
                await _driver(conn.add_listener(CHANNEL, self._heard))
        except BaseException:
            with contextlib.suppress(Exception):
                await conn.close()
            raise
        conn.add_termination_listener(self._ended)
        self._session = conn

    async def _keep(self) -> None:
        """Keep the session: ping it now and then, and when it has ended make it again (one
        line in the log an outage), then tell the watcher."""
        while True:
            try:
                await asyncio.wait_for(self._lost.wait(), PING_SECONDS)
            except TimeoutError:
                if await self._answers():
                    continue
            self._lost.clear()
            began = time.monotonic()
            log.warning("lost the connection to the database %s (a restart or a failover?): "
                        "reconnecting; meanwhile commands are answered \"busy, try again\"", self.path)
            await self._reconnect()
            self.outages += 1
            log.info("reconnected to the database %s after %.1f s: this process's life lock and "
                     "listening are back", self.path, time.monotonic() - began)
            if self._changed is not None:
                self._changed()  # what other processes did meanwhile was not heard: look again

    async def _answers(self) -> bool:
        """Whether the session answers a ping; if not, it is ended (and made again)."""
        session = self._session
        if session is None:
            return False
        try:
            await asyncio.wait_for(session.fetchval("SELECT 1"), PING_ANSWER_SECONDS)
            return True
        except Exception:  # noqa: BLE001 - whatever went wrong, the session is made again
            self._session = None
            session.terminate()
            return False

    async def _reconnect(self) -> None:
        pause = RECONNECT_FIRST_SECONDS
        while True:
            try:
                await self._open_session()
                return
            except (DatabaseUnavailable, DatabaseError):  # not yet back (starting up, refusing)
                await asyncio.sleep(pause)
                pause = min(2 * pause, RECONNECT_MAX_SECONDS)

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
            conn, transaction = await self._begun(isolation)
            try:
                try:
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

    async def _begun(self, isolation: str):
        """(a connection of the pool, a transaction begun on it). A connection the server
        ended since its last use (a restart) is seen as its BEGIN fails: nothing was done, so
        the transaction is begun again on a new one, once."""
        for attempt in (1, 2):
            conn = await _driver(self._pool.acquire())
            transaction = conn.transaction(isolation=isolation)
            try:
                await _to_the_end(_driver(transaction.start()))
                return conn, transaction
            except DatabaseUnavailable:
                await _released(self._pool, conn)
                if attempt == 2:
                    raise
            except BaseException:  # a stop (cancelled) as it began: ended, not left open
                with contextlib.suppress(Exception):
                    await _to_the_end(transaction.rollback())
                await _released(self._pool, conn)
                raise
        raise AssertionError("unreachable")

    def unannounced_write(self):
        """A write apart from the game's (no write lock: it must change only rows of its own,
        as a process's health report) that wakes no other process."""
        return self._transaction("read_committed", lock=None)

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
