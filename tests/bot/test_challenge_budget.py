"""Challenges budgeted per pair over time (bot/operations/challenges.py): a withdrawn challenge
still counts for ``challenge_withdrawn_hours``, a declined one for
``challenge_declined_days``, so whatever a challenger withdraws the opponent receives
only a few challenges a day; a withdrawn challenge the opponent never saw is dropped in
silence. Issue #32 item 2."""

from __future__ import annotations

import os
from datetime import timedelta

import pytest

from bot.delivery import events as ev
from bot.domain.errors import ChallengeError

from .conftest import new_game

pytestmark = pytest.mark.contract  # on every database back end (backends.py)

LONG = os.environ.get("FAIRYPOST_LONG") == "1"


class Timed:
    """The notices delivered, each with the time of the injected clock at delivery."""

    def __init__(self, clock):
        self.clock, self.got = clock, []

    async def notify(self, event: ev.Event) -> None:
        self.got.append((self.clock.now(), event))

    def to(self, player_id: int, cls, how: str | None = None):
        return [t for t, e in self.got if isinstance(e, cls) and e.recipient is not None
                and e.recipient.id == player_id and (how is None or e.how == how)]


async def withdraw_and_rechallenge(svc, attacker, victim, clock, *, step_seconds: int, days: int):
    """The attack of issue #32: one command every ``step_seconds``; at the cap, withdraw
    the oldest open challenge, then challenge again. Returns the refusals' texts."""
    refusals, end = [], clock.now() + timedelta(days=days)
    while clock.now() < end:
        clock.advance(seconds=step_seconds)
        try:
            await svc.challenge(attacker.id, "fake", opponent_id=victim.id)
            continue
        except ChallengeError as e:
            refusals.append(str(e))
        mine = [c for c in await svc.list_challenges(attacker.id)
                if c.challenger.id == attacker.id and c.opponent is not None]
        if mine:
            clock.advance(seconds=step_seconds)
            await svc.cancel_challenge(mine[0].id, attacker.id)
    return refusals


async def test_withdrawing_and_challenging_again_gets_three_challenges_a_day_through(opener, fake_engine, clock):
    """Before the fix, a withdrawal freed its slot at once: 720 notices a day at this pace
    (301 in 20 minutes at one command every 2 s; FAIRYPOST_LONG=1 runs that pace for the two
    days, the suite one command every 10 minutes)."""
    seen = Timed(clock)
    svc = await opener(notifier=seen)
    alice, bob = await svc.player("test", "a", "Alice"), await svc.player("test", "b", "Bob")
    start = clock.now()
    refusals = await withdraw_and_rechallenge(svc, alice, bob, clock, step_seconds=2 if LONG else 600,
                                              days=2)
    received = seen.to(bob.id, ev.ChallengeReceived)
    withdrawn = seen.to(bob.id, ev.ChallengeClosed, "cancelled")
    # 3 at the start, 3 more once the first withdrawals stop counting, a day later
    assert len(received) == 6 and len(withdrawn) == 6
    for t in received:  # never more than 3 in any 24 hours
        assert sum(t <= u < t + timedelta(days=1) for u in received) <= 3
    assert all(u - start < timedelta(hours=1) for u in received[:3])
    assert all(u - start >= timedelta(days=1) for u in received[3:])
    assert refusals and all("you have challenged Bob 3 times lately" in r or "open challenges" in r
                            for r in refusals)


async def test_the_refusal_says_what_counts_and_when_the_next_challenge_is_allowed(svc, alice, bob, clock):
    first = await svc.challenge(alice.id, "fake", opponent_id=bob.id)
    clock.advance(hours=1)
    await svc.challenge(alice.id, "fake", opponent_id=bob.id)
    await svc.cancel_challenge(first.id, alice.id)  # 13:00: counts until 13:00 tomorrow
    clock.advance(hours=1)
    third = await svc.challenge(alice.id, "fake", opponent_id=bob.id)
    await svc.decline_challenge(third.id, bob.id)  # counts a week
    clock.advance(minutes=30)
    with pytest.raises(ChallengeError) as refused:
        await svc.challenge(alice.id, "fake", opponent_id=bob.id)
    assert str(refused.value) == (
        "you have challenged Bob 3 times lately (1 open, 1 withdrawn, 1 declined), the most "
        "allowed. A withdrawn challenge still counts for 24 hours, a declined one for 7 days. "
        "You can challenge Bob again in 22 hours 30 minutes (at 2025-01-07 13:00 UTC), or "
        "sooner if they accept one")
    clock.advance(hours=22, minutes=30)
    await svc.challenge(alice.id, "fake", opponent_id=bob.id)  # the withdrawn one stopped counting


