"""#43 item 3: a director's tools — a result by hand (recorded with their name and reason,
shown with a mark), a replacement before the replaced player's first move, more days for a
game, pause and resume, and closing the event — through the service and at the owner's
command line (real processes on the same SQLite file). Bad input is refused and changes
nothing."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from bot.delivery import events as ev
from bot.domain.errors import NotFound
from bot.operations.service import GameService
from bot.tournaments.errors import TournamentError
from bot.words.text import PLAIN
from bot.words.tournament_text import tournament_text
from tests.tournaments.test_cli import fairypost, with_service

from .conftest import entered, people


async def test_a_result_by_hand(svc, notifier):
    a, b, c = await people(svc, 3)
    t = await svc.start_tournament((await entered(svc, [a, b, c])).id)
    going, other, third = [p for p in t.pairings if p.black is not None]
    for bad, match in ((("2-0", "why"), "a result is 1-0, 0-1"), (("1-0", "  "), "say why"),
                       (("1-0", "x" * 201), "too long")):
        with pytest.raises(TournamentError, match=match):
            await svc.set_tournament_result(t.id, going.game_id, *bad, a.id)
    with pytest.raises(TournamentError, match="only the organiser"):
        await svc.set_tournament_result(t.id, going.game_id, "1-0", "I say so", b.id)
    with pytest.raises(NotFound, match="not one of"):
        await svc.set_tournament_result(t.id, 999, "1-0", "lost", a.id)
    assert (await svc.game(going.game_id)).status == "active"  # nothing changed
    # a game still going ends with it
    t = await svc.set_tournament_result(t.id, going.game_id, "1/2-1/2", "a dispute settled <b>", a.id)
    g = await svc.game(going.game_id)
    assert (g.status, g.result, g.reason) == ("finished", "1/2-1/2", "adjudication")
    row = next(p for p in t.pairings if p.game_id == going.game_id)
    assert row.result == "1/2-1/2" and row.decided == "decided by Player 1: a dispute settled <b>"
    # a finished game's result for the event is replaced; a forfeit scores
    await svc.resign(other.game_id, other.white.id)
    t = await svc.set_tournament_result(t.id, other.game_id, "+/-", "Black broke the rules", a.id)
    assert next(p for p in t.pairings if p.game_id == other.game_id).result == "+/-"
    white = next(s for s in t.standings if s.player.id == other.white.id)
    assert white.points >= 1
    html = tournament_text(t, PLAIN)
    assert "+/- (decided by Player 1: Black broke the rules)" in html
    t = await svc.set_tournament_result(t.id, third.game_id, "-/+", "no show", None)  # the owner
    assert "decided by the server owner: no show" in tournament_text(t, PLAIN)
    assert t.status == "finished"  # every game decided: the event is over
    with pytest.raises(TournamentError, match="is over: its standings are final"):
        await svc.set_tournament_result(t.id, third.game_id, "1-0", "late", a.id)


async def test_replace_before_the_first_move(svc, notifier):
    a, b, c = await people(svc, 3)
    newcomer = await svc.player("test", "new", "Newcomer")
    t = await svc.start_tournament((await entered(svc, [a, b])).id)
    (p,) = t.pairings
    with pytest.raises(TournamentError, match="in Spring cup .* already"):
        await svc.replace_in_tournament(t.id, p.white.id, p.black.id, a.id)
    t = await svc.replace_in_tournament(t.id, p.white.id, newcomer.id, a.id)
    (q,) = t.pairings
    assert q.white.id == newcomer.id and q.game_id == p.game_id
    assert {e.id for e in t.entrants} == {newcomer.id, p.black.id}
    g = await svc.game(p.game_id)
    assert g.white.id == newcomer.id and g.to_move.id == newcomer.id
    told = [e for e in notifier.of(ev.GameStarted) if e.game_id == g.id]
    assert told and told[-1].your_move and told[-1].tournament_id == t.id
    await svc.move(g.id, newcomer.id, "e4")
    with pytest.raises(TournamentError, match="has played in game"):
        await svc.replace_in_tournament(t.id, newcomer.id, c.id, a.id)
    with pytest.raises(TournamentError, match="only the organiser"):
        await svc.replace_in_tournament(t.id, p.black.id, c.id, c.id)


async def test_extend_pause_resume_close(svc, clock):
    a, b, c, d = await people(svc, 4)
    t = await svc.start_tournament((await entered(svc, [a, b, c, d], format="swiss", rounds=2, days=1)).id)
    first, second = [p for p in t.pairings if p.round == 1]
    before = (await svc.game(first.game_id)).deadline
    with pytest.raises(TournamentError, match="1 to 60 days"):
        await svc.extend_tournament_game(t.id, first.game_id, 0, a.id)
    await svc.extend_tournament_game(t.id, first.game_id, 3, a.id)
    assert (await svc.game(first.game_id)).deadline == before + timedelta(days=3)
    clock.advance(timedelta(days=2))
    await svc.sweep()
    assert (await svc.game(first.game_id)).status == "active"  # the extended one goes on
    assert (await svc.game(second.game_id)).status == "finished"  # lost on time
    await svc.pause_tournament(t.id, a.id)
    await svc.extend_tournament_game(t.id, first.game_id, 1, a.id)  # kept for the resumption
    with pytest.raises(TournamentError, match="still going"):
        await svc.close_tournament(t.id, a.id)
    await svc.resume_tournament(t.id, a.id)
    g = await svc.game(first.game_id)
    assert g.deadline == clock.now() + timedelta(days=3)  # 2 days left at the pause, plus 1
    await svc.set_tournament_result(t.id, first.game_id, "1-0", "adjourned, White wins", a.id)
    t = await svc.tournament(t.id)
    assert t.round == 2
    for p in t.pairings:
        if p.round == 2 and p.black is not None:
            await svc.set_tournament_result(t.id, p.game_id, "1/2-1/2", "agreed by mail", a.id)
    t = await svc.tournament(t.id)
    assert t.status == "finished"
    with pytest.raises(TournamentError, match="over already"):
        await svc.close_tournament(t.id, a.id)
    other = await entered(svc, [a, b], name="Called off")
    t = await svc.close_tournament(other.id, a.id)
    assert t.status == "finished" and not t.pairings


def test_the_owners_command_line_directs(tmp_path):
    db = tmp_path / "games.db"
    done = fairypost(db, "tournament", "new", "chess", "--name", "Club", "--format", "round-robin",
                     "--withdrawals", "keep", "--timeouts", "2")
    assert done.returncode == 0, done.stderr

    async def join(svc: GameService):
        ps = [await svc.player("test", n, n) for n in ("Ann", "Ben", "Cy", "Dee")]
        for p in ps[:3]:
            await svc.join_tournament(1, p.id)
        return ps
    ann, ben, cy, dee = asyncio.run(with_service(db, join))
    done = fairypost(db, "tournament", "director", "1", "add", str(ann.id))
    assert done.returncode == 0 and "Ann (#1)" in done.stdout, done.stderr
    assert fairypost(db, "tournament", "start", "1").returncode == 0
    t = asyncio.run(with_service(db, lambda svc: svc.tournament(1)))
    assert (t.withdrawal_rule, t.timeout_limit) == ("keep", 2) and [d.id for d in t.directors] == [ann.id]
    g, h = [p for p in t.pairings if p.game_id is not None][:2]
    done = fairypost(db, "tournament", "result", "1", str(g.game_id), "-/+", "White", "never", "came")
    assert done.returncode == 0, done.stderr
    assert "-/+ (decided by the server owner: White never came)" in done.stdout
    bad = fairypost(db, "tournament", "result", "1", str(g.game_id), "2-0", "nonsense")
    assert bad.returncode == 2 and "a result is 1-0, 0-1" in bad.stderr
    bad = fairypost(db, "tournament", "result", "1", str(g.game_id), "1-0")
    assert bad.returncode == 2 and "give the result and the reason" in bad.stderr
    done = fairypost(db, "tournament", "extend", "1", str(h.game_id), "5")
    assert done.returncode == 0, done.stderr
    new_one = h.white.id if h.white.id != ben.id else h.black.id
    done = fairypost(db, "tournament", "replace", "1", str(new_one), str(dee.id))
    assert done.returncode == 0, done.stderr
    assert "Dee" in done.stdout
    assert fairypost(db, "tournament", "close", "1").returncode == 2  # games still going
    shown = fairypost(db, "tournament", "show", "1")
    assert f"Dee (#{dee.id})" in shown.stdout and f"Directors: Ann (#{ann.id})" in shown.stdout
    done = fairypost(db, "tournament", "director", "1", "remove", str(ann.id))
    assert done.returncode == 0 and "none (only you)" in done.stdout
