"""Two commands on one game at once: exactly one takes effect; nothing is half written."""

import asyncio

import pytest

from bot.delivery import events as ev
from bot.domain.errors import ChallengeError, GameChanged
from bot.store import Tx

from .conftest import new_game

pytestmark = pytest.mark.contract  # on every database back end (backends.py)


def outcomes(results):
    ok = [r for r in results if not isinstance(r, BaseException)]
    errors = [r for r in results if isinstance(r, BaseException)]
    return ok, errors


async def test_two_moves_at_once(svc, alice, bob):
    g = await new_game(svc, alice, bob)
    results = await asyncio.gather(svc.move(g.id, alice.id, "a1"), svc.move(g.id, alice.id, "b2"),
                                   return_exceptions=True)
    ok, errors = outcomes(results)
    assert len(ok) == 1 and len(errors) == 1
    assert isinstance(errors[0], GameChanged) and str(errors[0]) == "the game changed, look again"
    v = await svc.game(g.id)
    assert v.ply == 1 and [m.lan for m in v.moves] == [ok[0].lan]


async def test_two_moves_at_once_with_the_ply_the_players_saw(svc, alice, bob):
    g = await new_game(svc, alice, bob)
    await svc.move(g.id, alice.id, "a1")
    # Bob and (wrongly, on a stale board) Alice both act on ply 1
    results = await asyncio.gather(svc.move(g.id, bob.id, "b2", expected_ply=1),
                                   svc.resign(g.id, alice.id, expected_ply=1),
                                   return_exceptions=True)
    ok, errors = outcomes(results)
    assert len(ok) == 1 and isinstance(errors[0], GameChanged)


@pytest.fixture
def rules_on_the_loop(monkeypatch):
    """A move's rules work done on the event loop, not in a thread: a command's steps then
    come in the order the commands began. In a thread, on a busy machine, the move's work
    may end after a command begun later has read and written, and that one wins."""
    async def inline(func, /, *args, **kwargs):
        return func(*args, **kwargs)
    monkeypatch.setattr(asyncio, "to_thread", inline)


async def test_a_move_and_a_resignation_at_once(svc, alice, bob, notifier, rules_on_the_loop):
    g = await new_game(svc, alice, bob)
    results = await asyncio.gather(svc.move(g.id, alice.id, "a1"), svc.resign(g.id, bob.id),
                                   return_exceptions=True)
    ok, errors = outcomes(results)
    assert len(ok) == 1 and isinstance(errors[0], GameChanged)
    v = await svc.game(g.id)
    # the move won (it started first): one move, game going on, nobody told of a game over
    assert (v.ply, v.status) == (1, "active") and notifier.of(ev.GameOver) == []
    # and the other way round
    g = await new_game(svc, alice, bob)
    results = await asyncio.gather(svc.resign(g.id, bob.id), svc.move(g.id, alice.id, "a1"),
                                   return_exceptions=True)
    ok, errors = outcomes(results)
    assert len(ok) == 1 and isinstance(errors[0], GameChanged)
    v = await svc.game(g.id)
    assert (v.ply, v.status, v.result) == (0, "finished", "1-0")


async def test_draw_accept_and_move_at_once(svc, alice, bob):
    g = await new_game(svc, alice, bob)
    await svc.offer_draw(g.id, bob.id)
    results = await asyncio.gather(svc.accept_draw(g.id, alice.id), svc.move(g.id, alice.id, "a1"),
                                   return_exceptions=True)
    ok, errors = outcomes(results)
    assert len(ok) == 1 and isinstance(errors[0], GameChanged)
    v = await svc.game(g.id)
    assert (v.status, v.ply) == ("finished", 0)


async def test_many_commands_at_once_exactly_one_wins(svc, alice, bob):
    g = await new_game(svc, alice, bob)
    cmds = [svc.move(g.id, alice.id, m) for m in ("a1", "b2", "c3", "d4")]
    cmds += [svc.offer_draw(g.id, bob.id), svc.resign(g.id, alice.id), svc.abort(g.id, bob.id)]
    results = await asyncio.gather(*cmds, return_exceptions=True)
    ok, errors = outcomes(results)
    assert len(ok) == 1
    assert all(isinstance(e, GameChanged) for e in errors)


async def test_two_accepts_of_one_challenge(svc, alice, bob, carol):
    c = await svc.challenge(alice.id, "fake")
    results = await asyncio.gather(svc.accept_challenge(c.id, bob.id), svc.accept_challenge(c.id, carol.id),
                                   return_exceptions=True)
    ok, errors = outcomes(results)
    assert len(ok) == 1 and isinstance(errors[0], ChallengeError)
    assert "no longer open" in str(errors[0])
    assert len(await svc.list_games(alice.id)) == 1


async def test_commands_on_different_games_do_not_conflict(svc, alice, bob, carol):
    g1 = await new_game(svc, alice, bob)
    g2 = await new_game(svc, alice, carol)
    r1, r2 = await asyncio.gather(svc.move(g1.id, alice.id, "a1"), svc.move(g2.id, alice.id, "b2"))
    assert (r1.game.ply, r2.game.ply) == (1, 1)


async def test_nothing_is_half_written(svc, alice, bob, monkeypatch, notifier):
    g = await new_game(svc, alice, bob)
    before = await svc.game(g.id)
    notifier.clear()

    async def broken(self, *a, **kw):
        raise OSError("disk on fire")

    # the move, its row, the new turn and its notices are one transaction: fail the
    # last step and none of it is there
    monkeypatch.setattr(Tx, "insert_reminder", broken)
    with pytest.raises(OSError):
        await svc.move(g.id, alice.id, "a1")
    monkeypatch.undo()
    after = await svc.game(g.id)
    assert after == before
    async with svc.store.read() as tx:
        assert await tx.moves(g.id) == []
        row = await tx.game(g.id)
        assert (row.ply, row.turn_no, row.version) == (0, 1, 0)
    assert notifier.events == []
    r = await svc.move(g.id, alice.id, "a1")  # and the game goes on normally
    assert r.game.ply == 1


async def test_nothing_is_half_written_on_game_end(svc, alice, bob, monkeypatch, notifier):
    g = await new_game(svc, alice, bob)
    state = await svc.game(g.id)

    async def broken(self, *a, **kw):
        raise OSError("disk on fire")

    monkeypatch.setattr(Tx, "cancel_reminders", broken)
    with pytest.raises(OSError):
        await svc.resign(g.id, alice.id)
    monkeypatch.undo()
    assert await svc.game(g.id) == state
    assert notifier.of(ev.GameOver) == []
