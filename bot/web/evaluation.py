"""The computer's evaluation and best line of an analysis position (ai/), searched in a
worker process so the pages stay responsive; one search at a time, games taking turns,
results remembered."""

from __future__ import annotations

import asyncio
from collections import OrderedDict, deque

from language import T

from .work import Busy, Pool, count

SECONDS = 1.0   # a viewer's request: a quick look, not a deep analysis


def evaluate_in_worker(game: str, start_vfen: str, lans: tuple[str, ...], seconds: float) -> dict:
    """Score (White's view, centipawns), its words and the best line in SAN."""
    import ai

    from .analysis import PositionCache
    pos = PositionCache(size=1).get(game, start_vfen, lans)
    if pos.outcome() is not None:
        return {"over": True, "text": "the game is over here", "pv": [], "depth": 0}
    ai.prepare(game)
    t = ai.think(pos, level=5, seconds=seconds)
    sans, p = [], pos
    for lan in t.pv:
        move = p.parse(lan)
        sans.append(p.san(move))
        p = p.play(lan)
    white = t.score_cp if pos.turn == "w" else -t.score_cp
    return {"over": False, "score": white, "text": ai.describe_score(white) + " (for White)",
            "pv": sans, "depth": t.depth}


def said(got: dict, game: str, lang) -> dict:
    """``got`` (evaluate_in_worker's, the same for every reader) with its ``text`` in
    ``lang``: the score from the first side's view ("+35 cp (for White)", "mate in 2 (for
    White)"), or that the game is over here."""
    import ai
    from render.result import side_names_of
    if got.get("over"):
        return {**got, "text": lang.tr("the game is over here")}
    score = got["score"]
    side = lang.data(side_names_of(rules_game(game))[0])
    mate = ai.mate_in(score)
    if mate is None:
        text = lang.tr("{score} cp (for {side})", score=f"{score:+d}", side=side)
    elif mate > 0:
        text = lang.trn("mate in {n} (for {side})", "mate in {n} (for {side})", mate, side=side)
    else:
        text = lang.trn("mated in {n} (for {side})", "mated in {n} (for {side})", -mate, side=side)
    return {**got, "text": text}


def rules_game(game_id: str):
    import rules
    return rules.game(game_id)


def _ready() -> None:
    """The worker's first task: the computer imported."""
    import ai  # noqa: F401

    from . import analysis  # noqa: F401


class Evaluator:
    """One worker process (work.Pool), made on first use; one search at a time. Requests
    wait in one queue per game and the games take turns, so a flood on one game delays another game's
    request by at most one search per game waiting; at most ``per_game`` waiting per game,
    ``per_client`` of one client's, ``total`` in all (beyond: ``Busy``), and none waits
    longer than ``wait`` seconds."""

    def __init__(self, seconds: float = SECONDS, remember: int = 256, *, per_game: int = 3,
                 per_client: int = 2, total: int = 24, wait: float = 20.0):
        self.seconds = seconds
        self.per_game = per_game
        self.per_client = per_client
        self._by_client: dict[str, int] = {}
        self.total = total
        self.wait = wait
        self.searches = 0  # searches run (the bench and tests read it)
        self._pool = Pool(1, _ready)
        self._known: OrderedDict[tuple, dict] = OrderedDict()
        self._remember = remember
        self._queues: dict[object, _Queue] = {}
        self._jobs: dict[tuple, _Job] = {}
        self._runner: asyncio.Task | None = None

    async def evaluate(self, game: str, start_vfen: str, lans: tuple[str, ...], *,
                       queue: object = None, client: str = "") -> dict:
        """``queue``: whose turn-taking line the request joins (the game's id); ``client``:
        whose share it takes."""
        key = (game, start_vfen, lans)
        if key in self._known:
            self._known.move_to_end(key)
            return self._known[key]
        if self._by_client.get(client, 0) >= self.per_client:
            raise Busy(T("you have positions waiting for the computer already: try again when they are done"))
        job = self._jobs.get(key)
        if job is None:
            waiting = self._queues.get(queue, ())
            if len(self._jobs) >= self.total or len(waiting) >= self.per_game:
                raise Busy(T("the computer has too many positions to look at: try again in a minute"))
            job = self._jobs[key] = _Job(key, asyncio.get_running_loop().create_future())
            self._queues.setdefault(queue, _Queue()).append(job)
            if self._runner is None or self._runner.done():
                self._runner = asyncio.get_running_loop().create_task(self._run())
        job.waiters += 1
        count(self._by_client, client, +1)
        try:
            return await asyncio.wait_for(asyncio.shield(job.done), self.wait)
        except TimeoutError:
            raise Busy(T("the computer is busy: try again in a minute")) from None
        finally:
            job.waiters -= 1
            count(self._by_client, client, -1)

    async def _run(self) -> None:
        turn = 0
        while self._queues:
            # the game served longest ago goes next (one that has not been served: first)
            queue = min(self._queues, key=lambda q: self._queues[q].served)
            jobs = self._queues[queue]
            job = jobs.popleft()
            turn += 1
            jobs.served = turn
            if not jobs:
                del self._queues[queue]
            if job.waiters == 0:  # everyone who asked has given up
                del self._jobs[job.key]
                job.done.cancel()
                continue
            try:
                found = await self._pool.run(evaluate_in_worker, *job.key, self.seconds)
            except Exception as e:  # noqa: BLE001 - handed to the waiters
                del self._jobs[job.key]
                job.done.set_exception(e)
                job.done.exception()
                continue
            self.searches += 1
            del self._jobs[job.key]
            self._known[job.key] = found
            while len(self._known) > self._remember:
                self._known.popitem(last=False)
            job.done.set_result(found)

    def close(self) -> None:
        if self._runner is not None:
            self._runner.cancel()
        self._pool.close()


class _Queue(deque):
    """One game's waiting requests, and when it was last served."""
    served = 0


class _Job:
    def __init__(self, key: tuple, done: asyncio.Future):
        self.key = key
        self.done = done
        self.waiters = 0
