"""Limits (issue #12, part 6): overlong input, and players who send commands too fast.

* A move (or set-up action) text longer than ``Settings.max_input_chars`` (100) is
  refused with ``InputTooLong`` before anything reads it: neither the database nor the
  rules engine is touched. The limit is above every legal move's LAN and SAN (the
  playouts check those stay within the engine's own 64-character cap).
* Each player has a token bucket (``command_burst`` commands at once, then
  ``command_rate_per_minute`` a minute, on the service's clock): a command beyond it is
  refused at once with ``RateLimited`` ("you're sending commands too fast; try again in N
  seconds"), costs nothing, changes nothing, and never waits -- even with the database
  busy, a flood of refused commands all come back at once: no queue grows.
"""
from __future__ import annotations

import asyncio
import random
from datetime import timedelta

import pytest

import rules
import rules.notation
from bot.config import ConfigError, Settings
from bot.domain.errors import IllegalMove, InputTooLong, NotYourTurn, RateLimited, ServiceError
from bot.operations.service import GameService

from .helpers import Unchanged, new_game


@pytest.fixture
def limited(tmp_path):
    return Settings(db_path=str(tmp_path / "limited.db"), command_rate_per_minute=6, command_burst=3)


@pytest.fixture
async def lsvc(limited, clock, notifier):
    service = await GameService.open(limited, clock=clock, notifier=notifier, rng=random.Random(7))
    yield service
    await service.close()


def test_the_limits_by_default():
    s = Settings()
    assert s.command_rate_per_minute == 30 and s.command_burst == 20
    assert s.max_input_chars >= rules.notation.MAX_MOVE_TEXT
    env = {"FAIRYPOST_COMMAND_RATE": "0", "FAIRYPOST_COMMAND_BURST": "5", "FAIRYPOST_MAX_INPUT": "80"}
    s = Settings.load(env=env)
    assert (s.command_rate_per_minute, s.command_burst, s.max_input_chars) == (0, 5, 80)
    for bad in ({"command_rate_per_minute": -1}, {"command_burst": 0}, {"max_input_chars": 0}):
        with pytest.raises(ConfigError):
            Settings(**bad)


# --- overlong input -------------------------------------------------------------------------

@pytest.mark.parametrize("n", [101, 1_000, 1_000_000])
async def test_overlong_move_is_refused_before_it_is_read(svc, notifier, people, monkeypatch, n):
    alice, bob, _ = people
    g = await new_game(svc, alice, bob)
    text = ("e4" + " " * n)[:n]

    def untouchable(*a, **k):
        raise AssertionError("an overlong text reached the engine or the database")

    async with Unchanged(svc, notifier):
        monkeypatch.setattr(rules.Position, "parse", untouchable)
        monkeypatch.setattr(svc, "_snapshot", untouchable)
        monkeypatch.setattr(svc.store, "read", untouchable)
        monkeypatch.setattr(svc.store, "write", untouchable)
        with pytest.raises(InputTooLong, match=f"too long to be a move \\({n} characters; at most 100\\)"):
            await svc.move(g.id, alice.id, text)
        with pytest.raises(InputTooLong, match="too long to be a set-up action"):
            await svc.setup_action(g.id, alice.id, text)
        monkeypatch.undo()


async def test_text_within_the_limit_reaches_the_engine(svc, notifier, people):
    alice, bob, _ = people
    g = await new_game(svc, alice, bob)
    async with Unchanged(svc, notifier):
        with pytest.raises(IllegalMove, match="too long to be a move"):   # the engine's own cap, 64
            await svc.move(g.id, alice.id, "e" * 100)
    r = await svc.move(g.id, alice.id, "  e4  " + " " * 90)   # 100 characters, padding and all
    assert r.lan == "e2e4"


async def test_the_longest_real_move_texts_fit(svc, people):
    """The longest SAN in a position full of long notations is accepted by the service."""
    alice, bob, _ = people
    g = await new_game(svc, alice, bob, game="ganymede")
    pos = rules.from_fen("ganymede", g.fen)
    longest = max((pos.san(m) for m in pos.legal_moves()), key=len)
    assert len(longest) <= svc.settings.max_input_chars
    r = await svc.move(g.id, alice.id, longest)
    assert r.san == longest


# --- rate -------------------------------------------------------------------------------------

