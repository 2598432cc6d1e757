"""Tournaments in the game service: ``TournamentOps``, a part of ``GameService`` (as
``ChallengeLife`` is), and the sweep's share of them.

- Made by anyone (``creator_id``; None for the server owner's command line; a budget an
  hour), joined and left while open, started by a director: its maker or one named, or a
  manager of the Discord server it was made on (the adapter says which server the one
  acting manages: ``manager_of``); the owner's command line always may (directors.py).
  At its start time the sweep starts it (if two have joined).
- A round robin makes every game at once (Berger tables; once or twice, colours swapped).
  A Swiss pairs its first round at the start, and each next round when the last game of
  the round before ends (the service's ``_finish`` hook) or at the round's deadline
  (``round_days`` after it began; the games still going then go on, their results counting
  when they come).
- Starting an event, and pairing a round, is each one write transaction whose first step
  is a conditional update of the event's row (its status and round as read): a second
  process, or a retry after a crash, finds it done and does nothing; the pairings' unique
  keys are the backstop. Games are made by the service's ``_create_game`` (clocks,
  reminders, ratings and notices as any game's).
- A director may pause (no new round starts; clocks stop) and resume; a player who
  leaves, or whom a director removes, is withdrawn by the event's rule (withdrawals.py); a
  director decides results, replaces a player, extends a game and closes the event
  (results.py).
- When every game is over, every player is told the final standings
  (``TournamentOver``).

What the operations return (``TournamentView``: standings, pairings) is read in views.py.
"""

from __future__ import annotations

import logging
from datetime import datetime

import rules
from language.text import T, Text, known

from ..config import ConfigError, parse_days
from ..delivery import events as ev
from ..domain.errors import AbortError, NotFound
from ..domain.kinds import GameStatus, Outcome
from ..operations.ratings import rating_now
from ..store import Tx
from ..timekeeping.clock import DAY, effective_deadline, from_ts
from ..words.text import game_name
from . import batches, deadlines, pairing, planning
from .director_tables import WITHDRAWAL_RULES, DirectorTables, Policy
from .directors import DirectorOps
from .errors import TournamentError
from .results import ResultOps
from .tables import (
    FINISHED,
    FORMATS,
    OPEN,
    PAUSED,
    ROUND_ROBIN,
    RUNNING,
    SWISS,
    PairingRow,
    TournamentRow,
    TournamentTables,
)
from .views import PairingView, StandingView, TournamentView, tournament_view
from .withdrawals import WithdrawalOps

log = logging.getLogger(__name__)

SWISS_BYE_POINTS = 1.0
MAX_NAME = 80
MAX_PLAYERS = 1000


def tournament_fields(tournament: tuple | None) -> dict:
    """A tournament game's ``GameStarted`` fields from its (id, name, round), and the
    round's deadline (a timestamp) if it has one."""
    if tournament is None:
        return {}
    tid, name, number, *deadline = tournament
    fields = {"tournament_id": tid, "tournament_name": name, "tournament_round": number}
    if deadline and deadline[0] is not None:
        fields["tournament_deadline"] = from_ts(deadline[0])
    return fields




#: an event's state, in a refusal
_STATUS_WORDS = {"open": T("open for entries"), "running": T("under way"), "paused": T("paused"),
                 "finished": T("over")}


def _check_rating(value, what: Text) -> float | None:
    if value is None:
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise TournamentError(T("the {what} must be a number, not {value}", what=what, value=repr(value))) from None
    if not 0 <= number <= 4000:
        raise TournamentError(T("the {what} must be between 0 and 4000, not {value}", what=what, value=value))
    return number


