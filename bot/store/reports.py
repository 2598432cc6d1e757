"""Each running process's report of its health, in the database, for ``fairypost health``.

A ``fairypost run`` process keeps one row of ``process_reports`` (its life's id, host, pid,
when it started, when it last reported, and its parts: ``{"listener": true, "life lock": true,
"web": true, "email": false}``), written every ``REPORT_SECONDS`` and at once when a part
changes (``Heartbeat``), and deleted when it stops. ``fairypost health`` lists the rows: a part
that is down, or a report older than ``STALE_SECONDS`` (the process hangs, or died, or cannot
reach the database), is unhealthy. A killed process's row is listed (stale) for
``FORGET_SECONDS``, then dropped by the others' reports: its replacement reports on its own.

The reports are written apart from the game's transactions (``Store.unannounced_write``): no
write lock, and no notification, which would wake every other process's pages and
deliveries at every report."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..domain.errors import DatabaseError, DatabaseUnavailable
from .base import Schema

log = logging.getLogger("bot.store")

REPORT_SECONDS = 10.0  # a report at least this often
LOOK_SECONDS = 0.5  # how often the parts are looked at (a change is reported at once)
STALE_SECONDS = 35  # a report older than this is stale: the process is not well
FORGET_SECONDS = 600  # a stale report is dropped this long after it was written

SCHEMA = Schema("reports", [[
    """CREATE TABLE IF NOT EXISTS process_reports (
           life         TEXT PRIMARY KEY,
           host         TEXT NOT NULL,
           pid          INTEGER NOT NULL,
           started_at   INTEGER NOT NULL,
           reported_at  INTEGER NOT NULL,
           parts        TEXT NOT NULL)""",
]])


@dataclass(frozen=True)
class Report:
    life: str
    host: str
    pid: int
    started_at: int
    reported_at: int
    parts: str  # JSON: part name -> up

    def down(self) -> list[str]:
        return [name for name, up in json.loads(self.parts).items() if not up]

    def stale(self, now: float) -> bool:
        return now - self.reported_at > STALE_SECONDS

    def describe(self, now: float) -> str:
        parts = ", ".join(f"{name} {'up' if up else 'DOWN'}" for name, up in json.loads(self.parts).items())
        return (f"process {self.life[:8]} (pid {self.pid} on {self.host}): {parts or 'no parts'}; "
                f"reported {max(0, int(now - self.reported_at))} s ago")


async def reports(store) -> list[Report]:
    async with store.read() as tx:
        return await tx.fetch_all("SELECT life, host, pid, started_at, reported_at, parts FROM process_reports "
                                  "ORDER BY started_at, life", into=Report)


class Heartbeat:
    """Reports ``parts()`` (part name -> up) for the store's process life, now and then and
    at every change, until ``stop()``. ``now``: the clock of the reports (tests give an old one)."""

    def __init__(self, store, parts: Callable[[], dict[str, bool]], *,
                 now: Callable[[], float] = time.time, every: float = REPORT_SECONDS):
        self.store = store
        self.parts = parts
        self.now = now
        self.every = every
        self.started_at = int(now())
        self.written: dict[str, bool] | None = None  # what the last report said
        self._task: asyncio.Task | None = None

    async def start(self) -> None:
        await self._report(self.parts())
        self._task = asyncio.get_running_loop().create_task(self._run(), name="fairypost-heartbeat")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        with contextlib.suppress(DatabaseError, DatabaseUnavailable):  # else it goes stale, then is forgotten
            async with self.store.unannounced_write() as tx:
                await tx.execute("DELETE FROM process_reports WHERE life = ?", (self.store.life,))

    async def _run(self) -> None:
        last = time.monotonic()
        while True:
            await asyncio.sleep(LOOK_SECONDS)
            parts = self.parts()
            if parts != self.written or time.monotonic() - last >= self.every:
                if await self._report(parts):
                    last = time.monotonic()

    async def _report(self, parts: dict[str, bool]) -> bool:
        now = int(self.now())
        try:
            async with self.store.unannounced_write() as tx:
                await tx.execute(
                    "INSERT INTO process_reports (life, host, pid, started_at, reported_at, parts) "
                    "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (life) DO UPDATE SET "
                    "reported_at = excluded.reported_at, parts = excluded.parts",
                    (self.store.life, socket.gethostname(), os.getpid(), self.started_at, now,
                     json.dumps(parts)))
                await tx.execute("DELETE FROM process_reports WHERE reported_at < ?", (now - FORGET_SECONDS,))
        except (DatabaseError, DatabaseUnavailable) as e:  # the report goes stale: that says it
            log.debug("no health report: %s", e)
            self.written = None
            return False
        self.written = parts
        return True
