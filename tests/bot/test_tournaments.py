"""Tournaments through the service (bot/tournaments/service.py), on every database back end:
a round robin and a Swiss played through, joining and its limits, the organiser's acts, the
round's deadline, and exactly once: two services racing to start an event or a round, and
a start that fails half way."""

from __future__ import annotations

import asyncio
import itertools
from datetime import timedelta

import pytest

from bot.delivery import events as ev
from bot.domain.errors import NotFound
from bot.tournaments import batches
from bot.tournaments.service import TournamentError
from bot.words.text import HTML, PLAIN, event_text

pytestmark = pytest.mark.contract  # on every database back end (backends.py)


@pytest.fixture
def tsvc_rules(fake_engine, monkeypatch):
    import bot.tournaments.service
    monkeypatch.setattr(bot.tournaments.service, "rules", fake_engine)


@pytest.fixture
async def svc(opener, fake_engine, tsvc_rules):
    return await opener()


async def players(svc, n):
    return [await svc.player("test", f"p{i}", f"Player {i}") for i in range(1, n + 1)]


async def entered(svc, people, **kw):
    kw.setdefault("format", "round-robin")
    t = await svc.create_tournament("fake", name=kw.pop("name", "Spring cup"), creator_id=people[0].id, **kw)
    for p in people:
        await svc.join_tournament(t.id, p.id)
    return await svc.tournament(t.id)


async def play(svc, view, result_of):
    """End every game still going in ``view``: ``result_of(white_id, black_id)`` is 1, ½ or 0
    for White (by resignation or agreed draw)."""
    for p in view.pairings:
        if p.black is None or p.result is not None:
            continue
        points = result_of(p.white.id, p.black.id)
        if points == 1:
            await svc.resign(p.game_id, p.black.id)
        elif points == 0:
            await svc.resign(p.game_id, p.white.id)
        else:
            await svc.offer_draw(p.game_id, p.white.id)
            await svc.accept_draw(p.game_id, p.black.id)


def lower_id_wins(w, b):
    return 1 if w < b else 0


async def test_a_round_robin_played_through(svc, notifier):
    people = await players(svc, 4)
    t = await entered(svc, people, days=3, rated=True)
    assert [e.id for e in t.entrants] == [p.id for p in people] and t.status == "open"
    t = await svc.start_tournament(t.id, people[0].id)
    assert t.status == "running" and t.rounds == 3
    games = [p for p in t.pairings if p.black is not None]
    assert len(games) == 6  # every game at once
    assert {frozenset((p.white.id, p.black.id)) for p in games} == {
        frozenset(x) for x in itertools.combinations([p.id for p in people], 2)}
    started = notifier.of(ev.GameStarted)
    assert len(started) == 12 and all(e.rated and e.days == 3 for e in started)
    view = await svc.game(games[0].game_id)
    assert view.deadline is not None  # a clock, as any game's
    # the lower id wins every game, except a draw between the last two
    last = frozenset((people[2].id, people[3].id))
    await play(svc, t, lambda w, b: 0.5 if frozenset((w, b)) == last else lower_id_wins(w, b))
    t = await svc.tournament(t.id)
    assert t.status == "finished"
    assert [(s.player.id, s.points) for s in t.standings] == [
        (people[0].id, 3), (people[1].id, 2), (people[2].id, 0.5), (people[3].id, 0.5)]
    # Sonneborn-Berger: 3rd and 4th drew each other and lost the rest: ½·½ each; seeds decide
    assert t.standings[2].tiebreaks == (0.25,) and t.standings[3].tiebreaks == (0.25,)
    # each player's rating at the game now, the rated games counted: the winner gained most
    ratings = [s.rating for s in t.standings]
    assert ratings[0] > 1500 > ratings[3] and ratings == sorted(ratings, reverse=True)
    over = {e.recipient.id: e for e in notifier.of(ev.TournamentOver)}
    assert set(over) == {p.id for p in people}
    assert (over[people[1].id].place, over[people[1].id].players, over[people[1].id].winner.id) == (
        2, 4, people[0].id)
    assert "you finished 2nd of 4, with 2 points. Player 1 won it." in event_text(over[people[1].id], PLAIN)
    assert "<b>Spring cup</b>" in event_text(over[people[0].id], HTML)


