"""Live pages: every open page's event stream is a subscriber of its game here. A change
anywhere (this process's commit, or another process's, heard through the store's watch:
PostgreSQL's LISTEN/NOTIFY, SQLite's data version) wakes one reader, which reads each
watched game once, however many pages follow it, and hands each page the game's state,
or tells the pages of a public link that the link was closed. A thousand pages are handed
it ``HAND_PER_PASS`` at a time, a pass of the event loop between (each page then writes
in its turn: work.Turns), and every ``keep_alive`` seconds the hub pings them all the same
way, so that a quiet stream writes a line that keeps proxies from closing it."""

from __future__ import annotations

import asyncio
import json
import logging
from collections import OrderedDict
from collections.abc import Callable

from bot.domain.errors import DatabaseUnavailable, NotFound
from language import T

from .work import Busy, shared

log = logging.getLogger("bot.web")

CLOSED = "closed"  # what a subscriber is handed when its link no longer opens the game
HAND_PER_PASS = 64  # subscribers woken in one pass of the loop
KEEP_ALIVE_SECONDS = 15.0
MADE_KEPT = 1024  # games whose state's JSON is kept (the least recently asked for go first)


class Subscriber:
    def __init__(self, game_id: int, public: bool, lang: str = "en"):
        self.game_id = game_id
        self.lang = lang  # the page's language: its state's words (statusText, banner) in it
        self.public = public  # came by the public link: ends when the game is made private
        self.latest: str | None = None  # the newest state (JSON), or CLOSED
        self.pinged = False  # time to say the stream is still there
        self.changed = asyncio.Event()  # set by either

    def hand(self, state: str) -> None:
        if state != self.latest:
            self.latest = state
            self.changed.set()

    def ping(self) -> None:
        self.pinged = True
        self.changed.set()


class Hub:
    def __init__(self, read_game, is_public, state_of: Callable[[object], dict], *,
                 keep_alive: float = KEEP_ALIVE_SECONDS):
        self.keep_alive = keep_alive
        self._read_game = read_game
        self._is_public = is_public
        self._state_of = state_of
        self._subs: dict[int, set[Subscriber]] = {}
        self._dirty = asyncio.Event()
        self._task: asyncio.Task | None = None
        self._pinger: asyncio.Task | None = None
        # (game id, language) -> (view, its JSON)
        self._made: OrderedDict[tuple[int, str], tuple[object, str]] = OrderedDict()
        self.reads = 0  # games read for the streams (the bench and tests read it)

    def wake(self) -> None:
        """Something changed somewhere: look at every watched game again."""
        self._dirty.set()

    def state_json(self, view, lang: str = "en") -> str:
        """The state of ``view`` as JSON for pages in ``lang``, made once for however many
        pages open on the same read of the game (a thousand pages opening at once pay for
        one per language)."""
        key = (view.id, lang)
        made = self._made.get(key)
        if made is None or made[0] is not view:
            state = self._state_of(view) if lang == "en" else self._state_of(view, lang)
            made = self._made[key] = (view, json.dumps(state))
            while len(self._made) > MADE_KEPT:
                self._made.popitem(last=False)
        self._made.move_to_end(key)
        return made[1]

    def subscribe(self, game_id: int, public: bool, state: str, lang: str = "en") -> Subscriber:
        sub = Subscriber(game_id, public, lang)
        sub.latest = state
        self._subs.setdefault(game_id, set()).add(sub)
        loop = asyncio.get_running_loop()
        if self._task is None or self._task.done():
            self._task = loop.create_task(self._run())
        if self._pinger is None or self._pinger.done():
            self._pinger = loop.create_task(self._ping())
        return sub

    def unsubscribe(self, sub: Subscriber) -> None:
        subs = self._subs.get(sub.game_id)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self._subs[sub.game_id]
                for key in [k for k in self._made if k[0] == sub.game_id]:
                    self._made.pop(key, None)

    def stop(self) -> None:
        for task in (self._task, self._pinger):
            if task is not None:
                task.cancel()
        for subs in list(self._subs.values()):
            for sub in list(subs):
                sub.hand(CLOSED)
        self._subs.clear()

    async def _run(self) -> None:
        while True:
            await self._dirty.wait()
            self._dirty.clear()
            for game_id in list(self._subs):
                try:
                    await self._refresh(game_id)
                except DatabaseUnavailable:  # its coming back wakes the hub: every game read then
                    break
                except Exception:  # a bad read must not stop the other games' pages
                    log.exception("could not read game %s for its pages", game_id)

    async def _ping(self) -> None:
        while True:
            await asyncio.sleep(self.keep_alive)
            # no name for the list: it would keep the pages closed since alive until the next ping
            await _in_passes([sub for game in list(self._subs.values()) for sub in game], Subscriber.ping)

    async def _refresh(self, game_id: int) -> None:
        subs = list(self._subs.get(game_id, ()))
        if not subs:
            return
        self.reads += 1
        try:
            view = await self._read_game(game_id)
        except NotFound:  # deleted: every page's link is dead
            states = None
        else:
            states = {lang: self.state_json(view, lang) for lang in {sub.lang for sub in subs}}
        public = await self._is_public(game_id) if states is not None and \
            any(sub.public for sub in subs) else None

        def hand(sub: Subscriber) -> None:
            sub.hand(CLOSED if states is None or (sub.public and public is False) else states[sub.lang])
        await _in_passes(subs, hand)


