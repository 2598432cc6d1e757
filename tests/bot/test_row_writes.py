"""Writes that lock rows, not the database (issue #22, item 4).

On PostgreSQL a move locks its game (its version check) and the sweeps claim what they do
(``FOR UPDATE SKIP LOCKED``: a game, a turn's reminders, a player's digest), so processes
work side by side: a move in one game never waits for a move in another, and a sweep passes
over a game someone is moving in and does the rest. What must see the whole database
(a vacation, a challenge) still writes alone. On SQLite a row write is a write.

Two services on one database stand for two processes. "Holding" a game is what a move
under way in the first process does between its version check and its commit; the test
keeps that transaction open while the second process acts, and looks at what the second
waits for in PostgreSQL's own view of its sessions (never at a clock)."""

import asyncio
import contextlib
from datetime import timedelta

import pytest

from bot.domain.errors import GameChanged
from bot.store import Store

from .backends import BACKENDS
from .conftest import new_game

ON_POSTGRES = "postgres" in BACKENDS


@pytest.mark.contract
async def test_claims_lock_what_they_return_and_row_writes_commit_or_roll_back(db_target):
    one, two = await Store.open(db_target), await Store.open(db_target)
    try:
        async with one.write() as tx:
            pid = await tx.insert_player("test", "a", "Alice", "{}", 0)
            bob = await tx.insert_player("test", "b", "Bob", "{}", 0)
            gid = await tx.insert_game(game="fake", challenge_id=None, white_id=pid, black_id=bob,
                                       start_vfen="x", days=3, to_move="w", to_move_id=pid,
                                       now=0, deadline=100, scope=None, rated=False)
            await tx.insert_reminder(gid, 1, pid, "your_move", None, 0)
        async with one.row_write() as tx:
            assert (await tx.claim_game(gid)).id == gid
            assert len(await tx.claim_reminders(gid, 1)) == 1
            assert (await tx.claim_player(pid)).name == "Alice"
            assert await tx.claim_game(gid + 1) is None  # none such
            await tx.set_deadline(gid, 200)
            if one.dialect == "postgres":  # another process meanwhile: passed over, not waited for
                async with asyncio.timeout(10):
                    async with two.row_write() as other:
                        assert await other.claim_game(gid) is None
                        assert await other.claim_reminders(gid, 1) == set()
                        assert await other.claim_player(pid) is None
        with contextlib.suppress(RuntimeError):
            async with one.row_write() as tx:
                await tx.set_deadline(gid, 300)
                raise RuntimeError("rolled back")
        async with two.read() as tx:
            assert (await tx.game(gid)).deadline == 200  # the first committed, the second not
    finally:
        await one.close()
        await two.close()


