"""kill -9 leaves no process behind (issue #45, item 3): the computer's worker process, its
searching processes, and multiprocessing's resource tracker end when the process that
started them is killed outright, as the page workers do (tests/robustness/test_kill9_mail.py).
One mechanism for all: ``ai.parallel.end_with_parent``."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from tests.bot.test_run_processes import until
from tests.robustness.test_kill9_mail import alive, descendants

ROOT = Path(__file__).resolve().parents[2]

# the computer's pool as ``Computer.bind`` makes it, its worker started (and with two
# searching processes of its own, as for hints on a machine of three cores or more)
OWNER = textwrap.dedent("""
    import os
    import sys

    from bot.computer.player import make_pool

    if __name__ == "__main__":
        pool = make_pool(1, ["chess"], helpers=2)
        print(pool.submit(os.getpid).result(), flush=True)
        sys.stdin.read()   # until killed
""")


async def test_a_killed_processes_computer_worker_and_resource_tracker_end(tmp_path):
    script, said = tmp_path / "owner.py", tmp_path / "worker.pid"
    script.write_text(OWNER)
    with said.open("w") as out:   # a file, not a pipe: a worker left running would hold a pipe open
        owner = subprocess.Popen([sys.executable, str(script)], stdin=subprocess.PIPE, stdout=out,
                                 env=os.environ | {"PYTHONPATH": str(ROOT)})
    below: set[int] = set()
    try:
        worker = int(await until(lambda: said.read_text().strip(), "the worker's pid", timeout=60))

        def started() -> set[int] | None:   # the worker, its two searching processes, the tracker
            found = descendants(owner.pid)
            return found if len(found) >= 4 else None
        below = await until(started, "the worker's processes", timeout=60)
        assert worker in below
        owner.kill()
        owner.wait()
        await until(lambda: not alive(below), "the killed process's computer processes to end", timeout=10)
    finally:
        if owner.poll() is None:
            owner.kill()
            owner.wait()
        for pid in alive(below):
            os.kill(pid, signal.SIGKILL)