async def test_a_double_round_robin_of_three_swaps_colours_and_sits_one_out(svc):
    people = await players(svc, 3)
    t = await entered(svc, people, double=True)
    t = await svc.start_tournament(t.id, people[0].id)
    games = [(p.white.id, p.black.id) for p in t.pairings if p.black is not None]
    byes = [p.white.id for p in t.pairings if p.black is None]
    assert len(games) == 6 and sorted(games) == sorted((b, w) for w, b in games)
    assert sorted(byes) == sorted([p.id for p in people] * 2)
    assert all(p.bye_points == 0 for p in t.pairings if p.black is None)  # no points for sitting out


async def test_a_swiss_played_through(svc, notifier):
    people = await players(svc, 5)
    t = await entered(svc, people, format="swiss", rounds=3)
    t = await svc.start_tournament(t.id, people[0].id)
    assert t.round == 1
    for number in (1, 2, 3):
        current = [p for p in t.pairings if p.round == number]
        assert len(current) == 3 and sum(p.black is None for p in current) == 1
        assert t.round == number
        await play(svc, t, lower_id_wins)
        t = await svc.tournament(t.id)  # the last game's end paired the next round
    assert t.status == "finished" and t.round == 3
    met = [frozenset((p.white.id, p.black.id)) for p in t.pairings if p.black is not None]
    assert len(met) == len(set(met)) == 6  # no pair twice
    byes = [p.white.id for p in t.pairings if p.black is None]
    assert len(byes) == len(set(byes)) == 3  # one bye each at most
    assert sum(s.points for s in t.standings) == 6 + 3  # the games' points and the byes'
    assert len(notifier.of(ev.TournamentOver)) == 5


async def test_joining_and_leaving_and_their_refusals(svc, clock):
    people = await players(svc, 4)
    t = await svc.create_tournament("fake", name="  Small   one ", format="swiss", rounds=2, max_players=3,
                                    creator_id=people[0].id)
    assert t.name == "Small one"
    for p in people[:3]:
        await svc.join_tournament(t.id, p.id)
    with pytest.raises(TournamentError, match="already"):
        await svc.join_tournament(t.id, people[0].id)
    with pytest.raises(TournamentError, match="full"):
        await svc.join_tournament(t.id, people[3].id)
    t = await svc.leave_tournament(t.id, people[2].id)
    assert [e.id for e in t.entrants] == [people[0].id, people[1].id]
    with pytest.raises(TournamentError, match="not in"):
        await svc.leave_tournament(t.id, people[2].id)
    with pytest.raises(TournamentError, match="organiser"):
        await svc.start_tournament(t.id, people[1].id)
    with pytest.raises(TournamentError, match="organiser"):  # not a server's: no manager acts on it
        await svc.start_tournament(t.id, people[1].id, manager_of="discord:guild:1")
    await svc.start_tournament(t.id, people[0].id)  # its maker, its first director
    with pytest.raises(TournamentError, match="has begun"):
        await svc.join_tournament(t.id, people[3].id)
    with pytest.raises(TournamentError, match="has begun"):
        await svc.leave_tournament(t.id, people[0].id)
    with pytest.raises(NotFound):
        await svc.join_tournament(999, people[0].id)


async def test_a_rating_limit(svc):
    people = await players(svc, 2)
    t = await svc.create_tournament("fake", name="Strong", format="swiss", rounds=1, min_rating=1600)
    with pytest.raises(TournamentError, match="rated 1600 or more"):
        await svc.join_tournament(t.id, people[0].id)
    t = await svc.create_tournament("fake", name="Novices", format="swiss", rounds=1, max_rating=1600)
    await svc.join_tournament(t.id, people[0].id)  # everyone starts at 1500


