"""Running ``fairypost`` as a subprocess, on a database in the test's folder."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Run:
    code: int
    out: str
    err: str


class Fairypost:
    def __init__(self, tmp_path: Path):
        self.dir = tmp_path
        self.db = tmp_path / "data" / "games.sqlite3"
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith("FAIRYPOST_") and k != "DISCORD_TOKEN"}
        self.env.update({
            "FAIRYPOST_DB": str(self.db),
            "XDG_DATA_HOME": str(tmp_path / "xdg"),  # nothing lands in the real data folder
            "PYTHONPATH": os.pathsep.join([str(ROOT)] + [p for p in [os.environ.get("PYTHONPATH")] if p]),
            "PYTHONIOENCODING": "utf-8",
            # a wide terminal: the transcripts' lines stay whole (test_keyboard.py wraps them)
            "COLUMNS": "250",
        })

    def __call__(self, *args: str, input: str = "", env: dict | None = None,
                 timeout: float = 60) -> Run:
        p = subprocess.run([sys.executable, "-m", "bot.cli", *args], input=input,
                           capture_output=True, text=True, encoding="utf-8", cwd=self.dir,
                           env={**self.env, **(env or {})}, timeout=timeout, check=False)
        return Run(p.returncode, p.stdout, p.stderr)

    def play(self, *args: str, lines: list[str] = (), images: bool = False, **kw) -> Run:
        extra = () if images else ("--no-images",)
        return self("play", *args, *extra, input="".join(line + "\n" for line in lines), **kw)


@pytest.fixture
def fairypost(tmp_path: Path) -> Fairypost:
    return Fairypost(tmp_path)
