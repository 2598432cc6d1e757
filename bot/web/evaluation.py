"""The computer's evaluation and best line of an analysis position (ai/), searched in a
worker process so the pages stay responsive; one search at a time, results remembered."""

from __future__ import annotations

import asyncio
import multiprocessing
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor

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


class Evaluator:
    """One worker process, made on first use; one search at a time (others wait)."""

    def __init__(self, seconds: float = SECONDS, remember: int = 256):
        self.seconds = seconds
        self._pool: ProcessPoolExecutor | None = None
        self._lock = asyncio.Lock()
        self._known: OrderedDict[tuple, dict] = OrderedDict()
        self._remember = remember

    async def evaluate(self, game: str, start_vfen: str, lans: tuple[str, ...]) -> dict:
        key = (game, start_vfen, lans)
        async with self._lock:
            if key not in self._known:
                if self._pool is None:
                    self._pool = ProcessPoolExecutor(
                        max_workers=1, mp_context=multiprocessing.get_context("spawn"))
                self._known[key] = await asyncio.get_running_loop().run_in_executor(
                    self._pool, evaluate_in_worker, game, start_vfen, lans, self.seconds)
                while len(self._known) > self._remember:
                    self._known.popitem(last=False)
            return self._known[key]

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
