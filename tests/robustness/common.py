"""Shared switches and helpers of the robustness tests (issue #12).

``FAIRYPOST_LONG=1`` turns on the long run: random playouts with every check at
every ply for many seeds, hypothesis with 100,000 examples per target, many more
SIGKILLs. The default sizes keep the whole directory at a couple of minutes of CPU.
"""
from __future__ import annotations

import contextlib
import os
import sqlite3
from datetime import UTC, datetime
from functools import cache

import rules
import rules.notation

T0 = datetime(2025, 1, 6, 12, 0, tzinfo=UTC)  # a Monday, noon UTC: the services' clocks start here

LONG = os.environ.get("FAIRYPOST_LONG", "").strip().lower() not in ("", "0", "false", "no")

#: hypothesis profiles, registered in conftest.py; tests apply them with @settings(PROFILE)
PROFILE_NAME = "fairypost-robustness-long" if LONG else "fairypost-robustness"
DEFAULT_EXAMPLES = 250
LONG_EXAMPLES = int(os.environ.get("FAIRYPOST_LONG_EXAMPLES", "100000"))


def register_profiles() -> None:
    """The hypothesis profiles (conftest.py calls this; so does ``profile()``)."""
    from hypothesis import HealthCheck, settings

    quiet = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much,
             HealthCheck.function_scoped_fixture]
    settings.register_profile("fairypost-robustness", max_examples=DEFAULT_EXAMPLES, deadline=None,
                              suppress_health_check=quiet, print_blob=True)
    settings.register_profile("fairypost-robustness-long", max_examples=LONG_EXAMPLES, deadline=None,
                              suppress_health_check=quiet, print_blob=True)


def profile():
    """The settings to decorate a hypothesis test with: ``@profile()``."""
    from hypothesis import settings

    try:
        return settings.get_profile(PROFILE_NAME)
    except Exception:  # noqa: BLE001 - imported outside pytest: register first
        register_profiles()
        return settings.get_profile(PROFILE_NAME)


def _int_env(name: str, default: int, long_default: int) -> int:
    raw = os.environ.get(name)
    return int(raw) if raw else (long_default if LONG else default)


#: random playouts: seeds per game, plies per game, and how often the costly checks run
PLAYOUT_SEEDS = _int_env("FAIRYPOST_PLAYOUT_SEEDS", 1, 6)
PLAYOUT_PLIES = 300
FULL_CHECK_EVERY = _int_env("FAIRYPOST_FULL_CHECK_EVERY", 12, 1)
#: crash test: how many SIGKILLs
KILLS = _int_env("FAIRYPOST_KILLS", 20, 200)


def games() -> list[str]:
    return list(rules.variants())


@contextlib.contextmanager
def memo_move_index():
    """Build the notation index once per position instead of once per parse() call.

    ``parse_move`` rebuilds the index of every legal move's forms at each call; a
    position is immutable, so memoising it per position changes no answer, and
    reading back every legal move of a position costs one build instead of one per
    move. Everything else in parse() (normalising, the games' rewrites and
    explanations) runs as it is."""
    original = rules.notation.move_index
    memo: dict[int, tuple[object, object]] = {}

    def cached(pos):
        hit = memo.get(id(pos))
        if hit is None or hit[0] is not pos:
            if len(memo) > 64:
                memo.clear()
            hit = memo[id(pos)] = (pos, original(pos))
        return hit[1]

    rules.notation.move_index = cached
    try:
        yield
    finally:
        rules.notation.move_index = original


@cache
def sample_positions(game_id: str) -> tuple:
    """A few positions of a game: its start, the set-up start if it has one, and the
    positions after 10, 40 and 80 plies of a seeded random game."""
    from tests.rules.randgames import random_game

    out = [rules.start(game_id)]
    setup = rules.game(game_id).setup_start_fen
    if setup:
        pos = rules.from_fen(game_id, setup)
        out.append(pos)
        out.append(pos.play(sorted(pos.legal_moves(), key=lambda m: m.lan)[7]))
    for ply, (pos, _mv) in enumerate(random_game(game_id, 12, 81)):
        if ply in (10, 40, 80):
            out.append(pos)
    return tuple(out)


def all_positions() -> list:
    return [p for g in games() for p in sample_positions(g)]


def db_digest(path) -> dict[str, list[tuple]]:
    """Every row of every table, read through a connection of its own."""
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        tables = [r[0] for r in con.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        return {t: con.execute(f'SELECT * FROM "{t}" ORDER BY rowid').fetchall() for t in tables}
    finally:
        con.close()


def integrity(path) -> tuple[str, list]:
    con = sqlite3.connect(path)
    try:
        check = con.execute("PRAGMA integrity_check").fetchall()
        fks = con.execute("PRAGMA foreign_key_check").fetchall()
    finally:
        con.close()
    return ", ".join(r[0] for r in check), fks
