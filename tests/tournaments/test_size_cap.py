"""A round robin's size cap (``round_robin_max_players``, FAIRYPOST_ROUND_ROBIN_MAX_PLAYERS,
default 60): a limit above it is refused at creation, the player past it cannot join, and
an event joined before the cap was lowered cannot start; a Swiss is not held to it. Bad
values of the setting are refused with a clear message."""

from __future__ import annotations

import pytest

from bot.config import ConfigError, Settings
from bot.delivery.events import MemoryNotifier
from bot.operations.service import GameService
from bot.tournaments.service import TournamentError


async def opened(db, **settings) -> GameService:
    return await GameService.open(Settings(db_path=str(db), command_rate_per_minute=0, **settings),
                                  notifier=MemoryNotifier())


async def people(svc, n, tag="p"):
    return [await svc.player("test", f"{tag}{i}", f"Player {tag}{i}") for i in range(n)]


def test_the_default_is_60_and_the_environment_sets_it():
    assert Settings().round_robin_max_players == 60
    assert Settings.load(env={"FAIRYPOST_ROUND_ROBIN_MAX_PLAYERS": "40"}).round_robin_max_players == 40
    for bad in ("1", "201", "-5"):
        with pytest.raises(ConfigError, match="round_robin_max_players must be from 2 to 200"):
            Settings.load(env={"FAIRYPOST_ROUND_ROBIN_MAX_PLAYERS": bad})


async def test_a_round_robin_takes_40_and_refuses_the_41st(tmp_path):
    svc = await opened(tmp_path / "g.db", round_robin_max_players=40)
    try:
        with pytest.raises(TournamentError, match="at most 40 players"):
            await svc.create_tournament("chess", name="Too big", format="round-robin", max_players=41)
        t = await svc.create_tournament("chess", name="Forty", format="round-robin")
        field = await people(svc, 41)
        for p in field[:40]:
            await svc.join_tournament(t.id, p.id)
        with pytest.raises(TournamentError, match=r"is full \(40 players\)"):
            await svc.join_tournament(t.id, field[40].id)
        assert len((await svc.tournament(t.id)).entrants) == 40  # nothing changed
        # a Swiss is not a round robin: no such cap
        s = await svc.create_tournament("chess", name="Big Swiss", format="swiss", rounds=5)
        for p in field:
            await svc.join_tournament(s.id, p.id)
        assert len((await svc.tournament(s.id)).entrants) == 41
    finally:
        await svc.close()


async def test_an_event_over_a_lowered_cap_does_not_start(tmp_path):
    db = tmp_path / "g.db"
    svc = await opened(db)
    try:
        t = await svc.create_tournament("chess", name="Twelve", format="round-robin")
        for p in await people(svc, 12):
            await svc.join_tournament(t.id, p.id)
    finally:
        await svc.close()
    svc = await opened(db, round_robin_max_players=10)  # the owner lowered the cap since
    try:
        with pytest.raises(TournamentError, match="has 12 players, more than the 10 it may start with"):
            await svc.start_tournament(t.id)
        view = await svc.tournament(t.id)
        assert view.status == "open" and view.pairings == []
    finally:
        await svc.close()
