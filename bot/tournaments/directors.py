"""Who runs an event: its directors, and who sees it. A part of ``TournamentOps``.

- Each event has directors: its maker (at first), and whoever the server owner (the command
  line) or the maker names (``tournament director ID add|remove PLAYER``). The owner made
  the events made at the command line; no one else directs those unless named.
- An act on the event (start, pause, resume, remove a player, result, replace, extend,
  close) is a director's or the owner's; on a Discord server, a member who may manage that
  server (Manage Server) acts on the events made on that server too, and only those: an
  event made at the command line or in a DM is never a server manager's.
- Making events has a budget: at most ``tournaments_per_hour`` an hour by one maker (20 at
  most) and ``tournaments_total_per_hour`` in all; the owner's command line has none.
- Lists: the owner's events are listed to everyone, a server's on that server, and any
  event to its directors and players; an event made in a DM is listed to no one else.
"""

from __future__ import annotations

import contextlib

from language.text import T, Text, Tn

from ..domain.errors import NotFound
from ..store import Tx
from ..timekeeping.clock import HOUR
from .director_tables import DirectorTables
from .errors import TournamentError
from .tables import TournamentRow, TournamentTables
from .views import tournament_view

OWNER = "the server owner"
MAX_PER_HOUR = 20  # a maker's events an hour, at most (the setting may only lower it)


def may_see(t, player_id: int | None, scope: str | None) -> bool:
    """Whether ``player_id``, typing in ``scope`` (a Discord server; None elsewhere), sees
    event ``t`` (a ``TournamentView``) when they name it by its number: a server's event
    on that server or by its players and directors; any other anywhere."""
    if player_id is None or t.scope is None or t.scope == scope:
        return True
    return any(p.id == player_id for p in (*t.entrants, *t.directors))


class DirectorOps:
    """Directors and budgets, in ``GameService`` (``store``, ``settings``, ``_now``)."""

    @contextlib.asynccontextmanager
    async def _director_write(self, tournament_id: int, by: int | None, manager_of: str | None):
        """A write transaction on the event, refused unless ``by`` may act on it: yields the
        transaction, the tables, the event and the name the act is recorded under."""
        async with self.store.write() as tx:
            tables = TournamentTables(tx)
            t = await tables.get(tournament_id)
            if t is None:
                raise NotFound(T("there is no tournament #{id}", id=tournament_id))
            name = await self._director_name(tx, t, by, manager_of)
            yield tx, tables, t, name

    async def _director_name(self, tx: Tx, t: TournamentRow, by: int | None,
                             manager_of: str | None) -> str:
        """The name a director's act is recorded under; TournamentError if ``by`` (None:
        the owner) may not act on ``t``. ``manager_of``: the Discord server (scope) the one
        acting may manage, as their adapter says."""
        if by is None:
            return OWNER
        player = await tx.player(by)
        if await DirectorTables(tx).is_director(t.id, by) or (
                manager_of is not None and t.scope is not None and manager_of == t.scope):
            return player.name if player is not None else f"player #{by}"
        if t.scope is not None:
            raise TournamentError(T("only the organiser of {name} (#{id}) can do that: one of its directors, "
                                    "a manager of the server it was made on or the server owner", name=t.name, id=t.id))
        raise TournamentError(T("only the organiser of {name} (#{id}) can do that: one of its directors or the "
                                "server owner", name=t.name, id=t.id))

    @staticmethod
    async def _refuse_while_starting(tables: TournamentTables, t: TournamentRow, what: Text) -> None:
        """TournamentError while the event's games (of its start or its round) are still being
        made in batches (batches.py): a withdrawal or a replacement then would miss the
        games not made yet. The start finishes in moments (or at the next sweep)."""
        if await tables.count_games_to_make(t.id):
            raise TournamentError(T("{name} (#{id}) is starting: its games are still being made, so {what} must "
                                    "wait. Try again in a minute", name=t.name, id=t.id, what=what))

    async def add_tournament_director(self, tournament_id: int, player_id: int, by: int | None = None):
        """Name ``player_id`` a director (by the owner, None, or the event's maker)."""
        return await self._change_directors(tournament_id, player_id, by, add=True)

    async def remove_tournament_director(self, tournament_id: int, player_id: int, by: int | None = None):
        return await self._change_directors(tournament_id, player_id, by, add=False)

    async def _change_directors(self, tournament_id: int, player_id: int, by: int | None, *, add: bool):
        now = self._now()
        async with self.store.write() as tx:
            tables = TournamentTables(tx)
            t = await tables.get(tournament_id)
            if t is None:
                raise NotFound(T("there is no tournament #{id}", id=tournament_id))
            directors = DirectorTables(tx)
            if by is not None and (by != t.creator_id or not await directors.is_director(t.id, by)):
                raise TournamentError(T("only the server owner and the maker of {name} (#{id}) name its directors",
                                        name=t.name, id=t.id))
            player = await tx.player(player_id)
            if player is None:
                raise NotFound(T("there is no player #{id}", id=player_id))
            if add:
                if not await directors.add_director(t.id, player_id, now):
                    raise TournamentError(T("{player} directs {name} (#{id}) already", player=player.name,
                                            name=t.name, id=t.id))
            else:
                if by is not None and player_id == by:
                    raise TournamentError(T("the maker of an event stays its director (only the server owner can "
                                            "take that away)"))
                if not await directors.remove_director(t.id, player_id):
                    raise TournamentError(T("{player} is not a director of {name} (#{id})", player=player.name,
                                            name=t.name, id=t.id))
        await self._after_commit()
        return await self.tournament(tournament_id)

    async def _check_creation_budget(self, tx: Tx, creator_id: int | None, now: int) -> None:
        """TournamentError saying when the next is allowed if the maker's, or everyone's,
        events of the last hour are as many as the settings allow."""
        if creator_id is None:
            return  # the owner's command line
        since = now - HOUR + 1
        tables = DirectorTables(tx)
        mine = min(MAX_PER_HOUR, self.settings.tournaments_per_hour)
        if await tables.made_since(since, creator_id) >= mine:
            oldest = await tables.oldest_since(since, creator_id)
            minutes = max(1, -(-(oldest + HOUR - now) // 60))
            raise TournamentError(Tn("you have made {most} tournaments in the last hour, the most allowed: try "
                                     "again in {n} minute",
                                     "you have made {most} tournaments in the last hour, the most allowed: try "
                                     "again in {n} minutes", minutes, most=mine))
        total = self.settings.tournaments_total_per_hour
        if await tables.made_since(since) >= total:
            oldest = await tables.oldest_since(since)
            minutes = max(1, -(-(oldest + HOUR - now) // 60))
            raise TournamentError(Tn("{total} tournaments have been made here in the last hour, the most allowed: "
                                     "try again in {n} minute",
                                     "{total} tournaments have been made here in the last hour, the most allowed: "
                                     "try again in {n} minutes", minutes, total=total))

    async def listed_tournaments(self, player_id: int | None, scope: str | None = None, *,
                                 include_finished: bool = True):
        """The events listed to ``player_id`` typing in ``scope`` (see the module's doc),
        each read once: events others made elsewhere are never read at all."""
        async with self.store.read() as tx:
            tables = TournamentTables(tx)
            ids = await DirectorTables(tx).listed_ids(player_id, scope)
            out = []
            for tid in ids:
                t = await tables.get(tid)
                if include_finished or t.status != "finished":
                    out.append(await tournament_view(tx, tables, t, self._now()))
            return out
