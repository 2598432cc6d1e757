"""The whole suite: its CPU time, said at the end of every run.

The README promises the test command takes a few minutes of CPU on a small machine;
this line shows it (this process and the subprocesses it waited for), so a change that
makes the suite slower is seen in the run that makes it. The long runs stay behind
``FAIRYPOST_LONG=1`` and ``FAIRYPOST_FULL_PERFT=1``.
"""
from __future__ import annotations

import resource

# README: "the suite's budget of ten minutes (600 s)": some 560 s now, room for the tests
# being added and for a busy machine's dearer CPU seconds
CPU_BUDGET_SECONDS = 600


def _cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    used = _cpu_seconds()
    verdict = "within" if used <= CPU_BUDGET_SECONDS else "OVER"
    terminalreporter.write_line(
        f"suite CPU time: {used:.0f} s ({verdict} the {CPU_BUDGET_SECONDS} s budget of the README)")
