"""#43 item 2 and #40 item 4: a player who leaves a running event (``tournament withdraw``
by the player, ``tournament remove`` by a director) is withdrawn by ICCF's rule unless the
event chose another; a game that never starts is a forfeit by the side that did not move,
never voided (``abort`` is refused in a tournament's game); three games lost on time
withdraw the player (settable)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.domain.errors import AbortError
from bot.tournaments.errors import TournamentError
from bot.words.text import PLAIN
from bot.words.tournament_text import tournament_text

from .conftest import entered, people


def game_of(t, x, y):
    return next(p for p in t.pairings if {p.white.id, p.black and p.black.id} == {x.id, y.id})


def standing(t, who):
    return next((s for s in t.standings if s.player.id == who.id), None)


async def test_a_round_robin_withdrawal_by_iccfs_rule(svc):
    a, b, c, d = await people(svc, 4)
    t = await svc.start_tournament((await entered(svc, [a, b, c, d])).id)
    await svc.resign(game_of(t, a, d).game_id, d.id)  # a beats d
    g = game_of(t, b, d)
    await svc.offer_draw(g.game_id, b.id)
    await svc.accept_draw(g.game_id, d.id)  # b and d draw
    # d finished 2 of 3 (not under half): those results stand, the unplayed one is lost
    t = await svc.remove_from_tournament(t.id, d.id, a.id)
    ad = game_of(t, a, d)
    assert ad.result == ("1-0" if ad.white.id == a.id else "0-1") and ad.decided is None
    assert game_of(t, b, d).result == "1/2-1/2"
    cd = game_of(t, c, d)
    assert cd.result == ("+/-" if cd.white.id == c.id else "-/+")
    assert cd.decided == "decided by Player 1: taken out by Player 1"
    assert standing(t, d).withdrawn and standing(t, d).points == 0.5
    assert standing(t, c).points == 1  # the forfeit scores
    # c finished none of theirs (a forfeit is no game played): every result cancelled, gone
    t = await svc.withdraw_from_tournament(t.id, c.id)
    assert standing(t, c) is None
    assert {p.result for p in t.pairings if c.id in (p.white.id, p.black.id)} == {"cancelled"}
    assert [(s.player.id, s.points) for s in t.standings] == [(a.id, 1.0), (b.id, 0.5), (d.id, 0.5)]
    shown = tournament_text(t, PLAIN)
    assert "cancelled" in shown and "decided by Player 3: Player 3 withdrew" in shown
    with pytest.raises(TournamentError, match="not playing"):
        await svc.withdraw_from_tournament(t.id, c.id)


@pytest.mark.parametrize("rule, gone", [("iccf", True), ("keep", False), ("cancel", True)])
async def test_the_rule_is_settable_per_event(svc, rule, gone):
    a, b, c = await people(svc, 3)
    t = await svc.start_tournament((await entered(svc, [a, b, c], withdrawal=rule)).id)
    assert t.withdrawal_rule == rule
    t = await svc.remove_from_tournament(t.id, c.id)  # the owner; c played nothing
    assert (standing(t, c) is None) == gone
    if not gone:
        assert standing(t, c).withdrawn and standing(t, c).points == 0
        assert {standing(t, a).points, standing(t, b).points} == {1.0}  # a forfeit win each


async def test_a_bad_rule_is_refused(svc):
    (a,) = await people(svc, 1)
    with pytest.raises(TournamentError, match="the withdrawal rule is iccf, keep, cancel"):
        await svc.create_tournament("chess", name="X", format="round-robin", creator_id=a.id, withdrawal="nice")
    with pytest.raises(TournamentError, match="0 .never. to 50"):
        await svc.create_tournament("chess", name="X", format="round-robin", creator_id=a.id, timeouts=-1)


async def test_a_swiss_withdrawal_forfeits_and_pairs_them_no_more(svc):
    a, b, c, d = await people(svc, 4)
    t = await svc.start_tournament((await entered(svc, [a, b, c, d], format="swiss", rounds=2)).id)
    first = [p for p in t.pairings if p.round == 1]
    mine = next(p for p in first if d.id in (p.white.id, p.black.id))
    other = next(p for p in first if p is not mine)
    t = await svc.withdraw_from_tournament(t.id, d.id)
    opponent = mine.white if mine.black.id == d.id else mine.black
    assert standing(t, opponent).points == 1 and standing(t, d).withdrawn
    await svc.resign(other.game_id, other.black.id)
    t = await svc.tournament(t.id)
    second = [p for p in t.pairings if p.round == 2]
    assert d.id not in {x for p in second for x in (p.white.id, p.black and p.black.id)}
    assert sum(p.black is None for p in second) == 1


async def test_abort_is_refused_in_a_tournament_game(svc):
    a, b = await people(svc, 2)
    t = await svc.start_tournament((await entered(svc, [a, b])).id)
    (p,) = t.pairings
    with pytest.raises(AbortError, match="tournament game"):
        await svc.abort(p.game_id, p.white.id)
    with pytest.raises(AbortError, match="tournament game"):
        await svc.abort(p.game_id, p.black.id)
    assert (await svc.game(p.game_id)).status == "active"


@pytest.mark.parametrize("who_fails", ["white", "black"])
async def test_a_game_that_never_starts_is_a_forfeit_by_the_side_that_did_not_move(svc, clock, who_fails):
    a, b, c, d = await people(svc, 4)
    t = await svc.start_tournament((await entered(svc, [a, b, c, d], format="swiss", rounds=2, days=1)).id)
    stalled, played = [p for p in t.pairings if p.round == 1]
    if who_fails == "black":
        await svc.move(stalled.game_id, stalled.white.id, "e4")
    await svc.resign(played.game_id, played.black.id)
    clock.advance(timedelta(days=3))
    await svc.sweep()
    t = await svc.tournament(t.id)
    first = next(p for p in t.pairings if p.game_id == stalled.game_id)
    assert first.result == ("-/+" if who_fails == "white" else "+/-")  # not voided, not "*"
    loser, winner = (stalled.white, stalled.black) if who_fails == "white" else (stalled.black, stalled.white)
    assert standing(t, winner).points == 1 and standing(t, loser).points == 0
    second = [p for p in t.pairings if p.round == 2]
    assert len(second) == 2  # the next round was paired with the forfeit scored
    top = {played.white.id, winner.id}
    assert any({p.white.id, p.black.id} == top for p in second)  # the two winners meet


@pytest.mark.parametrize("limit, withdrawn", [(None, True), (0, False), (4, False)])
async def test_three_timeouts_withdraw_the_player(svc, clock, limit, withdrawn):
    a, b, c, d = await people(svc, 4)
    kw = {} if limit is None else {"timeouts": limit}
    t = await svc.start_tournament((await entered(svc, [a, b, c, d], days=1, **kw)).id)
    assert t.timeout_limit == (3 if limit is None else limit)
    # every game of a's: a is to move (the others' first moves made); no other game moves
    for p in t.pairings:
        if p.black.id == a.id:
            await svc.move(p.game_id, p.white.id, "e4")
        elif a.id != p.white.id:  # games without a are ended, so only a loses on time three times
            await svc.resign(p.game_id, p.black.id)
    clock.advance(timedelta(days=2))
    await svc.sweep()
    t = await svc.tournament(t.id)
    lost = [p for p in t.pairings if a.id in (p.white.id, p.black.id)]
    assert len(lost) == 3 and all(p.reason == "time" for p in lost)
    if withdrawn:  # three forfeits, no game played: under half, all cancelled, gone
        assert standing(t, a) is None and all(p.result == "cancelled" for p in lost)
        assert "3 games lost on time" in (lost[0].decided or "")
    else:
        assert standing(t, a) is not None and not standing(t, a).withdrawn
