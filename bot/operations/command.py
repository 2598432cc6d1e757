"""A command under way: the steps every operation of the service shares.

Every player command is done once, the same way (``_command``): the player's rate and the
text's length first, then the time; after it, the delivery of what it wrote. A command on
a game (``_game_command``) reads the game as it stands (a snapshot), finds the player's
side, refuses what every game command refuses (not a player, a stale ply, the game over or
out of time) and hands the command a :class:`GameCommand`, whose ``write()`` is the
versioned write transaction (``_versioned``): of two commands at once, one wins, the other
gets ``GameChanged``.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from language.text import T, Text

from ..delivery import events as ev
from ..domain.errors import (
    ClockOutOfRange,
    GameChanged,
    GameOver,
    InputTooLong,
    NotAPlayer,
    RateLimited,
    UnstorableText,
)
from ..domain.kinds import GameStatus, Outcome, Side
from ..store import GameRow, MoveRow, PlayerRow, Tx
from ..timekeeping.clock import effective_deadline, in_range, to_ts
from .results import GameView
from .snapshots import Rows, Snap

UNSET = object()  # an argument not given, where None is a value
A_MOVE = T("a move")  # what a command's text is, unless said otherwise


def storable(text: str, what: Text | str) -> None:
    """UnstorableText if ``text`` cannot be written as UTF-8 (a lone surrogate: bytes that
    were not UTF-8, decoded with ``surrogateescape``, as the OS does for argv)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise UnstorableText(T("that is not usable as {what}: it contains characters that "
                               "cannot be stored (it is not valid Unicode)", what=what)) from None


def reason_text(reason: str | None) -> Text | str:
    """A game's end reason (``games.reason``) as a player reads it in a refusal."""
    known = {
        "checkmate": T("checkmate"), "stalemate": T("stalemate"), "resignation": T("resignation"),
        "time": T("time"), "agreement": T("agreement"),
        "threefold repetition": T("threefold repetition"), "100-ply rule": T("100-ply rule"),
        "adjudication": T("adjudication"),
    }
    return known.get(reason or "", reason or "")


@dataclass
class Command:
    """A player's command under way (``GameService._command``)."""

    now: int
    new_turn_in: int | None = None  # a game whose new turn's "your move" goes at once


class GameCommand:
    """One game command under way (``GameService._game_command``): what it read, whose
    it is, and the writes a command makes, each in its one ``write()`` transaction."""

    def __init__(self, service: Any, base: Command, snap: Snap, side: Side):
        # service: the GameService (named loosely: this module imports none of its families)
        self._service = service
        self._base = base
        self.snap = snap
        self.side = side
        self.written: Rows | None = None  # the game as the command's write left it

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
        await self._service._take_back(self, tx, before)

class CommandSteps:
    """The steps of every command, and the service's clock, budgets and delivery (mixed
    into ``GameService``, which provides ``store``, ``settings``, ``clock``, ``outbox``,
    ``reminders``, the limiters and the listeners)."""

    def _now(self) -> int:
        return self._ts(self.clock.now())

    @staticmethod
    def _ts(when: datetime) -> int:
        """``when`` in seconds; ClockOutOfRange if the service cannot keep time from there."""
        ts = to_ts(when)
        if not in_range(ts):
            raise ClockOutOfRange(T("the clock reads {moment} UTC, outside the dates fairypost can "
                                    "keep time for ({first} to {last}): set the clock right",
                                    moment=when.strftime("%Y-%m-%d %H:%M"), first=1970, last=9990))
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

    def _check_text(self, text, what: Text | str = A_MOVE) -> None:
        """Overlong text: InputTooLong, before it is read; text that is not valid Unicode:
        UnstorableText."""
        n, limit = len(str(text)), self.settings.max_input_chars
        if n > limit:
            raise InputTooLong(T("that is too long to be {what} ({n} characters; at most {limit})",
                                 what=what, n=n, limit=limit))
        storable(str(text), what)

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

    @staticmethod
    def _side(snap: Snap, player_id: int) -> Side:
        if player_id == snap.game.white_id:
            return Side.WHITE
        if player_id == snap.game.black_id:
            return Side.BLACK
        raise NotAPlayer()

    @staticmethod
    def _expect(snap: Snap, expected_ply: int | None) -> None:
        if expected_ply is not None and expected_ply != snap.game.ply:
            raise GameChanged()

    @staticmethod
    def _over_message(g: GameRow) -> Text:
        if g.status == GameStatus.ABORTED:
            return T("the game was aborted")
        return T("the game is over: {result} ({reason})", result=g.result, reason=reason_text(g.reason))

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
    async def _versioned(self, snap: Snap, *, whole_database: bool = False):
        """A write transaction that goes through only if the game is still as the
        command read it: of two commands at once, one wins, the other gets GameChanged.
        The version check locks the game: the transaction changes that game alone (and its
        players' ratings), beside writes to other games, unless ``whole_database``."""
        write = self.store.write if whole_database else self.store.row_write
        async with write() as tx:
            if not await tx.bump_version(snap.game.id, snap.game.version):
                raise GameChanged()
            yield tx

    async def _live(self, snap: Snap, now: int) -> None:
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
            raise GameOver(T("the game is over: {name} ran out of time", name=to_move.name))
