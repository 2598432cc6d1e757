"""The web server's full garbage collections, each in a pass of the loop of its own.

CPython (3.11) collects its oldest generation when enough has survived into it, inside
whatever callback happens to allocate then: with a thousand open event streams (about 55
tracked objects each, most of them aiohttp's) that collection takes 20-40 ms of the loop, on
top of the long pass it lands in (a pass answering 64 picture requests: 49 ms in all). The
young generations still collect by themselves (well under a millisecond each); the full
collection is left to ``FullCollections``: due as CPython would have it (``OLD_AFTER``
collections of the middle generation since the last full one, and ``AT_LEAST_EVERY``
seconds), it runs when the loop next has nothing ready (work.pace_io's ``when_idle``: the
pass holds the collection alone), or, if the loop is never idle, ``FORCE_AFTER`` seconds
after it was due, on a timer. Deferring it longer would not help: the garbage it frees
piles up meanwhile and the collection grows with it (deferred through a whole flood: 86 ms).

What a full collection finds alive is then frozen (``gc.freeze``): the next one looks only
at what came since, not again at the thousand open streams and the idle connections that
outlive many collections (a collection over all of them: 40-70 ms; bench/webflood.py). A
frozen object that dies is still freed at once (by its count of references) unless it dies
in a cycle: those wait for the thaw, when everything frozen is looked at again in one full
collection (in an idle pass too), then frozen again. That one is as long as everything
alive makes it (70-80 ms with a thousand open streams), so it comes ``THAW_EVERY`` seconds
after the last when the server is quiet (``quiet()``: few connections open), and when it
never is, ``THAW_AT_MOST`` seconds after.
"""

from __future__ import annotations

import asyncio
import gc
import time

CHECK_EVERY = 0.25  # seconds between looks at whether a full collection is due
OLD_AFTER = 10  # middle-generation collections since the last full one (CPython's own)
AT_LEAST_EVERY = 1.0  # seconds between full collections at the least
FORCE_AFTER = 3.0  # seconds a due collection waits for an idle loop at the most
NEVER = 1 << 30  # the old generation's threshold: CPython's own full collections never come
THAW_EVERY = 600.0  # seconds between full collections that look at the frozen objects too...
THAW_AT_MOST = 3600.0  # ...when the server is quiet then; if it never is, this many


class FullCollections:
    """Full collections in passes of their own (see the module's docstring). ``clock`` is
    injectable for tests; ``quiet()``: whether a thaw would be short now (server.start)."""

    def __init__(self, clock=time.monotonic, quiet=lambda: True):
        self.clock = clock
        self.quiet = quiet
        self.done = 0  # full collections run
        self.forced = 0  # of which on the timer (the loop not idle for FORCE_AFTER)
        self.due_since: float | None = None
        self._last = clock()
        self._thawed = clock()
        self.thawed = 0  # full collections that looked at the frozen objects too
        self._timer: asyncio.TimerHandle | None = None
        self._thresholds: tuple | None = None

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        """Take the full collections over on ``loop`` (paced by work.pace_io: idle passes)."""
        from .work import pace_io
        self._thresholds = gc.get_threshold()
        young, middle = self._thresholds[:2]
        gc.set_threshold(young, middle, NEVER)
        self._loop = loop
        pace_io(loop, self.when_idle)
        self._timer = loop.call_later(CHECK_EVERY, self._look)

    def stop(self) -> None:
        """Give them back to CPython."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
            from .work import pace_io
            pace_io(self._loop, None)
        if self._thresholds is not None:
            gc.set_threshold(*self._thresholds)
            self._thresholds = None
            gc.unfreeze()  # a process that goes on collects everything again

    def look(self) -> None:
        """Note whether a full collection is due; run it if it has waited too long."""
        now = self.clock()
        if self.due_since is None:
            if gc.get_count()[2] >= OLD_AFTER and now - self._last >= AT_LEAST_EVERY:
                self.due_since = now
        elif now - self.due_since >= FORCE_AFTER:
            self.forced += 1
            self._collect()

    def when_idle(self) -> bool:
        """The loop has nothing ready: the due collection, if any, now (True if it ran)."""
        if self.due_since is None:
            return False
        self._collect()
        return True

    def thaw_now(self) -> float:
        """The thaw's collection now (the bench times it): its CPU seconds."""
        began = time.thread_time()
        self._thawed = self.clock() - THAW_AT_MOST
        self._collect()
        return time.thread_time() - began

    def _collect(self) -> None:
        since = self.clock() - self._thawed
        if since >= THAW_AT_MOST or since >= THAW_EVERY and self.quiet():
            gc.unfreeze()  # the cycles that died among the frozen are found in this one
            self._thawed = self.clock()
            self.thawed += 1
        gc.collect()
        gc.freeze()
        self.done += 1
        self.due_since = None
        self._last = self.clock()

    def _look(self) -> None:
        self.look()
        self._timer = self._loop.call_later(CHECK_EVERY, self._look)