@pytest.mark.parametrize("bad, match", [
    ({"format": "knockout"}, "format"),
    ({"format": "swiss"}, "rounds"),
    ({"format": "round-robin", "rounds": 3}, "leave --rounds out"),
    ({"format": "swiss", "rounds": 0}, "rounds"),
    ({"format": "swiss", "rounds": 2, "double": True}, "only a round robin"),
    ({"format": "swiss", "rounds": 2, "days": 4}, "days"),
    ({"format": "swiss", "rounds": 2, "max_players": 1}, "size limit"),
    ({"format": "swiss", "rounds": 2, "min_rating": 1800, "max_rating": 1700}, "lowest rating"),
    ({"format": "swiss", "rounds": 2, "name": ""}, "needs a name"),
    ({"format": "swiss", "rounds": 2, "name": "x" * 81}, "too long"),
])
async def test_bad_events_are_refused_and_nothing_made(svc, bad, match):
    kw = {"name": "Cup"} | bad
    with pytest.raises(TournamentError, match=match):
        await svc.create_tournament("fake", **kw)
    with pytest.raises(TournamentError, match="no game"):
        await svc.create_tournament("nosuchgame", name="Cup", format="swiss", rounds=2)
    assert await svc.list_tournaments() == []


async def test_two_services_start_one_event_once(opener, svc, fake_engine):
    people = await players(svc, 6)
    t = await entered(svc, people)
    other = await opener()
    results = await asyncio.gather(svc.start_tournament(t.id), other.start_tournament(t.id),
                                   return_exceptions=True)
    # one starts it; the other is refused, or (come while the games were being made, in
    # batches) helps make the rest: either way, every game once
    refused = [r for r in results if isinstance(r, Exception)]
    assert len(refused) <= 1
    assert all(isinstance(r, TournamentError) and "begun already" in str(r) for r in refused)
    t = await svc.tournament(t.id)
    assert not t.starting
    assert len([p for p in t.pairings if p.black is not None]) == 15  # 6 players: 15 games, once
    async with svc.store.read() as tx:
        assert (await tx.fetch_one("SELECT COUNT(*) FROM games"))[0] == 15


async def test_two_services_start_one_round_once(opener, svc):
    people = await players(svc, 4)
    t = await svc.start_tournament((await entered(svc, people, format="swiss", rounds=3)).id)
    other = await opener()
    # round 1's games end in the other service's process, which is told nothing: both move on
    for p in t.pairings:
        await other.resign(p.game_id, p.black.id)
    other._games_ended.clear()
    svc._games_ended.clear()
    async with svc.store.write() as tx:  # as if the process that ended them died before moving on
        await tx.execute("UPDATE tournaments SET round = 1")
        await tx.execute("DELETE FROM tournament_pairings WHERE round > 1")
        await tx.execute("DELETE FROM events WHERE game_id IN (SELECT id FROM games WHERE id > 2)")
        await tx.execute("DELETE FROM reminders WHERE game_id > 2")
        await tx.execute("DELETE FROM games WHERE id > 2")
    done = await asyncio.gather(svc.advance_tournament(t.id), other.advance_tournament(t.id))
    assert sorted(done) == [False, True]
    t = await svc.tournament(t.id)
    assert t.round == 2 and len([p for p in t.pairings if p.round == 2]) == 2


