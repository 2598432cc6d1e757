"""A Swiss round's deadline (bot/tournaments/deadlines.py, issue 43 item 4), with the real
chess rules and engine on a SQLite file: the players are told the round's deadline with
their game; at the deadline the games still going are adjudicated by the engine's
evaluation if the event was made so (a queen up wins, a level position is drawn), else
left to the director, who is told; either way the next round is paired only when every
game is over or decided; the page shows each round's progress and the days left."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.config import Settings
from bot.delivery import events as ev
from bot.delivery.events import MemoryNotifier
from bot.operations.service import GameService
from bot.timekeeping.clock import ManualClock
from bot.tournaments import deadlines
from bot.tournaments.service import TournamentError
from bot.words.text import PLAIN, event_text

T0 = datetime(2026, 3, 2, 12, tzinfo=UTC)


@pytest.fixture
def clock():
    return ManualClock(T0)


@pytest.fixture
def notifier():
    return MemoryNotifier()


@pytest.fixture
async def svc(tmp_path, clock, notifier):
    service = await GameService.open(Settings(db_path=str(tmp_path / "g.db"), command_rate_per_minute=0),
                                     clock=clock, notifier=notifier)
    yield service
    await service.close()


async def swiss(svc, n=6, **kw):
    director = await svc.player("test", "d", "Director")
    t = await svc.create_tournament("chess", name="Deadline cup", format="swiss", rounds=2, days="none",
                                    round_days=7, creator_id=director.id, **kw)
    for i in range(n):
        await svc.join_tournament(t.id, (await svc.player("test", f"p{i}", f"Player {i}")).id)
    return director, await svc.start_tournament(t.id)


async def play(svc, p, *sans):
    for ply, san in enumerate(sans):
        await svc.move(p.game_id, (p.white if ply % 2 == 0 else p.black).id, san)


def test_the_engine_decides_by_its_score():
    assert deadlines.adjudicated(250).result == "1-0"
    assert deadlines.adjudicated(-200).result == "0-1"
    assert deadlines.adjudicated(199) == ("1/2-1/2", "adjudication")
    # a queen up (1.e4 e5 2.Nf3 Qh4?? 3.Nxh4), Black to move: White's by far
    vfen_game = "rnb1kbnr/pppp1ppp/8/4p3/4P2N/8/PPPP1PPP/RNBQKB1R b KQkq - 0 3"
    assert deadlines.score_for_white("chess", vfen_game, 0.2) >= 600


async def test_adjudication_is_for_a_swiss_with_a_deadline(svc):
    for kw in ({"format": "round-robin"}, {"format": "swiss", "rounds": 3}):
        with pytest.raises(TournamentError, match="adjudication at a round's deadline is for a Swiss"):
            await svc.create_tournament("chess", name="No", adjudicate=True, **kw)
    assert (await svc.list_tournaments()) == []  # nothing made


async def test_players_are_told_the_rounds_deadline_with_their_game(svc, notifier):
    _, t = await swiss(svc)
    started = [e for e in notifier.of(ev.GameStarted) if e.tournament_id == t.id]
    assert started and all(e.tournament_deadline == T0 + timedelta(days=7) for e in started)
    assert "round 1 (the round ends " in event_text(started[0], PLAIN)


async def test_at_the_deadline_the_games_left_are_adjudicated_when_the_event_says_so(svc, clock, notifier):
    director, t = await swiss(svc, adjudicate=True)
    won, level, over = [p for p in t.pairings if p.black is not None]
    await play(svc, won, "e4", "e5", "Nf3", "Qh4", "Nxh4")  # White a queen up
    await play(svc, level, "e4", "e5")
    await svc.resign(over.game_id, over.black.id)
    clock.advance(timedelta(days=7, seconds=1))
    await svc.sweep()
    assert (await svc.game(won.game_id)).result == "1-0" and (await svc.game(won.game_id)).reason == "adjudication"
    assert (await svc.game(level.game_id)).result == "1/2-1/2"
    (told,) = notifier.of(ev.TournamentDeadline, director.id)
    assert told.adjudicated and set(told.games) == {won.game_id, level.game_id}
    assert "were adjudicated by the engine's evaluation" in event_text(told, PLAIN)
    view = await svc.tournament(t.id)
    assert view.round == 2  # every game decided: the next round is paired
    over_text = [event_text(e, PLAIN) for e in notifier.of(ev.GameOver) if e.game_id == won.game_id]
    assert over_text and "by adjudication" in over_text[0]


async def test_at_the_deadline_the_games_left_wait_for_the_director(svc, clock, notifier):
    director, t = await swiss(svc)
    going = [p for p in t.pairings if p.black is not None]
    await svc.resign(going[0].game_id, going[0].black.id)
    clock.advance(timedelta(days=7, seconds=1))
    await svc.sweep()
    await svc.sweep()
    (told,) = notifier.of(ev.TournamentDeadline, director.id)  # told once
    assert not told.adjudicated and set(told.games) == {going[1].game_id, going[2].game_id}
    assert "yours to decide as its director" in event_text(told, PLAIN)
    assert [(await svc.game(p.game_id)).status for p in going[1:]] == ["active", "active"]  # they go on
    assert (await svc.tournament(t.id)).round == 1  # the round waits for them
    assert await svc.next_wake() is None or await svc.next_wake() > clock.now()  # no busy sweeping
    for p in going[1:]:
        await svc.resign(p.game_id, p.white.id)
    assert (await svc.tournament(t.id)).round == 2


def test_the_owners_command_line_makes_an_adjudicated_swiss(tmp_path):
    import os
    import subprocess
    import sys
    env = dict(os.environ, FAIRYPOST_DB=str(tmp_path / "g.db"))
    env.pop("FAIRYPOST_CONFIG", None)

    def fairypost(*args):
        return subprocess.run([sys.executable, "-m", "bot.cli", *args], env=env, capture_output=True, text=True,
                              timeout=120)
    done = fairypost("tournament", "new", "chess", "--name", "Cup", "--format", "round-robin", "--adjudicate")
    assert done.returncode != 0 and "adjudication at a round's deadline is for a Swiss" in done.stderr + done.stdout
    done = fairypost("tournament", "new", "chess", "--name", "Cup", "--format", "swiss", "--rounds", "3",
                     "--round-days", "7", "--adjudicate")
    assert done.returncode == 0, done.stderr
    assert "Made tournament #1" in done.stdout


async def test_every_director_is_told_of_the_deadline_once(svc, clock, notifier):
    maker, t = await swiss(svc)
    named = await svc.player("test", "n", "Named director")
    await svc.add_tournament_director(t.id, named.id, maker.id)
    going = {p.game_id for p in t.pairings if p.black is not None}
    clock.advance(timedelta(days=7, seconds=1))
    await svc.sweep()
    await svc.sweep()
    for director in (maker, named):
        (told,) = notifier.of(ev.TournamentDeadline, director.id)
        assert set(told.games) == going and not told.adjudicated
    players = {e.id for e in t.entrants}
    assert not any(notifier.of(ev.TournamentDeadline, p) for p in players)  # the players are not
