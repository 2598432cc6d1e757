"""The game service: every operation a chat adapter can ask for.

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
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

import rules
from rules.errors import RulesError

from ..delivery import events as ev
from . import premoves
from .challenges import (
    ChallengeLife,
    challenge_settled,
    check_accept,
    check_new_challenge,
    decide_rated,
    drop_unseen_notice,
    earliest,
    offers_settled,
)
from ..timekeeping.clock import (
    DAY,
    HOUR,
    Clock,
    SystemClock,
    deadline_for,
    effective_deadline,
    from_ts,
    in_range,
    paused_deadline,
    to_ts,
    year_bounds,
)
from ..config import ConfigError, Settings, parse_days
from ..domain.errors import (
    AbortError,
    ChallengeError,
    ClockOutOfRange,
    GameChanged,
    GameOver,
    IllegalMove,
    InputTooLong,
    NotAPlayer,
    NotFound,
    NotYourTurn,
    RateLimited,
    SettingsError,
    StorageError,
    UnstorableText,
    VacationError,
)
from ..domain.kinds import ChallengeStatus, GameStatus, Outcome, Side
from ..delivery.limits import limiter
from .offers import DRAW, TAKEBACK, Offer, answer_offer, cleared, lapsed, make_offer, standing_offers
from ..delivery.outbox import Outbox
from ..identity.players import COMPUTER, Player, PlayerSettings, player_from_row
from ..delivery.events import ref
from .ratings import RatingsOps, can_be_rated, header_ratings, rate_finished
from .record import format_record, setup_actions
from ..timekeeping.reminders import Reminders, batched, turn_plan
from .results import (
    Challenge,
    GameSummary,
    GameView,
    MoveRecord,
    MoveResult,
    SweepReport,
    VacationInfo,
)
from ..schemas import ADAPTER_SCHEMAS
from ..tournaments.service import TournamentOps, TournamentSweeper, tournament_fields
from ..store import ChallengeRow, GameRow, MoveRow, PlayerRow, Schema, Store, Tx

# re-exported: adapters and tests import these from here
__all__ = ["COLOURS", "COMPUTER", "SETUPS", "Challenge", "GameService",
           "GameSummary", "GameView", "MoveRecord", "MoveResult", "SweepReport", "VacationInfo",
           "display_name", "format_record"]

log = logging.getLogger(__name__)

COLOURS = ("white", "black", "random")
SETUPS = ("default", "players")
_UNSET = object()


class Sweeper(Protocol):
    """Work of another part's that the sweep does when due (``GameService.add_sweeper``)."""

    async def sweep_due(self, now: int) -> int: ...  # does what is due at ``now``; how many

    def next_due(self) -> int | None: ...  # when the next of it is due


class _VacationBegun(Exception):
    """The mover went on vacation after the command read the game: their move ends it,
    which needs a write to the whole database (``_play``)."""


@dataclass
class _Rows:
    """A game's rows as one transaction read them."""

    game: GameRow
    moves: list[MoveRow]
    white: PlayerRow
    black: PlayerRow
    ratings: tuple[str | None, str | None] = (None, None)  # beside White's and Black's names


@dataclass
class _Snap:
    game: GameRow
    moves: list[MoveRow]
    white: PlayerRow
    black: PlayerRow
    pos: object
    ratings: tuple[str | None, str | None] = (None, None)  # beside White's and Black's names

    def row(self, side: Side | str) -> PlayerRow:
        return self.white if side == Side.WHITE else self.black


@dataclass
class Command:
    """A player's command under way (``GameService._command``)."""

    now: int
    new_turn_in: int | None = None  # a game whose new turn's "your move" goes at once


class GameCommand:
    """One game command under way (``GameService._game_command``): what it read, whose
    it is, and the writes a command makes, each in its one ``write()`` transaction."""

    def __init__(self, service: GameService, base: Command, snap: _Snap, side: Side):
        self._service = service
        self._base = base
        self.snap = snap
        self.side = side
        self.written: _Rows | None = None  # the game as the command's write left it

    @property
    def now(self) -> int:
        return self._base.now

    @property
    def game(self) -> GameRow:
        return self.snap.game

    @property
    def pos(self):
        return self.snap.pos

    @property
    def moves(self) -> list[MoveRow]:
        return self.snap.moves

    def player(self, side: Side | str) -> PlayerRow:
        return self.snap.row(side)

    @contextlib.asynccontextmanager
    async def write(self, *, whole_database: bool = False):
        """The write transaction; GameChanged if the game moved on since it was read.
        It changes this game alone unless ``whole_database`` (``Store.row_write``).
        At its end the game is read again in it (``written``): the game as this command
        left it, which is what its answer shows. A read after the commit could already
        hold another process's next move, and so name the wrong ply as this one's."""
        async with self._service._versioned(self.snap, whole_database=whole_database) as tx:
            yield tx
            self.written = await self._service._game_rows(tx, self.game.id)

    async def view(self) -> GameView:
        """The command's answer: the game as its write left it (as it stands, if it wrote
        nothing)."""
        service = self._service
        if self.written is None:
            return await service.game(self.game.id)
        return service._view(await service._snap(self.written), service._now())

    async def tell(self, tx: Tx, side: Side, event: ev.Event) -> None:
        """Notify ``side``'s player of ``event`` (sent once the write commits)."""
        await self._service._emit(tx, event, self.player(side).id, self.now, game_id=self.game.id)

    async def finish(self, tx: Tx, outcome: Outcome, last_move: str | None = None) -> None:
        await self._service._finish(tx, self.game, outcome, self.now, last_move=last_move)

    async def start_turn(self, tx: Tx, side: Side) -> None:
        await self._service._start_turn(tx, self.game, side, self.game.turn_no + 1, self.now)
        self.new_turn()

    def new_turn(self) -> None:
        """A turn started in the game: its "your move" goes out at once after the commit."""
        self._base.new_turn_in = self.game.id

    async def position_before_last(self):
        """The position before the last move (slow: read it before the write)."""
        return await self._service._position_at(self.game, self.moves, len(self.moves) - 1)

    async def take_back(self, tx: Tx, before) -> None:
        """Undo the last move: ``before`` (``position_before_last()``) is the game again,
        its mover to move with a full turn's time; no offer stands any longer."""
        g = self.game
        await tx.delete_move(g.id, g.ply)
        await offers_settled(tx, g, self.now, standing_offers(g))
        await tx.update_game(g.id, current_vfen=before.fen(), ply=g.ply - 1, **cleared())
        await self.start_turn(tx, Side(before.turn))
        await premoves.drop_all(self._service, tx, g, "takeback", self.now)


