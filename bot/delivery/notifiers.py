"""Several notifiers behind one: each event goes to the notifier of its recipient's platform.

``GameService`` takes one notifier; the Discord bot and the terminal each serve their own
players and the computer (bot/computer/player.py) plays its own, so each runs
``Notifiers([its_notifier, computer])``. A notifier's ``platforms`` (a set of platform
names) says whose notices it takes; one without ``platforms`` takes every other notice.
A lobby notice (no recipient) goes to every notifier. ``platforms`` of the whole is the
union (None if any part takes all), so the outbox leaves other platforms' notices alone
as before.
"""

from __future__ import annotations

from collections.abc import Iterable

from . import events as ev


class Notifiers:
    def __init__(self, notifiers: Iterable[ev.Notifier]):
        self.notifiers = list(notifiers)
        parts = [getattr(n, "platforms", None) for n in self.notifiers]
        self.platforms = None if any(p is None for p in parts) else frozenset().union(*parts)

    def route(self, event: ev.Event) -> list[ev.Notifier]:
        """The notifiers that get ``event``."""
        if event.recipient is None:
            return list(self.notifiers)
        platform = event.recipient.platform
        own = [n for n in self.notifiers if platform in (getattr(n, "platforms", None) or ())]
        return own or [n for n in self.notifiers if getattr(n, "platforms", None) is None]

    async def notify(self, event: ev.Event) -> None:
        for notifier in self.route(event):
            await notifier.notify(event)
