"""Flood control: per-player token buckets, taken before a command does anything."""

from __future__ import annotations

import math

from .errors import RateLimited


class CommandLimiter:
    """Per-player token buckets: ``burst`` commands at once, then ``per_minute`` a minute.

    Taken before a command does anything else (no database access, no waiting), so a
    player who sends too fast gets an immediate refusal, never a queue; a refused command
    costs nothing. Time is the service's clock; ``per_minute = 0`` turns the limit off."""

    MAX_TRACKED = 4096

    def __init__(self, per_minute: int, burst: int, doing: str = "sending commands"):
        self.rate = per_minute / 60.0  # tokens a second
        self.burst = float(burst)
        self.doing = doing
        self._buckets: dict[object, tuple[float, float]] = {}  # player -> (tokens, when)

    def take(self, player_id: object, now: float) -> None:
        if self.rate <= 0:
            return
        tokens, at = self._buckets.get(player_id, (self.burst, now))
        tokens = min(self.burst, tokens + max(0.0, now - at) * self.rate)
        if tokens < 1.0 - 1e-9:
            self._buckets[player_id] = (tokens, now)
            wait = max(1, math.ceil((1.0 - tokens) / self.rate - 1e-9))
            raise RateLimited(f"you're {self.doing} too fast; try again in {wait} "
                              f"second{'s' if wait != 1 else ''}", retry_after=wait)
        self._buckets[player_id] = (tokens - 1.0, now)
        if len(self._buckets) > self.MAX_TRACKED:  # forget the full buckets: same as absent
            for p, (t, w) in list(self._buckets.items()):
                if t + max(0.0, now - w) * self.rate >= self.burst:
                    del self._buckets[p]
