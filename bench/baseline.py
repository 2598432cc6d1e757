"""The code of an earlier commit as an anchor: ``python -m bench perft search --baseline REF``.

``git archive REF`` is unpacked into the run's temporary folder and a child process
(bench/baseline_worker.py, with that tree first on its path) answers "perft" and
"think" requests over a pipe, so that the same cases run on the old code and the new
in one run, their repetitions interleaved: "today's speed" is measured beside ours
under the same load, never remembered from another day.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
from io import BytesIO
from pathlib import Path

WORKER = Path(__file__).with_name("baseline_worker.py")


class BaselineError(RuntimeError):
    pass


class Baseline:
    def __init__(self, ref: str, tmp: Path):
        self.ref = ref
        root = Path(__file__).resolve().parent.parent
        try:
            sha = subprocess.run(["git", "rev-parse", "--short", ref], cwd=root, check=True,
                                 capture_output=True, text=True).stdout.strip()
            tar = subprocess.run(["git", "archive", ref], cwd=root, check=True,
                                 capture_output=True).stdout
        except (OSError, subprocess.CalledProcessError) as e:
            err = getattr(e, "stderr", None) or ""
            if isinstance(err, bytes):
                err = err.decode(errors="replace")
            raise BaselineError(f"cannot read the code at {ref!r}: {err.strip() or e}") from None
        self.name = f"fairypost {ref} ({sha})" if sha != ref else f"fairypost {sha}"
        self.dir = tmp / f"baseline-{sha}"
        self.dir.mkdir(parents=True, exist_ok=True)
        with tarfile.open(fileobj=BytesIO(tar)) as t:
            t.extractall(self.dir, filter="data")
        env = dict(os.environ, PYTHONPATH=str(self.dir))
        self.proc = subprocess.Popen([sys.executable, str(WORKER)], cwd=self.dir, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def call(self, op: str, **args) -> dict:
        """One request; the answer's figures (wall and CPU seconds, nodes, depth)."""
        self.proc.stdin.write(json.dumps({"op": op, **args}) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise BaselineError(f"the {self.name} worker stopped (exit {self.proc.wait()})")
        out = json.loads(line)
        if "error" in out:
            raise BaselineError(f"{self.name}: {out['error']}")
        return out

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.stdin.close()
            self.proc.wait(timeout=30)


def baseline(ctx):
    """The run's baseline (made once, shared by the benchmarks), or None without --baseline."""
    ref = getattr(ctx, "baseline", None)
    if not ref:
        return None
    got = ctx.cache.get("baseline")
    if got is None:
        got = ctx.cache["baseline"] = Baseline(ref, ctx.tmp)
    return got
