"""The pages under load (issue 33, item 4): work kept off the event loop, shares per client
and per game, writes paced per pass of the loop. The flood itself is bench/webflood.py."""

from __future__ import annotations

import asyncio
import os
import threading
from collections import Counter

import pytest

from bot.web.work import Busy, Pool, Turns, Workers


async def test_turns_let_a_few_pieces_go_per_pass_and_games_take_turns():
    loop = asyncio.get_running_loop()
    passes = 0
    counting = True

    def count_passes():  # once in every pass of the loop
        nonlocal passes
        passes += 1
        if counting:
            loop.call_soon(count_passes)
    loop.call_soon(count_passes)
    turns, went = Turns(per_pass=2), []

    async def piece(game, n):
        await turns.turn(game)
        went.append((game, n, passes))
    await asyncio.gather(*(piece("a", n) for n in range(5)), piece("b", 0))
    counting = False
    # game a's five pieces came first, yet b's one goes in the first pass that has to wait
    assert [(g, n) for g, n, _ in went] == [("a", 0), ("a", 1), ("a", 2), ("b", 0), ("a", 3), ("a", 4)]
    per_pass = Counter(p for *_, p in went)
    assert sorted(per_pass.values()) == [2, 2, 2]


async def test_a_piece_given_up_while_waiting_leaves_its_place_to_the_next():
    turns, went = Turns(per_pass=1), []

    async def piece(name):
        await turns.turn(name)
        went.append(name)
    tasks = {name: asyncio.create_task(piece(name)) for name in "abc"}
    await asyncio.sleep(0)  # a went; b and c wait for the next passes
    assert went == ["a"]
    tasks["b"].cancel()     # a page closed while waiting
    await tasks["c"]
    assert went == ["a", "c"] and tasks["b"].cancelled()


class HeldPool:
    """Stands for the worker processes: every job waits until released, in the order run."""

    def __init__(self):
        self.started: list[str] = []
        self.release = asyncio.Event()

    async def run(self, fn, *args):
        self.started.append(args[0])
        await self.release.wait()
        return args[0]

    def close(self):
        pass


async def test_workers_give_each_client_and_each_game_a_share_and_games_their_own_turn():
    pool = HeldPool()
    workers = Workers(per_client=2, per_game=3, pool=pool)
    jobs = [asyncio.create_task(workers.run("client 1", "game 1", None, "1a")),
            asyncio.create_task(workers.run("client 1", "game 1", None, "1b"))]
    await asyncio.sleep(0)
    with pytest.raises(Busy):  # client 1 has two waiting already, for whichever game
        await workers.run("client 1", "game 2", None, "refused")
    jobs.append(asyncio.create_task(workers.run("client 2", "game 1", None, "1c")))
    await asyncio.sleep(0)
    with pytest.raises(Busy):  # game 1 has three, from however many clients
        await workers.run("client 3", "game 1", None, "refused")
    jobs.append(asyncio.create_task(workers.run("client 3", "game 2", None, "2a")))
    await asyncio.sleep(0)
    # one job of a game at a time: game 2's went beside game 1's first, not after its three
    assert pool.started == ["1a", "2a"]
    pool.release.set()
    assert await asyncio.gather(*jobs) == ["1a", "1b", "1c", "2a"]
    assert pool.started == ["1a", "2a", "1b", "1c"]
    await workers.run("client 1", "game 1", None, "again")  # the shares are given back


async def test_a_pool_starts_its_processes_off_the_event_loop_at_a_lower_priority():
    started_in = []

    class Watched(Pool):
        def _start(self):
            started_in.append(threading.get_ident())
            return super()._start()
    pool = Watched(1, os.getpid)
    try:
        assert await pool.run(os.getpid) != os.getpid()
        assert started_in and started_in[0] != threading.get_ident()
        assert await pool.run(os.nice, 0) == min(19, os.nice(0) + 10)
    finally:
        pool.close()


async def test_the_hub_hands_a_change_to_many_pages_a_few_per_pass():
    from types import SimpleNamespace

    from bot.web.live import HAND_PER_PASS, Hub
    version = {"n": 1}

    async def read_game(game_id):
        return SimpleNamespace(id=game_id, n=version["n"])

    async def is_public(game_id):
        return False
    hub = Hub(read_game, is_public, lambda view: {"n": view.n})
    subs = [hub.subscribe(7, False, '{"n": 1}') for _ in range(3 * HAND_PER_PASS)]
    loop = asyncio.get_running_loop()
    handed_by_pass = []

    def count_passes():
        handed_by_pass.append(sum(sub.latest == '{"n": 2}' for sub in subs))
        if handed_by_pass[-1] < len(subs):
            loop.call_soon(count_passes)
    version["n"] = 2
    hub.wake()
    loop.call_soon(count_passes)
    while handed_by_pass[-1:] != [len(subs)]:
        await asyncio.sleep(0)
    steps = [b - a for a, b in zip([0] + handed_by_pass, handed_by_pass, strict=False)]
    assert max(steps) == HAND_PER_PASS and sum(steps) == len(subs)
    assert all(sub.changed.is_set() for sub in subs) and hub.reads == 1
    hub.stop()