async def test_a_start_that_fails_half_way_is_finished_by_the_next(svc, monkeypatch):
    people = await players(svc, 4)
    t = await entered(svc, people)
    real = type(svc)._create_game
    made = []

    async def failing(self, *a, **kw):
        if len(made) == 3:
            raise RuntimeError("the machine died")
        made.append(1)
        return await real(self, *a, **kw)

    monkeypatch.setattr(type(svc), "_create_game", failing)
    monkeypatch.setattr(batches, "BATCH_GAMES", 2)
    monkeypatch.setattr(batches, "BATCH_SECONDS", 60)  # batches of exactly two games
    monkeypatch.setattr(batches, "LAST_BATCH", 1)
    with pytest.raises(RuntimeError):
        await svc.start_tournament(t.id)
    # its pairings and the batch before the failure stand (bot/tournaments/batches.py)
    t = await svc.tournament(t.id)
    assert t.status == "running" and t.starting and len(t.pairings) == 6
    async with svc.store.read() as tx:
        assert (await tx.fetch_one("SELECT COUNT(*) FROM games"))[0] == 2
    with pytest.raises(TournamentError):  # nobody joins a started event
        await svc.join_tournament(t.id, (await svc.player("test", "late", "Late")).id)
    monkeypatch.setattr(type(svc), "_create_game", real)
    t = await svc.start_tournament(t.id)
    assert len(t.pairings) == 6 and not t.starting
    assert all(p.game_id is not None for p in t.pairings)
    async with svc.store.read() as tx:
        assert (await tx.fetch_one("SELECT COUNT(*) FROM games"))[0] == 6


async def test_removing_a_player_forfeits_their_games(svc, notifier):
    people = await players(svc, 4)
    t = await svc.start_tournament((await entered(svc, people)).id)
    with pytest.raises(TournamentError, match="organiser"):
        await svc.remove_from_tournament(t.id, people[3].id, people[2].id)
    t = await svc.remove_from_tournament(t.id, people[3].id, people[0].id)
    theirs = [p for p in t.pairings if people[3].id in (p.white.id, p.black.id)]
    assert len(theirs) == 3 and all(p.reason == "withdrawal" for p in theirs)
    # none of their games finished (under half): ICCF's rule cancels them, and they are gone
    assert all(p.result == "cancelled" for p in theirs)
    assert people[3].id not in {s.player.id for s in t.standings}
    with pytest.raises(TournamentError, match="not playing"):
        await svc.remove_from_tournament(t.id, people[3].id)


async def test_a_removed_player_is_paired_no_more(svc):
    people = await players(svc, 4)
    t = await svc.start_tournament((await entered(svc, people, format="swiss", rounds=2)).id)
    await svc.remove_from_tournament(t.id, people[3].id)
    t = await svc.tournament(t.id)
    (one,) = [p for p in t.pairings if p.round == 1 and p.result is None]
    await svc.resign(one.game_id, one.black.id)
    t = await svc.tournament(t.id)
    second = [p for p in t.pairings if p.round == 2]
    assert people[3].id not in {x for p in second for x in (p.white.id, p.black and p.black.id)}
    assert sum(p.black is None for p in second) == 1  # three left: one bye


async def test_pause_holds_the_next_round_and_resume_starts_it(svc):
    people = await players(svc, 4)
    t = await svc.start_tournament((await entered(svc, people, format="swiss", rounds=2)).id)
    with pytest.raises(TournamentError, match="organiser"):
        await svc.pause_tournament(t.id, people[1].id)
    await svc.pause_tournament(t.id, people[0].id)
    await play(svc, t, lower_id_wins)
    t = await svc.tournament(t.id)
    assert (t.status, t.round) == ("paused", 1)
    t = await svc.resume_tournament(t.id, people[0].id)
    assert (t.status, t.round) == ("running", 2)


async def test_a_rounds_deadline_tells_its_director_and_the_round_waits_for_its_games(svc, clock, notifier):
    people = await players(svc, 4)
    t = await svc.start_tournament((await entered(svc, people, format="swiss", rounds=2,
                                                  round_days=20, days="none")).id)
    first = [p for p in t.pairings if p.round == 1]
    await svc.resign(first[0].game_id, first[0].black.id)  # one game still goes on
    assert (await svc.tournament(t.id)).round == 1
    assert await svc.next_wake() is not None
    clock.advance(timedelta(days=20, seconds=1))
    await svc.sweep()
    t = await svc.tournament(t.id)
    assert t.round == 1  # the next round waits until every game is over or decided (issue 43 item 4)
    (told,) = notifier.of(ev.TournamentDeadline)
    assert told.games == (first[1].game_id,) and not told.adjudicated
    await svc.sweep()
    assert len(notifier.of(ev.TournamentDeadline)) == 1  # told once
    await svc.resign(first[1].game_id, first[1].white.id)
    t = await svc.tournament(t.id)
    assert t.round == 2 and len([p for p in t.pairings if p.round == 2]) == 2