class TournamentOps(DirectorOps, WithdrawalOps, ResultOps):
    """The tournament operations of ``GameService`` (which provides ``store``, ``settings``,
    ``_command``, ``_create_game``, ``_finish``, ``_emit``, ``_after_commit``)."""

    # -------------------------------------------------------------- making and joining

    async def create_tournament(self, game: str, *, name: str, format: str, rounds: int | None = None,
                                days=None, double: bool = False, rated: bool = False,
                                starts_at: datetime | None = None, max_players: int | None = None,
                                min_rating: float | None = None, max_rating: float | None = None,
                                round_days: int | None = None, creator_id: int | None = None,
                                scope: str | None = None, withdrawal: str = "iccf",
                                timeouts: int = 3, adjudicate: bool = False) -> TournamentView:
        """A new tournament, open for entries. ``format``: 'round-robin' or 'swiss' (a Swiss
        needs ``rounds``; a round robin's rounds follow from its players); ``days`` per
        move (default the bot's); ``double``: a round robin played twice, colours swapped;
        ``withdrawal``: the rule for a player who leaves (withdrawals.py: iccf, keep, cancel);
        ``timeouts``: games lost on time that withdraw a player (0: never); ``adjudicate``: a
        Swiss with ``round_days`` has its games still going at a round's deadline adjudicated
        by the engine (deadlines.py). Its maker is its first director; a maker's events have
        a budget an hour (directors.py)."""
        now = self._now()
        if game not in rules.variants():
            raise TournamentError(T("there is no game {value}; the games are: {games}",
                                    value=repr(game), games=', '.join(rules.variants())))
        name = " ".join(str(name or "").split())
        if not name:
            raise TournamentError(T("a tournament needs a name"))
        if len(name) > MAX_NAME:
            raise TournamentError(T("the name is too long ({n} characters; at most {most})",
                                    n=len(name), most=MAX_NAME))
        self._check_text(name, T("a tournament's name"))
        if format not in FORMATS:
            raise TournamentError(T("the format is 'round-robin' or 'swiss', not {value}", value=repr(format)))
        if format == SWISS:
            if double:
                raise TournamentError(T("only a round robin is played double"))
            if rounds is None:
                raise TournamentError(T("a Swiss needs its number of rounds (--rounds N)"))
        if rounds is not None and (not isinstance(rounds, int) or not 1 <= rounds <= 50):
            raise TournamentError(T("the rounds must be a whole number from 1 to 50, not {value}", value=repr(rounds)))
        if format == ROUND_ROBIN and rounds is not None:
            raise TournamentError(T("a round robin's rounds follow from its players: leave --rounds out"))
        try:
            days = self.settings.default_days if days is None else parse_days(days)
        except ConfigError as e:
            raise TournamentError(str(e)) from None
        if max_players is not None and (not isinstance(max_players, int) or not 2 <= max_players <= MAX_PLAYERS):
            raise TournamentError(T("the size limit must be from 2 to {most} players, not {value}",
                                    most=MAX_PLAYERS, value=repr(max_players)))
        cap = self.settings.round_robin_max_players
        if format == ROUND_ROBIN and max_players is not None and max_players > cap:
            raise TournamentError(T("a round robin takes at most {most} players on this server, not {value}",
                                    most=cap, value=max_players))
        min_rating = _check_rating(min_rating, T("lowest rating"))
        max_rating = _check_rating(max_rating, T("highest rating"))
        if min_rating is not None and max_rating is not None and min_rating > max_rating:
            raise TournamentError(T("the lowest rating is above the highest"))
        if round_days is not None and (not isinstance(round_days, int) or not 1 <= round_days <= 365):
            raise TournamentError(T("a round's days must be from 1 to 365, not {value}", value=repr(round_days)))
        if withdrawal not in WITHDRAWAL_RULES:
            raise TournamentError(T("the withdrawal rule is {rules}, not {value}",
                                    rules=', '.join(WITHDRAWAL_RULES), value=repr(withdrawal)))
        if not isinstance(timeouts, int) or not 0 <= timeouts <= 50:
            raise TournamentError(T("the timeouts that withdraw a player are 0 (never) to 50, not {value}",
                                    value=repr(timeouts)))
        if adjudicate and (format != SWISS or round_days is None):
            raise TournamentError(T("adjudication at a round's deadline is for a Swiss with a deadline (its round "
                                    "days: {option}, or {discord} on Discord)", option="--round-days N",
                                    discord="round_days"))
        start = None if starts_at is None else self._ts(starts_at)
        async with self.store.write() as tx:
            if creator_id is not None and await tx.player(creator_id) is None:
                raise NotFound(T("there is no player #{id}", id=creator_id))
            await self._check_creation_budget(tx, creator_id, now)
            tid = await TournamentTables(tx).insert(
                name=name, game=game, format=format, rounds=rounds or 1, days=days,
                cycles=2 if double else 1, rated=int(bool(rated)), starts_at=start,
                max_players=max_players, min_rating=min_rating, max_rating=max_rating,
                round_days=round_days, creator_id=creator_id, scope=scope, created_at=now,
                adjudicate=int(bool(adjudicate)))
            await DirectorTables(tx).set_policy(tid, Policy(withdrawal, timeouts))
            if creator_id is not None:
                await DirectorTables(tx).add_director(tid, creator_id, now)
        await self._after_commit()
        return await self.tournament(tid)

    async def join_tournament(self, tournament_id: int, player_id: int) -> TournamentView:
        async with self._command(player_id) as cmd:
            async with self.store.write() as tx:
                tables = TournamentTables(tx)
                t = await self._tournament_row(tables, tournament_id)
                player = await tx.player(player_id)
                if player is None:
                    raise NotFound(T("there is no player #{id}", id=player_id))
                if t.status != OPEN:
                    raise TournamentError(T("{name} (#{id}) has begun: it takes no more players", name=t.name, id=t.id))
                if await tables.entrant(t.id, player_id) is not None:
                    raise TournamentError(T("you are in {name} (#{id}) already", name=t.name, id=t.id))
                limit = self._size_limit(t)
                if limit is not None and await tables.count(t.id) >= limit:
                    raise TournamentError(T("{name} (#{id}) is full ({limit} players)",
                                            name=t.name, id=t.id, limit=limit))
                if t.min_rating is not None or t.max_rating is not None:
                    rating = rating_now(await tx.rating(player_id, t.game), cmd.now).rating
                    if t.min_rating is not None and rating < t.min_rating:
                        raise TournamentError(T("{name} is for players rated {rating_limit} or more at {game}; you are "
                                                "{rating}",
                                                name=t.name, rating_limit=format(t.min_rating, ".0f"),
                                                game=known(game_name(t.game)), rating=format(rating, ".0f")))
                    if t.max_rating is not None and rating > t.max_rating:
                        raise TournamentError(T("{name} is for players rated {rating_limit} or less at {game}; you are "
                                                "{rating}",
                                                name=t.name, rating_limit=format(t.max_rating, ".0f"),
                                                game=known(game_name(t.game)), rating=format(rating, ".0f")))
                await tables.join(t.id, player_id, cmd.now)
        return await self.tournament(tournament_id)

    async def leave_tournament(self, tournament_id: int, player_id: int) -> TournamentView:
        async with self._command(player_id):
            async with self.store.write() as tx:
                tables = TournamentTables(tx)
                t = await self._tournament_row(tables, tournament_id)
                if t.status != OPEN:
                    raise TournamentError(T("{name} (#{id}) has begun: to leave it now, tournament withdraw {id} (your "
                                            "games still going are lost)", name=t.name, id=t.id))
                if not await tables.leave(t.id, player_id):
                    raise TournamentError(T("you are not in {name} (#{id})", name=t.name, id=t.id))
        return await self.tournament(tournament_id)

    # -------------------------------------------------------------- the organiser's acts

    async def start_tournament(self, tournament_id: int, by: int | None = None, *,
                               manager_of: str | None = None) -> TournamentView:
        """Start it now (``by``: a director; None: the owner's command line; ``manager_of``:
        the Discord server the one acting manages, which lets them act on that server's events)."""
        now = self._now()
        plan = await planning.plan(self.store, tournament_id, now)  # a Swiss's first round, off the loop
        async with self._director_write(tournament_id, by, manager_of) as (tx, tables, t, _):
            # a start cut short (a crash between its batches) is finished by the command again
            resuming = t.status != OPEN and await tables.count_games_to_make(t.id) > 0
            if t.status != OPEN and not resuming:
                raise TournamentError(T("{name} (#{id}) has begun already", name=t.name, id=t.id))
            if not resuming:
                await self._begin(tx, tables, t, now, plan)
        await self._after_commit()
        await batches.make_games(self, tournament_id)
        return await self.tournament(tournament_id)

    async def pause_tournament(self, tournament_id: int, by: int | None = None, *,
                               manager_of: str | None = None) -> TournamentView:
        """No new round starts until it is resumed, and its games' clocks stop: moves may
        still be played, but no time runs, no warning comes and no one loses on time."""
        now = self._now()
        async with self._director_write(tournament_id, by, manager_of) as (tx, tables, t, _):
            if t.status != RUNNING:
                raise TournamentError(T("{name} (#{id}) is not running (it is {status})",
                                        name=t.name, id=t.id, status=_STATUS_WORDS[t.status]))
            await tables.set_status(t.id, PAUSED, RUNNING, t.round_deadline)
            await self._stop_clocks(tx, tables, t, now)
        await self._after_commit()
        return await self.tournament(tournament_id)

    async def resume_tournament(self, tournament_id: int, by: int | None = None, *,
                                manager_of: str | None = None) -> TournamentView:
        now = self._now()
        async with self._director_write(tournament_id, by, manager_of) as (tx, tables, t, _):
            if t.status != PAUSED:
                raise TournamentError(T("{name} (#{id}) is not paused (it is {status})",
                                        name=t.name, id=t.id, status=_STATUS_WORDS[t.status]))
            # a round's deadline that passed meanwhile gives the round its full time again
            deadline = t.round_deadline
            if deadline is not None and deadline <= now and t.round_days:
                deadline = now + t.round_days * DAY
            await tables.set_status(t.id, RUNNING, PAUSED, deadline)
            await self._restart_clocks(tx, tables, t, now)
        await self._after_commit()
        await self.advance_tournament(tournament_id)
        return await self.tournament(tournament_id)

    # -------------------------------------------------------------- stopped clocks

    async def _stop_clocks(self, tx: Tx, tables: TournamentTables, t: TournamentRow, now: int) -> None:
        """Each game's deadline put away as the time its player to move has left (their
        vacation so far counted in); a game whose time ran out before the pause is lost on
        time, as the sweep would have had it. Each game's version moves on, so a move
        read before the pause is refused (GameChanged) rather than restarting a clock."""
        for p in await tables.pairings(t.id):
            if p.game_id is None or p.status != GameStatus.ACTIVE:
                continue
            g = await tx.game(p.game_id)
            if g.deadline is None:  # the computer's turn, or a game without days
                continue
            to_move = await tx.player(g.to_move_id)
            deadline = effective_deadline(g.deadline, g.turn_started_at, to_move.vacation_start,
                                          to_move.vacation_until, now)
            if not await tx.bump_version(g.id, g.version):
                continue
            if deadline <= now:
                await self._finish(tx, g, Outcome.loss(g.to_move, "time"), now, ended_at=deadline)
                continue
            await tables.set_time_left(g.id, deadline - now)
            await tx.set_deadline(g.id, None)  # its warnings' times go with it

    async def _restart_clocks(self, tx: Tx, tables: TournamentTables, t: TournamentRow, now: int) -> None:
        """Each game's time left given back from now (and its warnings timed from it)."""
        for p in await tables.pairings(t.id):
            if p.time_left is None:
                continue
            await tables.set_time_left(p.game_id, None)
            g = await tx.game(p.game_id)
            if p.status != GameStatus.ACTIVE or not await tx.bump_version(g.id, g.version):
                continue
            # the turn's clock restarts now: a vacation counts from here, not from the pause
            await tx.update_game(g.id, turn_started_at=now)
            await tx.set_deadline(g.id, now + p.time_left)

    async def _clock_stopped(self, tx: Tx, game_id: int, turn_seconds: int) -> bool:
        """For a new turn (the service's ``_start_turn``): whether the game's event is
        paused; if so, the turn's whole time is kept for the resumption."""
        tables = TournamentTables(tx)
        if not await tables.paused_game(game_id):
            return False
        await tables.set_time_left(game_id, turn_seconds)
        return True

    # -------------------------------------------------------------- reading

    async def tournament(self, tournament_id: int) -> TournamentView:
        async with self.store.read() as tx:
            tables = TournamentTables(tx)
            t = await self._tournament_row(tables, tournament_id)
            return await tournament_view(tx, tables, t, self._now())

    async def list_tournaments(self, *, include_finished: bool = True,
                               scope: str | None = None) -> list[TournamentView]:
        statuses = (OPEN, RUNNING, PAUSED, FINISHED) if include_finished else (OPEN, RUNNING, PAUSED)
        async with self.store.read() as tx:
            tables = TournamentTables(tx)
            return [await tournament_view(tx, tables, t, self._now()) for t in await tables.listed(statuses, scope)]

    # -------------------------------------------------------------- rounds

    async def advance_tournament(self, tournament_id: int) -> bool:
        """Start the next round (or end the event) if it is due: the round's games are all
        over, or its deadline has come. Safe to call any time, from any process; True if
        this call did it."""
        now = self._now()
        async with self.store.read() as tx:  # most calls find nothing due: no write lock for them
            tables = TournamentTables(tx)
            t = await tables.get(tournament_id)
            if t is None or t.status != RUNNING or not await self._due(tables, t, now):
                return False
        plan = await planning.plan(self.store, tournament_id, now)  # the next round, off the loop
        async with self.store.write() as tx:
            tables = TournamentTables(tx)
            t = await tables.get(tournament_id)
            if t is None or t.status != RUNNING:
                return False
            done = await self._step(tx, tables, t, now, plan)
        if done:
            await self._after_commit()
            await batches.make_games(self, tournament_id)
        return done

    async def _after_games_ended(self) -> None:
        """Games ended in the transaction just committed: their tournaments' rounds may be
        over (the service's ``_after_commit`` calls this; the sweep catches what a crash
        in between left)."""
        ended, self._games_ended = self._games_ended, set()
        async with self.store.read() as tx:
            tables = TournamentTables(tx)
            events = {tid for gid in ended if (tid := await tables.of_game(gid)) is not None}
        for tid in sorted(events):
            await self._enforce_timeouts(tid)
            await self.advance_tournament(tid)

    async def sweep_tournaments(self, now: int) -> int:
        """The sweep's share: events whose start time or round deadline has come, and
        rounds whose games ended in a transaction that did not move them on (a crash
        between, another process)."""
        async with self.store.read() as tx:
            tables = TournamentTables(tx)
            starting = await tables.starting(now)
            running = await tables.listed((RUNNING,))
        n = await batches.make_all_pending(self)  # a start or a round a crash cut short
        for t in starting:
            plan = await planning.plan(self.store, t.id, now)
            try:
                async with self.store.write() as tx:
                    tables = TournamentTables(tx)
                    fresh = await tables.get(t.id)
                    if fresh.status != OPEN or await tables.count(t.id) < 2:
                        continue
                    await self._begin(tx, tables, fresh, now, plan)
            except TournamentError as e:  # its organiser is told when they start it by hand
                log.warning("tournament %s cannot start at its time: %s", t.id, e)
                continue
            n += 1
            await self._after_commit()
            await batches.make_games(self, t.id)
        for t in await deadlines.due(self.store, now):  # a round's deadline: adjudicate, or tell its director
            n += await deadlines.act(self, t, now)
        for t in running:
            n += await self._enforce_timeouts(t.id)
            n += await self.advance_tournament(t.id)
        if n:
            await self._after_commit()
        return n

    async def _begin(self, tx: Tx, tables: TournamentTables, t: TournamentRow, now: int,
                     plan: planning.Plan | None = None) -> None:
        entrants = await tables.entrants(t.id)
        if len(entrants) < 2:
            raise TournamentError(T("{name} (#{id}) needs two players at least to start (it has {n})",
                                    name=t.name, id=t.id, n=len(entrants)))
        limit = self._size_limit(t)
        if limit is not None and len(entrants) > limit:  # joined before the server's cap was lowered
            raise TournamentError(T("{name} (#{id}) has {n} players, more than the {limit} it may start with",
                                    name=t.name, id=t.id, n=len(entrants), limit=limit))
        players = await planning.seed_order(tables, t, now)
        await tables.set_seeds(t.id, players)
        if t.format == ROUND_ROBIN:
            all_rounds = pairing.round_robin(players, double=t.cycles == 2)
            # the one conditional step: only one transaction ever starts it
            if not await tables.move_on(t.id, status=RUNNING, expected_status=OPEN, expected_round=0,
                                        round=len(all_rounds), round_deadline=None, started_at=now):
                raise TournamentError(T("{name} (#{id}) has begun already", name=t.name, id=t.id))
            await tx.execute("UPDATE tournaments SET rounds = ? WHERE id = ?", (len(all_rounds), t.id))
            # its news ("started") goes with the last batch of its games (batches.py)
            for number, pairs in enumerate(all_rounds, 1):
                await self._make_round(tx, tables, t, number, pairs, now, bye_points=0.0)
        else:
            if not await tables.move_on(t.id, status=RUNNING, expected_status=OPEN, expected_round=0,
                                        round=1, round_deadline=self._round_deadline(t, now), started_at=now):
                raise TournamentError(T("{name} (#{id}) has begun already", name=t.name, id=t.id))
            inputs = [pairing.SwissPlayer(p) for p in players]
            first = (plan and plan.for_(inputs)) or pairing.pair_swiss(inputs)
            await self._make_round(tx, tables, t, 1, first.pairs, now, bye_points=SWISS_BYE_POINTS)

    async def _make_round(self, tx: Tx, tables: TournamentTables, t: TournamentRow, number: int,
                          pairs: list[pairing.Pair], now: int, *, bye_points: float) -> None:
        """The round's pairings; their games are made after the commit, in batches
        (batches.py)."""
        await tables.add_pairings(t.id, number, [(board, white, black, bye_points if black is None else None)
                                                 for board, (white, black) in enumerate(pairs, 1)])
        for white, black in pairs:
            if black is None and bye_points:  # a Swiss's round: no game to tell of
                await self._emit(tx, ev.TournamentBye(tournament_id=t.id, name=t.name, round=number,
                                                      points=bye_points), white, now)

    def _size_limit(self, t: TournamentRow) -> int | None:
        """The most players the event takes: its own limit, and a round robin the server's cap."""
        if t.format != ROUND_ROBIN:
            return t.max_players
        return min(t.max_players or MAX_PLAYERS, self.settings.round_robin_max_players)

    @staticmethod
    def _round_deadline(t: TournamentRow, now: int) -> int | None:
        return None if t.round_days is None else now + t.round_days * DAY

    @staticmethod
    def _is_last_round(t: TournamentRow) -> bool:
        return t.format == ROUND_ROBIN or t.round >= t.rounds

    async def _due(self, tables: TournamentTables, t: TournamentRow, now: int) -> bool:
        """Whether the event's next step (a round, or its end) is due: every game of the
        round is over or decided (a round's deadline only tells its director, or adjudicates:
        deadlines.py). One count of the games still going (every sweep asks it of every
        running event: no pairing is read)."""
        if self._is_last_round(t):
            return not await tables.games_going(t.id)
        return not await tables.games_going(t.id, t.round)

    async def _step(self, tx: Tx, tables: TournamentTables, t: TournamentRow, now: int,
                    plan: planning.Plan | None = None) -> bool:
        if not await self._due(tables, t, now):
            return False
        if self._is_last_round(t):
            if not await tables.move_on(t.id, status=FINISHED, expected_status=RUNNING,
                                        expected_round=t.round, round=t.round, round_deadline=None,
                                        ended_at=now):
                return False
            await self._tell_the_end(tx, tables, await tables.get(t.id), now)
            return True
        if not await tables.move_on(t.id, status=RUNNING, expected_status=RUNNING, expected_round=t.round,
                                    round=t.round + 1, round_deadline=self._round_deadline(t, now)):
            return False
        inputs = await planning.next_round_inputs(tx, tables, t)
        try:
            next_round = (plan and plan.for_(inputs)) or pairing.pair_swiss(inputs)
        except pairing.PairingImpossible as e:
            # nobody left to pair without a repeat: the event ends when its games do
            log.warning("tournament %s: round %s cannot be paired (%s); it ends", t.id, t.round + 1, e)
            await tx.execute("UPDATE tournaments SET rounds = ?, round = ? WHERE id = ?",
                             (t.round, t.round, t.id))
            return True
        await self._make_round(tx, tables, t, t.round + 1, next_round.pairs, now, bye_points=SWISS_BYE_POINTS)
        return True

    @staticmethod
    def _swiss_state(playing: list[int], rows: list[PairingRow],
                     counted: dict[int, str | None] | None = None) -> dict[int, pairing.SwissPlayer]:
        return planning.swiss_state(playing, rows, counted)

    async def _tell_the_end(self, tx: Tx, tables: TournamentTables, t: TournamentRow, now: int) -> None:
        view = await tournament_view(tx, tables, t, self._now())
        winner = view.standings[0].player if view.standings else None
        for s in view.standings:
            event = ev.TournamentOver(tournament_id=t.id, name=t.name, game=t.game, place=s.place,
                                      players=len(view.standings), points=s.points, winner=winner)
            await self._emit(tx, event, s.player.id, now)
        await self._news(tx, t, "over", t.round, now)

    async def _news(self, tx: Tx, t: TournamentRow, what: str, number: int, now: int,
                    game_id: int | None = None) -> None:
        """The news of a step of the event (``TournamentNews``), in its transaction.
        A round's goes before its games' notices: an adapter that opens a place for each game
        on it (Discord's threads) has them open when the players are told."""
        # addressed to its maker: the adapter of their platform (the one the event was made
        # on) posts it, whichever process runs it; the owner's command line's: to no one
        await self._emit(tx, ev.TournamentNews(tournament_id=t.id, name=t.name, scope=t.scope, what=what,
                                               round=number, game_id=game_id), t.creator_id, now)

    async def _tournament_game_over(self, tx: Tx, g, now: int) -> None:
        """A game ended (the service's ``_finish``, in its transaction): if it is a
        tournament's, its result is news."""
        tables = TournamentTables(tx)
        found = await tables.round_of_game(g.id)
        if found is not None:
            await tables.bump(found[0])
            await self._news(tx, await tables.get(found[0]), "result", found[1], now, game_id=g.id)

    # -------------------------------------------------------------- helpers

    async def _refuse_abort_in_tournament(self, game_id: int) -> None:
        """For ``abort``: AbortError if the game is a tournament's (its side to move who
        never moves loses it by forfeit at the deadline; a director may decide it sooner)."""
        async with self.store.read() as tx:
            tid = await TournamentTables(tx).of_game(game_id)
        if tid is not None:
            raise AbortError(T("game #{game} is a tournament game (tournament #{tournament}): it cannot be aborted. If "
                               "it never starts, the side that does not move loses it by forfeit at the deadline; its "
                               "directors can decide it sooner", game=game_id, tournament=tid))

    @staticmethod
    async def _tournament_row(tables: TournamentTables, tournament_id: int) -> TournamentRow:
        t = await tables.get(tournament_id)
        if t is None:
            raise NotFound(T("there is no tournament #{id}", id=tournament_id))
        return t


class TournamentSweeper:
    """The sweep's hook (``GameService.add_sweeper``): start events at their time, move
    rounds on at their deadline or when a crash left a finished round unmoved."""

    def __init__(self, service):
        self.service = service
        self._next: int | None = None

    async def sweep_due(self, now: int) -> int:
        n = await self.service.sweep_tournaments(now)
        await self.refresh()
        return n

    async def refresh(self) -> None:
        """Read when the next event starts or round ends (``next_due`` says it)."""
        async with self.service.store.read() as tx:
            self._next = await TournamentTables(tx).next_due()

    def next_due(self) -> int | None:
        return self._next


__all__ = ["tournament_fields", "TournamentError", "TournamentOps", "TournamentSweeper", "TournamentView",
           "StandingView", "PairingView"]
