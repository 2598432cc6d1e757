"""Work a page request asks for, kept off the event loop and bounded: board pictures
rendered once and remembered, side lines and move lists computed in worker threads, and
a cap on how much of that one client may have waiting at a time.

The event loop only awaits here: the rules (positions, side lines, a square's moves) and
the rendering run in two worker processes, each keeping the positions it played, so a
flood of requests for one game delays another game's page neither by a computation
holding the loop nor by one holding the interpreter's lock."""

from __future__ import annotations

import asyncio
import math
import multiprocessing
import os
import select
import selectors
import signal
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager

from language import T

WORKER_NICENESS = 10


class Busy(Exception):
    """Too much is waiting already (this client's share, or everyone's: ``everyone``): try
    again soon."""

    def __init__(self, text, *, everyone: bool = False):  # a Text: said by reach.refusal
        super().__init__(text)
        self.everyone = everyone


class Pictures:
    """Rendered board pictures by what they show (the moves from the game's start, the
    side, the size): the same picture asked for 300 times is rendered once, and asked for
    while being rendered is waited for, not rendered again. The least recently used are
    dropped beyond ``budget`` bytes."""

    def __init__(self, budget: int = 64 << 20):
        self.budget = budget
        self.renders = 0  # how many pictures were rendered (the bench and tests read it)
        self._kept: OrderedDict[tuple, bytes] = OrderedDict()
        self._size = 0
        self._pending: dict[tuple, asyncio.Task] = {}

    async def get(self, key: tuple, paint) -> bytes:
        """The picture for ``key``; ``await paint()`` makes it (off the loop)."""
        if key in self._kept:
            self._kept.move_to_end(key)
            return self._kept[key]
        return await shared(self._pending, key, lambda: self._paint(key, paint))

    async def _paint(self, key: tuple, paint) -> bytes:
        png = await paint()
        self.renders += 1
        self._kept[key] = png
        self._size += len(png)
        while self._size > self.budget and self._kept:
            _, old = self._kept.popitem(last=False)
            self._size -= len(old)
        return png


async def shared(pending: dict, key, make):
    """``await make()`` done once for everyone who asks for ``key`` while it runs. It runs as
    a task of its own: a requester whose client goes away (its handler cancelled, see
    server.RUNNER_OPTIONS) leaves, the work goes on for the others; its failure is theirs."""
    task = pending.get(key)
    if task is None:
        task = pending[key] = asyncio.ensure_future(make())

        def done(finished) -> None:
            del pending[key]
            if not finished.cancelled():
                finished.exception()  # read: a failure everyone had left is not "unretrieved"
        task.add_done_callback(done)
    try:
        return await asyncio.shield(task)
    finally:  # its failure, raised here, then does not hold this frame holding the task: a
        del task  # cycle of the frames and everything they hold, freed by a full collection only


def render_board(game: str, start_vfen: str, lans: tuple[str, ...], flip: bool, square: int) -> bytes:
    """A board picture without a banner (in the worker process: the position played there)."""
    import render
    pos = _worker_positions.get(game, start_vfen, lans)
    return render.board_png(pos, flip=flip, square=square, result="")


def position_json(game: str, start_vfen: str, before: tuple[str, ...], line: tuple[str, ...],
                  flip: bool, square: int, code: str = "en") -> dict:
    """analysis.describe of the position after ``before`` (the game's moves) then ``line``;
    the pieces named in the language ``code``."""
    from language import language

    from .analysis import describe
    at = _worker_positions.get
    return describe(at(game, start_vfen, before + line),
                    lambda lans: at(game, start_vfen, before + lans), line, flip, square, language(code))


def square_json(game: str, start_vfen: str, lans: tuple[str, ...], square: str,
                flip: bool = False, px: int = 56, code: str = "en") -> dict:
    """analysis.square_moves, each choice among moves to one square with its picture and
    name (in the language ``code``)."""
    from language import language

    from .analysis import square_moves
    from .figures import choice_figures
    pos = _worker_positions.get(game, start_vfen, lans)
    return choice_figures(pos, square_moves(pos, square), flip, px, language(code))


