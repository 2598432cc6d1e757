"""The owner's command line beside a running bot on one database (a SQLite file, and
PostgreSQL when FAIRYPOST_TEST_POSTGRES names a server), as real processes:
``fairypost tournament start`` (and ``pause``/``resume``) write in their own process, and
the running bot (a service delivering in the background and watching the database, as
``fairypost run`` does: ``start_delivery``) sends the games' start notices within seconds
of the command's commit, by the store's watch (SQLite's data_version, PostgreSQL's
LISTEN/NOTIFY), each once: the command line
itself sends nothing. Without the watch they would wait for the safety sweep (minutes)."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections import Counter

import pytest

from bot.config import Settings
from bot.delivery import events as ev
from bot.operations.service import GameService
from tests.bot.backends import BACKENDS, fresh_database

TIMEOUT = 20.0  # far under the safety sweep's minutes: only the watch makes it in time


async def fairypost(db, *args) -> tuple[int, str, str]:
    """The command as its own process, while this test's event loop (the bot) runs on."""
    env = dict(os.environ, FAIRYPOST_DB=str(db))
    for name in ("FAIRYPOST_CONFIG", "FAIRYPOST_WEB_URL"):
        env.pop(name, None)
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot.cli", *args, env=env,
                                                stdout=asyncio.subprocess.PIPE,
                                                stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), 120)
    return proc.returncode, out.decode(), err.decode()


async def until(condition, what: str) -> float:
    """Seconds until ``condition()`` holds (AssertionError after TIMEOUT)."""
    t0 = time.monotonic()
    while not condition():
        if time.monotonic() - t0 > TIMEOUT:
            raise AssertionError(f"not within {TIMEOUT} s: {what}")
        await asyncio.sleep(0.05)
    return time.monotonic() - t0


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_start_by_the_command_line_reaches_the_players_through_the_running_bot(backend, tmp_path):
    async with fresh_database(backend, tmp_path) as db:
        await _start_pause_resume(db)


async def _start_pause_resume(db) -> None:
    notifier = ev.MemoryNotifier()
    bot = await GameService.open(Settings(db_path=str(db), command_rate_per_minute=0), notifier=notifier)
    try:
        bot.start_delivery()  # as fairypost run does
        people = [await bot.player("test", f"p{i}", f"Player {i}") for i in range(4)]
        t = await bot.create_tournament("chess", name="Club cup", format="round-robin", days=3)
        for p in people:
            await bot.join_tournament(t.id, p.id)

        code, out, err = await fairypost(db, "tournament", "start", str(t.id))
        assert code == 0, err
        assert "6 games begun" in out
        await until(lambda: len(notifier.of(ev.GameStarted)) >= 12, "the 12 start notices")
        started = notifier.of(ev.GameStarted)
        # each player is told of each of their three games once, and of nothing else twice
        assert Counter(e.recipient.id for e in started) == {p.id: 3 for p in people}
        assert len({(e.game_id, e.recipient.id) for e in started}) == 12

        async def unsent():  # the marks are written in a batch just after the sends
            async with bot.store.read() as tx:
                return (await tx.fetch_one("SELECT COUNT(*) FROM events WHERE status != 'sent'"))[0]
        deadline = time.monotonic() + TIMEOUT
        while await unsent() and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert await unsent() == 0

        # a pause by the command line stops the clocks the running bot's pages show
        game = started[0].game_id
        code, _, err = await fairypost(db, "tournament", "pause", str(t.id))
        assert code == 0, err
        assert (await bot.game(game)).deadline is None
        code, _, err = await fairypost(db, "tournament", "resume", str(t.id))
        assert code == 0, err
        assert (await bot.game(game)).deadline is not None
        await asyncio.sleep(0.6)  # two more looks of the watch: nothing more is sent
        assert len(notifier.of(ev.GameStarted)) == 12
    finally:
        await bot.close()
