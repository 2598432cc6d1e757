"""A player who leaves a running event, and what it does to the others' scores (ICCF's rule
by default, settable per event). A part of ``TournamentOps``.

- ``tournament withdraw ID`` (the player; before the start it is ``leave``) and ``tournament
  remove ID PLAYER`` (a director) withdraw the player: they are paired no more, and their
  games still going end (lost by them, "withdrawal").
- The event's rule (``withdrawal``): ``iccf`` (the default) — in a round robin, a player who
  finished fewer than half their games has every result cancelled, played or not, and is
  gone from the table; otherwise their played results stand and their unplayed games are
  lost by them (forfeits, "+/-"); in a Swiss the unplayed games are always forfeits.
  ``keep``: the played results always stand; ``cancel``: a round robin always cancels.
- A game lost on time is a loss (as any game's); ``timeouts`` of them in one event (3 by
  default, 0: never) withdraw the player, by the same rule, after the commit that made the
  last one (the sweep catches what a crash in between left).
- While the event is starting (its games, or its round's, still being made in batches:
  batches.py) a withdrawal is refused with a word to try again in a minute, and timeouts
  wait for the next sweep: a player withdrawn then would be given the games made after.
"""

from __future__ import annotations

from language.text import T

from ..domain.errors import NotFound
from ..domain.kinds import GameStatus, Outcome, Side
from ..store import Tx
from .counting import CANCELLED, WHITE_POINTS, counted_results
from .director_tables import DirectorTables
from .errors import TournamentError
from .tables import FINISHED, OPEN, PAUSED, ROUND_ROBIN, RUNNING, TournamentRow, TournamentTables
from .views import TournamentView

RULES = "the rules"  # who decided a result no person decided


class WithdrawalOps:
    """Withdrawals, in ``GameService`` (``store``, ``_command``, ``_finish``, ``_now``,
    ``_after_commit``, ``advance_tournament``, ``tournament``, ``_director_write``)."""

    async def withdraw_from_tournament(self, tournament_id: int, player_id: int) -> TournamentView:
        """The player leaves the event: before its start as ``leave``; after, by its rule."""
        now = self._now()
        async with self._command(player_id):
            async with self.store.write() as tx:
                tables = TournamentTables(tx)
                t = await tables.get(tournament_id)
                if t is None:
                    raise NotFound(T("there is no tournament #{id}", id=tournament_id))
                player = await tx.player(player_id)
                if t.status == OPEN:
                    if not await tables.leave(t.id, player_id):
                        raise TournamentError(T("you are not in {name} (#{id})", name=t.name, id=t.id))
                else:
                    await self._withdraw(tx, tables, t, player_id, f"{player.name} withdrew", None,
                                         player.name, now)
        await self._after_commit()
        await self.advance_tournament(tournament_id)
        return await self.tournament(tournament_id)

    async def remove_from_tournament(self, tournament_id: int, player_id: int, by: int | None = None, *,
                                     manager_of: str | None = None) -> TournamentView:
        """A director takes a player out: before the start, as if they left; after, by the
        event's rule."""
        now = self._now()
        async with self._director_write(tournament_id, by, manager_of) as (tx, tables, t, name):
            if t.status == OPEN:
                if not await tables.leave(t.id, player_id):
                    raise TournamentError(T("player #{player} is not playing in {name} (#{id})", player=player_id,
                                              name=t.name, id=t.id))
            else:
                await self._withdraw(tx, tables, t, player_id, f"taken out by {name}", by, name, now)
        await self._after_commit()
        await self.advance_tournament(tournament_id)
        return await self.tournament(tournament_id)

    async def _withdraw(self, tx: Tx, tables: TournamentTables, t: TournamentRow, player_id: int,
                        reason: str, director_id: int | None, decided_by: str, now: int) -> bool:
        """Withdraw the player from the running event ``t`` by its rule; True if their
        results were cancelled."""
        entrant = await tables.entrant(t.id, player_id)
        if entrant is None or entrant.withdrawn_at is not None:
            raise TournamentError(T("player #{player} is not playing in {name} (#{id})", player=player_id,
                                              name=t.name, id=t.id))
        if t.status == FINISHED:
            raise TournamentError(T("{name} (#{id}) is over", name=t.name, id=t.id))
        await self._refuse_while_starting(tables, t, T("a withdrawal"))
        directing = DirectorTables(tx)
        policy = await directing.policy(t.id)
        theirs = [p for p in await tables.pairings(t.id)
                  if p.game_id is not None and player_id in (p.white_id, p.black_id)]
        counted = await counted_results(tx, t.id, theirs)
        played = sum(1 for p in theirs if counted.get(p.game_id) in WHITE_POINTS)
        cancel = t.format == ROUND_ROBIN and (
            policy.withdrawal == "cancel" or (policy.withdrawal == "iccf" and 2 * played < len(theirs)))
        await tables.withdraw(t.id, player_id, now)
        await directing.record_withdrawal(t.id, player_id, cancel, reason, now)
        for p in theirs:
            side = Side.WHITE if p.white_id == player_id else Side.BLACK
            if p.status == GameStatus.ACTIVE:
                g = await tx.game(p.game_id)
                if await tx.bump_version(g.id, g.version):
                    await self._finish(tx, g, Outcome.loss(side, "withdrawal"), now)
                if not cancel:  # an unplayed game: lost by forfeit
                    await directing.decide(t.id, p.game_id, "-/+" if side == Side.WHITE else "+/-", reason,
                                           director_id, decided_by, now)
            if cancel:
                await directing.decide(t.id, p.game_id, CANCELLED, reason, director_id, decided_by, now)
        return cancel

    async def _enforce_timeouts(self, tournament_id: int) -> int:
        """Withdraw the event's players who lost as many games on time as its rule allows;
        how many were."""
        now = self._now()
        async with self.store.read() as tx:
            t = await TournamentTables(tx).get(tournament_id)
            if t is None or t.status not in (RUNNING, PAUSED):
                return 0
            limit = (await DirectorTables(tx).policy(t.id)).timeouts
            if not limit or not await DirectorTables(tx).timed_out(t.id, limit):
                return 0
        n = 0
        async with self.store.write() as tx:
            tables = TournamentTables(tx)
            t = await tables.get(tournament_id)
            # while games are still being made the sweep comes back (batches.py): it withdraws then
            if t.status in (RUNNING, PAUSED) and not await tables.count_games_to_make(t.id):
                for player_id in await DirectorTables(tx).timed_out(t.id, limit):
                    await self._withdraw(tx, tables, t, player_id, f"{limit} games lost on time", None,
                                         RULES, now)
                    n += 1
        if n:
            await self._after_commit()
        return n
