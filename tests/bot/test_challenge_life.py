"""Challenges with a life (bot/operations/challenges.py): limits, expiry, blocks, and the
OfferSettled notices that let adapters disable the buttons of what is settled."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.delivery import events as ev
from bot.domain.errors import ChallengeError, RateLimited, SettingsError
from bot.store import MIGRATIONS, Store

from .conftest import new_game

pytestmark = pytest.mark.contract  # on every database back end (backends.py)


async def test_600_challenges_to_one_victim_in_20_minutes_let_3_through(svc, alice, bob, notifier, clock):
    made, refusals = [], set()
    for _ in range(600):  # one every 2 seconds: within the flood control's 30 a minute
        clock.advance(seconds=2)
        try:
            made.append(await svc.challenge(alice.id, "fake", opponent_id=bob.id))
        except ChallengeError as e:
            refusals.add(str(e))
    assert len(made) == 3
    assert refusals == {"you already have 3 open challenges to Bob, the most allowed: wait for an "
                        "answer. A withdrawn challenge still counts for 24 hours, a declined one for "
                        "7 days. You can challenge Bob again in 7 days (at 2025-01-13 12:00 UTC), or "
                        "sooner if they accept one"}
    assert len(notifier.of(ev.ChallengeReceived, bob.id)) == 3  # one notice each, no more
    assert len(await svc.list_challenges(bob.id)) == 3


async def test_a_player_has_at_most_the_configured_open_challenges(opener, fake_engine, settings):
    svc = await opener(settings=settings.with_(max_open_challenges=4))
    alice = await svc.player("test", "a", "Alice")
    others = [await svc.player("test", f"o{i}", f"Other {i}") for i in range(3)]
    for o in others:
        await svc.challenge(alice.id, "fake", opponent_id=o.id)
    await svc.challenge(alice.id, "fake")  # an open challenge counts too
    with pytest.raises(ChallengeError, match="you have 4 open challenges, the most allowed"):
        await svc.challenge(alice.id, "fake")
    first = (await svc.list_challenges(alice.id))[0]
    await svc.cancel_challenge(first.id, alice.id)  # one withdrawn: room for one more
    await svc.challenge(alice.id, "fake")


async def test_flood_control_still_comes_first(svc, alice, bob):
    with pytest.raises((RateLimited, ChallengeError)):
        for _ in range(100):
            await svc.challenge(alice.id, "fake", opponent_id=bob.id)


async def test_an_unanswered_challenge_expires_and_the_challenger_is_told(svc, alice, bob, notifier, clock):
    c = await svc.challenge(alice.id, "fake", opponent_id=bob.id)
    assert c.expires_at == c.created_at + timedelta(days=7)
    assert await svc.next_wake() == c.expires_at  # nothing else is due: the sweep wakes for it
    clock.advance(days=7, seconds=-1)
    assert (await svc.sweep()).challenges_expired == 0
    assert (await svc.get_challenge(c.id)).status == "open"
    clock.advance(seconds=1)
    assert (await svc.sweep()).challenges_expired == 1
    assert (await svc.get_challenge(c.id)).status == "expired"
    (closed,) = notifier.of(ev.ChallengeClosed, alice.id)
    assert (closed.how, closed.challenge_id, closed.by.id) == ("expired", c.id, alice.id)
    assert [(e.what, e.ref_id) for e in notifier.of(ev.OfferSettled, bob.id)] == [("challenge", c.id)]
    with pytest.raises(ChallengeError, match="no longer open"):
        await svc.accept_challenge(c.id, bob.id)
    assert (await svc.sweep()).challenges_expired == 0  # once only


async def test_an_expired_challenge_not_yet_swept_cannot_be_accepted(svc, alice, bob, clock):
    c = await svc.challenge(alice.id, "fake", opponent_id=bob.id)
    clock.advance(days=8)
    with pytest.raises(ChallengeError, match="expired"):
        await svc.accept_challenge(c.id, bob.id)
    # and it no longer counts against the challenger's limits
    for _ in range(3):
        await svc.challenge(alice.id, "fake", opponent_id=bob.id)


async def test_expiry_is_configurable(opener, fake_engine, settings, clock):
    svc = await opener(settings=settings.with_(challenge_days=2))
    alice, bob = await svc.player("test", "a", "Alice"), await svc.player("test", "b", "Bob")
    c = await svc.challenge(alice.id, "fake")
    assert c.expires_at - c.created_at == timedelta(days=2)
    clock.advance(days=2)
    await svc.sweep()
    assert (await svc.get_challenge(c.id)).status == "expired"
    assert bob.id not in [x.challenger.id for x in await svc.list_challenges(bob.id)]


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)  # SQLite's query plan
async def test_expiry_reads_the_due_challenges_through_an_index(svc):
    async with svc.store.read() as tx:
        plan = await tx._all("EXPLAIN QUERY PLAN SELECT * FROM challenges WHERE status = 'open' "
                             "AND expires_at <= ? ORDER BY expires_at, id LIMIT ?", (0, 10))
        wake = await tx._all("EXPLAIN QUERY PLAN SELECT MIN(expires_at) FROM challenges "
                             "WHERE status = 'open'")
    for rows in (plan, wake):
        assert any("challenges_by_expiry" in r["detail"] for r in rows), [r["detail"] for r in rows]


async def test_open_challenges_of_an_older_database_expire_a_week_after_they_were_made(tmp_path):
    path = tmp_path / "old.db"
    store = await Store.open(path, MIGRATIONS[:7])
    async with store.write() as tx:
        a = await tx.insert_player("test", "a", "Alice", "{}", 0)
        await tx._exec("INSERT INTO challenges (challenger_id, game, colour, created_at) "
                       "VALUES (?, 'fake', 'random', 1000)", (a,))
    await store.close()
    store = await Store.open(path)
    try:
        async with store.write() as tx:
            (c,) = await tx.challenges_due(10**10, 10)
            assert (c.expires_at, c.rated) == (1000 + 7 * 86400, 0)
            assert await tx.close_challenge(c.id, "expired", None, 10**6)  # the widened CHECK
            with pytest.raises(Exception, match="CHECK"):
                await tx._exec("UPDATE challenges SET status = 'lost'")
    finally:
        await store.close()


async def test_a_blocked_player_cannot_challenge_and_their_challenge_never_reaches(svc, alice, bob, notifier):
    pending = await svc.challenge(alice.id, "fake", opponent_id=bob.id)
    notifier.clear()
    assert [p.id for p in await svc.block(bob.id, alice.id)] == [alice.id]
    # the challenge already open is closed, with no word to Alice; Bob's buttons go
    assert (await svc.get_challenge(pending.id)).status == "declined"
    assert notifier.of(ev.ChallengeClosed) == []
    assert [(e.what, e.ref_id) for e in notifier.of(ev.OfferSettled, bob.id)] == [("challenge", pending.id)]
    notifier.clear()
    with pytest.raises(ChallengeError, match="^you cannot challenge this player$"):
        await svc.challenge(alice.id, "fake", opponent_id=bob.id)
    assert notifier.of(ev.ChallengeReceived) == []
    with pytest.raises(ChallengeError, match="you have blocked Alice"):
        await svc.challenge(bob.id, "fake", opponent_id=alice.id)
    open_one = await svc.challenge(alice.id, "fake")
    assert open_one.id not in [c.id for c in await svc.list_challenges(bob.id)]  # not listed to Bob
    with pytest.raises(ChallengeError, match="you cannot accept this challenge"):
        await svc.accept_challenge(open_one.id, bob.id)
    assert [p.name for p in await svc.blocked_players(bob.id)] == ["Alice"]
    assert await svc.unblock(bob.id, alice.id) == []
    await svc.challenge(alice.id, "fake", opponent_id=bob.id)
    assert len(notifier.of(ev.ChallengeReceived, bob.id)) == 1


async def test_blocking_refusals(svc, alice):
    with pytest.raises(SettingsError, match="yourself"):
        await svc.block(alice.id, alice.id)
    bob = await svc.player("test", "b", "Bob")
    with pytest.raises(SettingsError, match="you have not blocked Bob"):
        await svc.unblock(alice.id, bob.id)


async def test_a_game_under_way_goes_on_after_a_block(svc, alice, bob, notifier):
    """Decided: a block stops challenges, not games already begun: a draw offer in one
    still reaches the blocker (the game must be able to end)."""
    g = await new_game(svc, alice, bob)
    await svc.block(bob.id, alice.id)
    await svc.offer_draw(g.id, alice.id)
    assert len(notifier.of(ev.DrawOffered, bob.id)) == 1
    await svc.accept_draw(g.id, bob.id)
    assert (await svc.game(g.id)).result == "1/2-1/2"


async def _settled(notifier, player):
    return [(e.what, e.ref_id) for e in notifier.of(ev.OfferSettled, player.id)]


# (the offer, by whom; what settles it, by whom; whose notice had the buttons; which offer)
SETTLINGS = [
    (("offer_draw", "alice"), ("decline_draw", "bob"), "bob", "draw"),
    (("offer_draw", "alice"), ("move a1", "alice"), "bob", "draw"),  # moot: her offer lapses as she moves
    (("ask_takeback", "alice"), ("move b2", "bob"), "bob", "takeback"),  # answered by a move
    (("ask_takeback", "bob"), ("accept_takeback", "alice"), "alice", "takeback"),
    (("offer_draw", "alice"), ("resign", "alice"), "bob", "draw"),  # the game's end
]


async def test_draw_offers_and_takebacks_settled_are_announced_to_their_answerer(svc, alice, bob, notifier):
    g = await new_game(svc, alice, bob)
    people = {"alice": alice, "bob": bob}

    async def do(op: str, who: str):
        name, *move = op.split()
        await getattr(svc, name)(g.id, people[who].id, *move)
    for offer, settling, told, what in SETTLINGS:
        notifier.clear()
        await do(*offer)
        await do(*settling)
        assert await _settled(notifier, people[told]) == [(what, g.id)], (offer, settling)


async def test_a_challenge_settled_any_way_is_announced_to_the_challenged(svc, alice, bob, notifier):
    accepted = await svc.challenge(alice.id, "fake", opponent_id=bob.id)
    await svc.accept_challenge(accepted.id, bob.id)
    declined = await svc.challenge(alice.id, "fake", opponent_id=bob.id)
    await svc.decline_challenge(declined.id, bob.id)
    cancelled = await svc.challenge(alice.id, "fake", opponent_id=bob.id)
    await svc.cancel_challenge(cancelled.id, alice.id)
    assert await _settled(notifier, bob) == [("challenge", c.id) for c in (accepted, declined, cancelled)]
    assert await _settled(notifier, alice) == []


async def test_many_due_challenges_expire_a_batch_at_a_time(svc, alice, notifier, clock, monkeypatch):
    import bot.operations.challenges
    monkeypatch.setattr(bot.operations.challenges, "EXPIRE_BATCH", 2)
    for i in range(5):
        other = await svc.player("test", f"o{i}", f"Other {i}")
        await svc.challenge(alice.id, "fake", opponent_id=other.id)
    clock.advance(days=7)
    assert (await svc.sweep()).challenges_expired == 5
    assert len(notifier.of(ev.ChallengeClosed, alice.id)) == 5
    assert await svc.list_challenges(alice.id) == []
