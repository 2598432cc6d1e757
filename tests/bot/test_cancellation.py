"""A service call cancelled at any await (shutdown, wait_for, a timeout) leaves no
transaction open: the store takes a new write at once, and so does another process."""

import asyncio
import sqlite3

import pytest

from bot.domain.errors import DatabaseError
from bot.store import Store

from .conftest import new_game


class Canceller:
    """Counts the statements the connection is asked to run (every await on the database
    goes through ``_execute``) and cancels the calling task at the k-th: ``before`` it is
    queued (it never runs) or ``during`` (it runs on aiosqlite's thread all the same)."""

    def __init__(self, store: Store):
        self.conn = store._conn
        self.original = self.conn._execute
        self.count = 0
        self.cancel_at = None
        self.mode = "before"
        self.target = None
        self.conn._execute = self._execute

    async def _execute(self, fn, *args, **kwargs):
        self.count += 1
        if self.count == self.cancel_at and self.target is not None:
            self.target.cancel()
            if self.mode == "before":
                await asyncio.sleep(0)  # the cancellation lands here: the statement never runs
        return await self.original(fn, *args, **kwargs)

    async def run(self, make_call, cancel_at: int | None, mode: str = "before"):
        """Run ``make_call()`` as a task, cancelled at statement ``cancel_at``; returns
        (how many statements it asked for, whether it was cancelled)."""
        self.count, self.cancel_at, self.mode = 0, cancel_at, mode
        self.target = asyncio.ensure_future(make_call())
        try:
            await self.target
            cancelled = False
        except asyncio.CancelledError:
            cancelled = True
        finally:
            self.target = None
        return self.count, cancelled


def other_process_writes(path: str) -> None:
    """A second connection (another process) takes the write lock at once and writes."""
    conn = sqlite3.connect(path, timeout=0.5, isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("UPDATE players SET name = name WHERE id = 1")
        conn.execute("COMMIT")
    finally:
        conn.close()


async def assert_store_free(svc) -> None:
    assert not svc.store._conn.in_transaction
    assert not svc.store._lock.locked()
    async with asyncio.timeout(2):  # a new write at once, not "within a transaction"
        async with svc.store.write() as tx:
            await tx._exec("UPDATE players SET name = name WHERE id = 1")
    other_process_writes(svc.store.path)


async def cancel_everywhere(svc, prepare, call) -> int:
    """Cancel ``call(state)`` at each of its statements in turn (both ways); returns how
    many statements it has uncancelled."""
    canceller = Canceller(svc.store)
    state = await prepare()
    total, cancelled = await canceller.run(lambda: call(state), None)
    assert not cancelled and total > 0
    for k in range(1, total + 1):
        for mode in ("before", "during"):
            state = await prepare()
            _, cancelled = await canceller.run(lambda state=state: call(state), k, mode)
            assert cancelled, (k, mode)
            await assert_store_free(svc)
    return total


@pytest.fixture
async def players(svc):
    return [await svc.player("test", "a", "Alice"), await svc.player("test", "b", "Bob")]


async def test_cancelled_challenges_leave_no_transaction(svc, players):
    alice, bob = players

    async def prepare():
        svc.limiter.rate = 0  # many calls in a row: no flood control here, nor a limit on challenges
        svc.settings = svc.settings.with_(max_open_challenges=10**6, max_challenges_per_opponent=10**6)
        return None

    n = await cancel_everywhere(svc, prepare, lambda _: svc.challenge(alice.id, "fake", opponent_id=bob.id,
                                                                      days=3, colour="white"))
    assert n >= 3


async def test_cancelled_accepts_leave_no_transaction(svc, players):
    alice, bob = players
    svc.limiter.rate = 0
    svc.settings = svc.settings.with_(max_open_challenges=10**6, max_challenges_per_opponent=10**6)

    async def prepare():
        return await svc.challenge(alice.id, "fake", opponent_id=bob.id, days=3, colour="white")

    await cancel_everywhere(svc, prepare, lambda c: svc.accept_challenge(c.id, bob.id))


async def test_cancelled_moves_leave_no_transaction(svc, players):
    alice, bob = players
    svc.limiter.rate = 0

    async def prepare():
        return await new_game(svc, alice, bob)

    await cancel_everywhere(svc, prepare, lambda g: svc.move(g.id, alice.id, "a1"))
    # and the games cancelled mid-move are whole: each has its move, or none
    for g in await svc.list_games(alice.id):
        view = await svc.game(g.id)
        assert view.ply == len(view.moves) and view.ply in (0, 1)


async def test_cancelled_settings_leave_no_transaction(svc, players):
    alice, _ = players
    svc.limiter.rate = 0

    async def prepare():
        return None

    await cancel_everywhere(svc, prepare, lambda _: svc.update_settings(alice.id, timezone="Europe/Paris"))
    assert (await svc.get_player(alice.id)).settings.timezone == "Europe/Paris"


async def test_a_failed_begin_leaves_the_lock_free(svc, players):
    """Another process holds the write lock past the busy timeout: the call fails with
    the store's DatabaseError (with SQLite's words), and the store is usable right after."""
    other = sqlite3.connect(svc.store.path, isolation_level=None)
    await svc.store._conn.execute("PRAGMA busy_timeout = 50")
    other.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(DatabaseError, match="locked"):
            async with svc.store.write():
                pass
    finally:
        other.execute("ROLLBACK")
        other.close()
    await assert_store_free(svc)
