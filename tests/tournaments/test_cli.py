"""The owner's tournament commands as real processes on a real SQLite file: made, listed,
started (its games made once, their notices left for the running bot), shown with the
standings and results; bad input refused with a clear message and nothing changed."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys

import pytest

from bot.config import Settings
from bot.delivery.events import MemoryNotifier
from bot.identity import page_tokens as tokens
from bot.operations.service import GameService


def fairypost(db, *args, **more_env):
    env = dict(os.environ, FAIRYPOST_DB=str(db), **more_env)
    env.pop("FAIRYPOST_CONFIG", None)
    if "FAIRYPOST_WEB_URL" not in more_env:
        env.pop("FAIRYPOST_WEB_URL", None)
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], env=env, capture_output=True,
                          text=True, timeout=120)


async def with_service(db, work, notifier=None):
    svc = await GameService.open(Settings(db_path=str(db)), notifier=notifier or MemoryNotifier())
    try:
        return await work(svc)
    finally:
        await svc.close()


@pytest.fixture
def db(tmp_path):
    return tmp_path / "games.db"


def test_new_list_start_show(db):
    done = fairypost(db, "tournaments")
    assert done.returncode == 0 and "No tournaments yet" in done.stdout
    done = fairypost(db, "tournament", "new", "chess", "--name", "Club <b>cup</b>", "--format",
                     "round-robin", "--days", "3", "--rated")
    assert done.returncode == 0, done.stderr
    assert "Made tournament #1" in done.stdout and "3 days per move" in done.stdout

    async def join(svc):
        people = [await svc.player("test", n, n) for n in ("Ann", "Ben", "Cy")]
        for p in people:
            await svc.join_tournament(1, p.id)
        return people
    asyncio.run(with_service(db, join))
    assert "3 players · open for entries" in fairypost(db, "tournaments").stdout

    done = fairypost(db, "tournament", "start", "1")
    assert done.returncode == 0, done.stderr
    assert "3 games begun" in done.stdout
    again = fairypost(db, "tournament", "start", "1")
    assert again.returncode == 2 and "has begun already" in again.stderr

    async def check_and_play(svc):
        async with svc.store.read() as tx:
            games = (await tx.fetch_one("SELECT COUNT(*) FROM games"))[0]
            pending = (await tx.fetch_one("SELECT COUNT(*) FROM events WHERE kind = 'game_started' "
                                          "AND status = 'pending'"))[0]
        t = await svc.tournament(1)
        first = next(p for p in t.pairings if p.black is not None)
        await svc.resign(first.game_id, first.black.id)
        return games, pending, first
    games, pending, first = asyncio.run(with_service(db, check_and_play))
    # made once; every start notice still waits for the running bot (none swallowed here)
    assert (games, pending) == (3, 6)

    shown = fairypost(db, "tournament", "show", "1")
    assert shown.returncode == 0, shown.stderr
    out = shown.stdout
    assert "Club <b>cup</b>" in out and "Standings (points · SB):" in out
    assert f"1. {first.white.name} · 1 · " in out
    assert f"{first.white.name} – {first.black.name} · 1-0 · game #{first.game_id}" in out
    assert out.count("playing") == 2 and out.count("bye (0)") == 3
    assert "Tournament page" not in out  # no public address configured
    linked = fairypost(db, "tournament", "show", "1", FAIRYPOST_WEB_URL="https://chess.example",
                       FAIRYPOST_WEB_SECRET="s3cret").stdout
    token = tokens.sign_tournament(b"s3cret", 1)
    assert linked.splitlines()[-1] == f"Tournament page: <https://chess.example/t/1/{token}>"


BAD = [
    (("tournament", "new", "nosuchgame", "--name", "X", "--format", "swiss", "--rounds", "3"), "no game"),
    (("tournament", "new", "chess", "--name", "X", "--format", "swiss"), "number of rounds"),
    (("tournament", "new", "chess", "--name", "X", "--format", "swiss", "--rounds", "2", "--days", "4"), "days"),
    (("tournament", "new", "chess", "--name", "X", "--format", "swiss", "--rounds", "2", "--start", "soon"),
     "2026-12-01T18:00"),
    (("tournament", "show", "7"), "no tournament #7"),
    (("tournament", "start", "7"), "no tournament #7"),
]


def test_bad_input_is_refused_and_changes_nothing(db):
    for args, message in BAD:
        done = fairypost(db, *args)
        assert done.returncode == 2 and message in done.stderr, (args, done.stderr)
    assert "No tournaments yet" in fairypost(db, "tournaments").stdout


def test_a_bad_format_is_refused_by_the_parser(db):
    done = fairypost(db, "tournament", "new", "chess", "--name", "X", "--format", "knockout")
    assert done.returncode == 2 and "invalid choice" in done.stderr