async def test_declined_challenges_count_for_a_week(svc, alice, bob, notifier, clock):
    for _ in range(3):
        c = await svc.challenge(alice.id, "fake", opponent_id=bob.id)
        await svc.decline_challenge(c.id, bob.id)
    clock.advance(days=7, seconds=-1)
    with pytest.raises(ChallengeError, match=r"3 times lately \(3 declined\).* again in less than a minute"):
        await svc.challenge(alice.id, "fake", opponent_id=bob.id)
    assert len(notifier.of(ev.ChallengeReceived, bob.id)) == 3
    clock.advance(seconds=1)
    await svc.challenge(alice.id, "fake", opponent_id=bob.id)
    # the budget is per pair: Bob may still challenge Alice, and Carol Bob
    await svc.challenge(bob.id, "fake", opponent_id=alice.id)


async def test_the_budget_is_per_pair(svc, alice, bob, carol):
    for _ in range(3):
        c = await svc.challenge(alice.id, "fake", opponent_id=bob.id)
        await svc.cancel_challenge(c.id, alice.id)
    with pytest.raises(ChallengeError, match="3 withdrawn"):
        await svc.challenge(alice.id, "fake", opponent_id=bob.id)
    await svc.challenge(alice.id, "fake", opponent_id=carol.id)
    await svc.challenge(carol.id, "fake", opponent_id=bob.id)
    await svc.challenge(bob.id, "fake", opponent_id=alice.id)


async def test_a_withdrawn_challenge_the_opponent_never_saw_sends_no_notice(svc, alice, bob, notifier):
    # delivery held back (an adapter down, a queue behind): Bob's notice is still in the outbox
    async with svc.outbox.held():
        c = await svc.challenge(alice.id, "fake", opponent_id=bob.id)
        await svc.cancel_challenge(c.id, alice.id)
    assert notifier.of(ev.Event, bob.id) == []  # no challenge, no "withdrawn", no buttons to tidy
    async with svc.store.read() as tx:
        statuses = [(e.kind, e.status) for e in await tx.events(bob.id)]
    assert statuses == [("challenge_received", "obsolete")]
    assert (await svc.get_challenge(c.id)).status == "cancelled"
    # it counts against the budget all the same: racing the delivery gains nothing
    for _ in range(2):
        await svc.challenge(alice.id, "fake", opponent_id=bob.id)
    with pytest.raises(ChallengeError, match=r"\(2 open, 1 withdrawn\)"):
        await svc.challenge(alice.id, "fake", opponent_id=bob.id)


async def test_a_withdrawn_challenge_the_opponent_saw_is_told(svc, alice, bob, notifier):
    c = await svc.challenge(alice.id, "fake", opponent_id=bob.id)  # delivered at once
    await svc.cancel_challenge(c.id, alice.id)
    assert [type(e).__name__ for e in notifier.of(ev.Event, bob.id)] == [
        "ChallengeReceived", "OfferSettled", "ChallengeClosed"]
    assert notifier.of(ev.ChallengeClosed, bob.id)[0].how == "cancelled"


async def test_a_notice_delivery_gave_up_on_was_never_seen(opener, fake_engine, settings, clock):
    class Down:  # Bob's adapter refuses every notice
        async def notify(self, event):
            raise ConnectionError("adapter down")

    svc = await opener(settings=settings.with_(notify_max_attempts=1), notifier=Down())
    alice, bob = await svc.player("test", "a", "Alice"), await svc.player("test", "b", "Bob")
    c = await svc.challenge(alice.id, "fake", opponent_id=bob.id)
    async with svc.store.read() as tx:
        assert [e.status for e in await tx.events(bob.id)] == ["failed"]
    await svc.cancel_challenge(c.id, alice.id)
    async with svc.store.read() as tx:
        assert [(e.kind, e.status) for e in await tx.events(bob.id)] == [("challenge_received", "failed")]


async def test_normal_play_and_rematches_are_never_held_up(svc, alice, bob, notifier, clock):
    """Challenge, accept, play, and again: accepted challenges stop counting at once."""
    for i in range(8):
        white, black = (alice, bob) if i % 2 == 0 else (bob, alice)
        g = await new_game(svc, white, black)
        await svc.move(g.id, white.id, "a1")
        clock.advance(minutes=5)
        await svc.resign(g.id, black.id)
    assert len(notifier.of(ev.ChallengeReceived, bob.id)) == 4
    assert len(notifier.of(ev.GameStarted, bob.id)) == 8
    # and one declined "not now" leaves room for more
    c = await svc.challenge(alice.id, "fake", opponent_id=bob.id)
    await svc.decline_challenge(c.id, bob.id)
    for _ in range(2):
        g = await new_game(svc, alice, bob)
    await svc.challenge(alice.id, "fake", opponent_id=bob.id)


async def test_the_budget_settings_are_read_and_checked():
    from bot.config import ConfigError, Settings
    s = Settings.load(env={"FAIRYPOST_CHALLENGE_WITHDRAWN_HOURS": "6",
                           "FAIRYPOST_CHALLENGE_DECLINED_DAYS": "30"})
    assert (s.challenge_withdrawn_hours, s.challenge_declined_days) == (6, 30)
    assert (Settings().challenge_withdrawn_hours, Settings().challenge_declined_days) == (24, 7)
    with pytest.raises(ConfigError, match="challenge_declined_days must be from 0 to 365"):
        Settings(challenge_declined_days=-1)
