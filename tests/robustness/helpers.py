"""Helpers of the service-level robustness tests."""
from __future__ import annotations

from .common import db_digest


async def new_game(svc, white, black, game="chess", days=3, **kw):
    """A game with ``white`` as White, started now."""
    c = await svc.challenge(white.id, game, opponent_id=black.id, days=days, colour="white", **kw)
    return await svc.accept_challenge(c.id, black.id)


class Unchanged:
    """``async with Unchanged(svc, notifier):`` -- the block must leave the database (every
    row of every table) and the notices sent exactly as they were."""

    def __init__(self, svc, notifier=None):
        self.svc, self.notifier = svc, notifier

    async def __aenter__(self):
        self.before = db_digest(self.svc.store.path)
        self.sent = None if self.notifier is None else list(self.notifier.events)
        return self

    async def __aexit__(self, *exc):
        assert db_digest(self.svc.store.path) == self.before, "a refused command changed the database"
        if self.notifier is not None:
            assert list(self.notifier.events) == self.sent, "a refused command sent a notice"
        return False
