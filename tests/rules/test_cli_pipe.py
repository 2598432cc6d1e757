"""`python -m rules moves ... | head`: a reader that leaves early ends the command
quietly, without a traceback (issue 15, item 4)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_closed_pipe_ends_it_without_a_traceback():
    read, write = os.pipe()
    os.close(read)  # the reader is gone before the first line is written
    try:
        p = subprocess.run([sys.executable, "-m", "rules", "moves", "grandducal"], stdout=write,
                           stderr=subprocess.PIPE, text=True, cwd=ROOT, timeout=60, check=False)
    finally:
        os.close(write)
    assert "Traceback" not in p.stderr and "BrokenPipeError" not in p.stderr, p.stderr
    assert p.stderr == ""
    assert p.returncode == 141  # 128 + SIGPIPE, as a shell shows a tool the pipe ended
