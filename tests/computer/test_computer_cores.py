"""Hints and reviews with ``computer_cores`` processes: the setting, its default (every core
but one, at most 4), and the worker's searching processes doing the work (seen in /proc)."""
from __future__ import annotations

import os

import pytest

from bot.computer import player as comp
from bot.config import ConfigError, Settings
from tests.ai.test_parallel import _wait_gone

from .conftest import open_table
from .test_computer_player import start_game


def test_the_default_leaves_one_core_and_the_setting_says_how_many():
    assert comp.cores(Settings()) == max(1, min(4, (os.cpu_count() or 1) - 1))
    assert comp.cores(Settings(computer_cores=3)) == 3
    assert Settings.load(env={"FAIRYPOST_COMPUTER_CORES": "2"}).computer_cores == 2
    with pytest.raises(ConfigError, match="computer_cores must be from 1 to 256, not 0"):
        Settings(computer_cores=0)
    with pytest.raises(ConfigError, match="FAIRYPOST_COMPUTER_CORES must be a whole number, not 'all'"):
        Settings.load(env={"FAIRYPOST_COMPUTER_CORES": "all"})


def _searching_children(pool) -> list[int]:
    """The searching processes the computer's worker process started (ai.parallel)."""
    workers = set(pool._processes)
    out = []
    for d in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{d}/stat") as f:
                stat = f.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{d}/cmdline") as f:
                spawned = "multiprocessing.spawn" in f.read()
        except FileNotFoundError:
            continue
        if int(stat[1]) in workers and spawned and stat[0] != "Z":
            out.append(int(d))
    return out


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads the process table in /proc (Linux)")
async def test_a_hint_and_a_review_use_the_cores_the_setting_allows(settings, clock):
    """One core: the worker alone, as before. Two: the worker's two searching processes.
    (A pool of its own: the package's shared worker keeps one core.)"""
    for cores in (1, 2):
        pool = comp.make_pool(1, games=("chess",))
        table = await open_table(settings.with_(computer_cores=cores,
                                                db_path=settings.db_path + str(cores)), clock, pool)
        table.computer.hint_seconds = 1.0   # ai.parallel.MIN_SECONDS: shorter ones use one core
        try:
            me, _cpu, gid = await start_game(table, "chess")
            hint = await table.computer.hint(await table.service.game(gid), me.id)
            assert hint.lan in await table.service.legal_moves(gid)
            assert len(_searching_children(pool)) == (0 if cores == 1 else 2)
            # a review's positions shared among them: the blunder and the mate still marked
            ann = await table.service.player("human", "ann2", "Ann")
            bob = await table.service.player("human", "bob", "Bob")
            c = await table.service.challenge(ann.id, "chess", opponent_id=bob.id, colour="white")
            view = await table.service.accept_challenge(c.id, bob.id)
            for ply, text in enumerate(["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]):
                await table.service.move(view.id, (ann, bob)[ply % 2].id, text)
            reviewed = await table.computer.review(await table.service.game(view.id))
            assert [m.mark for m in reviewed][5:] == ["??", "best"]
            kids = _searching_children(pool)
            assert len(kids) == (0 if cores == 1 else 2)
        finally:
            await table.close()
            pool.shutdown(wait=True)
        assert not _wait_gone(kids)   # they end with the worker