def lower_priority() -> None:
    """A worker process's start: it yields the CPU to the event loop's process, whose
    every pass is someone's page waiting (a worker's result is waited for anyway). Ctrl-C
    (the terminal's SIGINT reaches the whole process group) is the server's to handle: it
    ends the workers itself, without a traceback from each."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        os.nice(WORKER_NICENESS)
    except OSError:  # not allowed here: the same priority then
        pass


def worker_start() -> None:
    """A worker process's start: at a lower priority, and ending with its parent (killed
    outright, it cannot shut its workers down)."""
    from ai.parallel import end_with_parent
    lower_priority()
    end_with_parent()


def _ready() -> None:
    """A worker's first task: the rules and the renderer imported."""
    import render  # noqa: F401

    from . import analysis  # noqa: F401


class _Positions:
    """The worker's positions, made on first use (a replay step plays on from the last)."""
    cache = None

    def get(self, game, start_vfen, lans):
        if self.cache is None:
            from .analysis import PositionCache
            self.cache = PositionCache(size=64)
        return self.cache.get(game, start_vfen, lans)


_worker_positions = _Positions()


class Pool:
    """``processes`` worker processes (at a lower priority), started on first use by a
    thread: spawning a process takes tens of milliseconds, which the event loop does not
    wait for. ``warm`` is each one's first task (its imports), so all are started at
    once, not one later under a flood."""

    def __init__(self, processes: int, warm: Callable[[], None]):
        self.processes = processes
        self._warm = warm
        self._pool: ProcessPoolExecutor | None = None
        self._starting: asyncio.Future | None = None
        self._closed = False

    async def run(self, fn: Callable, *args):
        loop = asyncio.get_running_loop()
        if self._pool is None:
            if self._starting is None:
                self._starting = loop.run_in_executor(None, self._start)
            await asyncio.shield(self._starting)
        return await loop.run_in_executor(self._pool, fn, *args)

    def _start(self) -> ProcessPoolExecutor:
        pool = ProcessPoolExecutor(max_workers=self.processes, initializer=worker_start,
                                   mp_context=multiprocessing.get_context("spawn"))
        for _ in range(self.processes):
            pool.submit(self._warm)
        if self._closed:  # closed while starting
            pool.shutdown(wait=False, cancel_futures=True)
        self._pool = pool
        return pool

    def close(self) -> None:
        self._closed = True
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)


class Workers:
    """Two worker processes for the pages' computations (made on first use). At most
    ``per_client`` of one client's and ``per_game`` of one game's requests wait or run at
    a time (beyond: ``Busy``), and each game has one running at a time: a flood on one
    game, from however many clients, leaves a process, and its whole share of places, to
    every other game."""

    def __init__(self, processes: int = 2, per_client: int = 4, per_game: int = 16, *,
                 pool: Pool | None = None):
        self._pool = pool or Pool(processes, _ready)
        self.per_client = per_client
        self.per_game = per_game
        self._by_client: dict[str, int] = {}
        self._by_game: dict[object, int] = {}
        self._lanes: dict[object, asyncio.Lock] = {}

    async def run(self, client: str, game: object, fn: Callable, *args):
        """``fn(*args)`` (a function of this module) in a worker process; ``game``: whose
        share and turn it takes."""
        if self._by_game.get(game, 0) >= self.per_game:
            raise Busy(T("too many requests at once: try again in a moment"))
        with self.share(client):
            count(self._by_game, game, +1)
            lane = self._lanes.setdefault(game, asyncio.Lock())
            try:
                async with lane:
                    return await self._pool.run(fn, *args)
            finally:
                if not count(self._by_game, game, -1):
                    del self._lanes[game]

    @contextmanager
    def share(self, client: str):
        """One of ``client``'s ``per_client`` places, held for the block; ``Busy`` if it has
        none left (also taken by a page's HTML, which needs no worker)."""
        if self._by_client.get(client, 0) >= self.per_client:
            raise Busy(T("too many requests at once: try again in a moment"))
        count(self._by_client, client, +1)
        try:
            yield
        finally:
            count(self._by_client, client, -1)

    def close(self) -> None:
        self._pool.close()