async def test_an_event_starts_at_its_time(svc, clock):
    people = await players(svc, 2)
    t = await svc.create_tournament("fake", name="Timed", format="round-robin",
                                    starts_at=clock.now() + timedelta(hours=1))
    for p in people:
        await svc.join_tournament(t.id, p.id)
    assert await svc.next_wake() == clock.now() + timedelta(hours=1)  # the scheduler's next wake
    await svc.sweep()
    assert (await svc.tournament(t.id)).status == "open"
    clock.advance(timedelta(hours=1))
    await svc.sweep()
    assert (await svc.tournament(t.id)).status == "running"


async def test_a_pause_stops_the_games_clocks_and_resume_gives_back_the_time_left(svc, clock, notifier):
    people = await players(svc, 2)
    t = await svc.start_tournament((await entered(svc, people, days=3)).id)
    game = t.pairings[0]
    clock.advance(timedelta(days=1))
    await svc.pause_tournament(t.id, people[0].id)
    view = await svc.game(game.game_id)
    assert view.deadline is None and view.status == "active"  # no clock while paused
    warnings_before = len(notifier.of(ev.TimeWarning))
    clock.advance(timedelta(days=30))
    await svc.sweep()
    assert (await svc.game(game.game_id)).status == "active"  # no timeout
    assert len(notifier.of(ev.TimeWarning)) == warnings_before  # no warnings
    assert await svc.next_wake() is None or await svc.next_wake() > clock.now() + timedelta(days=300)
    resumed_at = clock.now()
    await svc.resume_tournament(t.id, people[0].id)
    view = await svc.game(game.game_id)
    assert view.deadline == resumed_at + timedelta(days=2)  # the two days that were left
    clock.advance(timedelta(days=1, hours=12))
    await svc.sweep()
    assert [w.game_id for w in notifier.of(ev.TimeWarning)[warnings_before:]] == [game.game_id]  # the 24 h one
    clock.advance(timedelta(hours=12, seconds=1))
    await svc.sweep()
    over = await svc.game(game.game_id)
    assert (over.status, over.reason) == ("finished", "time")
    assert over.ended_at == resumed_at + timedelta(days=2)


async def test_a_move_while_paused_starts_no_clock_and_the_reply_gets_its_full_time(svc, clock):
    people = await players(svc, 2)
    t = await svc.start_tournament((await entered(svc, people, days=3)).id)
    game = t.pairings[0]
    await svc.pause_tournament(t.id, people[0].id)
    await svc.move(game.game_id, game.white.id, "a1")
    view = await svc.game(game.game_id)
    assert view.to_move.id == game.black.id and view.deadline is None
    clock.advance(timedelta(days=10))
    resumed_at = clock.now()
    await svc.resume_tournament(t.id, people[0].id)
    assert (await svc.game(game.game_id)).deadline == resumed_at + timedelta(days=3)


async def test_a_game_already_out_of_time_at_the_pause_is_lost_on_time(svc, clock):
    people = await players(svc, 2)
    t = await svc.start_tournament((await entered(svc, people, days=1)).id)
    game = t.pairings[0]
    clock.advance(timedelta(days=2))  # no sweep ran meanwhile
    await svc.pause_tournament(t.id, people[0].id)
    view = await svc.game(game.game_id)
    assert (view.status, view.reason) == ("finished", "time")
    assert view.ended_at == clock.now() - timedelta(days=1)
