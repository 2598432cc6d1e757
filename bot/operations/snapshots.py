"""A game as an operation reads it: its rows, and its position derived from them.

A game is its start position plus its move list. Its position is read from the VFEN
checkpoints stored with the moves where they are there and agree, else replayed through
the rules engine, off the event loop either way; the stored ``current_vfen`` is a cache
checked against it. The service keeps the positions of the games it read last
(``GameService._positions``, ``CACHE_SIZE`` of them).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

import rules
from language.text import T
from rules.errors import RulesError

from ..domain.errors import NotFound, StorageError
from ..domain.kinds import Side
from ..store import GameRow, MoveRow, PlayerRow, Tx
from ..timekeeping.clock import to_ts
from .ratings import header_ratings

log = logging.getLogger(__name__)


@dataclass
class Rows:
    """A game's rows as one transaction read them."""

    game: GameRow
    moves: list[MoveRow]
    white: PlayerRow
    black: PlayerRow
    ratings: tuple[str | None, str | None] = (None, None)  # beside White's and Black's names


@dataclass
class Snap:
    """A game's rows and its position."""

    game: GameRow
    moves: list[MoveRow]
    white: PlayerRow
    black: PlayerRow
    pos: object
    ratings: tuple[str | None, str | None] = (None, None)  # beside White's and Black's names

    def row(self, side: Side | str) -> PlayerRow:
        return self.white if side == Side.WHITE else self.black


class Snapshots:
    """The service's reading of a game and the cache of its positions (mixed into
    ``GameService``, which holds ``_positions`` and provides ``store`` and ``clock``)."""

    CACHE_SIZE = 256

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

    async def _snapshot(self, game_id: int) -> Snap:
        async with self.store.read() as tx:
            rows = await self._game_rows(tx, game_id)
        return await self._snap(rows)

    async def _game_rows(self, tx: Tx, game_id: int) -> Rows:
        g = await tx.game(game_id)
        if g is None:
            raise NotFound(T("there is no game #{id}", id=game_id))
        moves = await tx.moves(game_id)
        white = await tx.player(g.white_id)
        black = await tx.player(g.black_id)
        ratings = await header_ratings(tx, g, white, black, to_ts(self.clock.now()))
        return Rows(g, moves, white, black, ratings)

    async def _snap(self, rows: Rows) -> Snap:
        """The rows with their position (cached, else loaded off the event loop)."""
        g, moves = rows.game, rows.moves
        if [m.ply for m in moves] != list(range(1, g.ply + 1)):
            raise StorageError(f"game #{g.id}: its move list does not match its ply count")
        pos = await self._position_at(g, moves, len(moves))
        if pos.fen() != g.current_vfen:
            log.warning("game #%d: cached position %r differs from the replayed %r; using the replay",
                        g.id, g.current_vfen, pos.fen())
        return Snap(g, moves, rows.white, rows.black, pos, rows.ratings)
