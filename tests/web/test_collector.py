"""The web server's full garbage collections: due as CPython's, run on an idle pass of the
loop (or forced), the collector's settings given back after (bot/web/collector.py)."""

from __future__ import annotations

import asyncio
import gc
import selectors
import socket
import weakref

from bot.web import collector
from bot.web.collector import FullCollections
from bot.web.work import pace_io


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def _middle_collections(n: int) -> None:
    for _ in range(n):
        gc.collect(1)  # each counts one towards the old generation


def test_a_full_collection_waits_for_an_idle_pass_and_is_forced_when_none_comes():
    loop = asyncio.new_event_loop()
    clock = Clock()
    full = FullCollections(clock)
    before = gc.get_threshold()
    try:
        full.start(loop)
        assert gc.get_threshold()[:2] == before[:2]
        assert gc.get_threshold()[2] == collector.NEVER  # CPython's own never comes
        gc.collect()
        _middle_collections(collector.OLD_AFTER)
        full.look()  # enough has aged, but too soon after the last one
        assert full.due_since is None and not full.when_idle()
        clock.now += collector.AT_LEAST_EVERY
        full.look()
        assert full.due_since == clock.now
        assert full.when_idle() and full.done == 1 and full.forced == 0
        assert gc.get_count()[2] == 0  # it was a full collection
        assert not full.when_idle()  # nothing due any more
        clock.now += collector.AT_LEAST_EVERY
        _middle_collections(collector.OLD_AFTER)
        full.look()
        clock.now += collector.FORCE_AFTER - 0.1
        full.look()
        assert full.done == 1  # still waiting for an idle pass
        clock.now += 0.1
        full.look()  # the loop never idle: forced
        assert (full.done, full.forced, full.due_since) == (2, 1, None)
    finally:
        full.stop()
        loop.close()
    assert gc.get_threshold() == before


def test_an_idle_loop_calls_the_hook_and_that_pass_ends_without_polling():
    loop = asyncio.new_event_loop()
    ours, theirs = socket.socketpair()
    calls = []

    def when_idle():
        calls.append(1)
        return len(calls) == 1  # works once, then lets the loop poll

    try:
        assert pace_io(loop, when_idle)
        selector = loop._selector
        selector.register(ours, selectors.EVENT_READ)
        theirs.send(b"news")
        assert selector.select(0) != []  # something ready to run: not idle, not asked
        assert calls == []
        assert selector.select(1) == []  # idle: the hook worked, the pass ends there
        assert [key.fd for key, _ in selector.select(1)] == [ours.fileno()]
        assert len(calls) == 2
        selector.unregister(ours)
        assert loop.run_until_complete(asyncio.sleep(0.001, "ran")) == "ran"
        assert len(calls) > 2  # the loop itself asks it whenever it would wait
    finally:
        ours.close()
        theirs.close()
        loop.close()


def _due(full: FullCollections, clock: Clock) -> None:
    """A full collection due, and run on an idle pass."""
    clock.now += collector.AT_LEAST_EVERY
    _middle_collections(collector.OLD_AFTER)
    full.look()
    assert full.when_idle()


def test_what_a_full_collection_finds_alive_is_frozen_until_the_next_thaw():
    """The next full collection looks only at what came since: a cycle that dies among the
    frozen waits for the thaw (every THAW_EVERY seconds), then is freed."""
    loop = asyncio.new_event_loop()
    clock = Clock()
    full = FullCollections(clock)

    class Node:
        pass

    try:
        full.start(loop)
        node = Node()
        node.me = node  # a cycle: only a collection frees it
        alive = weakref.ref(node)
        _due(full, clock)
        assert gc.get_freeze_count() > 0 and full.thawed == 0
        del node
        _due(full, clock)
        assert alive() is not None  # frozen: not looked at
        clock.now += collector.THAW_EVERY
        _due(full, clock)
        assert full.thawed == 1 and alive() is None
        assert gc.get_freeze_count() > 0  # frozen again after the thaw
    finally:
        full.stop()
        loop.close()
    assert gc.get_freeze_count() == 0  # the process's collector as it was


def test_the_thaw_waits_for_a_quiet_server_an_hour_at_most():
    """The thaw looks at everything alive (70-80 ms with a thousand open streams): it comes
    when due and the server is quiet, or THAW_AT_MOST after the last if it never is."""
    loop = asyncio.new_event_loop()
    clock = Clock()
    quiet = [False]
    full = FullCollections(clock, quiet=lambda: quiet[0])

    try:
        full.start(loop)
        clock.now += collector.THAW_EVERY
        _due(full, clock)
        assert full.thawed == 0  # busy: not now
        quiet[0] = True
        _due(full, clock)
        assert full.thawed == 1
        quiet[0] = False
        clock.now += collector.THAW_AT_MOST - collector.AT_LEAST_EVERY - 1
        _due(full, clock)
        assert full.thawed == 1
        clock.now += 1
        _due(full, clock)
        assert full.thawed == 2  # never quiet: an hour after the last
    finally:
        full.stop()
        loop.close()


def test_a_thaw_can_be_run_at_once_and_is_counted():
    loop = asyncio.new_event_loop()
    full = FullCollections(Clock())
    try:
        full.start(loop)
        assert full.thaw_now() >= 0 and full.thawed == 1 and full.done == 1
        assert gc.get_freeze_count() > 0
    finally:
        full.stop()
        loop.close()
