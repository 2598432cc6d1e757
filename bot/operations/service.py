"""The game service: ``GameService``, every operation a chat adapter can ask for.

Each operation is async and is one transaction. Operations on a game read a
snapshot (a game is its start position plus its move list; the position is
derived by replaying them through the rules engine, the stored ``current_vfen``
is a cache checked against the replay), decide, and then write in a
``BEGIN IMMEDIATE`` transaction that first moves the game's ``version`` on only
if it is still the one read. Two commands on one game at once: both read the
same version, the first write wins, the second finds the version changed and
raises :class:`GameChanged` ("the game changed, look again"). A caller that
showed the player a position may also pass ``expected_ply``: a command based on
an older position is refused the same way.

Notifications are written to the outbox inside the same transaction and
delivered after the commit, in the background once the service's owner has called
:meth:`GameService.start_delivery` (see :mod:`bot.delivery.outbox`); turn reminders,
timeouts, vacations' ends and digests are the business of :meth:`sweep`, which
the scheduler (:mod:`bot.timekeeping.scheduler`) calls when the database says something is
due.

This module makes the service: it opens and closes it, runs its delivery and tells its
listeners of changes. The operations are in one module each by family, one class each,
and ``GameService`` is made of them:

    players      PlayerOps      a player found or made, their settings
    challenges   ChallengeOps   challenges made, answered, expired; blocks
    moves        MoveOps        a game's start, its moves, resigning, aborting, its end
    offers       OfferOps       draw offers and takebacks
    premoves     PremoveOps     conditional moves
    games        GameReading    a game, its position, its record, a player's games
    vacations    VacationOps    vacations
    ratings      RatingsOps     leaderboards and a player's ratings
    sweep        SweepOps       what is due as time passes, and when it next is
    command      CommandSteps   the steps every command shares (budgets, checks, delivery)
    snapshots    Snapshots      a game as read, and the cache of positions
    fair_play    FairPlay       when the computer may help a player (evaluations, hints)

and the tournaments' ``TournamentOps`` (``bot.tournaments.service``). The state they share
is made here, in ``__init__``.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections import OrderedDict
from collections.abc import Callable, Sequence

from ..config import Settings
from ..delivery import events as ev
from ..delivery.limits import limiter
from ..delivery.outbox import Outbox
from ..identity.players import COMPUTER
from ..schemas import ADAPTER_SCHEMAS
from ..store import Schema, Store
from ..timekeeping.clock import Clock, SystemClock, to_ts
from ..timekeeping.reminders import Reminders
from ..tournaments.service import TournamentOps, TournamentSweeper
from .challenges import COLOURS, SETUPS, ChallengeOps
from .command import CommandSteps
from .fair_play import FairPlay
from .games import GameReading
from .moves import MoveOps
from .offers import OfferOps
from .players import PlayerOps, display_name
from .premoves import PremoveOps
from .ratings import RatingsOps
from .record import format_record, game_pgn
from .results import (
    Challenge,
    GameSummary,
    GameView,
    MoveRecord,
    MoveResult,
    SweepReport,
    VacationInfo,
)
from .snapshots import Snapshots
from .sweep import Sweeper, SweepOps
from .vacations import VacationOps

# re-exported: adapters and tests import these from here
__all__ = ["COLOURS", "COMPUTER", "SETUPS", "Challenge", "GameService",
           "GameSummary", "GameView", "MoveRecord", "MoveResult", "SweepReport", "VacationInfo",
           "display_name", "format_record", "game_pgn"]

log = logging.getLogger(__name__)


class GameService(PlayerOps, ChallengeOps, MoveOps, OfferOps, PremoveOps, GameReading, VacationOps,
                  RatingsOps, TournamentOps, SweepOps, CommandSteps, Snapshots, FairPlay):
    """Open with ``await GameService.open(settings, clock=..., notifier=...)``."""

    # Reads (a board, a record, a flipped board) and lookups (autocomplete, a keystroke
    # each) have budgets of their own, per player: one player cycling through game ids
    # gets refused, and the bot stays quick for everyone else.
    READS_PER_MINUTE, READ_BURST = 30, 10
    LOOKUPS_PER_MINUTE, LOOKUP_BURST = 240, 40

    def __init__(self, store: Store, settings: Settings, clock: Clock, notifier: ev.Notifier,
                 rng: random.Random):
        self.store = store
        self.settings = settings
        self.clock = clock
        self.notifier = notifier
        self.rng = rng
        self.outbox = Outbox(store, notifier, settings, now=self._now)
        self.reminders = Reminders(store)
        # several processes on one database share each player's budgets through it
        self.limiter = limiter(store, settings.command_rate_per_minute, settings.command_burst,
                               "sending commands", "commands")
        self.read_limiter = limiter(store, self.READS_PER_MINUTE, self.READ_BURST, "looking at games", "reads")
        self.lookup_limiter = limiter(store, self.LOOKUPS_PER_MINUTE, self.LOOKUP_BURST,
                                      "looking things up", "lookups")
        self._positions: OrderedDict[int, tuple[str, tuple[str, ...], object]] = OrderedDict()
        self._listeners: list[Callable[[], None]] = []
        self._sweepers: list[Sweeper] = []  # others' work the sweep does too (the computer's retries)
        self._watch: asyncio.Task | None = None  # listening for other processes' commits
        self._next_prune = 0
        self._games_ended: set[int] = set()  # since the last commit: a tournament's round may be over
        self.tournament_sweeper = TournamentSweeper(self)
        self.add_sweeper(self.tournament_sweeper)

    @classmethod
    async def open(cls, settings: Settings, *, clock: Clock | None = None,
                   notifier: ev.Notifier | None = None, rng: random.Random | None = None,
                   schemas: Sequence[Schema] = ADAPTER_SCHEMAS) -> GameService:
        store = await Store.open(settings.db_path, schemas=schemas)
        service = cls(store, settings, clock or SystemClock(), notifier or ev.NullNotifier(),
                      rng or random.Random())
        await service.outbox.recover(to_ts(service.clock.now()))
        return service

    def start_delivery(self) -> None:
        """Deliver notices in a background task from now on (the long-running front ends
        call this): commands then return once committed, never waiting for delivery.
        Another process's commit on the same database wakes it too (where the database
        can say so: PostgreSQL's LISTEN/NOTIFY)."""
        self.outbox.start()
        self.watch_others()

    def watch_others(self) -> None:
        """From now on another process's commit on the same database calls the listeners
        (``add_listener``) and pokes the outbox: PostgreSQL's LISTEN/NOTIFY, SQLite's data
        version. The game pages follow games with it."""
        if self._watch is None:
            self._watch = asyncio.get_running_loop().create_task(self.store.watch(self._changed_elsewhere))

    def _changed_elsewhere(self) -> None:
        """Another process committed: its notices may be ours to deliver, and the next wake
        may be sooner."""
        self.outbox.poke()
        self._tell_listeners()

    def _tell_listeners(self) -> None:
        for callback in list(self._listeners):
            try:
                callback()
            except Exception:  # a listener's bug must not fail the operation nor stop the others
                log.exception("listener failed")

    async def close(self) -> None:
        await self.outbox.stop()
        if self._watch is not None:
            self._watch.cancel()
            await asyncio.gather(self._watch, return_exceptions=True)
        await self.store.close()

    def add_listener(self, callback: Callable[[], None]) -> None:
        """Called (synchronously) after every committed change; the scheduler's hook."""
        self._listeners.append(callback)

    def remove_listener(self, callback: Callable[[], None]) -> None:
        self._listeners.remove(callback)

    def wake_listeners(self) -> None:
        """Something the next wake depends on changed outside the database (a sweeper's
        work): the scheduler works the wake out again."""
        self._changed_elsewhere()