def count(counts: dict, key, step: int) -> int:
    """Add ``step`` to ``counts[key]``, the key gone at 0; what is left."""
    left = counts.get(key, 0) + step
    if left:
        counts[key] = left
    else:
        counts.pop(key, None)
    return left


class Turns:
    """Small pieces of work that come by the thousand at once (1,000 event streams opening
    together, or woken together by one move), each holding the event loop briefly: at most
    ``per_pass`` of them go in one pass of the loop, the others wait for later passes,
    taking turns by ``key`` (a game: one game's thousand pages do not make another's
    wait behind them all). A pass, and so what anything else waits for the loop, stays short."""

    def __init__(self, per_pass: int = 16):
        self.per_pass = per_pass
        self._used = 0  # pieces let go in this pass
        self._waiting: OrderedDict[object, deque[asyncio.Future]] = OrderedDict()
        self._next: asyncio.Handle | None = None

    async def turn(self, key: object = None) -> None:
        """Return when this piece may go (at once, if this pass has room and nobody waits)."""
        loop = asyncio.get_running_loop()
        if self._used < self.per_pass and not self._waiting:
            self._used += 1
        else:
            future = loop.create_future()
            self._waiting.setdefault(key, deque()).append(future)
            await future  # counted in the pass that let it go
        if self._next is None:
            self._next = loop.call_soon(self._pass)

    def _pass(self) -> None:
        """A new pass of the loop: let go up to ``per_pass`` waiting pieces, one key after
        another (those let go run in the pass after this one)."""
        self._next = None
        self._used = 0
        while self._waiting and self._used < self.per_pass:
            key, futures = next(iter(self._waiting.items()))
            future = futures.popleft()
            if futures:
                self._waiting.move_to_end(key)  # its next piece after the other keys'
            else:
                del self._waiting[key]
            if not future.done():  # its waiter may have gone (a page closed)
                future.set_result(None)
                self._used += 1
        if self._used:
            self._next = asyncio.get_running_loop().call_soon(self._pass)


EVENTS_PER_PASS = 64  # sockets whose news one pass of the event loop takes in


class _PacedEpollSelector(selectors.EpollSelector):
    """The standard epoll selector, reporting at most ``EVENTS_PER_PASS`` ready sockets a
    call: a thousand connections arriving at once are taken in over several passes of the
    loop (epoll hands the others out next time, oldest first), so a pass stays short.
    ``when_idle`` (set by ``pace_io``), if any, is asked first whenever the loop has nothing
    ready to run: if it did some work (True), this pass ends there (the next one polls), so
    that work has a pass of its own."""

    when_idle = None

    def select(self, timeout=None):
        if (timeout is None or timeout > 0) and self.when_idle is not None and self.when_idle():
            return []
        timeout = -1 if timeout is None else 0 if timeout <= 0 else math.ceil(timeout * 1e3) * 1e-3
        try:
            events = self._selector.poll(timeout, max(1, min(len(self._fd_to_key), EVENTS_PER_PASS)))
        except InterruptedError:
            return []
        ready = []
        for fd, event in events:
            key = self._fd_to_key.get(fd)
            if key is not None:
                mask = (selectors.EVENT_READ if event & ~select.EPOLLOUT else 0) | \
                    (selectors.EVENT_WRITE if event & ~select.EPOLLIN else 0)
                ready.append((key, mask & key.events))
        return ready


def pace_io(loop: asyncio.AbstractEventLoop, when_idle=None) -> bool:
    """Have ``loop`` (asyncio's epoll loop, as on Linux) take in ``EVENTS_PER_PASS`` sockets'
    news a pass, and call ``when_idle`` (see _PacedEpollSelector) when it has nothing ready;
    False (and nothing changed) for another kind of loop."""
    chosen = getattr(loop, "_selector", None)
    if type(chosen) not in (selectors.EpollSelector, _PacedEpollSelector):
        return False
    chosen.__class__ = _PacedEpollSelector
    chosen.when_idle = when_idle
    return True
