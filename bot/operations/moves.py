"""A game's course: its start, its moves and its end.

Every game starts in ``_create_game`` (an accepted challenge, a tournament's pairing).
A move (or a set-up action) is written with the waiting player's conditional answer, if
one expects it, in one transaction (``_play``); each turn's start sets its deadline and
reminders (``_start_turn``); a game ends in ``_finish`` (its offers settled, its rating
updated, its tournament told), whether by a move, a resignation, an abort, time or a
withdrawal. A takeback's undoing of a move is here too (``_take_back``), and the notice
to a computer's opponent that it cannot make its move (``report_stalled_turn``).
"""

from __future__ import annotations

import asyncio

import rules
from language.text import T
from rules.errors import RulesError

from ..delivery import events as ev
from ..delivery.events import ref
from ..domain.errors import AbortError, IllegalMove, NotYourTurn, text_of
from ..domain.kinds import GameStatus, Outcome, Side
from ..identity.players import COMPUTER
from ..store import GameRow, Tx
from ..timekeeping.clock import DAY, deadline_for, from_ts
from ..timekeeping.reminders import turn_plan
from ..tournaments.service import tournament_fields
from . import premoves
from .challenges import offers_settled
from .command import GameCommand
from .offers import DRAW, cleared, lapsed, standing_offers
from .ratings import can_be_rated, rate_finished
from .results import GameView, MoveResult


class _VacationBegun(Exception):
    """The mover went on vacation after the command read the game: their move ends it,
    which needs a write to the whole database (``_play``)."""


class MoveOps:
    """The service's moves, and a game's start, turns and end (mixed into ``GameService``)."""

    async def move(self, game_id: int, player_id: int, text: str, *,
                   expected_ply: int | None = None) -> MoveResult:
        """Play a move (any notation the engine accepts; set-up actions too)."""
        async with self._game_command(game_id, player_id, expected_ply, (text, T("a move"))) as cmd:
            lan, san, outcome, answer = await self._play(cmd, text)
        return MoveResult(await cmd.view(), lan, san, outcome, ply=cmd.game.ply + 1, answer=answer)

    async def setup_action(self, game_id: int, player_id: int, action: str, *,
                           expected_ply: int | None = None) -> MoveResult:
        """A set-up action (in a game with a set-up phase): a move made during set-up."""
        async with self._game_command(game_id, player_id, expected_ply,
                                      (action, T("a set-up action"))) as cmd:
            if not cmd.pos.in_setup:
                raise IllegalMove(T("the set-up is over: make a move instead"))
            lan, san, outcome, answer = await self._play(cmd, action)
        return MoveResult(await cmd.view(), lan, san, outcome, ply=cmd.game.ply + 1, answer=answer)

    async def _play(self, cmd: GameCommand, text: str) -> tuple[str, str, Outcome | None, str | None]:
        """The move, and the opponent's conditional answer if one was waiting for it
        (played in the same transaction): (lan, san, the outcome if either ended the
        game, the answer's SAN)."""
        g, pos, side = cmd.game, cmd.pos, cmd.side
        if pos.turn != side:
            raise NotYourTurn(T("it is not your turn: {name} is to move", name=cmd.player(pos.turn).name))
        def decide():  # the rules' work: milliseconds on a big board, off the event loop
            try:
                move = pos.parse(str(text).strip())
                san = pos.san(move)
                new = pos.play(move)
            except RulesError as e:
                raise IllegalMove(text_of(e)) from None
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

    async def resign(self, game_id: int, player_id: int, *, expected_ply: int | None = None) -> GameView:
        async with self._game_command(game_id, player_id, expected_ply) as cmd:
            async with cmd.write() as tx:
                await cmd.finish(tx, Outcome.loss(cmd.side, "resignation"))
        return await cmd.view()

    async def abort(self, game_id: int, player_id: int, *, expected_ply: int | None = None) -> GameView:
        """Either player may abort before both sides have moved (fewer than 2 plies); never
        a tournament's game (one that cannot start is a forfeit: bot/tournaments/)."""
        async with self._game_command(game_id, player_id, expected_ply) as cmd:
            if cmd.game.ply >= 2:
                raise AbortError(T("a game can be aborted only before both sides have moved"))
            await self._refuse_abort_in_tournament(cmd.game.id)
            async with cmd.write() as tx:
                await cmd.finish(tx, Outcome.aborted())
        return await cmd.view()

    async def _take_back(self, cmd: GameCommand, tx: Tx, before) -> None:
        """Undo the last move (``GameCommand.take_back``): ``before`` is the game again,
        its mover to move with a full turn's time; no offer stands any longer, and no
        conditional line (they waited at another position)."""
        g = cmd.game
        await tx.delete_move(g.id, g.ply)
        await offers_settled(tx, g, cmd.now, standing_offers(g))
        await tx.update_game(g.id, current_vfen=before.fen(), ply=g.ply - 1, **cleared())
        await cmd.start_turn(tx, Side(before.turn))
        await premoves.drop_all(self, tx, g, "takeback", cmd.now)

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
