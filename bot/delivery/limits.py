"""Flood control: per-player token buckets, taken before a command does anything.

``CommandLimiter`` keeps the buckets in the process (SQLite: one process). A store shared
between processes (PostgreSQL) gets ``SharedCommandLimiter``, whose buckets are in the
database, so that a player's commands spread over several processes still share one budget."""

from __future__ import annotations

import math

from language.text import T, Text, Tn

from ..domain.errors import RateLimited


class _Budget:
    """``burst`` commands at once, then ``per_minute`` a minute; ``per_minute = 0`` turns
    the limit off. What both limiters share: the rate and the refusal."""

    def __init__(self, per_minute: int, burst: int, doing: str):
        self.rate = per_minute / 60.0  # tokens a second
        self.burst = float(burst)
        self.doing = doing

    def _refusal(self, tokens: float) -> RateLimited:
        """The refusal for a bucket holding ``tokens`` (less than one)."""
        wait = max(1, math.ceil((1.0 - tokens) / self.rate - 1e-9))
        return RateLimited(too_fast(self.doing, Tn("{n} second", "{n} seconds", wait)), retry_after=wait)


def too_fast(doing: str, wait: Text) -> Text:
    """The refusal of a player going too fast, a whole sentence for each budget the service keeps."""
    if doing == "sending commands":
        return T("you're sending commands too fast; try again in {wait}", wait=wait)
    if doing == "looking at games":
        return T("you're looking at games too fast; try again in {wait}", wait=wait)
    if doing == "looking things up":
        return T("you're looking things up too fast; try again in {wait}", wait=wait)
    return T("you're {doing} too fast; try again in {wait}", doing=doing, wait=wait)


class CommandLimiter(_Budget):
    """Per-player token buckets in this process.

    Taken before a command does anything else (no database access, no waiting), so a
    player who sends too fast gets an immediate refusal, never a queue; a refused command
    costs nothing. Time is the service's clock."""

    MAX_TRACKED = 4096

    def __init__(self, per_minute: int, burst: int, doing: str = "sending commands"):
        super().__init__(per_minute, burst, doing)
        self._buckets: dict[object, tuple[float, float]] = {}  # player -> (tokens, when)

    def take(self, player_id: object, now: float) -> None:
        if self.rate <= 0:
            return
        tokens, at = self._buckets.get(player_id, (self.burst, now))
        tokens = min(self.burst, tokens + max(0.0, now - at) * self.rate)
        if tokens < 1.0 - 1e-9:
            self._buckets[player_id] = (tokens, now)
            raise self._refusal(tokens)
        self._buckets[player_id] = (tokens - 1.0, now)
        if len(self._buckets) > self.MAX_TRACKED:  # forget the full buckets: same as absent
            for p, (t, w) in list(self._buckets.items()):
                if t + max(0.0, now - w) * self.rate >= self.burst:
                    del self._buckets[p]

    async def spend(self, player_id: int, now: float) -> None:
        """``take``, as the service calls either limiter."""
        self.take(player_id, now)


class SharedCommandLimiter(_Budget):
    """Per-player token buckets kept in the database, for a store several processes share.

    Each take is one atomic statement of its own (``store.take_token``), committed at once
    and apart from the command's transactions: two processes never both take a player's
    last token, a refusal changes nothing else, and a command that then fails for another
    reason (an illegal move) has still spent its token, as in one process."""

    def __init__(self, store, per_minute: int, burst: int, doing: str = "sending commands",
                 budget: str = "commands"):
        super().__init__(per_minute, burst, doing)
        self.store = store
        self.budget = budget  # which of the player's buckets (one row each)

    async def spend(self, player_id: int, now: float) -> None:
        if self.rate <= 0:
            return
        tokens, refused = await self.store.take_token(player_id, self.budget, now, self.rate, self.burst)
        if refused:
            raise self._refusal(tokens)


def limiter(store, per_minute: int, burst: int, doing: str, budget: str):
    """A budget's limiter: in the database when the store is shared between processes (each
    player has one budget however many processes serve them), in this process otherwise."""
    if store.shared_between_processes:
        return SharedCommandLimiter(store, per_minute, burst, doing, budget)
    return CommandLimiter(per_minute, burst, doing)