async def _in_passes(subs: list[Subscriber], do: Callable[[Subscriber], None]) -> None:
    """``do`` to every subscriber, ``HAND_PER_PASS`` in a pass of the event loop."""
    for i, sub in enumerate(subs):
        if i and not i % HAND_PER_PASS:
            await asyncio.sleep(0)
        do(sub)


class Views:
    """The games as the pages last read them, forgotten at every change anywhere (the same
    wake as the hub's) and after ``ttl`` seconds (the clocks move on): a flood of requests
    on one game reads it once, and never queues the database for another game's page.
    Reads of one game asked for at once share one read."""

    def __init__(self, read_game, is_public, ttl: float = 1.0):
        self._read_game = read_game
        self._is_public = is_public
        self.ttl = ttl
        self._kept: dict[tuple, tuple[float, object]] = {}
        self._reading: dict[tuple, asyncio.Task] = {}
        self._generation = 0

    def forget(self) -> None:
        self._kept.clear()
        self._generation += 1  # a read begun before the change is not kept

    async def game(self, game_id: int):
        return await self._get(("game", game_id), self._read_game, game_id)

    async def is_public(self, game_id: int) -> bool:
        return await self._get(("public", game_id), self._is_public, game_id)

    async def _get(self, key: tuple, read, game_id: int):
        kept = self._kept.get(key)
        if kept is not None and asyncio.get_running_loop().time() - kept[0] < self.ttl:
            return kept[1]
        return await shared(self._reading, key, lambda: self._read(key, read, game_id, self._generation))

    async def _read(self, key: tuple, read, game_id: int, generation: int):
        value = await read(game_id)
        if generation == self._generation:  # else begun before a change: not kept
            if len(self._kept) > 10_000:
                self._kept.clear()
            self._kept[key] = (asyncio.get_running_loop().time(), value)
        return value


class StreamSlots:
    """The open event streams, counted: at most ``per_client`` from one client address and
    ``total`` in all (the server's: every open stream adds its objects, about 55, to what a
    full garbage collection looks at before it freezes them, and to the thaw's every 10
    minutes: some 30 µs of the loop each; collector.py). A stream
    gives its slot back when it ends, its page closed included (noticed at once:
    server.RUNNER_OPTIONS)."""

    def __init__(self, per_client: int = 32, total: int = 2000):
        self.per_client = per_client
        self.total = total
        self.open = 0
        self._by_client: dict[str, int] = {}

    def take(self, client: str) -> None:
        """A slot for ``client``'s new stream; ``Busy`` if there is none (``everyone``:
        the server's cap, else the client's)."""
        if self.open >= self.total:
            raise Busy(T("too many pages are open at once: live updates come back in a moment"),
                       everyone=True)
        if self._by_client.get(client, 0) >= self.per_client:
            raise Busy(T("too many pages open at once from here"))
        self._by_client[client] = self._by_client.get(client, 0) + 1
        self.open += 1

    def give_back(self, client: str) -> None:
        left = self._by_client[client] - 1
        if left:
            self._by_client[client] = left
        else:
            del self._by_client[client]
        self.open -= 1

    def of(self, client: str) -> int:
        return self._by_client.get(client, 0)
