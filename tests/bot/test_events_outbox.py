from datetime import UTC, datetime

import pytest

from bot.config import Settings
from bot.delivery import events as ev
from bot.delivery.outbox import Outbox
from bot.store import Store

P = ev.PlayerRef(1, "test", "a", "Alice")
Q = ev.PlayerRef(2, "test", "b", "Bob")


def test_every_event_round_trips_through_json():
    when = datetime(2025, 1, 1, 12, tzinfo=UTC)
    samples = [
        ev.YourMove(game_id=1, game="chess", opponent=Q, ply=3, last_move="Nf3", deadline=when),
        ev.YourMove(game_id=1, game="chess", opponent=Q, ply=0, last_move=None, deadline=None),
        ev.TimeWarning(game_id=1, game="chess", opponent=Q, level="1h", deadline=when, seconds_left=3600),
        ev.GameStarted(game_id=1, game="chess", white=P, black=Q, days=None, challenge_id=4),
        ev.GameStarted(game_id=2, game="chess", white=P, black=Q, days=3, challenge_id=None,
                       tournament_id=3, tournament_name="Cup", tournament_round=2),
        ev.GameOver(game_id=1, game="chess", white=P, black=Q, result="1-0", reason="time", last_move=None),
        ev.ChallengeReceived(challenge_id=2, challenger=P, game="chess", days=3, colour="random",
                             setup="default", open=True),
        ev.ChallengeClosed(challenge_id=2, how="declined", by=Q),
        ev.OfferSettled(what="draw", ref_id=1),
        ev.DrawOffered(game_id=1, game="chess", by=P),
        ev.DrawDeclined(game_id=1, game="chess", by=Q),
        ev.TakebackAsked(game_id=1, game="chess", by=P, move="e4"),
        ev.TakebackAnswered(game_id=1, game="chess", by=Q, accepted=False),
        ev.Digest(day="2025-01-01", games=(ev.DigestEntry(1, "chess", "Bob", when, 60),
                                           ev.DigestEntry(2, "chess", "Bob", None, None))),
        ev.PremovePlayed(game_id=1, game="chess", opponent=Q, their_move="e5", answer="Nf3", lines_left=2),
        ev.PremovesDropped(game_id=1, game="chess", opponent=Q, why="move", move="d5", lines=3),
        ev.PremovesDropped(game_id=1, game="chess", opponent=Q, why="takeback", move=None, lines=1),
        ev.ComputerStalled(game_id=1, game="chess", computer=Q, failures=3),
        ev.MailStopped(address="ann@example.org", bounces=3),
        ev.TournamentOver(tournament_id=1, name="Cup", game="chess", place=2, players=8, points=4.5, winner=Q),
        ev.TournamentBye(tournament_id=1, name="Cup", round=3, points=1.0),
        ev.TournamentDeadline(tournament_id=1, name="Cup", round=2, games=(7, 9), adjudicated=False),
        ev.TournamentNews(tournament_id=1, name="Cup", scope="discord:guild:1", what="result", round=2, game_id=7),
    ]
    assert {type(e) for e in samples} == set(ev.EVENT_TYPES.values())
    for e in samples:
        back = ev.decode(e.kind, ev.encode(e), recipient=P, event_id=9)
        assert back == type(e)(**{**e.__dict__, "recipient": P, "event_id": 9})


class Flaky:
    def __init__(self, fail_times):
        self.fail_times = fail_times
        self.got = []

    async def notify(self, event):
        if self.fail_times:
            self.fail_times -= 1
            raise ConnectionError("platform down")
        self.got.append(event)


pytestmark = pytest.mark.contract


async def _store_with_events(db_target, n):
    store = await Store.open(db_target)
    async with store.write() as tx:
        pid = await tx.insert_player("test", "a", "Alice", "{}", 0)
        for i in range(n):
            e = ev.DrawOffered(game_id=i, game="chess", by=P)
            await tx.insert_event(e.kind, pid, None, None, ev.encode(e), 100)
    return store


async def test_outbox_delivers_each_event_once_even_with_concurrent_dispatchers(db_target):
    import asyncio
    store = await _store_with_events(db_target, 5)
    note = ev.MemoryNotifier()
    box = Outbox(store, note, Settings())
    counts = await asyncio.gather(box.dispatch(100), box.dispatch(100), box.dispatch(100))
    assert sum(counts) == 5
    assert sorted(e.event_id for e in note.events) == [1, 2, 3, 4, 5]
    assert all(e.recipient.name == "Alice" for e in note.events)
    assert await box.dispatch(100) == 0
    await store.close()


async def test_outbox_retries_with_backoff_then_gives_up(db_target):
    store = await _store_with_events(db_target, 1)
    note = Flaky(fail_times=2)
    box = Outbox(store, note, Settings(notify_retry_seconds=10, notify_max_attempts=5))
    assert await box.dispatch(100) == 0
    async with store.read() as tx:
        (row,) = await tx.events()
    assert (row.status, row.attempts, row.next_try_at) == ("pending", 1, 110)
    assert await box.dispatch(105) == 0  # not yet
    assert await box.dispatch(110) == 0  # second failure: wait 20 s
    async with store.read() as tx:
        (row,) = await tx.events()
    assert (row.attempts, row.next_try_at, row.last_error) == (2, 130, "ConnectionError: platform down")
    assert await box.dispatch(130) == 1
    assert len(note.got) == 1
    # and one that never works is marked failed after the allowed attempts
    async with store.write() as tx:
        e = ev.DrawOffered(game_id=7, game="chess", by=P)
        await tx.insert_event(e.kind, 1, None, None, ev.encode(e), 200)
    box = Outbox(store, Flaky(fail_times=99), Settings(notify_retry_seconds=1, notify_max_attempts=2))
    await box.dispatch(200)
    await box.dispatch(10_000)
    async with store.read() as tx:
        assert (await tx.events())[-1].status == "failed"
    await store.close()


async def test_claimed_but_unmarked_events_are_sent_again_after_restart(db_target):
    store = await _store_with_events(db_target, 2)
    async with store.write() as tx:  # a run claimed event 1, then died before marking it
        assert (await tx.claim_event(100)).id == 1
    await store.close()
    store = await Store.open(db_target)
    note = ev.MemoryNotifier()
    box = Outbox(store, note, Settings())
    assert await box.recover() == 1
    assert await box.dispatch(100) == 2
    assert [e.event_id for e in note.events] == [1, 2]
    await store.close()
