"""An in-process terminal session: ``fairypost play`` with scripted lines, the
service's clock a ManualClock, and actions run between lines (the time passing,
another session moving), for what a subprocess cannot show."""

from __future__ import annotations

import asyncio
import io
import threading
from collections.abc import Callable

from bot.config import Settings
from bot.operations.service import GameService
from bot.terminal.console import Console
from bot.terminal.play import play
from bot.timekeeping.clock import ManualClock


class Script(io.StringIO):
    """Lines for the session; a callable among them runs when the session reads past it."""

    def __init__(self, steps: list[str | Callable[[], None]]):
        super().__init__()
        self.steps = list(steps)

    def readline(self, *args) -> str:
        while self.steps and callable(self.steps[0]):
            self.steps.pop(0)()
        return self.steps.pop(0) + "\n" if self.steps else ""


def run_session(settings: Settings, clock: ManualClock, steps, width: int = 250,
                **kw) -> tuple[int, str]:
    """The session's exit status and output (``width``: the terminal's; wide, the lines stay whole)."""
    out = io.StringIO()
    code = asyncio.run(play(settings, console=Console(Script(steps), out, width=width),
                            clock=clock, **kw))
    return code, out.getvalue()


def elsewhere(settings: Settings, clock: ManualClock, game_id: int, text: str) -> Callable[[], None]:
    """A step: another session (its own service and connection) plays ``text`` for the
    side to move, while this one waits for its line."""
    async def move():
        svc = await GameService.open(settings, clock=clock)
        try:
            v = await svc.game(game_id)
            await svc.move(game_id, v.to_move.id, text, expected_ply=v.ply)
        finally:
            await svc.close()

    def step():
        t = threading.Thread(target=lambda: asyncio.run(move()))
        t.start()
        t.join()
    return step
