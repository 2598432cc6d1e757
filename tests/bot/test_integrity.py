"""The position is derived from the start and the moves; the stored copy is only a checked cache."""

import logging

import pytest

from bot.delivery import events as ev
from bot.domain.errors import StorageError

from .conftest import new_game

pytestmark = pytest.mark.contract  # on every database back end (backends.py)


async def test_a_wrong_cached_position_is_noticed_and_the_replay_wins(opener, fake_engine, caplog):
    svc = await opener()
    alice = await svc.player("test", "a", "Alice")
    bob = await svc.player("test", "b", "Bob")
    g = await new_game(svc, alice, bob)
    await svc.move(g.id, alice.id, "a1")
    async with svc.store.write() as tx:
        await tx.update_game(g.id, current_vfen="garbage w - - 0 1")
    await opener.close(svc)
    svc = await opener()
    with caplog.at_level(logging.WARNING, logger="bot.operations.snapshots"):
        v = await svc.game(g.id)
    assert v.fen == "a1 b - - 0 1"
    assert "differs from the replayed" in caplog.text
    r = await svc.move(g.id, bob.id, "b2")  # and the next write repairs the cache
    async with svc.store.read() as tx:
        assert (await tx.game(g.id)).current_vfen == r.game.fen


async def test_a_stored_move_that_is_not_legal_is_an_error_not_a_guess(opener, fake_engine):
    svc = await opener()
    alice = await svc.player("test", "a", "Alice")
    bob = await svc.player("test", "b", "Bob")
    g = await new_game(svc, alice, bob)
    await svc.move(g.id, alice.id, "a1")
    await opener.close(svc)
    svc = await opener()
    async with svc.store.write() as tx:
        await tx._exec("UPDATE moves SET lan = 'zz' WHERE game_id = ?", (g.id,))
    with pytest.raises(StorageError, match="stored move 1 \\(zz\\) is not legal"):
        await svc.game(g.id)


async def test_a_reminder_whose_turn_is_over_is_not_delivered(svc, alice, bob, clock, notifier):
    class Down:
        async def notify(self, event):
            raise ConnectionError("down")

    g = await new_game(svc, alice, bob, days=1)
    svc.outbox.notifier = Down()
    clock.advance(hours=12)
    await svc.sweep()  # the 50% warning is written, but cannot be delivered
    svc.outbox.notifier = notifier
    await svc.move(g.id, alice.id, "a1")
    clock.advance(minutes=5)
    await svc.sweep()
    assert notifier.of(ev.TimeWarning) == []
    async with svc.store.read() as tx:
        kinds = {(e.kind, e.status) for e in await tx.events()}
    assert ("time_warning", "obsolete") in kinds
