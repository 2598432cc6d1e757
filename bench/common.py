"""What every benchmark shares: timing and statistics, the run context and its progress
lines, the machine description, the anchors (python-chess, its svg + cairosvg), seeded
random games, and the shape of a result row.

Statistics. A sample is one repetition's wall time (``time.perf_counter``) with the
process CPU time (``time.process_time``, every thread of the process) beside it. The
median is the middle sample; the p95 is the nearest-rank 95th percentile (with fewer
than 20 samples it is the slowest one, and the table says how many there were). For a
rate (nodes per second, commands per second) the "p95" is the rate at the p95 time:
the slow end, like the times.
"""

from __future__ import annotations

import asyncio
import gc
import math
import os
import platform
import random
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent


# --- statistics ---------------------------------------------------------------------

def percentile(samples: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of a non-empty list."""
    xs = sorted(samples)
    k = max(1, math.ceil(q / 100 * len(xs)))
    return xs[k - 1]


def median(samples: list[float]) -> float:
    xs = sorted(samples)
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


class Series:
    """Repetitions of one thing: wall and CPU seconds per sample."""

    def __init__(self) -> None:
        self.wall: list[float] = []
        self.cpu: list[float] = []

    def add(self, wall: float, cpu: float | None = None) -> None:
        self.wall.append(wall)
        self.cpu.append(wall if cpu is None else cpu)

    def __len__(self) -> int:
        return len(self.wall)

    def summary(self, samples: bool = True) -> dict:
        """Seconds: n, median, p95, min, max, mean, and the CPU median and p95."""
        if not self.wall:
            return {"n": 0}
        out = {
            "n": len(self.wall),
            "median": median(self.wall),
            "p95": percentile(self.wall, 95),
            "min": min(self.wall),
            "max": max(self.wall),
            "mean": sum(self.wall) / len(self.wall),
            "cpu_median": median(self.cpu),
            "cpu_p95": percentile(self.cpu, 95),
        }
        if samples:
            out["samples"] = [round(x, 6) for x in self.wall]
        return out


def timed(fn: Callable[[], Any]) -> tuple[Any, float, float]:
    """(result, wall seconds, process CPU seconds) of one call."""
    c0, t0 = time.process_time(), time.perf_counter()
    out = fn()
    t1, c1 = time.perf_counter(), time.process_time()
    return out, t1 - t0, c1 - c0


async def atimed(make) -> tuple[Any, float, float]:
    """The same for a coroutine function of no arguments."""
    c0, t0 = time.process_time(), time.perf_counter()
    out = await make()
    t1, c1 = time.perf_counter(), time.process_time()
    return out, t1 - t0, c1 - c0


def settle() -> None:
    """Between repetitions, outside the timing: collect garbage now, not during a sample."""
    gc.collect()


def loadavg() -> list[float]:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:  # pragma: no cover - not on this platform
        return []


# --- results ----------------------------------------------------------------------------

def time_figure(series: Series) -> dict:
    """A time row's figures, in milliseconds."""
    s = series.summary()
    if not s["n"]:
        return s
    out = dict(s)
    for k in ("median", "p95", "min", "max", "mean", "cpu_median", "cpu_p95"):
        out[k] = s[k] * 1000
    out["samples"] = [round(x * 1000, 3) for x in series.wall]
    out["unit"] = "ms"
    return out


def rate_figure(series: Series, work: float) -> dict:
    """A rate row's figures: ``work`` units per second at the median and the p95 time."""
    s = series.summary()
    if not s["n"]:
        return s
    return {
        "n": s["n"], "work": work, "unit": "per s",
        "median": work / s["median"], "p95": work / s["p95"],
        "cpu_median": work / s["cpu_median"] if s["cpu_median"] > 0 else None,
        "seconds": {k: s[k] for k in ("median", "p95", "min", "max", "cpu_median", "cpu_p95")},
        "samples_s": s["samples"],
    }


def row(case: str, metric: str, ours: dict | None, anchor: dict | None = None, *,
        anchor_name: str | None = None, better: str = "lower", **extra) -> dict:
    """One line of the table. ``ratio`` is ours / anchor of the wall-time medians (for a
    rate, above 1 means ours is faster; for a time, below 1 means ours is faster);
    ``cpu_ratio`` the same of the process-CPU medians."""
    ratio = cpu_ratio = None
    if ours and anchor and ours.get("median") and anchor.get("median"):
        ratio = ours["median"] / anchor["median"]
        if ours.get("cpu_median") and anchor.get("cpu_median"):
            cpu_ratio = ours["cpu_median"] / anchor["cpu_median"]
    out = {"case": case, "metric": metric, "better": better, "ours": ours, "anchor": anchor,
           "anchor_name": anchor_name if anchor else None, "ratio": ratio, "cpu_ratio": cpu_ratio,
           "load1": loadavg()[:1]}
    out.update(extra)
    return out


def goal(ident: str, text: str, value: float | None, target: float, met: bool | None,
         detail: str = "") -> dict:
    return {"id": ident, "goal": text, "value": value, "target": target, "met": met,
            "detail": detail}


def paired_ratio(ours: list[float], anchor: list[float]) -> float | None:
    """The median of ours[i] / anchor[i] over interleaved pairs (robust to drift in load)."""
    pairs = [a / b for a, b in zip(ours, anchor, strict=True) if b > 0]
    return median(pairs) if pairs else None


# --- the run ----------------------------------------------------------------------------

class Progress:
    """Progress lines on stderr while long parts run."""

    def __init__(self, stream=None, quiet: bool = False):
        self.stream = stream or sys.stderr
        self.quiet = quiet
        self.t0 = time.monotonic()
        self.name = ""

    def __call__(self, message: str) -> None:
        if self.quiet:
            return
        elapsed = time.monotonic() - self.t0
        load = loadavg()
        print(f"[{elapsed:7.1f}s load {load[0] if load else '?':>5}] {self.name}: {message}",
              file=self.stream, flush=True)


@dataclass
class Context:
    quick: bool
    tmp: Path
    progress: Progress = field(default_factory=Progress)
    seed: int = 20251122
    cache: dict = field(default_factory=dict)  # shared between benchmarks of one run
    baseline: str | None = None  # a git ref whose code perft and search also measure (--baseline)

    def size(self, full, quick):
        return quick if self.quick else full

    def rng(self, salt: str = "") -> random.Random:
        return random.Random(f"{self.seed}:{salt}")


def run_async(coro):
    return asyncio.run(coro)


# --- the machine ------------------------------------------------------------------------

def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _mem_total_mib() -> float | None:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return None


def _version(dist: str) -> str | None:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def _git() -> dict:
    def git(*args):
        try:
            return subprocess.run(["git", *args], check=False, cwd=REPO, capture_output=True,
                                  text=True, timeout=10).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return ""
    status = git("status", "--porcelain")
    return {"commit": git("rev-parse", "--short", "HEAD") or None,
            "changed_files": len(status.splitlines()) if status else 0}


def machine_info() -> dict:
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover
        usable = os.cpu_count()
    return {
        "cpu": _cpu_model(),
        "cores": os.cpu_count(),
        "usable_cores": usable,
        "memory_mib": _mem_total_mib(),
        "platform": platform.platform(),
        "python": sys.version.split()[0],
        "implementation": platform.python_implementation(),
        "sqlite": sqlite3.sqlite_version,
        "packages": {d: _version(d) for d in ("chess", "cairosvg", "pyffish", "Pillow",
                                              "aiosqlite", "discord.py", "cairocffi")},
        "git": _git(),
        "load_at_start": loadavg(),
    }


# --- anchors ------------------------------------------------------------------------------

def python_chess():
    """(the chess module, None) or (None, why it is missing)."""
    try:
        import chess
        return chess, None
    except ImportError as e:
        return None, f"python-chess is not installed ({e}); pip install -e '.[bench]'"


_SVG_PIPELINE: list = []


def svg_pipeline():
    """(draw, None) or (None, why): draw(board, lastmove=None) -> PNG bytes, the 8 x 8
    pipeline people use today: python-chess's SVG board at 512 px through cairosvg."""
    if _SVG_PIPELINE:
        return _SVG_PIPELINE[0]
    chess, why = python_chess()
    if chess is None:
        result = (None, why)
    else:
        try:
            import cairosvg
            import chess.svg
        except (ImportError, OSError) as e:  # OSError: cairocffi cannot find libcairo
            result = (None, (f"cairosvg is not usable ({type(e).__name__}: {e}); it needs the "
                             "bench extra and the Cairo C library (Debian: apt-get install "
                             "libcairo2)"))
        else:
            def draw(board, lastmove=None) -> bytes:
                check = board.king(board.turn) if board.is_check() else None
                svg = chess.svg.board(board, size=512, lastmove=lastmove, check=check)
                return cairosvg.svg2png(bytestring=svg.encode())
            try:
                draw(chess.Board())
                result = (draw, None)
            except Exception as e:  # noqa: BLE001 - report, do not fail the benchmark
                result = (None, f"python-chess svg + cairosvg failed: {type(e).__name__}: {e}")
    _SVG_PIPELINE.append(result)
    return result


def chess_board_after(lans: list[str]):
    """A python-chess Board after our chess LANs (e7e8=Q -> e7e8q), history kept."""
    import chess
    board = chess.Board()
    for lan in lans:
        board.push_uci(lan.replace("=", "").lower() if "=" in lan else lan)
    return board


# --- positions ------------------------------------------------------------------------------

def random_line(game_id: str, seed: int, plies: int) -> list:
    """The positions of a seeded random game (each move drawn uniformly from the legal
    moves sorted by LAN), the start included, history kept: [pos0, pos1, ...]."""
    import rules
    rng = random.Random(seed)
    pos = rules.start(game_id)
    line = [pos]
    for _ in range(plies):
        if pos.outcome() is not None:
            break
        moves = sorted(pos.legal_moves(), key=lambda m: m.lan)
        pos = pos.play(rng.choice(moves))
        line.append(pos)
    return line


def lans_of(pos) -> list[str]:
    """The moves that led to pos (through its parents)."""
    return pos.line()


def fresh(pos):
    """The same position with none of its caches (legal moves, safety, key): what a
    position the engine has just made looks like. Its history is kept."""
    from rules import Position
    p = Position(pos.game, pos.board, pos.side, pos.rights, pos.ep, pos.halfmove, pos.fullmove,
                 pos.hands, pos.dropped, pos.setup, [set(s) for s in pos.occ], list(pos.royal),
                 list(pos.bits))
    p.history = pos.history
    p.last_move = pos.last_move
    return p


def games(ctx: Context) -> tuple[list[str], list[dict]]:
    """The game ids whose rules load, and a skipped line for each that does not."""
    import rules
    ok, skipped = [], []
    for gid in rules.variants():
        try:
            rules.start(gid).legal_moves()
            ok.append(gid)
        except Exception as e:  # noqa: BLE001 - a game being finished right now
            skipped.append({"case": gid, "why": f"does not load: {type(e).__name__}: {e}"})
    return ok, skipped


def service_settings(db_path, **changes):
    """bot.config.Settings for a benchmark's database; changes to fields this version of
    the service does not have are dropped (the service is being written as we measure)."""
    from bot.config import Settings
    known = Settings.__dataclass_fields__
    return Settings(db_path=str(db_path), **{k: v for k, v in changes.items() if k in known})


def board_png_function():
    """(function, where) for the Position -> PNG picture the bot sends."""
    import render
    fn = getattr(render, "board_png", None)
    if fn is not None:
        return fn, "render.board_png"
    from render.position import board_png
    return board_png, "render.position.board_png"
