"""One counted result (bot/tournaments/counting.py) for the standings, the FIDE C.07 tie-breaks,
the page and the pairing: a forfeit a director decides — even on a game that ended over the
board — is an unplayed round (article 16), an adjudication by hand is a game played."""

from __future__ import annotations

from bot.tournaments.counting import counted_result
from bot.tournaments.tables import PairingRow

from .conftest import entered, people


def test_a_time_loss_before_both_moved_is_a_forfeit_and_a_decision_wins():
    row = dict(id=1, tournament_id=1, round=1, board=1, white_id=1, black_id=2, game_id=7, bye_points=None)
    lost = PairingRow(**row, status="finished", result="0-1", reason="time", ply=0)
    assert counted_result(lost, {}) == "-/+"
    late = PairingRow(**row, status="finished", result="1-0", reason="time", ply=1)
    assert counted_result(late, {}) == "+/-"
    played = PairingRow(**row, status="finished", result="1-0", reason="time", ply=2)
    assert counted_result(played, {}) == "1-0"
    assert counted_result(PairingRow(**row, status="active", ply=5), {}) is None
    assert counted_result(PairingRow(**row, status="aborted", result="*", ply=0), {}) == "*"


async def test_decided_forfeits_are_unplayed_and_decided_results_played(svc):
    a, b, c, d = await people(svc, 4)
    t = await svc.start_tournament((await entered(svc, [a, b, c, d], format="swiss", rounds=2)).id)
    forfeit, judged = [p for p in t.pairings if p.round == 1]
    await svc.resign(forfeit.game_id, forfeit.black.id)  # ended over the board...
    await svc.set_tournament_result(t.id, forfeit.game_id, "+/-", "Black's account was someone else's", a.id)
    await svc.set_tournament_result(t.id, judged.game_id, "1/2-1/2", "a dead draw", a.id)
    t = await svc.tournament(t.id)
    by_id = {s.player.id: s for s in t.standings}
    winner, loser = by_id[forfeit.white.id], by_id[forfeit.black.id]
    assert (winner.points, winner.games) == (1.0, 0)  # ...but a forfeit now: no game played
    assert loser.games == 0 and loser.points == 0
    # the unplayed round counts a dummy opponent with the winner's own score (C.07 art. 16)
    assert dict(zip(t.tiebreak_names, winner.tiebreaks, strict=True))["BH"] == 1.0
    for p in (judged.white, judged.black):
        assert by_id[p.id].games == 1 and by_id[p.id].points == 0.5  # an adjudication: played
    assert {p.result for p in t.pairings if p.round == 1} == {"+/-", "1/2-1/2"}
    # the pairing read the same: round 2 paired with the forfeit scored (no colour from it)
    second = [p for p in t.pairings if p.round == 2]
    assert len(second) == 2
    assert any({p.white.id, p.black.id} == {forfeit.white.id, judged.white.id} or
               {p.white.id, p.black.id} == {forfeit.white.id, judged.black.id} for p in second)
