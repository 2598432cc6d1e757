"""The per-player rate limit across processes (issue #22, item 4).

On a database several processes share (PostgreSQL), each player's token bucket is kept in
the database and taken in one atomic statement, so a player whose commands land on two
processes still has one budget (``command_burst`` at once, then ``command_rate_per_minute``).
SQLite (one process) keeps the bucket in memory: no extra write a command.

Two services on one database stand for two processes (each its own store and pool)."""

import asyncio
import dataclasses
from datetime import timedelta

import pytest

from bot.delivery.limits import CommandLimiter, SharedCommandLimiter
from bot.domain.errors import IllegalMove, RateLimited
from bot.store import Store

from .backends import BACKENDS
from .conftest import new_game

RATE, BURST = 6, 3  # one command every 10 s, three at once


@pytest.fixture
def limited(settings):
    return dataclasses.replace(settings, command_rate_per_minute=RATE, command_burst=BURST)


@pytest.mark.contract
async def test_the_bucket_statement_takes_refuses_and_refills(db_target):
    """The one statement the shared limiter runs, on either database: ``burst`` takes,
    then refusals that cost nothing, then one more token per 1/rate seconds."""
    store = await Store.open(db_target)
    try:
        rate, t0 = RATE / 60.0, 1_736_164_800.0
        left = [await store.take_token(7, "commands", t0, rate, BURST) for _ in range(BURST)]
        assert left == [(2.0, False), (1.0, False), (0.0, False)]
        assert await store.take_token(7, "commands", t0 + 5, rate, BURST) == pytest.approx((0.5, True))
        assert await store.take_token(7, "commands", t0 + 9, rate, BURST) == pytest.approx((0.9, True))
        # the refusals took nothing: at 10 s there is exactly one token again
        assert await store.take_token(7, "commands", t0 + 10, rate, BURST) == pytest.approx((0.0, False))
        # each player their own, and each budget of a player its own
        assert await store.take_token(8, "commands", t0 + 10, rate, BURST) == (2.0, False)
        assert await store.take_token(7, "reads", t0 + 10, rate, BURST) == (2.0, False)
        # a long wait fills the bucket to ``burst``, no further
        assert await store.take_token(7, "commands", t0 + 3600, rate, BURST) == pytest.approx((2.0, False))
    finally:
        await store.close()


async def test_sqlite_keeps_the_bucket_in_memory(opener, fake_engine, limited):
    svc = await opener(settings=limited)
    assert not svc.store.shared_between_processes
    assert isinstance(svc.limiter, CommandLimiter)
    alice = await svc.player("test", "a", "Alice")
    for _ in range(BURST):
        await svc.update_settings(alice.id, timezone="Europe/Paris")
    with pytest.raises(RateLimited):
        await svc.update_settings(alice.id, timezone="Europe/Paris")
    async with svc.store.read() as tx:  # nothing written for the limit: no fsync a command
        assert (await tx._one("SELECT COUNT(*) FROM command_buckets"))[0] == 0


if "postgres" in BACKENDS:
    on_postgres = pytest.mark.parametrize("backend", ["postgres"], indirect=True)

    @on_postgres
    async def test_commands_spread_over_two_processes_share_one_budget(opener, fake_engine, limited,
                                                                        clock, backend):
        one, two = await opener(settings=limited), await opener(settings=limited)
        assert one.store is not two.store and isinstance(two.limiter, SharedCommandLimiter)
        alice = await one.player("test", "a", "Alice")
        bob = await one.player("test", "b", "Bob")
        g = await new_game(one, alice, bob)  # Alice: one command spent (Bob one of his)
        await two.update_settings(alice.id, timezone="Europe/Paris")
        # a command refused for another reason has still spent its token, as in one process
        with pytest.raises(IllegalMove):
            await one.move(g.id, alice.id, "zz")
        for svc in (one, two):  # the burst is spent on both processes alike
            with pytest.raises(RateLimited) as refused:
                await svc.update_settings(alice.id, timezone="Asia/Tokyo")
            assert refused.value.retry_after == 10
        assert (await two.player("test", "a")).settings.timezone == "Europe/Paris"  # refused: nothing changed
        await two.update_settings(bob.id, timezone="Asia/Tokyo")  # Bob's bucket is his own
        clock.advance(timedelta(seconds=9))
        with pytest.raises(RateLimited) as refused:
            await two.move(g.id, alice.id, "a1")
        assert refused.value.retry_after == 1
        clock.advance(timedelta(seconds=1))  # 10 s: one token, taken on either process, once
        await two.move(g.id, alice.id, "a1")
        with pytest.raises(RateLimited):
            await one.update_settings(alice.id, timezone="Asia/Tokyo")
        assert (await one.game(g.id)).ply == 1

    @on_postgres
    async def test_takes_at_once_over_two_processes_never_exceed_the_budget(opener, fake_engine, limited,
                                                                             clock, backend):
        services = [await opener(settings=limited), await opener(settings=limited)]
        alice = await services[0].player("test", "a", "Alice")
        for second in (0, 10, 20):  # a full bucket, then one token at a time
            results = await asyncio.gather(
                *(services[i % 2].update_settings(alice.id, timezone="Europe/Paris") for i in range(40)),
                return_exceptions=True)
            done = [r for r in results if not isinstance(r, BaseException)]
            refused = [r for r in results if isinstance(r, RateLimited)]
            assert len(done) == (BURST if second == 0 else 1), second
            assert len(done) + len(refused) == len(results)
            clock.advance(timedelta(seconds=10))

    @on_postgres
    async def test_reads_and_lookups_spread_over_two_processes_share_their_budgets(opener, fake_engine,
                                                                                  clock, backend):
        one, two = await opener(), await opener()
        alice = await one.player("test", "a", "Alice")
        reads = [one.budget_read(alice.id) if i % 2 else two.budget_read(alice.id)
                 for i in range(one.READ_BURST)]
        await asyncio.gather(*reads)  # the burst, half on each process
        for svc in (one, two):
            with pytest.raises(RateLimited, match="looking at games too fast"):
                await svc.budget_read(alice.id)
        lookups = await asyncio.gather(*((one, two)[i % 2].budget_lookup(alice.id)
                                         for i in range(one.LOOKUP_BURST + 10)))
        assert lookups.count(True) == one.LOOKUP_BURST  # no more than one process's burst in all
        assert await one.budget_lookup(alice.id) is False
        assert (await one.player("test", "a")).name == "Alice"  # commands: a budget of their own
        clock.advance(timedelta(minutes=1))
        await two.budget_read(alice.id)  # refilled, on either process