async def test_the_hub_pings_quiet_pages_to_keep_their_streams_open():
    from bot.web.live import Hub

    async def never(game_id):
        raise AssertionError("nothing changed: no read")
    hub = Hub(never, never, dict, keep_alive=0)
    sub = hub.subscribe(7, False, "{}")
    await asyncio.wait_for(sub.changed.wait(), 5)
    assert sub.pinged and sub.latest == "{}"
    hub.stop()


async def test_a_paced_loop_takes_in_a_few_sockets_a_pass_and_the_others_next():
    import selectors
    import socket

    from bot.web.work import EVENTS_PER_PASS, pace_io
    loop = asyncio.new_event_loop()
    pairs = [socket.socketpair() for _ in range(EVENTS_PER_PASS + 36)]
    try:
        assert pace_io(loop)
        selector = loop._selector
        for ours, theirs in pairs:
            selector.register(ours, selectors.EVENT_READ)
            theirs.send(b"news")   # every socket has something to read
        first = {key.fd for key, _ in selector.select(0)}
        second = {key.fd for key, _ in selector.select(0)}
        everyone = {ours.fileno() for ours, _ in pairs}
        assert len(first) == len(second) == EVENTS_PER_PASS
        assert everyone - first <= second   # those left out of a pass come first in the next
    finally:
        for ours, theirs in pairs:
            ours.close()
            theirs.close()
        loop.close()


async def test_a_change_while_a_page_waits_its_turn_reaches_its_stream(svc, client):
    """A thousand pages open at once wait their turn to write: a move made meanwhile is
    still the first thing each is sent."""
    import json

    from bot.web.server import HUB, STREAMS, TURNS

    from .conftest import new_game, path

    app = client.server.app
    gate = asyncio.Event()

    async def held(key=None):  # every turn waits until the gate opens
        await gate.wait()
    app[TURNS].turn = held
    view = await new_game(svc, "chess", ["e4"])
    opening = asyncio.create_task(client.get(path(view.id, "/events")))
    await asyncio.wait_for(_until(lambda: app[STREAMS]), 5)  # the page's stream is in, waiting
    reads = app[HUB].reads
    await svc.move(view.id, (await svc.player("test", "b")).id, "e5")
    await asyncio.wait_for(_until(lambda: app[HUB].reads > reads), 5)  # the move handed out
    gate.set()
    r = await opening
    assert await r.content.readline() == b": live\n"
    lines = [await asyncio.wait_for(r.content.readline(), 5) for _ in range(3)]
    assert lines[1] == b"event: update\n" and json.loads(lines[2][5:])["ply"] == 2
    r.close()


async def _until(condition) -> None:
    while not condition():
        await asyncio.sleep(0.001)


async def test_shared_work_goes_on_for_the_others_when_its_first_asker_leaves():
    """A page's handler is cancelled when its client goes (server.RUNNER_OPTIONS): a picture
    or a read of the game that others wait for too is not cancelled with it, and a
    failure reaches every waiter."""
    from bot.web.live import Views
    from bot.web.work import Pictures
    errors = []  # what the loop would log: a done-callback's error, an unretrieved failure
    asyncio.get_running_loop().set_exception_handler(lambda loop, context: errors.append(context))
    gate = asyncio.Event()
    painted = []

    async def paint():
        await gate.wait()
        painted.append(1)
        return b"png"
    pictures = Pictures()
    first = asyncio.create_task(pictures.get(("k",), paint))
    second = asyncio.create_task(pictures.get(("k",), paint))
    await asyncio.sleep(0)
    first.cancel()  # its page closed
    gate.set()
    assert await second == b"png" and painted == [1] and pictures.renders == 1
    assert first.cancelled()
    assert await pictures.get(("k",), paint) == b"png" and painted == [1]  # kept

    reads = []

    async def read_game(game_id):
        reads.append(game_id)
        await asyncio.sleep(0)
        raise LookupError("gone")
    views = Views(read_game, None)
    waiting = [asyncio.create_task(views.game(7)) for _ in range(3)]
    await asyncio.sleep(0)
    waiting[0].cancel()
    results = await asyncio.gather(*waiting, return_exceptions=True)
    assert reads == [7] and isinstance(results[0], asyncio.CancelledError)
    assert all(isinstance(r, LookupError) for r in results[1:])
    await asyncio.sleep(0)
    assert errors == []
