"""A bot process for the crash tests: run with ``sys.executable driver.py DB MODE ...``.

Modes:

``play PLAN``
    PLAN is a JSON file ``[[game_id, [lan, ...]], ...]``: games to play one after the
    other between two players (``--who X``: players of their own, so that several
    processes play their own games on one database; ``--log DIR``: notices go to a
    FileNotifier in DIR instead of nowhere). DB is a file or a ``postgresql://`` URL.
    Opens the service on DB, finds where play stopped (a restart), prints ``READY <ply>``
    and then, after each move's commit, ``ACK <ply> <lan> <game#>`` (flushed). Prints
    ``DONE`` when every game is played out.

``setup-remind LOGDIR``
    Creates two players and a chess game with 3 days a move, at ``--now`` (``--games N``:
    N such games, each between players of its own).

``remind LOGDIR``
    A start of the bot at ``--now``: opens the service (which puts back notices a
    stopped run had claimed) and starts the reminder scheduler, which sweeps at once to
    catch up; then stops. ``FAIRYPOST_DRIVER_HANG`` makes it stop dead (sleep) at one
    moment, after printing a line the test waits for before it sends SIGKILL:
    ``before_sweep`` (``DUE``), ``after_collect`` (``COLLECTED``: the due reminder is an
    outbox event, not yet claimed), ``before_send`` (``CLAIMED <id>``: claimed, the
    notifier called but nothing sent), ``after_send`` (``DELIVERED <id>``: the user has
    it, the outbox row is not yet marked sent), ``after_sweep`` (``SWEPT``: marked sent),
    ``in_batch`` (``IN_BATCH``: inside the sweep's transaction, a batch's turns written,
    not committed). ``FAIRYPOST_DRIVER_HANG_AT=K``: the send hangs stop at the
    K-th notice of the run instead of the first. ``FAIRYPOST_DRIVER_BATCH=B``: the sweep and
    the outbox work B at a time, and the outbox marks what it sent only at a batch's end
    (the most a kill can catch unmarked).

The notifier of the remind modes writes what the user sees to LOGDIR/delivered.log and
every call to LOGDIR/attempts.log, each line fsynced. It drops an event whose id it has
already delivered (the outbox's documented way to never show a repeat).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.config import Settings
from bot.operations.service import GameService
from bot.timekeeping.clock import ManualClock, SystemClock

HANG = os.environ.get("FAIRYPOST_DRIVER_HANG", "")
HANG_AT = int(os.environ.get("FAIRYPOST_DRIVER_HANG_AT", "1"))
BATCH = os.environ.get("FAIRYPOST_DRIVER_BATCH")


def say(line: str) -> None:
    print(line, flush=True)


async def hang(line: str) -> None:
    say(line)
    while True:
        await asyncio.sleep(3600)


def append(path: Path, line: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        os.write(fd, (line + "\n").encode())
        os.fsync(fd)
    finally:
        os.close(fd)


class FileNotifier:
    def __init__(self, logdir: Path):
        self.delivered = logdir / "delivered.log"
        self.attempts = logdir / "attempts.log"
        self.seen = set()
        self.calls = 0
        if self.delivered.exists():
            self.seen = {int(line.split()[0]) for line in self.delivered.read_text().splitlines() if line}

    async def notify(self, event) -> None:
        append(self.attempts, f"{event.event_id} {event.kind}")
        self.calls += 1
        if HANG == "before_send" and self.calls == HANG_AT:
            await hang(f"CLAIMED {event.event_id}")
        if event.event_id in self.seen:
            append(self.attempts, f"DUP {event.event_id}")
            return
        who = event.recipient.name if event.recipient else "-"
        append(self.delivered, f"{event.event_id} {event.kind} {who}")
        self.seen.add(event.event_id)
        if HANG == "after_send" and self.calls == HANG_AT:
            await hang(f"DELIVERED {event.event_id}")


def settings(db: str) -> Settings:
    return Settings(db_path=db, command_rate_per_minute=0)


async def play(db: str, plan_path: str, who: str = "", log: Path | None = None) -> None:
    plan = json.loads(Path(plan_path).read_text())
    notifier = FileNotifier(log) if log is not None else None
    svc = await GameService.open(settings(db), clock=SystemClock(), notifier=notifier)
    try:
        white = await svc.player("crash", f"w{who}", f"White{who}")
        black = await svc.player("crash", f"b{who}", f"Black{who}")
        games = sorted(s.id for s in await svc.list_games(white.id, include_finished=True))
        say("READY")
        for k, (game, lans) in enumerate(plan):
            if k < len(games):
                gid = games[k]
            else:
                # a kill between the challenge and its acceptance left it open: this run accepts
                # it, as the player would (a new one each run would meet the per-pair budget)
                left = [c for c in await svc.list_challenges(black.id)
                        if c.challenger.id == white.id and c.game == game]
                c = left[0] if left else await svc.challenge(white.id, game, opponent_id=black.id,
                                                             days=None, colour="white")
                gid = (await svc.accept_challenge(c.id, black.id)).id
                games.append(gid)
            view = await svc.game(gid)
            for ply in range(view.ply, len(lans)):
                mover = white if ply % 2 == 0 else black
                r = await svc.move(gid, mover.id, lans[ply], expected_ply=ply)
                say(f"ACK {ply + 1} {r.lan} {k}")
        await svc.outbox.drain()  # what a stopped run left claimed and is now free: delivered
        say("DONE")
    finally:
        await svc.close()


async def setup_remind(db: str, logdir: Path, now: datetime, games: int = 1) -> None:
    svc = await GameService.open(settings(db), clock=ManualClock(now), notifier=FileNotifier(logdir))
    try:
        ids = []
        for k in range(games):
            tag = str(k) if k else ""
            white = await svc.player("crash", f"w{tag}", f"White{tag}")
            black = await svc.player("crash", f"b{tag}", f"Black{tag}")
            c = await svc.challenge(white.id, "chess", opponent_id=black.id, days=3, colour="white")
            ids.append((await svc.accept_challenge(c.id, black.id)).id)
        say(f"READY {' '.join(map(str, ids))}")
    finally:
        await svc.close()


def small_batches() -> None:
    from bot.delivery.outbox import Outbox
    from bot.timekeeping.reminders import Reminders
    Reminders.BATCH = Outbox.BATCH = int(BATCH)
    Reminders.BATCH_SECONDS = None
    Outbox.MARK_SECONDS = 3600


async def remind(db: str, logdir: Path, now: datetime) -> None:
    from bot.timekeeping.reminders import Reminders, ReminderScheduler

    if BATCH:
        small_batches()
    svc = await GameService.open(settings(db), clock=ManualClock(now), notifier=FileNotifier(logdir))
    try:
        if HANG == "in_batch":
            send_turns, batches = Reminders._send_turns, []

            async def stop_inside_the_batch(self, *a, **k):
                made = await send_turns(self, *a, **k)  # written, not committed
                batches.append(made)
                if len(batches) == HANG_AT:
                    await hang("IN_BATCH")
                return made
            Reminders._send_turns = stop_inside_the_batch
        if HANG == "before_sweep":
            await hang("DUE")
        if HANG == "after_collect":
            dispatch = svc.outbox.dispatch

            async def stop_before_dispatch(*a, **k):
                await hang("COLLECTED")
                return await dispatch(*a, **k)
            svc.outbox.dispatch = stop_before_dispatch
        scheduler = ReminderScheduler(svc, safety_minutes=0)
        await scheduler.start(catch_up=True)
        scheduler.shutdown()
        if HANG == "after_sweep":
            await hang("SWEPT")
        say("EXIT")
    finally:
        await svc.close()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("db")
    ap.add_argument("mode", choices=["play", "setup-remind", "remind"])
    ap.add_argument("arg")
    ap.add_argument("--now", default=None)
    ap.add_argument("--who", default="")
    ap.add_argument("--log", default=None)
    ap.add_argument("--games", type=int, default=1)
    a = ap.parse_args(argv)
    now = datetime.fromisoformat(a.now) if a.now else None
    if a.mode == "play":
        asyncio.run(play(a.db, a.arg, a.who, Path(a.log) if a.log else None))
    elif a.mode == "setup-remind":
        asyncio.run(setup_remind(a.db, Path(a.arg), now, a.games))
    else:
        asyncio.run(remind(a.db, Path(a.arg), now))
    return 0


if __name__ == "__main__":
    sys.exit(main())