def _storable(text: str, what: str) -> None:
    """UnstorableText if ``text`` cannot be written as UTF-8 (a lone surrogate: bytes that
    were not UTF-8, decoded with ``surrogateescape``, as the OS does for argv)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise UnstorableText(f"that is not usable as {what}: it contains characters that "
                             "cannot be stored (it is not valid Unicode)") from None


def display_name(name: str) -> str:
    """A name fit to store and show: what is not valid Unicode and control characters
    (line breaks, escapes) become U+FFFD, as a name from the OS or a chat would be read."""
    return "".join("\ufffd" if unicodedata.category(c) in ("Cc", "Cs") else c for c in str(name))


# --- the service --------------------------------------------------------------------

class GameService(RatingsOps, ChallengeLife, TournamentOps):
    """Open with ``await GameService.open(settings, clock=..., notifier=...)``."""

    CACHE_SIZE = 256
    # Reads (a board, a record, a flipped board) and lookups (autocomplete, a keystroke
    # each) have budgets of their own, per player: one player cycling through game ids
    # gets refused, and the bot stays quick for everyone else.
    READS_PER_MINUTE, READ_BURST = 30, 10
    LOOKUPS_PER_MINUTE, LOOKUP_BURST = 240, 40
    PRUNE_EVERY = HOUR  # the sweep prunes at most this often
    PRUNE_BATCH = 2000  # rows of each kind a write transaction deletes
    DIGEST_DAYS_KEPT = 3  # a digest looks back one local day: its record must outlive that

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

    def add_sweeper(self, sweeper: Sweeper) -> None:
        """Have every sweep do ``sweeper``'s due work too, and wake for it (the computer's
        turns to try again: bot/computer/player.py)."""
        self._sweepers.append(sweeper)

    def remove_sweeper(self, sweeper: Sweeper) -> None:
        if sweeper in self._sweepers:
            self._sweepers.remove(sweeper)

    def wake_listeners(self) -> None:
        """Something the next wake depends on changed outside the database (a sweeper's
        work): the scheduler works the wake out again."""
        self._changed_elsewhere()

    # --- plumbing ---

    def _now(self) -> int:
        return self._ts(self.clock.now())

    @staticmethod
    def _ts(when: datetime) -> int:
        """``when`` in seconds; ClockOutOfRange if the service cannot keep time from there."""
        ts = to_ts(when)
        if not in_range(ts):
            raise ClockOutOfRange(f"the clock reads {when:%Y-%m-%d %H:%M} UTC, outside the dates "
                                  "fairypost can keep time for (1970 to 9990): set the clock right")
        return ts

    async def _throttle(self, player_id: int) -> None:
        """A player's command beyond their rate: RateLimited, before anything is done."""
        await self.limiter.spend(player_id, self.clock.now().timestamp())

    async def budget_read(self, player_id: int) -> None:
        """Spend one of the player's reads (a board, a record): RateLimited if none is left."""
        await self.read_limiter.spend(player_id, self.clock.now().timestamp())

    async def budget_lookup(self, player_id: int) -> bool:
        """Spend one of the player's lookups (an autocomplete); False if none is left."""
        try:
            await self.lookup_limiter.spend(player_id, self.clock.now().timestamp())
        except RateLimited:
            return False
        return True

    def _check_text(self, text, what: str = "a move") -> None:
        """Overlong text: InputTooLong, before it is read; text that is not valid Unicode:
        UnstorableText."""
        n, limit = len(str(text)), self.settings.max_input_chars
        if n > limit:
            raise InputTooLong(f"that is too long to be {what} ({n} characters; at most {limit})")
        _storable(str(text), what)

    async def _after_commit(self, game_id: int | None = None) -> None:
        """Have what the change wrote to the outbox delivered; a game's new turn gets its
        "your move" notice at once (unless quiet hours hold it back)."""
        now = self._now()
        if game_id is not None:
            await self.reminders.collect(now, game_id)
        if self._games_ended:
            await self._after_games_ended()
        await self._deliver(now)
        self._tell_listeners()

    async def _deliver(self, now: int) -> None:
        """Wake the background delivery; without one, deliver here and now."""
        if self.outbox.running:
            self.outbox.poke()
        else:
            await self.outbox.dispatch(now)

    async def _emit(self, tx: Tx, event: ev.Event, recipient_id: int | None, now: int,
                    game_id: int | None = None, turn_no: int | None = None) -> None:
        await tx.insert_event(event.kind, recipient_id, game_id, turn_no, ev.encode(event), now)

    def _cached(self, g: GameRow, lans: tuple[str, ...]):
        cached = self._positions.get(g.id)
        if cached is not None and cached[0] == g.start_vfen and cached[1] == lans:
            self._positions.move_to_end(g.id)
            return cached[2]
        return None

    async def _position_at(self, g: GameRow, moves: list[MoveRow], n: int):
        """The position after the first ``n`` moves, with the history the repetition rule
        and the last-move marks need: cached, else loaded off the event loop (a few VFENs
        read, or a whole replay: milliseconds to a second, too long to hold up the bot)."""
        lans = tuple(m.lan for m in moves[:n])
        pos = self._cached(g, lans)
        if pos is None:
            pos = await asyncio.to_thread(self._load, g, moves, n)
            self._remember(g.id, g.start_vfen, lans, pos)
        return pos

    def _load(self, g: GameRow, moves: list[MoveRow], n: int):
        """From the stored checkpoints if they are there and agree, else replayed."""
        pos = self._from_checkpoints(g, moves, n)
        return pos if pos is not None else self._replay(g, tuple(m.lan for m in moves[:n]))

    def _from_checkpoints(self, g: GameRow, moves: list[MoveRow], n: int):
        """The position after ``n`` moves from its stored VFEN, and the positions since the
        last irreversible move (its halfmove count: no earlier one can repeat) as its
        history; None if a checkpoint is missing (moves stored before checkpoints), the
        engine keeps no halfmove count, or the checkpoints disagree with the game."""
        def vfen_at(p: int) -> str | None:
            return g.start_vfen if p == 0 else moves[p - 1].vfen
        if n == 0 or vfen_at(n) is None or (n == g.ply and vfen_at(n) != g.current_vfen):
            return None
        try:
            pos = rules.from_fen(g.game, vfen_at(n))
            half = getattr(pos, "halfmove", None)
            if half is None or not hasattr(pos, "key"):
                return None
            first = n - min(half, n)
            if any(vfen_at(p) is None for p in range(min(first, n - 1), n)):
                return None
            history, before = None, None
            for p in range(first, n):
                before = rules.from_fen(g.game, vfen_at(p))
                history = (before.key(), moves[p].lan, history)
            if before is None or first == n:  # no reversible moves: only the last one's marks
                before = rules.from_fen(g.game, vfen_at(n - 1))
            pos.history = history
            pos.last_move = before.parse(moves[n - 1].lan)
        except RulesError as e:
            log.warning("game #%d: its stored positions cannot be read (%s); replaying it", g.id, e)
            return None
        return pos

    def _replay(self, g: GameRow, lans: tuple[str, ...]):
        try:
            pos = rules.from_fen(g.game, g.start_vfen)
        except RulesError as e:
            raise StorageError(f"game #{g.id}: its start position cannot be read: {e}") from None
        for ply, lan in enumerate(lans, 1):
            try:
                pos = pos.play(lan)
            except RulesError as e:
                raise StorageError(f"game #{g.id}: stored move {ply} ({lan}) is not legal: {e}") from None
        return pos

    def _remember(self, game_id: int, start: str, lans: tuple[str, ...], pos) -> None:
        self._positions[game_id] = (start, lans, pos)
        self._positions.move_to_end(game_id)
        while len(self._positions) > self.CACHE_SIZE:
            self._positions.popitem(last=False)

    async def _snapshot(self, game_id: int) -> _Snap:
        async with self.store.read() as tx:
            rows = await self._game_rows(tx, game_id)
        return await self._snap(rows)

    async def _game_rows(self, tx: Tx, game_id: int) -> _Rows:
        g = await tx.game(game_id)
        if g is None:
            raise NotFound(f"there is no game #{game_id}")
        moves = await tx.moves(game_id)
        white = await tx.player(g.white_id)
        black = await tx.player(g.black_id)
        ratings = await header_ratings(tx, g, white, black, to_ts(self.clock.now()))
        return _Rows(g, moves, white, black, ratings)

    async def _snap(self, rows: _Rows) -> _Snap:
        """The rows with their position (cached, else loaded off the event loop)."""
        g, moves = rows.game, rows.moves
        if [m.ply for m in moves] != list(range(1, g.ply + 1)):
            raise StorageError(f"game #{g.id}: its move list does not match its ply count")
        pos = await self._position_at(g, moves, len(moves))
        if pos.fen() != g.current_vfen:
            log.warning("game #%d: cached position %r differs from the replayed %r; using the replay",
                        g.id, g.current_vfen, pos.fen())
        return _Snap(g, moves, rows.white, rows.black, pos, rows.ratings)

    @staticmethod
    def _side(snap: _Snap, player_id: int) -> Side:
        if player_id == snap.game.white_id:
            return Side.WHITE
        if player_id == snap.game.black_id:
            return Side.BLACK
        raise NotAPlayer()

    @staticmethod
    def _expect(snap: _Snap, expected_ply: int | None) -> None:
        if expected_ply is not None and expected_ply != snap.game.ply:
            raise GameChanged()

    @staticmethod
    def _over_message(g: GameRow) -> str:
        if g.status == GameStatus.ABORTED:
            return "the game was aborted"
        return f"the game is over: {g.result} ({g.reason})"

    def _effective_deadline(self, g: GameRow, to_move: PlayerRow | None, now: int) -> int | None:
        if g.status != GameStatus.ACTIVE or to_move is None:
            return None
        return effective_deadline(g.deadline, g.turn_started_at, to_move.vacation_start,
                                  to_move.vacation_until, now)

    @contextlib.asynccontextmanager
    async def _command(self, player_id: int, text: tuple[object, str] | None = None):
        """Every player command, done once: before it, the player's rate and the text's
        length (``text``: the text and what it is meant to be), and the time; after it,
        the delivery of what it wrote. A refusal raised inside delivers nothing."""
        await self._throttle(player_id)
        now = self._now()  # a clock out of range: refused before anything is written
        if text is not None:
            self._check_text(*text)
        cmd = Command(now)
        yield cmd
        await self._after_commit(cmd.new_turn_in)

    @contextlib.asynccontextmanager
    async def _game_command(self, game_id: int, player_id: int, expected_ply: int | None,
                            text: tuple[object, str] | None = None):
        """Every game command, done once: ``_command``'s, then the game as it stands,
        the player's side and the shared refusals (not a player, a stale ply, the game
        over or out of time). The command itself says only what it does, writing in
        ``cmd.write()``."""
        async with self._command(player_id, text) as base:
            snap = await self._snapshot(game_id)
            side = self._side(snap, player_id)
            self._expect(snap, expected_ply)
            await self._live(snap, base.now)
            yield GameCommand(self, base, snap, side)

    @contextlib.asynccontextmanager
    async def _versioned(self, snap: _Snap, *, whole_database: bool = False):
        """A write transaction that goes through only if the game is still as the
        command read it: of two commands at once, one wins, the other gets GameChanged.
        The version check locks the game: the transaction changes that game alone (and its
        players' ratings), beside writes to other games, unless ``whole_database``."""
        write = self.store.write if whole_database else self.store.row_write
        async with write() as tx:
            if not await tx.bump_version(snap.game.id, snap.game.version):
                raise GameChanged()
            yield tx

    async def _live(self, snap: _Snap, now: int) -> None:
        """Refuse if the game is over; if its deadline has passed, end it on time first."""
        g = snap.game
        if g.status != GameStatus.ACTIVE:
            raise GameOver(self._over_message(g))
        to_move = snap.row(g.to_move)
        deadline = self._effective_deadline(g, to_move, now)
        if deadline is not None and now >= deadline:
            async with self._versioned(snap) as tx:
                await self._finish(tx, g, Outcome.loss(g.to_move, "time"), now, ended_at=deadline)
            await self._after_commit()
            raise GameOver(f"the game is over: {to_move.name} ran out of time")

    async def _finish(self, tx: Tx, g: GameRow, outcome: Outcome, now: int,
                      last_move: str | None = None, ended_at: int | None = None) -> None:
        """End the game; ``ended_at`` (default now): a game lost on time ended at its
        deadline, however late the program noticed (downtime, a sleeping machine)."""
        ended_at = now if ended_at is None else min(ended_at, now)
        status = GameStatus.ABORTED if outcome == Outcome.aborted() else GameStatus.FINISHED
        result, reason = outcome
        await tx.update_game(g.id, status=status, result=result, reason=reason, ended_at=ended_at,
                             deadline=None, **cleared())
        await tx.cancel_reminders(g.id, now)
        await offers_settled(tx, g, now, standing_offers(g))
        await rate_finished(tx, g, result, ended_at)  # rated games: both players, in this transaction
        self._games_ended.add(g.id)  # after the commit, its tournament's next round (if any)
        await self._tournament_game_over(tx, g, now)  # its result posted where the event's news go
        white = ref(await tx.player(g.white_id))
        black = ref(await tx.player(g.black_id))
        for player in (white, black):
            event = ev.GameOver(game_id=g.id, game=g.game, white=white, black=black, result=result,
                                reason=reason, last_move=last_move)
            await self._emit(tx, event, player.id, now, game_id=g.id)

    async def _start_turn(self, tx: Tx, g: GameRow, side: Side | str, turn_no: int, now: int,
                          *, told: bool = False) -> int | None:
        """The turn's deadline and reminders; the deadline. ``told``: the player to move has
        been told it is their move already (the game's start says it), so no "your move"
        notice comes after it (the computer, which plays on that notice, always gets it)."""
        to_move_id = g.white_id if side == Side.WHITE else g.black_id
        # the computer never loses on time: its turns have no deadline and no warnings
        computer = (await tx.player(to_move_id)).platform == COMPUTER
        days = None if computer else g.days
        # a paused tournament's game: the turn's time is kept for its resumption, no clock runs
        stopped = days is not None and await self._clock_stopped(tx, g.id, days * DAY)
        deadline = None if stopped else deadline_for(now, days)
        await tx.update_game(g.id, turn_no=turn_no, to_move=side, to_move_id=to_move_id,
                             turn_started_at=now, deadline=deadline)
        await tx.cancel_reminders(g.id, now)
        for kind, before in turn_plan(days):
            if kind == "your_move" and told and not computer:
                continue
            # a stopped clock's warnings have no time until it runs again (set_deadline)
            due_at = now if before is None else None if deadline is None else deadline - before
            await tx.insert_reminder(g.id, turn_no, to_move_id, kind, before, due_at)
        return deadline

    async def _end_vacation(self, tx: Tx, player: PlayerRow, end: int) -> None:
        """End a vacation at ``end``: the paused time moves the player's deadlines on."""
        for g in await tx.games_to_move(player.id):
            if g.deadline is not None:
                await tx.set_deadline(g.id, paused_deadline(g.deadline, g.turn_started_at,
                                                            player.vacation_start, end))
        await tx.end_vacation(player.id, end)

    def _view(self, snap: _Snap, now: int) -> GameView:
        g = snap.game
        active = g.status == GameStatus.ACTIVE
        to_move = snap.row(g.to_move) if active else None
        deadline = self._effective_deadline(g, to_move, now)
        fen = snap.pos.fen()
        return GameView(
            id=g.id, game=g.game, white=ref(snap.white), black=ref(snap.black),
            status=GameStatus(g.status), result=g.result, reason=g.reason,
            start_vfen=g.start_vfen, fen=fen, ply=g.ply, turn=Side(snap.pos.turn),
            to_move=ref(to_move) if to_move else None, days=g.days,
            deadline=from_ts(deadline), seconds_left=None if deadline is None else deadline - now,
            in_setup=snap.pos.in_setup, in_check=bool(snap.pos.in_check()),
            draw_offer=DRAW.standing(g), takeback_by=TAKEBACK.standing(g),
            moves=tuple(MoveRecord(m.ply, m.lan, m.san, Side(m.side), m.player_id,
                                   from_ts(m.played_at)) for m in snap.moves),
            created_at=from_ts(g.created_at), ended_at=from_ts(g.ended_at), scope=g.scope,
            rated=bool(g.rated), white_rating=snap.ratings[0], black_rating=snap.ratings[1],
            version=g.version)

    # --- players ---

    async def player(self, platform: str, user_id: str, name: str | None = None) -> Player:
        """The player known on ``platform`` as ``user_id``, created on first sight."""
        platform, user_id = str(platform), str(user_id)
        if not platform or not user_id:
            raise SettingsError("a player needs a platform and a user id")
        _storable(platform, "a platform name")
        _storable(user_id, "a player's name or id")
        name = display_name(name) if name is not None else None
        async with self.store.write() as tx:
            row = await tx.find_player(platform, user_id)
            if row is None:
                pid = await tx.insert_player(platform, user_id, name or user_id, "{}", self._now())
                row = await tx.player(pid)
            elif name and name != row.name:
                await tx.rename_player(row.id, name)
                row = await tx.player(row.id)
        return player_from_row(row)

    async def players_on(self, platform: str) -> list[Player]:
        """Every player known on ``platform`` (the terminal finds its local players' games so)."""
        async with self.store.read() as tx:
            rows = await tx.players_on(str(platform))
        return [player_from_row(r) for r in rows]

    async def get_player(self, player_id: int) -> Player:
        async with self.store.read() as tx:
            row = await tx.player(player_id)
        if row is None:
            raise NotFound(f"there is no player #{player_id}")
        return player_from_row(row)

    async def update_settings(self, player_id: int, *, timezone=_UNSET, quiet_hours=_UNSET,
                              digest_time=_UNSET, confirm_moves=_UNSET) -> PlayerSettings:
        """timezone: IANA name; quiet_hours: ("22:00", "07:30") or None; digest_time: "08:00" or None;
        confirm_moves: "off", "typed" or "all" (players.CONFIRM_CHOICES)."""
        quiet = quiet_hours if isinstance(quiet_hours, (tuple, list)) else (quiet_hours,)
        async with self._command(player_id):
            for value in (timezone, digest_time, confirm_moves, *quiet):
                if isinstance(value, str):
                    self._check_text(value, "a setting")
            async with self.store.write() as tx:
                row = await tx.player(player_id)
                if row is None:
                    raise NotFound(f"there is no player #{player_id}")
                current = PlayerSettings.from_json(row.settings)
                changes = {}
                if timezone is not _UNSET:
                    changes["timezone"] = timezone or "UTC"
                if quiet_hours is not _UNSET:
                    if quiet_hours is None:
                        changes["quiet_start"] = changes["quiet_end"] = None
                    else:
                        try:
                            changes["quiet_start"], changes["quiet_end"] = quiet_hours
                        except (TypeError, ValueError):
                            raise SettingsError("quiet hours are a start and an end, like 22:00-07:00") from None
                if digest_time is not _UNSET:
                    changes["digest_time"] = digest_time
                if confirm_moves is not _UNSET:
                    changes["confirm_moves"] = confirm_moves
                try:
                    new = PlayerSettings(**{**current.__dict__, **changes})
                except ValueError as e:
                    raise SettingsError(str(e)) from None
                except OSError:  # bot.timekeeping.clock.zone: a name that is a folder of zones ("Europe"), or too long
                    raise SettingsError(f"unknown time zone {changes.get('timezone')!r} "
                                        "(use a name like Europe/Paris or UTC)") from None
                await tx.set_player_settings(player_id, new.to_json())
        return new

    # --- challenges ---

    async def _challenge_view(self, tx: Tx, c: ChallengeRow) -> Challenge:
        challenger = ref(await tx.player(c.challenger_id))
        opponent = ref(await tx.player(c.opponent_id)) if c.opponent_id is not None else None
        return Challenge(c.id, challenger, opponent, c.game, c.days, c.colour, c.setup,
                         ChallengeStatus(c.status),
                         from_ts(c.created_at), c.game_id, c.scope, bool(c.rated), from_ts(c.expires_at))

    async def challenge(self, challenger_id: int, game: str, *, opponent_id: int | None = None,
                        days=_UNSET, colour: str = "random", setup: str = "default",
                        scope: str | None = None, rated: bool | None = None) -> Challenge:
        """Challenge a player (or, with no opponent, anyone) to a game.

        days: days per move (1, 2, 3, 5, 7, 10, 14) or None for no clock;
        colour: the challenger's, 'white', 'black' or 'random';
        setup: 'default', or 'players' (a game with a set-up phase: the players make it);
        scope: where it is made (the adapter's name for it), passed on to its game;
        rated: rated or casual (default: rated between people; against the computer never).
        Limits, expiry and blocks: bot/operations/challenges.py.
        """
        async with self._command(challenger_id) as cmd:
            now = cmd.now
            if game not in rules.variants():
                raise ChallengeError(f"there is no game {game!r}; the games are: {', '.join(rules.variants())}")
            try:
                days = self.settings.default_days if days is _UNSET else parse_days(days)
            except ConfigError as e:
                raise ChallengeError(str(e)) from None
            if colour not in COLOURS:
                raise ChallengeError(f"the colour must be one of {', '.join(COLOURS)}, not {colour!r}")
            if setup not in SETUPS:
                raise ChallengeError(f"the set-up must be 'default' or 'players', not {setup!r}")
            if setup == "players" and rules.game(game).setup_start_fen is None:
                raise ChallengeError(f"{game} has no set-up for the players to make")
            if opponent_id == challenger_id:
                raise ChallengeError("you cannot challenge yourself")
            async with self.store.write() as tx:
                challenger = await tx.player(challenger_id)
                if challenger is None:
                    raise NotFound(f"there is no player #{challenger_id}")
                opponent = await tx.player(opponent_id) if opponent_id is not None else None
                if opponent_id is not None and opponent is None:
                    raise NotFound(f"there is no player #{opponent_id}")
                rated = decide_rated(rated, challenger, opponent)
                expires_at = await check_new_challenge(tx, self.settings, challenger, opponent, now)
                cid = await tx.insert_challenge(challenger_id, opponent_id, game, days, colour, setup, now,
                                                scope, rated=rated, expires_at=expires_at)
                event = ev.ChallengeReceived(challenge_id=cid, challenger=ref(challenger), game=game,
                                             days=days, colour=colour, setup=setup,
                                             open=opponent_id is None, rated=rated)
                await self._emit(tx, event, opponent_id, now)
                view = await self._challenge_view(tx, await tx.challenge(cid))
        return view

    async def _open_challenge(self, tx: Tx, challenge_id: int) -> ChallengeRow:
        c = await tx.challenge(challenge_id)
        if c is None:
            raise NotFound(f"there is no challenge #{challenge_id}")
        if c.status != ChallengeStatus.OPEN:
            raise ChallengeError(f"that challenge is no longer open (it was {c.status})")
        return c

    async def accept_challenge(self, challenge_id: int, player_id: int) -> GameView:
        async with self._command(player_id) as cmd:
            now = cmd.now
            async with self.store.read() as tx:
                c = await self._open_challenge(tx, challenge_id)
                if await tx.player(player_id) is None:
                    raise NotFound(f"there is no player #{player_id}")
                await check_accept(tx, c, player_id, now)
            if c.challenger_id == player_id:
                raise ChallengeError("you cannot accept your own challenge")
            if c.opponent_id is not None and c.opponent_id != player_id:
                raise ChallengeError("that challenge is for someone else")
            colour = c.colour if c.colour != "random" else self.rng.choice(("white", "black"))
            white_id, black_id = ((c.challenger_id, player_id) if colour == "white"
                                  else (player_id, c.challenger_id))
            async with self.store.write() as tx:
                if not await tx.close_challenge(c.id, "accepted", player_id, now):
                    raise ChallengeError("that challenge is no longer open")
                await challenge_settled(tx, c, now)
                gid = await self._create_game(tx, c.game, white_id, black_id, c.days, now, scope=c.scope,
                                              rated=bool(c.rated), challenge_id=c.id, setup=c.setup)
                await tx.set_challenge_game(c.id, gid)
                written = await self._game_rows(tx, gid)  # before another process's first move
            cmd.new_turn_in = gid
        return self._view(await self._snap(written), self._now())

    async def _create_game(self, tx: Tx, game: str, white_id: int, black_id: int, days: int | None,
                           now: int, *, scope: str | None, rated: bool, challenge_id: int | None = None,
                           setup: str = "default", tournament: tuple[int, str, int] | None = None) -> int:
        """A new game, its first turn and both players' notices, in the caller's transaction:
        every game starts here (an accepted challenge, a tournament's pairing: ``tournament``
        is its id, name and round, said in the notices)."""
        start = (rules.from_fen(game, rules.game(game).setup_start_fen) if setup == "players"
                 else rules.start(game))
        rated = rated and can_be_rated(await tx.player(white_id), await tx.player(black_id))
        gid = await tx.insert_game(game=game, challenge_id=challenge_id, white_id=white_id,
                                   black_id=black_id, start_vfen=start.fen(), to_move=start.turn,
                                   to_move_id=white_id if start.turn == Side.WHITE else black_id,
                                   days=days, now=now, deadline=deadline_for(now, days),
                                   scope=scope, rated=rated)
        g = await tx.game(gid)
        # one notice to the player to move: the game has begun, and it is their move
        deadline = await self._start_turn(tx, g, start.turn, 1, now, told=True)
        white, black = ref(await tx.player(white_id)), ref(await tx.player(black_id))
        mover = white if start.turn == Side.WHITE else black
        for p in (white, black):
            event = ev.GameStarted(game_id=gid, game=game, white=white, black=black,
                                   days=days, challenge_id=challenge_id, rated=rated,
                                   your_move=p is mover,
                                   deadline=from_ts(deadline) if p is mover else None,
                                   **tournament_fields(tournament))
            await self._emit(tx, event, p.id, now, game_id=gid)
        return gid

    async def decline_challenge(self, challenge_id: int, player_id: int) -> Challenge:
        return await self._close_challenge(challenge_id, player_id, "declined")

    async def cancel_challenge(self, challenge_id: int, player_id: int) -> Challenge:
        return await self._close_challenge(challenge_id, player_id, "cancelled")

    async def _close_challenge(self, challenge_id: int, player_id: int, how: str) -> Challenge:
        async with self._command(player_id) as cmd:
            now = cmd.now
            async with self.store.write() as tx:
                c = await self._open_challenge(tx, challenge_id)
                if how == "declined":
                    if c.opponent_id is None:
                        raise ChallengeError("an open challenge cannot be declined: just leave it")
                    if c.opponent_id != player_id:
                        raise ChallengeError("only the challenged player can decline a challenge")
                    tell = c.challenger_id
                else:
                    if c.challenger_id != player_id:
                        raise ChallengeError("only the challenger can cancel a challenge")
                    tell = c.opponent_id
                if not await tx.close_challenge(c.id, how, player_id, now):
                    raise ChallengeError("that challenge is no longer open")
                # withdrawn before its notice reached the opponent: both notices dropped
                seen = not (how == "cancelled" and tell is not None and await drop_unseen_notice(tx, c))
                await challenge_settled(tx, c, now, seen=seen)
                if tell is not None and seen:
                    event = ev.ChallengeClosed(challenge_id=c.id, how=how, by=ref(await tx.player(player_id)))
                    await self._emit(tx, event, tell, now)
                view = await self._challenge_view(tx, await tx.challenge(c.id))
        return view

    async def list_challenges(self, player_id: int | None = None) -> list[Challenge]:
        """Open challenges made by or to the player, and those open to anyone."""
        async with self.store.read() as tx:
            return [await self._challenge_view(tx, c) for c in await tx.open_challenges(player_id)]

    async def get_challenge(self, challenge_id: int) -> Challenge:
        async with self.store.read() as tx:
            c = await tx.challenge(challenge_id)
            if c is None:
                raise NotFound(f"there is no challenge #{challenge_id}")
            return await self._challenge_view(tx, c)

    # --- moves ---

    async def move(self, game_id: int, player_id: int, text: str, *,
                   expected_ply: int | None = None) -> MoveResult:
        """Play a move (any notation the engine accepts; set-up actions too)."""
        async with self._game_command(game_id, player_id, expected_ply, (text, "a move")) as cmd:
            lan, san, outcome, answer = await self._play(cmd, text)
        return MoveResult(await cmd.view(), lan, san, outcome, ply=cmd.game.ply + 1, answer=answer)

    async def setup_action(self, game_id: int, player_id: int, action: str, *,
                           expected_ply: int | None = None) -> MoveResult:
        """A set-up action (in a game with a set-up phase): a move made during set-up."""
        async with self._game_command(game_id, player_id, expected_ply,
                                      (action, "a set-up action")) as cmd:
            if not cmd.pos.in_setup:
                raise IllegalMove("the set-up is over: make a move instead")
            lan, san, outcome, answer = await self._play(cmd, action)
        return MoveResult(await cmd.view(), lan, san, outcome, ply=cmd.game.ply + 1, answer=answer)

    async def _play(self, cmd: GameCommand, text: str) -> tuple[str, str, Outcome | None, str | None]:
        """The move, and the opponent's conditional answer if one was waiting for it
        (played in the same transaction): (lan, san, the outcome if either ended the
        game, the answer's SAN)."""
        g, pos, side = cmd.game, cmd.pos, cmd.side
        if pos.turn != side:
            raise NotYourTurn(f"it is not your turn: {cmd.player(pos.turn).name} is to move")
        def decide():  # the rules' work: milliseconds on a big board, off the event loop
            try:
                move = pos.parse(str(text).strip())
                san = pos.san(move)
                new = pos.play(move)
            except RulesError as e:
                raise IllegalMove(str(e)) from None
            ended = new.outcome()
            return move.lan, san, new, None if ended is None else Outcome(*ended)
        lan, san, new, outcome = await asyncio.to_thread(decide)
        # A vacation ends when its player moves, and moves their other games' deadlines on:
        # that is a write to the whole database. One begun since the snapshot is found in
        # the write, which is then made again so.
        whole = cmd.player(side).vacation_start is not None
        try:
            answered = await self._write_move(cmd, lan, san, new, outcome, whole)
        except _VacationBegun:
            answered = await self._write_move(cmd, lan, san, new, outcome, whole_database=True)
        cmd.new_turn()
        lans = tuple(m.lan for m in cmd.moves) + (lan,)
        if answered is not None:
            lans, new = lans + (answered.lan,), answered.pos
            outcome = None if answered.outcome is None else Outcome(*answered.outcome)
        self._remember(g.id, g.start_vfen, lans, new)
        return lan, san, outcome, answered.san if answered is not None else None

    async def _write_move(self, cmd: GameCommand, lan: str, san: str, new, outcome: Outcome | None,
                          whole_database: bool):
        """``_play``'s transaction: the move, and the waiting player's conditional answer."""
        g, side, now = cmd.game, cmd.side, cmd.now
        async with cmd.write(whole_database=whole_database) as tx:
            mover = await tx.player(cmd.player(side).id)
            if mover.vacation_start is not None:
                if not whole_database:
                    raise _VacationBegun()
                await self._end_vacation(tx, mover, now)
            draw = await self._record_move(tx, g, g.ply + 1, g.turn_no + 1, side, mover.id, lan, san,
                                           new, outcome, g.draw_offer, now)
            return None if outcome is not None else await premoves.answer(
                self, tx, g, lan, san, new, draw, now)

    async def _record_move(self, tx: Tx, g: GameRow, ply: int, turn_no: int, side: Side | str,
                           player_id: int, lan: str, san: str, new, outcome, draw_offer: str | None,
                           now: int) -> str | None:
        """Write a move played (ply ``ply``) and start the next turn or end the game
        (``outcome``: an Outcome or the rules' (result, reason)); the draw offer that
        stands after it is returned (the offers the move makes lapse: bot/operations/offers.py)."""
        await tx.insert_move(g.id, ply, lan, san, player_id, side, now, new.fen())
        if getattr(new, "halfmove", None) == 0:  # irreversible: keep only what repetition needs
            await tx.drop_checkpoints(g.id, ply - 1)  # (and the one before, for a takeback)
        standing = {**standing_offers(g), DRAW.column: draw_offer}
        gone = lapsed(standing, Side(side))
        await tx.update_game(g.id, current_vfen=new.fen(), ply=ply, **gone)
        if outcome is not None:
            await self._finish(tx, g, Outcome(*outcome), now, last_move=san)
        else:
            await offers_settled(tx, g, now, {column: standing[column] for column in gone})
            await self._start_turn(tx, g, new.turn, turn_no, now)
        return None if DRAW.column in gone else draw_offer

    async def legal_moves(self, game_id: int) -> list[str]:
        """The LAN of every legal move (or set-up action) in the current position."""
        snap = await self._snapshot(game_id)
        if snap.game.status != GameStatus.ACTIVE:
            return []
        return sorted(m.lan for m in snap.pos.legal_moves())

    # --- conditional moves (bot/operations/premoves.py), the next game ---

    async def premoves(self, game_id: int, player_id: int) -> premoves.Lines:
        """The player's own conditional lines in the game (never the opponent's)."""
        snap = await self._snapshot(game_id)
        self._side(snap, player_id)
        async with self.store.read() as tx:
            return await premoves.lines_of(tx, snap.game, player_id)

    async def set_premoves(self, game_id: int, player_id: int, text: str, *,
                           expected_ply: int | None = None) -> premoves.Lines:
        """Leave lines like ``Nf6 e5; Nc6 d4 Nf6 Bg5`` (their move, my answer, ...), in place
        of any before; every move is checked from the current position."""
        async with self._game_command(game_id, player_id, expected_ply) as cmd:
            _storable(str(text), "conditional moves")  # no length limit: lines may be many
            premoves.check_waiting(cmd.pos, cmd.side, cmd.player(cmd.side.other).name)
            tree = await asyncio.to_thread(premoves.build_tree, cmd.pos, str(text))
            async with self.store.write() as tx:
                g = await tx.game(game_id)
                # a move meanwhile: the lines were checked on another position
                if g.version != cmd.game.version:
                    raise GameChanged()
                await premoves.store_lines(tx, g, player_id, tree, cmd.now)
        return premoves.Lines(game_id, g.ply, tree)

    async def cancel_premoves(self, game_id: int, player_id: int) -> int:
        """Drop the player's conditional lines in the game; how many there were."""
        async with self._command(player_id):
            lines = await self.premoves(game_id, player_id)
            async with self.store.write() as tx:
                await tx.delete_premoves(game_id, player_id)
        return lines.count

    async def next_game(self, player_id: int) -> GameSummary | None:
        """The player's most urgent game where it is their move (the earliest deadline,
        vacations counted in; unclocked games last), or None."""
        return next((s for s in await self.list_games(player_id) if s.my_move), None)

    # --- resigning, aborting, offers (draws, takebacks) ---

    async def resign(self, game_id: int, player_id: int, *, expected_ply: int | None = None) -> GameView:
        async with self._game_command(game_id, player_id, expected_ply) as cmd:
            async with cmd.write() as tx:
                await cmd.finish(tx, Outcome.loss(cmd.side, "resignation"))
        return await cmd.view()

    async def abort(self, game_id: int, player_id: int, *, expected_ply: int | None = None) -> GameView:
        """Either player may abort before both sides have moved (fewer than 2 plies)."""
        async with self._game_command(game_id, player_id, expected_ply) as cmd:
            if cmd.game.ply >= 2:
                raise AbortError("a game can be aborted only before both sides have moved")
            async with cmd.write() as tx:
                await cmd.finish(tx, Outcome.aborted())
        return await cmd.view()

    async def offer_draw(self, game_id: int, player_id: int, *,
                         expected_ply: int | None = None) -> GameView:
        """Offer a draw; if the opponent's offer stands, this accepts it. The offer
        stands until answered or until its maker moves."""
        return await self._make_offer(DRAW, game_id, player_id, expected_ply)

    async def accept_draw(self, game_id: int, player_id: int, *,
                          expected_ply: int | None = None) -> GameView:
        return await self._answer_offer(DRAW, game_id, player_id, True, expected_ply)

    async def decline_draw(self, game_id: int, player_id: int, *,
                           expected_ply: int | None = None) -> GameView:
        return await self._answer_offer(DRAW, game_id, player_id, False, expected_ply)

    async def ask_takeback(self, game_id: int, player_id: int, *,
                           expected_ply: int | None = None) -> GameView:
        """Ask to take back one's own last move, before the opponent has replied."""
        return await self._make_offer(TAKEBACK, game_id, player_id, expected_ply)

    async def accept_takeback(self, game_id: int, player_id: int, *,
                              expected_ply: int | None = None) -> GameView:
        """Take the asker's last move back; the asker is to move again, with full time."""
        return await self._answer_offer(TAKEBACK, game_id, player_id, True, expected_ply)

    async def decline_takeback(self, game_id: int, player_id: int, *,
                               expected_ply: int | None = None) -> GameView:
        return await self._answer_offer(TAKEBACK, game_id, player_id, False, expected_ply)

    async def _make_offer(self, offer: Offer, game_id: int, player_id: int,
                          expected_ply: int | None) -> GameView:
        async with self._game_command(game_id, player_id, expected_ply) as cmd:
            await make_offer(offer, cmd)
        return await cmd.view()

    async def _answer_offer(self, offer: Offer, game_id: int, player_id: int, accept: bool,
                            expected_ply: int | None) -> GameView:
        async with self._game_command(game_id, player_id, expected_ply) as cmd:
            await answer_offer(offer, cmd, accept)
        return await cmd.view()

    # --- looking ---

    async def game(self, game_id: int) -> GameView:
        snap = await self._snapshot(game_id)
        return self._view(snap, self._now())

    async def is_public(self, game_id: int) -> bool:
        """Whether anyone may follow the game by its plain link (its page's setting)."""
        async with self.store.read() as tx:
            return await tx.is_public(game_id)

    async def set_public(self, game_id: int, public: bool) -> None:
        """Open the game's page to anyone, or to signed links only again. Who may ask is
        the adapter's to check (its players; the machine's owner on the command line)."""
        async with self.store.write() as tx:
            if await tx.game(game_id) is None:
                raise NotFound(f"there is no game #{game_id}")
            await tx.set_public(game_id, public)
        self._tell_listeners()  # open pages of a link just closed stop following the game

    async def position(self, game_id: int):
        """The game's current rules ``Position``, its history included (``last_move`` is
        set): what an adapter draws or lists moves from. The replay is cached."""
        return (await self._snapshot(game_id)).pos

    async def list_games(self, player_id: int, *, include_finished: bool = False) -> list[GameSummary]:
        """The player's games: those where it is their move first, least time left first."""
        now = self._now()
        out = []
        async with self.store.read() as tx:
            me = await tx.player(player_id)
            if me is None:
                raise NotFound(f"there is no player #{player_id}")
            players: dict[int, PlayerRow] = {me.id: me}
            ratings: dict[tuple, tuple[str | None, str | None]] = {}
            for g in await tx.games_of(player_id, include_finished):
                for pid in (g.white_id, g.black_id):
                    if pid not in players:
                        players[pid] = await tx.player(pid)
                active = g.status == GameStatus.ACTIVE
                to_move = players[g.to_move_id] if active else None
                deadline = self._effective_deadline(g, to_move, now)
                side = Side.WHITE if g.white_id == player_id else Side.BLACK
                key = (g.white_id, g.black_id, g.game)  # each pair's ratings read once
                if key not in ratings:
                    ratings[key] = await header_ratings(tx, g, players[g.white_id], players[g.black_id], now)
                out.append(GameSummary(
                    id=g.id, game=g.game, white=ref(players[g.white_id]), black=ref(players[g.black_id]),
                    my_side=side, opponent=ref(players[g.black_id if side == Side.WHITE else g.white_id]),
                    my_move=active and g.to_move_id == player_id, status=GameStatus(g.status),
                    result=g.result,
                    reason=g.reason, ply=g.ply, deadline=from_ts(deadline),
                    seconds_left=None if deadline is None else deadline - now,
                    white_rating=ratings[key][0], black_rating=ratings[key][1]))
        out.sort(key=lambda s: (s.status != GameStatus.ACTIVE, not s.my_move, s.seconds_left is None,
                                s.seconds_left or 0, s.id))
        return out

    async def record(self, game_id: int) -> str:
        """The game as PGN-like text: tags, then the moves in SAN."""
        view = await self.game(game_id)
        start = rules.from_fen(view.game, view.start_vfen)
        return format_record(view, setup_actions(start, view.moves))

    # --- vacation ---

    async def vacation(self, player_id: int) -> VacationInfo:
        now = self._now()
        async with self.store.read() as tx:
            p = await tx.player(player_id)
            if p is None:
                raise NotFound(f"there is no player #{player_id}")
            used = await tx.vacation_used(player_id, *year_bounds(now), now)
        return VacationInfo(p.vacation_start is not None, from_ts(p.vacation_start),
                            from_ts(p.vacation_until), used,
                            self.settings.vacation_days_per_year * DAY)

    async def start_vacation(self, player_id: int, days: int | None = None) -> VacationInfo:
        """Pause all the player's clocks, for ``days`` or all the allowance left this
        year. It ends when they move, when they end it, or when the time runs out."""
        async with self._command(player_id) as cmd:
            now = cmd.now
            if days is not None and (not isinstance(days, int) or isinstance(days, bool) or days < 1):
                raise VacationError("a vacation lasts a whole number of days, at least 1")
            async with self.store.read() as tx:  # refusals first: a refusal changes nothing
                await self._vacation_left(tx, player_id, now)
            await self._expire_due_games(now)  # a vacation does not save a game already lost
            async with self.store.write() as tx:
                left = await self._vacation_left(tx, player_id, now)
                length = left if days is None else min(days * DAY, left)
                await tx.start_vacation(player_id, now, now + length)
        return await self.vacation(player_id)

    async def _vacation_left(self, tx: Tx, player_id: int, now: int) -> int:
        """Seconds of vacation the player may start now; the refusals if none."""
        p = await tx.player(player_id)
        if p is None:
            raise NotFound(f"there is no player #{player_id}")
        if p.vacation_start is not None:
            raise VacationError(f"you are already on vacation, until {from_ts(p.vacation_until):%Y-%m-%d %H:%M} UTC")
        left = (self.settings.vacation_days_per_year * DAY
                - await tx.vacation_used(player_id, *year_bounds(now), now))
        if left <= 0:
            raise VacationError("you have no vacation left this year")
        return left

    async def end_vacation(self, player_id: int) -> VacationInfo:
        async with self._command(player_id) as cmd:
            now = cmd.now
            async with self.store.write() as tx:
                p = await tx.player(player_id)
                if p is None:
                    raise NotFound(f"there is no player #{player_id}")
                if p.vacation_start is None:
                    raise VacationError("you are not on vacation")
                await self._end_vacation(tx, p, min(now, p.vacation_until))
        return await self.vacation(player_id)

    # --- time passing ---

    async def sweep(self, now: datetime | None = None) -> SweepReport:
        """Do everything due at ``now`` (default: the clock's): end vacations whose
        time is up, end games whose deadline has passed (ended at the deadline), send
        due reminders and digests, deliver the outbox, and at most hourly prune what
        ``retention_days`` lets go. Safe to call at any time, any number of times."""
        t = self._now() if now is None else self._ts(now)
        vacations = await self._end_due_vacations(t)
        timed_out = await self._expire_due_games(t)
        expired = await self._expire_due_challenges(t)
        reminders = await self.reminders.collect(t)
        digests = await self.reminders.digests(t)
        retried = sum([await sweeper.sweep_due(t) for sweeper in self._sweepers])
        delivered = await self.outbox.dispatch(t)
        pruned = 0
        if t >= self._next_prune:
            self._next_prune = t + self.PRUNE_EVERY
            pruned = await self.prune(from_ts(t))
        return SweepReport(vacations, timed_out, reminders, digests, delivered, pruned, expired, retried)

    async def prune(self, now: datetime | None = None) -> int:
        """Delete the notices delivered and the reminders spent more than ``retention_days``
        ago (none if it is 0): about six rows a move that no game's record needs. Games,
        moves, players, challenges and vacations are kept. Returns the rows deleted."""
        if not self.settings.retention_days:
            return 0
        t = self._now() if now is None else self._ts(now)
        before = t - self.settings.retention_days * DAY
        digests_before = min(before, t - self.DIGEST_DAYS_KEPT * DAY)
        total = 0
        for table, cutoff in (("reminders", before), ("digests", digests_before), ("events", before)):
            # in batches, each beside other writes: only rows long done, which none locks
            while True:
                async with self.store.row_write() as tx:
                    n = await tx.prune(table, cutoff, self.PRUNE_BATCH)
                total += n
                if n < self.PRUNE_BATCH:
                    break
        return total

    async def next_wake(self, now: datetime | None = None) -> datetime | None:
        """When the next sweep has something to do, from the database alone."""
        t = self._now() if now is None else self._ts(now)
        await self.tournament_sweeper.refresh()  # an event made or a round begun since (by any process)
        return from_ts(earliest(await self.reminders.next_wake(t), await self._next_challenge_expiry(),
                                *(sweeper.next_due() for sweeper in self._sweepers)))

    async def report_stalled_turn(self, game_id: int, player_id: int, failures: int) -> bool:
        """The computer player ``player_id`` has failed ``failures`` times to make its move
        in ``game_id``: its opponent is told (the notice lapses if the turn ends first).
        False if that turn is over already."""
        now = self._now()
        async with self.store.write() as tx:
            g = await tx.game(game_id)
            if g is None or g.status != GameStatus.ACTIVE or g.to_move_id != player_id:
                return False
            computer = ref(await tx.player(player_id))
            other = g.black_id if player_id == g.white_id else g.white_id
            event = ev.ComputerStalled(game_id=g.id, game=g.game, computer=computer, failures=failures)
            await self._emit(tx, event, other, now, game_id=g.id, turn_no=g.turn_no)
        await self._after_commit()
        return True

    async def _end_due_vacations(self, now: int) -> int:
        async with self.store.read() as tx:
            due = await tx.vacations_due(now)
        n = 0
        for batch in batched(due, self.reminders.BATCH, self.reminders.BATCH_SECONDS):
            async with self.store.write() as tx:  # a vacation's end moves deadlines: the whole database
                for p in batch:
                    p = await tx.player(p.id)
                    if p.vacation_until is None or p.vacation_until > now:
                        continue
                    await self._end_vacation(tx, p, p.vacation_until)
                    n += 1
        return n

    async def _expire_due_games(self, now: int) -> int:
        async with self.store.read() as tx:
            candidates = await tx.clocked_games(due_by=now)
        lost = []
        for c in candidates:
            deadline = effective_deadline(c.deadline, c.turn_started_at, c.vacation_start,
                                          c.vacation_until, now)
            if deadline <= now:
                lost.append((c, deadline))
        n = 0
        for batch in batched(lost, self.reminders.BATCH, self.reminders.BATCH_SECONDS):
            async with self.store.row_write() as tx:
                claimed = []
                for c, deadline in batch:
                    g = await tx.claim_game(c.id)
                    if g is None:
                        continue  # another process's sweep, or a move, holds it: theirs
                    if g.status != GameStatus.ACTIVE or g.version != c.version or g.deadline != c.deadline:
                        continue  # it changed since: the next sweep looks again
                    claimed.append((g, deadline))
                # every rated game's players at once, in id order, before any is written: the
                # batch then waits for players in the one order every transaction keeps
                await tx.lock_players(pid for g, _ in claimed if g.rated for pid in (g.white_id, g.black_id))
                for g, deadline in claimed:
                    if not await tx.bump_version(g.id, g.version):
                        continue
                    await self._finish(tx, g, Outcome.loss(g.to_move, "time"), now, ended_at=deadline)
                    n += 1
        if n:
            await self._deliver(now)
        return n
