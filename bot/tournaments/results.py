"""A director's tools on a running event's games. A part of ``TournamentOps``.

- ``tournament result ID GAME 1-0|0-1|1/2-1/2|+/-|-/+ REASON``: the game's result for the
  event (an adjudication, or a forfeit), recorded with the director's name and the reason
  and shown with them; a game still going ends with it ("adjudication", "forfeit"). A
  later decision replaces an earlier one; a finished event's standings are final.
- ``tournament replace ID OLD NEW``: NEW takes OLD's place (their games, their pairings)
  while OLD has made no move in the event; the turn of a game NEW is to move in starts
  afresh, and NEW is told of their games. Refused while the event is starting (its games
  still being made: batches.py), as a withdrawal is.
- ``tournament extend ID GAME DAYS``: the game's player to move has DAYS more (a paused
  event's game: more time kept for its resumption).
- ``tournament close ID``: an open event is called off; a running one ends now, once every
  game in it is over or decided, with its final standings.
"""

from __future__ import annotations

from language.text import T, Tn

from ..delivery import events as ev
from ..delivery.events import ref
from ..domain.errors import NotFound
from ..domain.kinds import GameStatus, Outcome, Side
from ..timekeeping.clock import DAY, from_ts
from .director_tables import DirectorTables
from .errors import TournamentError
from .tables import FINISHED, OPEN, PAUSED, RUNNING, TournamentTables
from .views import TournamentView

RESULTS = ("1-0", "0-1", "1/2-1/2", "+/-", "-/+")
# how a game still going ends when a director decides it
_OUTCOMES = {"1-0": ("1-0", "adjudication"), "0-1": ("0-1", "adjudication"),
             "1/2-1/2": ("1/2-1/2", "adjudication"), "+/-": ("1-0", "forfeit"), "-/+": ("0-1", "forfeit")}
MAX_REASON = 200
MAX_EXTEND_DAYS = 60


