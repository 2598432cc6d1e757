"""The whole suite: its CPU and wall time, said at the end of every run.

The README promises the test command takes a few minutes of CPU on a small machine;
this line shows it, so a change that makes the suite slower is seen in the run that makes
it. It counts the whole run: this process, and under pytest-xdist (the README's command
runs in parallel) every worker with the subprocesses each waited for, which each worker
sends back at its end (``workeroutput``). Servers that leave their parent (Dovecot's
daemon, the PostgreSQL server of the contract tests) are not counted. The long runs stay
behind ``FAIRYPOST_LONG=1`` and ``FAIRYPOST_FULL_PERFT=1``.
"""
from __future__ import annotations

import math
import os
import resource
import signal
import time
from pathlib import Path

import pytest

# README: "the suite's budget of fifteen minutes (900 s)": its CPU, the same whether it runs
# on one core or in parallel, with room for a busy machine's dearer CPU seconds
CPU_BUDGET_SECONDS = 900

_WORKER_CPU = "fairypost_cpu_seconds"  # the key a worker's CPU comes back under
# -n auto's most workers: each one collects the whole suite (some 10 s of CPU) before it runs
# a test, and they share the servers the tests start (the PostgreSQL server's connections)
MAX_WORKERS = 4


def pytest_addoption(parser, pluginmanager):
    """``-p no:xdist`` runs the suite in this one process: the ``-n`` and ``--dist`` that
    pyproject.toml's ``addopts`` gives are then accepted and mean nothing (``-n 0`` does
    the same with xdist loaded)."""
    if not pluginmanager.hasplugin("xdist"):
        group = parser.getgroup("xdist", "pytest-xdist, not loaded: its options are ignored")
        # _addoption, as xdist itself declares -n: addoption keeps one-letter options for pytest
        group._addoption("-n", "--numprocesses", dest="numprocesses", default=None, help="(ignored)")
        group._addoption("--dist", dest="dist", default="no", help="(ignored)")


def _read(path: str) -> str:
    try:
        return Path(path).read_text().strip()
    except OSError:
        return ""


def usable_cores() -> int:
    """The cores this process may use: those it is allowed to run on, fewer if a cgroup's
    CPU quota (a container's ``--cpus``) allows less."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    for quota_and_period in (_read("/sys/fs/cgroup/cpu.max").split(),  # cgroup v2: "200000 100000"
                             [_read("/sys/fs/cgroup/cpu/cpu.cfs_quota_us"),  # cgroup v1
                              _read("/sys/fs/cgroup/cpu/cpu.cfs_period_us")]):
        try:
            quota, period = (int(x) for x in quota_and_period)
        except ValueError:  # "max", none, or unreadable: no quota there
            continue
        if quota > 0 and period > 0:
            cores = min(cores, math.ceil(quota / period))
    return max(1, cores)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config):
    """``-n auto``: one worker per usable core, at most ``MAX_WORKERS``
    (``PYTEST_XDIST_AUTO_NUM_WORKERS`` still says another number)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # xdist's own hook reads it
    return min(MAX_WORKERS, usable_cores())


def _cpu_seconds(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def pytest_configure(config):
    # Tests press Ctrl-C on the programs they start (SIGINT), as at a terminal. A run started
    # in the background (``cmd &`` in a script, nohup) ignores SIGINT, and every process it
    # starts would inherit that and never see the Ctrl-C; with Python's own handler here,
    # the processes started from here (xdist's workers, and theirs) begin with the default.
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    config._fairypost_started = time.monotonic()
    config._fairypost_workers_cpu = []


def pytest_sessionfinish(session):
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:  # an xdist worker: its CPU and its waited-for children's
        workeroutput[_WORKER_CPU] = (_cpu_seconds(resource.RUSAGE_SELF)
                                     + _cpu_seconds(resource.RUSAGE_CHILDREN))


@pytest.hookimpl(optionalhook=True)  # xdist's hook: unknown when it is not installed or -p no:xdist
def pytest_testnodedown(node, error):
    """The controller hears a worker's end."""
    cpu = getattr(node, "workeroutput", {}).get(_WORKER_CPU)
    if cpu is not None:
        node.config._fairypost_workers_cpu.append(cpu)


def suite_cpu_seconds(own: float, children: float, workers: list[float]) -> float:
    """The run's CPU: this process's own, and its children's. Under xdist the workers are
    its children, counted in ``children`` once reaped and not before; either way no
    worker's CPU is counted twice (the larger of the two: what they sent, or what the
    kernel added up once they were reaped, a little more by their last moments)."""
    return own + max(children, sum(workers))


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    workers = config._fairypost_workers_cpu
    used = suite_cpu_seconds(_cpu_seconds(resource.RUSAGE_SELF),
                             _cpu_seconds(resource.RUSAGE_CHILDREN), workers)
    wall = time.monotonic() - config._fairypost_started
    verdict = "within" if used <= CPU_BUDGET_SECONDS else "OVER"
    on = f"{len(workers)} workers" if workers else "one process"
    terminalreporter.write_line(
        f"suite CPU time: {used:.0f} s ({verdict} the {CPU_BUDGET_SECONDS} s budget of the README); "
        f"wall time: {wall:.0f} s on {on}")
