"""Work a page request asks for, kept off the event loop and bounded: board pictures
rendered once and remembered, side lines and move lists computed in worker threads, and
a cap on how much of that one client may have waiting at a time.

The event loop only awaits here: the rules run in a small thread pool, and the rendering
(Pillow and the figures' drawing, the heaviest work, mostly Python holding the GIL) in a
worker process, so a flood of requests for one game's pictures delays another game's page
neither by a computation holding the loop nor by the interpreter's lock."""

from __future__ import annotations

import asyncio
import multiprocessing
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor


class Busy(Exception):
    """Too much is waiting already (this client's share, or everyone's): try again soon."""


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
        self._pending: dict[tuple, asyncio.Future] = {}

    async def get(self, key: tuple, paint) -> bytes:
        """The picture for ``key``; ``await paint()`` makes it (off the loop)."""
        if key in self._kept:
            self._kept.move_to_end(key)
            return self._kept[key]
        if key in self._pending:
            return await asyncio.shield(self._pending[key])
        future = asyncio.get_running_loop().create_future()
        self._pending[key] = future
        try:
            png = await paint()
        except BaseException as e:
            future.set_exception(e)
            future.exception()  # read: a failure nobody else waited for is not "unretrieved"
            raise
        finally:
            del self._pending[key]
        self.renders += 1
        future.set_result(png)
        self._kept[key] = png
        self._size += len(png)
        while self._size > self.budget and self._kept:
            _, old = self._kept.popitem(last=False)
            self._size -= len(old)
        return png


def render_board(game: str, start_vfen: str, lans: tuple[str, ...], flip: bool, square: int) -> bytes:
    """A board picture without a banner (in the worker process: the position played there)."""
    import render
    pos = _worker_positions.get(game, start_vfen, lans)
    return render.board_png(pos, flip=flip, square=square, result="")


class _Positions:
    """The worker's positions, made on first use (a replay step plays on from the last)."""
    cache = None

    def get(self, game, start_vfen, lans):
        if self.cache is None:
            from .analysis import PositionCache
            self.cache = PositionCache(size=64)
        return self.cache.get(game, start_vfen, lans)


_worker_positions = _Positions()


class Workers:
    """A few threads for the pages' computations and two processes for their pictures; at
    most ``per_client`` of one client's and ``total`` of everyone's waiting or running
    (beyond: ``Busy``), and one of each game's running at a time in each pool, so that a
    flood on one game leaves a thread and a painter free for the others."""

    def __init__(self, threads: int = 2, painters: int = 2, per_client: int = 4, total: int = 64):
        self._pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="web-work")
        self._painters = painters
        self._painter: ProcessPoolExecutor | None = None
        self._games: dict[tuple, _Gate] = {}
        self.per_client = per_client
        self.total = total
        self._by_client: dict[str, int] = {}
        self._running = 0

    async def run(self, client: str, game: object, fn: Callable, *args):
        """``fn(*args)`` in a thread; ``game``: whose turn-taking it joins."""
        return await self._in(self._pool, client, ("thread", game), fn, *args)

    async def paint(self, client: str, game: object, *args) -> bytes:
        """``render_board(*args)`` in a painter process (made on first use)."""
        if self._painter is None:
            self._painter = ProcessPoolExecutor(max_workers=self._painters,
                                                mp_context=multiprocessing.get_context("spawn"))
        return await self._in(self._painter, client, ("paint", game), render_board, *args)

    async def _in(self, pool, client: str, lane: tuple, fn: Callable, *args):
        if self._running >= self.total or self._by_client.get(client, 0) >= self.per_client:
            raise Busy("too many requests at once: try again in a moment")
        self._running += 1
        self._by_client[client] = self._by_client.get(client, 0) + 1
        gate = self._games.setdefault(lane, _Gate())
        gate.users += 1
        try:
            async with gate.lock:
                return await asyncio.get_running_loop().run_in_executor(pool, fn, *args)
        finally:
            gate.users -= 1
            if not gate.users:
                del self._games[lane]
            self._running -= 1
            left = self._by_client[client] - 1
            if left:
                self._by_client[client] = left
            else:
                del self._by_client[client]

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
        if self._painter is not None:
            self._painter.shutdown(wait=False, cancel_futures=True)


class _Gate:
    """One game's turn in a pool, and how many requests are at it."""

    def __init__(self):
        self.lock = asyncio.Lock()
        self.users = 0
