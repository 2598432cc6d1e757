"""How long a server's event loop is held, and by what: a bench's instrument.

``LoopWatch`` runs in the served process. On the loop, a 10 ms sleep is timed over and
over: its overrun is the loop's lag (the longest any callback held the loop, plus, on a
loaded machine, the wait for a CPU). Beside it the loop thread's own CPU time in each
sleep's window tells the two apart: a window the loop thread spent on the CPU is work of
ours; one it spent waiting is the machine. A thread of its own looks at the loop thread's
stack whenever the loop is late (``stall`` seconds without a tick) and counts where it
was (every 5 ms while it is late), so that the bench can say what held it.
"""

from __future__ import annotations

import asyncio
import gc
import sys
import threading
import time
from collections import Counter


class LoopWatch:
    def __init__(self, period: float = 0.01, stall: float = 0.025):
        self.period = period
        self.stall = stall
        self.lags: list[float] = []   # each sleep's overrun, seconds
        self.busy: list[float] = []   # the loop thread's CPU seconds in each overrun's window
        self.process: list[float] = []  # the whole process's (all its threads) in the same window
        self.where: Counter[str] = Counter()  # samples of late loops by where the loop thread was
        self.slowest: dict[str, float] = {}  # callbacks that ran on the CPU over ``stall``: their longest
        self.collections: list[float] = []  # the garbage collector's full collections, CPU seconds
        self.longest_pass: tuple[float, list] = (0.0, [])  # a pass's CPU seconds, and what ran in it
        self._pass: dict[str, list] = {}  # this pass's callbacks by what they ran: [count, seconds]
        self._tick = time.perf_counter()
        self._stop = threading.Event()
        self._task: asyncio.Task | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._time_passes(asyncio.get_running_loop())
        self._time_callbacks()
        self._time_collections()
        loop_thread = threading.get_ident()
        self._clock = time.pthread_getcpuclockid(loop_thread)
        self._task = asyncio.get_running_loop().create_task(self._time_the_loop())
        self._thread = threading.Thread(target=self._sample, args=(loop_thread,), daemon=True)
        self._thread.start()

    def take(self) -> tuple:
        """Since the last take: the lags, the loop thread's and the process's CPU beside each,
        where late loops were seen, the slowest callbacks, the full collections."""
        out = (self.lags, self.busy, self.process, self.where.most_common(8),
               sorted(self.slowest.items(), key=lambda kv: -kv[1])[:8], self.collections,
               self.longest_pass)
        self.lags, self.busy, self.process, self.where = [], [], [], Counter()
        self.slowest, self.collections, self.longest_pass = {}, [], (0.0, [])
        return out

    def stop(self) -> None:
        self._stop.set()
        if self._task is not None:
            self._task.cancel()

    async def _time_the_loop(self) -> None:
        while True:
            t, c, p = time.perf_counter(), time.clock_gettime(self._clock), time.process_time()
            self._tick = t
            await asyncio.sleep(self.period)
            now = time.perf_counter()
            self._tick = now
            lag = now - t - self.period
            self.lags.append(max(0.0, lag))
            self.busy.append(time.clock_gettime(self._clock) - c)
            self.process.append(time.process_time() - p)

    def _time_callbacks(self) -> None:
        """Every callback the loop runs timed by the loop thread's CPU clock (a wait for a
        CPU is not counted): those over ``stall`` are kept by what they ran."""
        run = asyncio.events.Handle._run
        watch = self

        def timed_run(handle):
            began = time.thread_time()
            run(handle)
            spent = time.thread_time() - began
            what = _what(handle)
            part = watch._pass.setdefault(what, [0, 0.0])
            part[0] += 1
            part[1] += spent
            if spent >= watch.stall:
                watch.slowest[what] = max(spent, watch.slowest.get(what, 0.0))
        asyncio.events.Handle._run = timed_run

    def _time_passes(self, loop) -> None:
        """Each pass of the loop (its select, and every callback it runs) timed by the loop
        thread's CPU clock: the longest is kept with what ran in it."""
        run_once = loop._run_once

        def timed_pass():
            self._pass = {}
            began = time.thread_time()
            run_once()
            spent = time.thread_time() - began
            if spent > self.longest_pass[0]:
                parts = sorted(((what, n, s) for what, (n, s) in self._pass.items()),
                               key=lambda p: -p[2])[:6]
                self.longest_pass = (spent, parts)
        loop._run_once = timed_pass

    def _time_collections(self) -> None:
        began = [0.0]

        def timed(phase, info):
            if info["generation"] != 2:
                return
            if phase == "start":
                began[0] = time.thread_time()
            else:
                self.collections.append(time.thread_time() - began[0])
        gc.callbacks.append(timed)

    def _sample(self, loop_thread: int) -> None:
        while not self._stop.wait(0.005):
            late = time.perf_counter() - self._tick - self.period
            if late < self.stall:
                continue
            frame = sys._current_frames().get(loop_thread)
            if frame is not None:
                self.where[_where(frame)] += 1


def _what(handle) -> str:
    """A callback by what it runs: a task's coroutine (and the request it serves), or the function."""
    fn = getattr(handle, "_callback", None)
    task = getattr(fn, "__self__", None)
    if isinstance(task, asyncio.Task):
        coro = task.get_coro()
        frame = getattr(coro, "cr_frame", None)
        request = frame.f_locals.get("request") if frame is not None else None
        path = getattr(request, "path", None)
        name = getattr(coro, "__qualname__", repr(coro))
        return f"{name} {path.split('/')[-1] if path else ''}".strip()
    return getattr(fn, "__qualname__", repr(fn))


def _where(frame) -> str:
    """The innermost two frames and the innermost of the project's (bot/, render/, rules/,
    ai/), as ``dir/file:line function`` joined by " < " (no source read: the loop waits
    while this holds the interpreter)."""
    stack = []
    while frame is not None:
        stack.append((frame.f_code.co_filename, frame.f_lineno, frame.f_code.co_name))
        frame = frame.f_back
    picked = stack[:2]
    ours = next((f for f in stack if any(p in f[0] for p in ("/bot/", "/render/", "/rules/", "/ai/"))),
                None)
    if ours is not None and ours not in picked:
        picked.append(ours)
    return " < ".join(f"{'/'.join(name.rsplit('/', 2)[-2:])}:{line} {fn}" for name, line, fn in picked)
