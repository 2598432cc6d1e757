"""python -m bench [NAME ...] [--quick] [--json PATH]: run benchmarks, print a table,
write the figures as JSON. See bench/__init__.py and bench/RESULTS.md."""

from __future__ import annotations

import argparse
import importlib
import json
import math
import sys
import tempfile
import time
import traceback
from datetime import UTC, datetime
from pathlib import Path

from . import BENCHMARKS
from .common import Context, Progress, loadavg, machine_info


def _num(x, metric: str) -> str:
    if x is None:
        return "-"
    if isinstance(x, float) and not math.isfinite(x):
        return str(x)
    if metric == "nodes/s":
        return f"{x / 1000:.1f}k" if x >= 1000 else f"{x:.0f}"
    if metric in ("MiB", "cmd/s", "x"):
        return f"{x:.1f}"
    if metric == "s":
        return f"{x:.2f}"
    return f"{x:.1f}" if x >= 10 else f"{x:.2f}"


def _ratio(x) -> str:
    if x is None:
        return "-"
    return f"{x:.2f}" if x >= 0.1 else f"{x:.2g}"


def table(results: dict) -> str:
    head = ("bench", "case", "metric", "ours med", "ours p95", "anchor med", "anchor p95",
            "ratio", "cpu ratio", "n", "load")
    lines = [head]
    for name, res in results.items():
        for r in res.get("rows", []):
            o, a = r.get("ours") or {}, r.get("anchor") or {}
            m = r["metric"]
            lines.append((name, r["case"], m, _num(o.get("median"), m), _num(o.get("p95"), m),
                          _num(a.get("median"), m), _num(a.get("p95"), m), _ratio(r.get("ratio")),
                          _ratio(r.get("cpu_ratio")), str(o.get("n", "")),
                          str((r.get("load1") or ["?"])[0])))
    widths = [max(len(str(line[i])) for line in lines) for i in range(len(head))]
    out = []
    for k, line in enumerate(lines):
        cells = [str(c).ljust(widths[i]) if i < 3 else str(c).rjust(widths[i])
                 for i, c in enumerate(line)]
        out.append("  ".join(cells).rstrip())
        if k == 0:
            out.append("  ".join("-" * w for w in widths))
    out.append("ratio = ours / anchor (medians, wall time; cpu ratio: process CPU time). "
               "For a rate (nodes/s, cmd/s) above 1 is ours faster; for ms below 1 is.")
    return "\n".join(out)


def notes(results: dict) -> str:
    out = []
    for name, res in results.items():
        for g in res.get("goals", []):
            met = {True: "MET", False: "MISSED", None: "NOT MEASURED"}[g["met"]]
            value = "-" if g["value"] is None else f"{g['value']:.3g}"
            out.append(f"goal {g['id']} {met:12} {g['goal']}: {value} (target {g['target']:g})"
                       + (f" - {g['detail']}" if g.get("detail") else ""))
        for n in res.get("notes", []):
            out.append(f"NOTE {name}: {n}")
        for s in res.get("skipped", []):
            out.append(f"SKIPPED {name}: {s['case']}: {s['why']}")
        if res.get("error"):
            out.append(f"ERROR {name}: {res['error'].strip().splitlines()[-1]}")
    return "\n".join(out)


def _write(path: Path | None, doc: dict) -> None:
    if path is None:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(doc, indent=1, default=str) + "\n")
    tmp.replace(path)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", metavar="NAME", help=f"any of: {', '.join(BENCHMARKS)}")
    ap.add_argument("--quick", action="store_true", help="small sizes (smoke test, first look)")
    ap.add_argument("--json", metavar="PATH",
                    help="where to write the figures (default bench-results.json, "
                         "bench-results-quick.json with --quick; '-' for none)")
    ap.add_argument("--list", action="store_true", help="list the benchmarks and stop")
    ap.add_argument("--quiet", action="store_true", help="no progress lines")
    ap.add_argument("--baseline", metavar="REF",
                    help="a git ref (e.g. main): perft and search also measure that commit's "
                         "code, interleaved with ours, as a second anchor (speed-ups in one run)")
    args = ap.parse_args(argv)
    if args.list:
        for name in BENCHMARKS:
            mod = importlib.import_module(f"bench.{name}")
            print(f"{name:8} {mod.TITLE}")
        return 0
    names = args.names or list(BENCHMARKS)
    unknown = [n for n in names if n not in BENCHMARKS]
    if unknown:
        ap.error(f"no benchmark {', '.join(unknown)}; the benchmarks are: {', '.join(BENCHMARKS)}")
    default = "bench-results-quick.json" if args.quick else "bench-results.json"
    path = None if args.json == "-" else Path(args.json or default)

    progress = Progress(quiet=args.quiet)
    doc = {"quick": args.quick, "baseline": args.baseline, "started": datetime.now(UTC).isoformat(timespec="seconds"),
           "machine": machine_info(), "benchmarks": {}}
    failed = False
    with tempfile.TemporaryDirectory(prefix="fairypost-bench-") as tmp:
        ctx = Context(quick=args.quick, tmp=Path(tmp), progress=progress, baseline=args.baseline)
        for name in names:
            progress.name = name
            progress("start")
            before, t0 = loadavg(), time.perf_counter()
            try:
                mod = importlib.import_module(f"bench.{name}")
                res = mod.run(ctx)
                title = mod.TITLE
            except Exception:  # noqa: BLE001 - record it, go on with the others
                failed = True
                res = {"rows": [], "goals": [], "skipped": [], "error": traceback.format_exc()}
                title = name
                print(res["error"], file=sys.stderr)
            res = {"name": name, "title": title, **res, "seconds": time.perf_counter() - t0,
                   "load_before": before, "load_after": loadavg()}
            doc["benchmarks"][name] = res
            progress(f"done in {res['seconds']:.1f}s")
            doc["finished"] = datetime.now(UTC).isoformat(timespec="seconds")
            doc["machine"]["load_at_end"] = loadavg()
            _write(path, doc)  # after each benchmark: an interrupted run keeps what is done
        if ctx.cache.get("baseline") is not None:
            ctx.cache["baseline"].close()
    print()
    print(table(doc["benchmarks"]))
    text = notes(doc["benchmarks"])
    if text:
        print()
        print(text)
    m = doc["machine"]
    print(f"\nmachine: {m['cpu']}, {m['usable_cores']} cores, load {m['load_at_start']} -> "
          f"{m['load_at_end']}, Python {m['python']}"
          + (f"; figures in {path}" if path else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
