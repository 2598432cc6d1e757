"""A start made in batches (bot/tournaments/batches.py) and the directors' acts on players: while
the event's games are still being made, a withdrawal (by the player or a director) and a
replacement are refused with a word to try again, and change nothing; once every game is made
they work, and reach every game of the player's, those made last too."""

from __future__ import annotations

import pytest

from bot.tournaments import batches
from bot.tournaments.errors import TournamentError

from .conftest import entered, people


async def cut_short(svc, monkeypatch, players):
    """A 4-player round robin whose start died after its first two games."""
    t = await entered(svc, players)
    real = type(svc)._create_game
    made = []

    async def failing(self, *a, **kw):
        if len(made) == 2:
            raise RuntimeError("the machine died")
        made.append(1)
        return await real(self, *a, **kw)

    monkeypatch.setattr(type(svc), "_create_game", failing)
    monkeypatch.setattr(batches, "BATCH_GAMES", 2)
    monkeypatch.setattr(batches, "BATCH_SECONDS", 60)
    monkeypatch.setattr(batches, "LAST_BATCH", 1)
    with pytest.raises(RuntimeError):
        await svc.start_tournament(t.id)
    monkeypatch.setattr(type(svc), "_create_game", real)
    t = await svc.tournament(t.id)
    assert t.starting and sum(p.game_id is not None for p in t.pairings) == 2
    return t


async def test_withdrawals_and_replacements_wait_for_the_start(svc, monkeypatch):
    a, b, c, d = await people(svc, 4)
    e = await svc.player("test", "sub", "Substitute")
    t = await cut_short(svc, monkeypatch, [a, b, c, d])
    with pytest.raises(TournamentError, match="is starting: its games are still being made"):
        await svc.withdraw_from_tournament(t.id, d.id)
    with pytest.raises(TournamentError, match="a withdrawal must wait"):
        await svc.remove_from_tournament(t.id, c.id, a.id)
    with pytest.raises(TournamentError, match="a replacement must wait"):
        await svc.replace_in_tournament(t.id, b.id, e.id, a.id)
    still = await svc.tournament(t.id)
    assert not any(s.withdrawn for s in still.standings)
    assert {p.id for p in still.entrants} == {a.id, b.id, c.id, d.id}
    assert [p.result for p in still.pairings] == [p.result for p in t.pairings]
    # the start finished (the command again), the withdrawal reaches every game of d's
    t = await svc.start_tournament(t.id)
    assert not t.starting
    t = await svc.withdraw_from_tournament(t.id, d.id)
    theirs = [p for p in t.pairings if d.id in (p.white.id, p.black.id if p.black else None)]
    # none of d's games finished: ICCF's rule cancels them all, those made last too
    assert len(theirs) == 3 and all(p.game_id is not None and p.result == "cancelled" for p in theirs)
    assert d.id not in {s.player.id for s in t.standings}
