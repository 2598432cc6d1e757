"""The suite's own machinery (tests/conftest.py), run on a small suite of its own in a
subprocess: the last line counts the CPU of every worker of a parallel run, a serial run
(``-p no:xdist``) still takes the parallel options that ``addopts`` gives, and tests started
with Ctrl-C ignored (a run in the background) hand the programs they start a Ctrl-C that
works."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

CONFTEST = Path(__file__).with_name("conftest.py")

BURNING = '''
import os, signal, subprocess, sys, time

def burn(seconds):
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass

def test_one():
    burn(0.8)

def test_two():
    burn(0.8)

def test_a_program_started_here_has_a_working_ctrl_c():
    code = ("import os, signal, time\\n"
            "try:\\n"
            "    os.kill(os.getpid(), signal.SIGINT)\\n"
            "    time.sleep(5)\\n"
            "except KeyboardInterrupt:\\n"
            "    print('interrupted')\\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.split() == ["interrupted"]
'''


def run_suite(tmp_path: Path, *args: str) -> tuple[float, str, str]:
    """The small suite run with the real conftest and the project's addopts; (its CPU and
    what it ran on, as its last line says them; all it printed)."""
    (tmp_path / "conftest.py").write_text(CONFTEST.read_text())
    (tmp_path / "test_burning.py").write_text(BURNING)
    (tmp_path / "pytest.ini").write_text(  # (the plugins it does not need left out: they cost CPU)
        "[pytest]\naddopts = -q -n 2 --dist loadfile -p no:hypothesispytest -p no:asyncio\n")
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300,
                          env={k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")},
                          # as a script's `cmd &` starts it: Ctrl-C ignored
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    assert done.returncode == 0, done.stdout + done.stderr
    line = re.search(r"suite CPU time: (\d+) s \(within the 900 s budget of the README\); "
                     r"wall time: \d+ s on (.+)", done.stdout)
    assert line, done.stdout
    return float(line[1]), line[2], done.stdout


def test_a_parallel_run_counts_every_workers_cpu(tmp_path):
    cpu, on, out = run_suite(tmp_path)
    assert on == "2 workers" and "3 passed" in out
    assert cpu >= 2  # the two tests' 1.6 s of CPU, burnt in the workers, and their start


def test_a_serial_run_takes_the_parallel_options_and_counts_its_own_cpu(tmp_path):
    cpu, on, out = run_suite(tmp_path, "-p", "no:xdist")
    assert on == "one process" and "3 passed" in out
    assert cpu >= 2