if ON_POSTGRES:
    on_postgres = pytest.mark.parametrize("backend", ["postgres"], indirect=True)

    class Processes:
        """Two services (processes one and two), and stores of their own for the test: to
        hold games as a move under way does, and to look at the server's sessions (a store's
        transactions take turns within its process, so the test never uses a service's
        store for that while the service is busy). The stores are opened beforehand:
        opening one migrates, a whole-database write, which would queue behind a hold."""

        def __init__(self, one, two, stores):
            self.one, self.two = one, two
            self.observer, *self.spare = stores
            self.stores = stores

        def store(self):
            """A store of its own, opened beforehand."""
            return self.spare.pop()

        async def until_waiting(self, task: asyncio.Task) -> None:
            """Until ``task`` waits for a lock on the server (at most 10 s): blocked, not slow."""
            async with asyncio.timeout(10):
                while True:
                    async with self.observer.read() as tx:
                        row = await tx.fetch_one(
                            "SELECT COUNT(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                            "AND datname = current_database()")
                    if row[0]:
                        break
                    assert not task.done(), task.result()
                    await asyncio.sleep(0.01)
            assert not task.done()

        @contextlib.asynccontextmanager
        async def holding(self, game_id: int, *, commit: bool = False):
            """A move under way in another process: the game's version checked (so the game
            locked), not committed until exit; then rolled back unless ``commit``."""
            store = self.store()
            async with store.read() as tx:
                version = (await tx.game(game_id)).version
            with contextlib.suppress(_Release):
                async with store.row_write() as tx:
                    assert await tx.bump_version(game_id, version)
                    yield tx
                    if not commit:
                        raise _Release()

    class _Release(Exception):
        pass

    @pytest.fixture
    async def procs(opener, fake_engine, backend, db_target):
        p = Processes(await opener(), await opener(), [await Store.open(db_target) for _ in range(4)])
        p.alice = await p.one.player("test", "a", "Alice")
        p.bob = await p.one.player("test", "b", "Bob")
        p.carol = await p.one.player("test", "c", "Carol")
        yield p
        for store in p.stores:
            await store.close()

    @on_postgres
    async def test_a_move_does_not_wait_for_a_move_in_another_game(procs):
        one, two, alice, bob, carol = procs.one, procs.two, procs.alice, procs.bob, procs.carol
        g1 = await new_game(one, alice, bob)
        g2 = await new_game(one, alice, carol)
        async with procs.holding(g1.id):
            async with asyncio.timeout(10):  # the other game: straight through
                done = await two.move(g2.id, alice.id, "a1")
            assert done.game.ply == 1
            # the same game: it waits for the move under way to end
            same = asyncio.create_task(two.move(g1.id, alice.id, "a1", expected_ply=0))
            await procs.until_waiting(same)
        # that one rolled back: the waiting move goes through, once
        assert (await same).game.ply == 1
        assert [m.lan for m in (await two.game(g1.id)).moves] == ["a1"]

    @on_postgres
    async def test_of_two_processes_moving_in_one_game_at_once_the_second_is_refused(procs):
        one, two, alice, bob = procs.one, procs.two, procs.alice, procs.bob
        g = await new_game(one, alice, bob)
        async with procs.holding(g.id, commit=True):  # another process's move, about to commit
            second = asyncio.create_task(two.move(g.id, alice.id, "a1", expected_ply=0))
            await procs.until_waiting(second)
        with pytest.raises(GameChanged):  # it had read the game before, and finds it changed
            await second
        assert (await two.game(g.id)).moves == ()

    @on_postgres
    async def test_a_sweep_passes_over_games_in_play_and_does_the_others(procs, clock):
        one, two, alice, bob, carol = procs.one, procs.two, procs.alice, procs.bob, procs.carol
        late1 = await new_game(one, alice, bob, days=1)
        late2 = await new_game(one, alice, carol, days=1)
        warned = await new_game(one, bob, carol, days=3)
        await one.sweep()  # every "your move" out
        clock.advance(timedelta(days=2, hours=1))  # both late games out of time; a warning due in the third
        async with procs.holding(late1.id), procs.holding(warned.id):
            async with asyncio.timeout(10):  # never waits for the games held
                report = await two.sweep()
            assert (report.games_timed_out, report.reminders) == (1, 0)
            assert (await two.game(late2.id)).reason == "time"
            assert (await two.game(late1.id)).status == "active"
        # released (those moves rolled back): the next sweep does what it passed over, once
        report = await two.sweep()
        assert (report.games_timed_out, report.reminders) == (1, 1)
        assert (await two.game(late1.id)).reason == "time"
        again = await one.sweep()
        assert (again.games_timed_out, again.reminders) == (0, 0)

    @on_postgres
    async def test_a_digest_being_written_elsewhere_is_passed_over(procs, clock):
        one, two, alice, bob = procs.one, procs.two, procs.alice, procs.bob
        await new_game(one, alice, bob)  # Alice to move: her digest lists the game
        await one.sweep()
        await one.update_settings(alice.id, digest_time="09:00")
        clock.advance(timedelta(days=1))
        other = procs.store()
        async with other.row_write() as tx:  # another process writing Alice's digest
            assert await tx.claim_player(alice.id) is not None
            async with asyncio.timeout(10):
                assert (await two.sweep()).digests == 0
        assert (await two.sweep()).digests == 1
        assert (await one.sweep()).digests == 0

    @on_postgres
    async def test_a_whole_database_write_waits_for_row_writes_and_keeps_them_off(procs):
        one, two, bob, carol = procs.one, procs.two, procs.bob, procs.carol
        g = await new_game(one, procs.alice, bob)
        other = await new_game(one, carol, bob)
        async with procs.holding(g.id):
            vacation = asyncio.create_task(two.start_vacation(carol.id, 3))
            await procs.until_waiting(vacation)
        assert (await vacation).on_vacation
        whole = procs.store()
        async with whole.write():  # a whole-database write under way elsewhere
            move = asyncio.create_task(two.move(other.id, carol.id, "a1"))
            await procs.until_waiting(move)
        assert (await move).game.ply == 1
        assert not (await two.vacation(carol.id)).on_vacation  # her move ended it

    @on_postgres
    async def test_two_rated_games_of_one_player_ending_at_once_both_count(procs):
        one, two, alice, bob, carol = procs.one, procs.two, procs.alice, procs.bob, procs.carol
        g1 = await new_game(one, alice, bob, rated=True)
        g2 = await new_game(one, alice, carol, rated=True)
        async with procs.holding(g1.id) as tx:  # g1 ending elsewhere: Alice's rating held
            await tx.lock_players([alice.id])
            ending = asyncio.create_task(two.resign(g2.id, carol.id))
            await procs.until_waiting(ending)
        await ending
        await one.resign(g1.id, bob.id)
        async with one.store.read() as tx:
            assert (await tx.rating(alice.id, "fake")).games == 2  # neither update lost