class ResultOps:
    """A director's results, replacements and extensions, in ``GameService``."""

    async def set_tournament_result(self, tournament_id: int, game_id: int, result: str, reason: str,
                                    by: int | None = None, *, manager_of: str | None = None) -> TournamentView:
        if result not in RESULTS:
            raise TournamentError(T("a result is 1-0, 0-1, 1/2-1/2, +/- or -/+ (a forfeit), not {value}",
                                    value=repr(result)))
        reason = " ".join(str(reason or "").split())
        if not reason:
            raise TournamentError(T("say why: a decided result is shown with its reason"))
        if len(reason) > MAX_REASON:
            raise TournamentError(T("the reason is too long ({n} characters; at most {most})",
                                    n=len(reason), most=MAX_REASON))
        self._check_text(reason, T("a result's reason"))
        now = self._now()
        async with self._director_write(tournament_id, by, manager_of) as (tx, tables, t, name):
            self._check_running(t)
            g = await self._game_of_event(tx, tables, t, game_id)
            if g.status == GameStatus.ACTIVE and await tx.bump_version(g.id, g.version):
                await self._finish(tx, g, Outcome(*_OUTCOMES[result]), now)
            await DirectorTables(tx).decide(t.id, g.id, result, reason, by, name, now)
            found = await tables.round_of_game(g.id)
            await self._news(tx, t, "decided", found[1], now, game_id=g.id)  # where the event's news go
        await self._after_commit()
        await self.advance_tournament(tournament_id)
        return await self.tournament(tournament_id)

    async def replace_in_tournament(self, tournament_id: int, old_id: int, new_id: int, by: int | None = None,
                                    *, manager_of: str | None = None) -> TournamentView:
        now = self._now()
        async with self._director_write(tournament_id, by, manager_of) as (tx, tables, t, name):
            if t.status == FINISHED:
                raise TournamentError(T("{name} (#{id}) is over", name=t.name, id=t.id))
            old, new = await tx.player(old_id), await tx.player(new_id)
            if old is None or new is None:
                raise NotFound(T("there is no player #{id}", id=old_id if old is None else new_id))
            entrant = await tables.entrant(t.id, old_id)
            if entrant is None or entrant.withdrawn_at is not None:
                raise TournamentError(T("{player} is not playing in {name} (#{id})",
                                        player=old.name, name=t.name, id=t.id))
            if await tables.entrant(t.id, new_id) is not None:
                raise TournamentError(T("{player} is in {name} (#{id}) already", player=new.name, name=t.name, id=t.id))
            await self._refuse_while_starting(tables, t, T("a replacement"))
            theirs = [p for p in await tables.pairings(t.id) if old_id in (p.white_id, p.black_id)]
            for p in theirs:
                if p.game_id is None:
                    continue
                g = await tx.game(p.game_id)
                moves_made = (g.ply + 1) // 2 if old_id == g.white_id else g.ply // 2
                if moves_made or g.status != GameStatus.ACTIVE:
                    raise TournamentError(T("{player} has played in game #{game} already: a player is replaced only "
                                            "before their first move (take them out with tournament remove instead)",
                                            player=old.name, game=g.id))
            await tx.execute("UPDATE tournament_entrants SET player_id = ? WHERE tournament_id = ? AND "
                             "player_id = ?", (new_id, t.id, old_id))
            await tx.execute("UPDATE tournament_pairings SET white_id = ? WHERE tournament_id = ? AND "
                             "white_id = ?", (new_id, t.id, old_id))
            await tx.execute("UPDATE tournament_pairings SET black_id = ? WHERE tournament_id = ? AND "
                             "black_id = ?", (new_id, t.id, old_id))
            for p in theirs:
                if p.game_id is None:
                    continue
                g = await tx.game(p.game_id)
                colour = "white_id" if g.white_id == old_id else "black_id"
                await tx.execute(f"UPDATE games SET {colour} = ? WHERE id = ?", (new_id, g.id))
                await tx.bump_version(g.id, g.version)
                g = await tx.game(g.id)
                deadline = g.deadline
                if g.to_move_id == old_id:  # a new turn, NEW's, with its full time (OLD's reminders go)
                    deadline = await self._start_turn(tx, g, g.to_move, g.turn_no + 1, now, told=True)
                white, black = ref(await tx.player(g.white_id)), ref(await tx.player(g.black_id))
                mine = (g.to_move == Side.WHITE) == (colour == "white_id")
                event = ev.GameStarted(game_id=g.id, game=g.game, white=white, black=black, days=g.days,
                                       challenge_id=None, rated=bool(g.rated), your_move=mine,
                                       deadline=from_ts(deadline) if mine and deadline else None,
                                       tournament_id=t.id, tournament_name=t.name, tournament_round=p.round)
                await self._emit(tx, event, new_id, now, game_id=g.id)
            await tables.bump(t.id)  # the page names the new player
        await self._after_commit()
        return await self.tournament(tournament_id)

    async def extend_tournament_game(self, tournament_id: int, game_id: int, days: int, by: int | None = None,
                                     *, manager_of: str | None = None) -> TournamentView:
        if not isinstance(days, int) or not 1 <= days <= MAX_EXTEND_DAYS:
            raise TournamentError(T("a game is extended by 1 to {most} days, not {value}",
                                    most=MAX_EXTEND_DAYS, value=repr(days)))
        async with self._director_write(tournament_id, by, manager_of) as (tx, tables, t, name):
            self._check_running(t)
            g = await self._game_of_event(tx, tables, t, game_id)
            if g.status != GameStatus.ACTIVE:
                raise TournamentError(T("game #{game} is over", game=g.id))
            kept = await tx.fetch_one("SELECT time_left FROM tournament_pairings WHERE game_id = ?", (g.id,))
            if kept is not None and kept[0] is not None:  # a paused event's: the time kept grows
                await tables.set_time_left(g.id, kept[0] + days * DAY)
            elif g.deadline is not None:
                await tx.bump_version(g.id, g.version)
                await tx.set_deadline(g.id, g.deadline + days * DAY)
            else:
                raise TournamentError(T("game #{game} has no clock to extend", game=g.id))
            await tables.bump(t.id)  # the page counts the game's time left
        await self._after_commit()
        return await self.tournament(tournament_id)

    async def close_tournament(self, tournament_id: int, by: int | None = None, *,
                               manager_of: str | None = None) -> TournamentView:
        now = self._now()
        async with self._director_write(tournament_id, by, manager_of) as (tx, tables, t, name):
            if t.status == FINISHED:
                raise TournamentError(T("{name} (#{id}) is over already", name=t.name, id=t.id))
            if t.status != OPEN:
                going = await tables.games_going(t.id)
                if going:
                    raise TournamentError(Tn("{name} (#{id}) has {n} game still going: decide it first (tournament "
                                             "result)",
                                             "{name} (#{id}) has {n} games still going: decide them first "
                                             "(tournament result)", going, name=t.name, id=t.id))
            if not await tables.move_on(t.id, status=FINISHED, expected_status=t.status, expected_round=t.round,
                                        round=t.round, round_deadline=None, ended_at=now):
                raise TournamentError(T("{name} (#{id}) changed meanwhile: try again", name=t.name, id=t.id))
            if t.status != OPEN:
                await self._tell_the_end(tx, tables, await tables.get(t.id), now)
        await self._after_commit()
        return await self.tournament(tournament_id)

    @staticmethod
    def _check_running(t) -> None:
        if t.status not in (RUNNING, PAUSED):
            if t.status == OPEN:
                raise TournamentError(T("{name} (#{id}) has not begun", name=t.name, id=t.id))
            raise TournamentError(T("{name} (#{id}) is over: its standings are final", name=t.name, id=t.id))

    @staticmethod
    async def _game_of_event(tx, tables: TournamentTables, t, game_id: int):
        if await tables.of_game(game_id) != t.id:
            raise NotFound(T("game #{game} is not one of {name}'s (#{id})", game=game_id, name=t.name, id=t.id))
        return await tx.game(game_id)
