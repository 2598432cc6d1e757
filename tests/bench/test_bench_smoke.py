"""Smoke test of the benchmarks: each runs at a tiny size (``--quick``) and writes
well-formed JSON. Timings and goals are never asserted: they belong to the machine."""

from __future__ import annotations

import asyncio
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench import BENCHMARKS
from tests.bot.backends import POSTGRES_URL, drop_database, make_database

REPO = Path(__file__).resolve().parents[2]


def _bench(*args: str, timeout: int = 900, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bench", *args], check=False, cwd=REPO,
                          capture_output=True, text=True, timeout=timeout, env=env)


@pytest.fixture(scope="module")
def quick(tmp_path_factory) -> dict:
    path = tmp_path_factory.mktemp("bench") / "quick.json"
    database = None
    env = dict(os.environ)
    if POSTGRES_URL:  # the scale benchmark's schema in a database of its own, as every test's
        database, env["FAIRYPOST_TEST_POSTGRES"] = asyncio.run(make_database())
    try:
        proc = _bench("--quick", "--quiet", "--json", str(path), env=env)
    finally:
        if database:
            asyncio.run(drop_database(database))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "bench" in proc.stdout and "case" in proc.stdout  # the table was printed
    return json.loads(path.read_text())


def _number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def test_document(quick):
    assert quick["quick"] is True
    m = quick["machine"]
    assert m["cores"] and m["python"] and isinstance(m["load_at_start"], list)
    assert set(quick["benchmarks"]) == set(BENCHMARKS)


@pytest.mark.parametrize("name", BENCHMARKS)
def test_benchmark_is_well_formed(quick, name):
    res = quick["benchmarks"][name]
    assert not res.get("error"), res.get("error")
    assert res["name"] == name and res["title"]
    assert _number(res["seconds"]) and isinstance(res["load_before"], list)
    assert res["rows"] or res["skipped"], "neither figures nor a reason for their absence"
    for r in res["rows"]:
        assert r["case"] and r["metric"] and r["better"] in ("higher", "lower")
        ours = r["ours"]
        assert ours["n"] >= 1
        assert _number(ours["median"]) and _number(ours["p95"])
        if r["anchor"] is not None:
            assert r["anchor_name"]
            assert _number(r["anchor"]["median"]) and _number(r["anchor"]["p95"])
            assert _number(r["ratio"])
    for g in res["goals"]:
        assert g["id"] and g["goal"] and g["met"] in (True, False, None)
        assert g["value"] is None or _number(g["value"])
    for s in res["skipped"]:
        assert s["case"] and s["why"]


def test_list_and_unknown_name():
    proc = _bench("--list", timeout=120)
    assert proc.returncode == 0
    for name in BENCHMARKS:
        assert name in proc.stdout
    proc = _bench("no-such-benchmark", timeout=120)
    assert proc.returncode == 2 and "perft" in proc.stderr