async def test_commands_beyond_the_burst_are_refused_politely(lsvc, notifier, clock):
    alice = await lsvc.player("test", "a", "Alice")
    bob = await lsvc.player("test", "b", "Bob")
    g = await new_game(lsvc, alice, bob)        # 1 of Alice's 3 (the challenge); 1 of Bob's
    await lsvc.move(g.id, alice.id, "e4")       # 2
    with pytest.raises(NotYourTurn):            # 3: a refused command is a command too
        await lsvc.move(g.id, alice.id, "d4")
    for _ in range(5):
        async with Unchanged(lsvc, notifier):
            with pytest.raises(RateLimited) as err:
                await lsvc.offer_draw(g.id, alice.id)
        assert str(err.value) == "you're sending commands too fast; try again in 10 seconds"
        assert err.value.retry_after == 10
    # Bob has his own bucket
    await lsvc.move(g.id, bob.id, "e5")
    # 6 a minute: one more every 10 seconds; the refusals above cost nothing
    clock.advance(timedelta(seconds=9))
    with pytest.raises(RateLimited, match="try again in 1 second$"):
        await lsvc.move(g.id, alice.id, "Nf3")
    clock.advance(timedelta(seconds=1))
    await lsvc.move(g.id, alice.id, "Nf3")
    with pytest.raises(RateLimited):
        await lsvc.resign(g.id, alice.id)
    # after a quiet minute the whole burst is back, and no more
    clock.advance(timedelta(minutes=5))
    await lsvc.move(g.id, bob.id, "Nc6")
    for text in ("Bb5", "a6"):
        try:
            await lsvc.move(g.id, alice.id, text)
        except ServiceError:
            pass
    await lsvc.offer_draw(g.id, alice.id)
    with pytest.raises(RateLimited):
        await lsvc.offer_draw(g.id, alice.id)


async def test_every_kind_of_command_counts(lsvc, clock):
    alice = await lsvc.player("test", "a", "Alice")
    bob = await lsvc.player("test", "b", "Bob")
    g = await new_game(lsvc, alice, bob)
    commands = [
        lambda: lsvc.challenge(alice.id, "chess", opponent_id=bob.id),
        lambda: lsvc.update_settings(alice.id, timezone="Europe/Paris"),
        lambda: lsvc.start_vacation(alice.id, 1),
        lambda: lsvc.end_vacation(alice.id),
        lambda: lsvc.move(g.id, alice.id, "e4"),
        lambda: lsvc.setup_action(g.id, alice.id, "d1(N)"),
        lambda: lsvc.offer_draw(g.id, alice.id),
        lambda: lsvc.accept_draw(g.id, alice.id),
        lambda: lsvc.decline_draw(g.id, alice.id),
        lambda: lsvc.ask_takeback(g.id, alice.id),
        lambda: lsvc.accept_takeback(g.id, alice.id),
        lambda: lsvc.decline_takeback(g.id, alice.id),
        lambda: lsvc.abort(g.id, alice.id),
        lambda: lsvc.resign(g.id, alice.id),
        lambda: lsvc.accept_challenge(1, alice.id),
        lambda: lsvc.decline_challenge(1, alice.id),
        lambda: lsvc.cancel_challenge(1, alice.id),
    ]
    for command in commands:
        clock.advance(timedelta(hours=1))   # a full bucket
        lsvc.limiter.take(alice.id, clock.now().timestamp())
        lsvc.limiter.take(alice.id, clock.now().timestamp())
        lsvc.limiter.take(alice.id, clock.now().timestamp())
        with pytest.raises(RateLimited):
            await command()
    # reading is not limited: looking at games costs nothing
    for _ in range(20):
        await lsvc.game(g.id)
        await lsvc.list_games(alice.id)
        await lsvc.legal_moves(g.id)


async def test_a_flood_is_refused_at_once_even_with_the_database_busy(lsvc, notifier):
    alice = await lsvc.player("test", "a", "Alice")
    bob = await lsvc.player("test", "b", "Bob")
    g = await new_game(lsvc, alice, bob)
    await lsvc.move(g.id, alice.id, "e4")
    await lsvc.offer_draw(g.id, alice.id)    # Alice's bucket is empty now
    before = len(notifier.events)
    async with lsvc.store.write():           # the database is busy (and its lock held)
        flood = [lsvc.move(g.id, alice.id, "d4") for _ in range(500)]
        results = await asyncio.wait_for(asyncio.gather(*flood, return_exceptions=True), timeout=5)
    assert all(isinstance(r, RateLimited) for r in results)
    assert len(notifier.events) == before
    assert (await lsvc.game(g.id)).ply == 1


async def test_the_buckets_do_not_grow_without_bound(lsvc, clock):
    limiter = lsvc.limiter
    for pid in range(limiter.MAX_TRACKED):
        limiter.take(pid, clock.now().timestamp())
    clock.advance(timedelta(minutes=10))
    limiter.take(-1, clock.now().timestamp())
    assert len(limiter._buckets) <= 2


async def test_no_limit_when_turned_off(svc, people):
    alice, bob, _ = people
    g = await new_game(svc, alice, bob)
    for _ in range(200):
        with pytest.raises(IllegalMove):
            await svc.move(g.id, alice.id, "e5")
    await svc.move(g.id, alice.id, "e4")


@pytest.mark.parametrize("tz", ["Europe", "America/Argentina", "x" * 300, "Europe/" + "x" * 5000])
async def test_a_time_zone_that_is_a_folder_or_too_long_is_refused(svc, notifier, people, tz):
    """Found by the fuzzer: zoneinfo raised IsADirectoryError / 'File name too long' (OSErrors)."""
    from bot.domain.errors import SettingsError
    alice, *_ = people
    async with Unchanged(svc, notifier):
        with pytest.raises((SettingsError, InputTooLong), match="time zone|too long to be a setting"):
            await svc.update_settings(alice.id, timezone=tz)
    assert (await svc.update_settings(alice.id, timezone="Europe/Paris")).timezone == "Europe/Paris"
