"""Vacation: a player pauses all their clocks, up to N days a year; it ends when they move."""

from datetime import timedelta

import pytest

from bot.delivery import events as ev
from bot.domain.errors import VacationError

from .conftest import T0, new_game

pytestmark = pytest.mark.contract  # on every database back end (backends.py)

H = 3600
D = 86400


async def test_vacation_pauses_clocks_and_ends_when_the_player_moves(svc, alice, bob, carol, clock, notifier):
    g1 = await new_game(svc, alice, bob, days=2)     # Alice to move
    g2 = await new_game(svc, carol, alice, days=7)   # Carol to move, then Alice
    clock.advance(hours=12)
    info = await svc.start_vacation(alice.id)
    assert info.on_vacation and info.until == clock.now() + timedelta(days=14)
    assert (await svc.game(g1.id)).seconds_left == 36 * H
    clock.advance(days=3)  # long past the stored deadline: paused
    await svc.sweep()
    v1 = await svc.game(g1.id)
    assert (v1.status, v1.seconds_left) == ("active", 36 * H)
    assert [e.level for e in notifier.of(ev.TimeWarning, alice.id)] == []  # no warnings while away
    await svc.move(g2.id, carol.id, "a1")  # a turn that starts during the vacation is paused too
    clock.advance(days=1)
    assert (await svc.game(g2.id)).seconds_left == 7 * D
    listed = {s.id: s.seconds_left for s in await svc.list_games(alice.id)}
    assert listed == {g1.id: 36 * H, g2.id: 7 * D}
    # moving in any game ends the vacation; the other clocks run again from where they were
    await svc.move(g1.id, alice.id, "a1")
    assert not (await svc.vacation(alice.id)).on_vacation
    assert (await svc.game(g2.id)).seconds_left == 7 * D
    clock.advance(days=3, hours=12)
    await svc.sweep()
    assert [e.level for e in notifier.of(ev.TimeWarning, alice.id)] == ["50%"]
    clock.advance(days=3, hours=12)
    await svc.sweep()
    assert (await svc.game(g2.id)).reason == "time"
    used = (await svc.vacation(alice.id)).used_seconds
    assert used == 4 * D + 12 * H - 12 * H  # 4 days: from the start to the move


async def test_vacation_runs_out_at_its_limit(svc, alice, bob, clock, notifier):
    g = await new_game(svc, alice, bob, days=1)
    clock.advance(hours=20)  # 4 h left
    await svc.start_vacation(alice.id, days=2)
    clock.advance(days=1)
    assert (await svc.game(g.id)).seconds_left == 4 * H
    assert await svc.next_wake() == T0 + timedelta(hours=20, days=2)  # the vacation's end
    clock.advance(days=1)  # the vacation ends by itself
    report = await svc.sweep()
    assert report.vacations_ended == 1
    assert not (await svc.vacation(alice.id)).on_vacation
    assert (await svc.game(g.id)).seconds_left == 4 * H
    clock.advance(hours=3)
    await svc.sweep()
    # 50% and 80% came due before the vacation, unswept: now only the more urgent is sent
    assert [e.level for e in notifier.of(ev.TimeWarning, alice.id)] == ["80%", "1h"]
    clock.advance(hours=1)
    await svc.sweep()
    assert (await svc.game(g.id)).result == "0-1"


async def test_vacation_allowance_per_year_and_refusals(svc, alice, bob, clock):
    # the test settings allow 14 days a year
    with pytest.raises(VacationError, match="not on vacation"):
        await svc.end_vacation(alice.id)
    with pytest.raises(VacationError, match="whole number"):
        await svc.start_vacation(alice.id, days=0)
    await svc.start_vacation(alice.id, days=10)
    with pytest.raises(VacationError, match="already on vacation"):
        await svc.start_vacation(alice.id)
    clock.advance(days=4)
    info = await svc.end_vacation(alice.id)
    assert (info.on_vacation, info.used_seconds, info.left_seconds) == (False, 4 * D, 10 * D)
    info = await svc.start_vacation(alice.id)  # the rest of the year's allowance
    assert info.until == clock.now() + timedelta(days=10)
    clock.advance(days=11)
    await svc.sweep()
    info = await svc.vacation(alice.id)
    assert (info.on_vacation, info.left_seconds) == (False, 0)
    with pytest.raises(VacationError, match="no vacation left this year"):
        await svc.start_vacation(alice.id)
    clock.set(T0.replace(year=2026, month=1, day=2))  # a new year, a new allowance
    info = await svc.start_vacation(alice.id, days=3)
    assert info.on_vacation and info.left_seconds == 14 * D  # used counts what is taken so far
    assert (info.until - info.since) == timedelta(days=3)


async def test_a_vacation_does_not_save_a_game_already_lost(svc, alice, bob, clock):
    g = await new_game(svc, alice, bob, days=1)
    clock.advance(days=1, hours=1)  # past the deadline, no sweep yet
    await svc.start_vacation(alice.id)
    v = await svc.game(g.id)
    assert (v.status, v.reason) == ("finished", "time")


async def test_a_vacation_begun_after_a_move_was_read_still_ends_with_that_move(svc, alice, bob, carol,
                                                                                clock, monkeypatch):
    """Alice starts a vacation (in another window, another process) between her move's
    reading of the game and its write: the move, which ends the vacation and so moves her
    other games' deadlines on, is made again as a whole-database write, and both hold."""
    g1 = await new_game(svc, alice, bob, days=2)
    g2 = await new_game(svc, alice, carol, days=2)
    read, once = svc._snapshot, []

    async def read_then_vacation(game_id):
        snap = await read(game_id)
        if not once:
            once.append(game_id)
            await svc.start_vacation(alice.id)
        return snap

    monkeypatch.setattr(svc, "_snapshot", read_then_vacation)
    done = await svc.move(g1.id, alice.id, "a1")
    assert done.game.ply == 1
    info = await svc.vacation(alice.id)
    assert (info.on_vacation, info.used_seconds) == (False, 0)  # ended as it began: nothing used
    assert (await svc.game(g2.id)).seconds_left == 48 * H  # her other clock runs again, whole
    clock.advance(hours=1)
    assert (await svc.game(g2.id)).seconds_left == 47 * H
