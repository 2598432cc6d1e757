"""Reading games: a game as it stands, its position, its record, a player's list of
games, and whether anyone may follow its page by its plain link.
"""

from __future__ import annotations

import rules
from language.text import T

from ..delivery.events import ref
from ..domain.errors import NotFound
from ..domain.kinds import GameStatus, Side
from ..store import GameRow, PlayerRow
from ..timekeeping.clock import from_ts
from .offers import DRAW, TAKEBACK
from .ratings import header_ratings
from .record import game_pgn
from .results import GameSummary, GameView, MoveRecord
from .snapshots import Snap


class GameReading:
    """The service's reading of games (mixed into ``GameService``)."""

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
                raise NotFound(T("there is no game #{id}", id=game_id))
            await tx.set_public(game_id, public)
        self._tell_listeners()  # open pages of a link just closed stop following the game

    async def position(self, game_id: int):
        """The game's current rules ``Position``, its history included (``last_move`` is
        set): what an adapter draws or lists moves from. The replay is cached."""
        return (await self._snapshot(game_id)).pos

    async def last_finished_games(self, player_id: int, limit: int) -> list[tuple[GameRow, str, str]]:
        """The player's last ``limit`` games that are over, newest first, with the white and
        black players' names: bounded, where list_games(include_finished=True) reads them all."""
        async with self.store.read() as tx:
            return await tx.last_finished_games(player_id, limit)

    async def list_games(self, player_id: int, *, include_finished: bool = False) -> list[GameSummary]:
        """The player's games: those where it is their move first, least time left first."""
        now = self._now()
        out = []
        async with self.store.read() as tx:
            me = await tx.player(player_id)
            if me is None:
                raise NotFound(T("there is no player #{id}", id=player_id))
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

    async def next_game(self, player_id: int) -> GameSummary | None:
        """The player's most urgent game where it is their move (the earliest deadline,
        vacations counted in; unclocked games last), or None."""
        return next((s for s in await self.list_games(player_id) if s.my_move), None)

    async def record(self, game_id: int) -> str:
        """The game as PGN (``record.game_pgn``): tags, then the moves in SAN."""
        view = await self.game(game_id)
        return game_pgn(view, rules.from_fen(view.game, view.start_vfen))

    def _view(self, snap: Snap, now: int) -> GameView:
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
