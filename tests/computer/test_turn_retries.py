"""The computer's turn always comes (issue #32 item 3): a turn that fails is tried again by
the sweep with growing pauses, its opponent is told after ``computer_tell_after`` failures,
and no one loses on time meanwhile; a worker process that cannot start is refused at
start-up, with a clear message, by a real ``python script.py``."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
from concurrent.futures import Executor, Future
from datetime import timedelta
from pathlib import Path

import pytest

from bot.computer import player as comp
from bot.delivery.events import ComputerStalled, GameOver, YourMove
from bot.words.text import PLAIN, event_text

from .conftest import open_table
from .test_computer_player import start_game

ROOT = Path(__file__).resolve().parents[2]


class BrokenFirst(Executor):
    """The worker pool, but its next ``failures`` jobs raise (a worker that breaks)."""

    def __init__(self, pool: Executor, failures: int):
        self.pool, self.failures, self.calls = pool, failures, 0

    def submit(self, fn, /, *args, **kwargs):
        self.calls += 1
        if self.failures > 0:
            self.failures -= 1
            future = Future()
            future.set_exception(RuntimeError("the worker broke"))
            return future
        return self.pool.submit(fn, *args, **kwargs)


async def test_a_failing_turn_is_retried_by_the_sweep_with_growing_pauses(settings, clock, pool):
    broken = BrokenFirst(pool, failures=10**6)
    t = await open_table(settings, clock, broken)
    try:
        me, cpu, gid = await start_game(t, "chess", days=1)
        t0 = clock.now()
        await t.service.move(gid, me.id, "e4")
        await t.computer.idle(gid)
        assert broken.calls == 1  # failed once: not dropped, due again in 30 s
        # where no scheduler sweeps (the terminal), its own timer is set for then
        timer = t.computer._timer.when() - asyncio.get_running_loop().time()
        assert 29 < timer <= 30
        pauses, at = [], t0
        for failures in range(2, 9):
            due = await t.service.next_wake()  # the scheduler would wake the sweep then
            pauses.append((due - at).total_seconds())
            clock.set(due - timedelta(seconds=1))
            assert (await t.service.sweep()).turns_retried == 0  # not before its time
            clock.set(due)
            assert (await t.service.sweep()).turns_retried == 1
            await t.computer.idle(gid)
            assert broken.calls == failures
            at = due
        assert pauses == [30, 60, 120, 240, 480, 960, 1920]
        # the human was told once, after the third failure; their clock does not run
        (told,) = t.seen.of(ComputerStalled, me.id)
        assert told.failures == 3 and told.computer.id == cpu.id
        assert event_text(told, PLAIN) == (
            "Game #1 (Chess): fairypost level 1 could not make its move (3 attempts failed). It "
            "keeps trying; the game waits for it, and neither side can lose on time meanwhile.")
        # days pass (a 1-day game): the pauses stop growing at an hour, no one loses on time
        for _ in range(3 * 24):
            clock.set(await t.service.next_wake())
            await t.service.sweep()
            await t.computer.idle(gid)
        assert clock.now() - t0 > timedelta(days=3)
        assert (await t.service.next_wake() - clock.now()).total_seconds() == comp.RETRY_MAX_SECONDS
        view = await t.service.game(gid)
        assert (view.status, view.ply, view.deadline) == ("active", 1, None)
        assert t.seen.of(GameOver) == [] and len(t.seen.of(ComputerStalled)) == 1
        # the worker works again: the next retry moves, and the human has a whole day
        broken.failures = 0
        clock.set(await t.service.next_wake())
        await t.service.sweep()
        await t.computer.idle(gid)
        view = await t.service.game(gid)
        assert view.ply == 2 and view.moves[-1].player_id == cpu.id
        assert view.to_move.id == me.id and view.seconds_left == 86400
        assert t.seen.of(YourMove, me.id)[-1].ply == 2
        assert t.computer.next_due() is None  # nothing left to retry
        assert (await t.service.sweep()).turns_retried == 0
    finally:
        await t.close()


async def test_a_turn_that_recovers_before_the_notice_tells_no_one(settings, clock, pool):
    t = await open_table(settings, clock, BrokenFirst(pool, failures=2))
    try:
        me, cpu, gid = await start_game(t, "chess")
        await t.service.move(gid, me.id, "e4")
        for _ in range(2):
            await t.computer.idle(gid)
            clock.set(await t.service.next_wake())
            await t.service.sweep()
        await t.computer.idle(gid)
        assert (await t.service.game(gid)).ply == 2
        assert t.seen.of(ComputerStalled) == []
    finally:
        await t.close()


def _script(tmp_path: Path, body: str, name: str) -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(body))
    return path


def _run(script: Path, *args: str) -> subprocess.CompletedProcess:
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, str(script), *args], capture_output=True, text=True,
                          timeout=120, env=env, cwd=script.parent)


def test_a_main_script_that_is_not_import_safe_is_refused_at_start_up(tmp_path):
    """``fairypost run`` from a script whose top level starts it: spawn runs that script again
    in the worker. Refused at once, saying what to do; nothing opened, nothing served."""
    db = tmp_path / "games.db"
    script = _script(tmp_path, """
        import sys
        print("top level", flush=True)  # a side effect, run again in every spawned process
        from bot import adapters
        from bot.config import Settings
        sys.exit(adapters.main(Settings(db_path=sys.argv[1], web_port=int(sys.argv[2])),
                               [adapters.WEB]))
    """, "unsafe.py")
    out = _run(script, str(db), "1")
    assert out.returncode == 1, out
    assert out.stdout.count("top level") == 2  # this process, and the probe that ran it again
    advice = (f"multiprocessing's \"spawn\", which runs the main script again in the new process "
              f"(here {script}): if that script starts fairypost when it is run, put that under "
              "`if __name__ == \"__main__\":`, or start fairypost with `fairypost run`.")
    # the probe, refused before it opened anything; then this process, refused at start-up
    child, said = [line for line in out.stderr.splitlines() if line.startswith("fairypost: ")]
    assert child == ("fairypost: fairypost was started again inside the computer's worker process, "
                     "by the main script run again there. The computer thinks in a worker process "
                     "started with " + advice)
    assert said == (
        "fairypost: the computer's worker process could not start (it exited with code 1). The "
        "computer thinks in a worker process started with multiprocessing's \"spawn\", which runs "
        f"the main script again in the new process (here {script}): if that script starts "
        "fairypost when it is run, put that under `if __name__ == \"__main__\":`, or start "
        "fairypost with `fairypost run`.")
    assert not db.exists()  # refused before the database was opened, in either process


def test_an_import_safe_main_script_gets_the_computers_moves(tmp_path):
    script = _script(tmp_path, """
        import asyncio
        import sys
        print("top level", flush=True)

        from bot.computer import player as comp
        from bot.adapters import Host
        from bot.config import Settings


        async def main(db):
            host = await Host.open(Settings(db_path=db), [], reminders=False,
                                   computer=comp.Computer(seconds=0.1, games=("chess",)))
            try:
                me = await host.service.player("human", "ann", "Ann")
                _, c = await comp.challenge_computer(host.service, me.id, "chess", level=1,
                                                     colour="white")
                await host.service.move(c.game_id, me.id, "e4")
                for _ in range(600):  # its notice is delivered in the background: then it thinks
                    await host.computer.idle(c.game_id)
                    view = await host.service.game(c.game_id)
                    if view.ply == 2:
                        break
                    await asyncio.sleep(0.1)
                print("reply by", view.moves[-1].player_id != me.id, "ply", view.ply, flush=True)
            finally:
                await host.close()


        if __name__ == "__main__":
            asyncio.run(main(sys.argv[1]))
    """, "safe.py")
    out = _run(script, str(tmp_path / "games.db"))
    assert out.returncode == 0, out
    assert "reply by True ply 2" in out.stdout


def test_the_retry_settings_are_read_and_checked():
    from bot.config import ConfigError, Settings
    s = Settings.load(env={"FAIRYPOST_COMPUTER_RETRY_SECONDS": "5", "FAIRYPOST_COMPUTER_TELL_AFTER": "1"})
    assert (s.computer_retry_seconds, s.computer_tell_after) == (5, 1)
    assert (Settings().computer_retry_seconds, Settings().computer_tell_after) == (30, 3)
    with pytest.raises(ConfigError, match="computer_retry_seconds and computer_tell_after must be at least 1"):
        Settings(computer_tell_after=0)
