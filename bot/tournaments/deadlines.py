"""A Swiss round's deadline (``round_days``, ``--round-days`` on create): when it comes with
games of the round still going, every director of the event is told (``TournamentDeadline``,
delivered as any notice; directors.py: its maker and those named), and

* if the event was made so (``adjudicate``: an option on create), each game still going is
  adjudicated by the engine's evaluation of its position: a short search
  (``SEARCH_SECONDS``, in a worker thread off the event loop) and a result by its score for
  White: at least ``DECISIVE_CENTIPAWNS`` a win, at most minus that a loss, a draw between;
  the game ends "by adjudication";
* otherwise the games go on, left to the director's decision (a result set by hand, or
  the game's own end).

Either way the next round is paired only when every game of the round is over or decided
(``TournamentOps._due``). The deadline is acted on once: a conditional update of the event's
``deadline_round`` (to the round) is the first step of the one transaction that acts.
"""

from __future__ import annotations

import asyncio

import rules

from ..delivery import events as ev
from ..domain.kinds import GameStatus, Outcome, Side
from .director_tables import DirectorTables
from .tables import SWISS, TournamentRow, TournamentTables

DECISIVE_CENTIPAWNS = 200
SEARCH_SECONDS = 0.5


def adjudicated(score_for_white: int) -> Outcome:
    """The result of an adjudication from the engine's score (centipawns, White's view)."""
    if score_for_white >= DECISIVE_CENTIPAWNS:
        return Outcome.win(Side.WHITE, "adjudication")
    if score_for_white <= -DECISIVE_CENTIPAWNS:
        return Outcome.win(Side.BLACK, "adjudication")
    return Outcome.draw("adjudication")


def score_for_white(game: str, vfen: str, seconds: float = SEARCH_SECONDS) -> int:
    """The engine's score of a position, centipawns from White's side (a search of
    ``seconds``; blocking: run it in a thread)."""
    from ai.engine import analyse
    position = rules.from_fen(game, vfen)
    if position.outcome() is not None or not position.legal_moves():
        return 0
    score = analyse(position, seconds, lines=1).best.score_cp
    return score if position.turn == Side.WHITE else -score


async def due(store, now: int) -> list[TournamentRow]:
    """Running Swiss events whose round's deadline has come and was not acted on."""
    async with store.read() as tx:
        rows = await TournamentTables(tx).listed(("running",))
    return [t for t in rows if t.format == SWISS and t.round_deadline is not None and t.round_deadline <= now
            and (t.deadline_round or 0) < t.round]


async def act(service, t: TournamentRow, now: int) -> bool:
    """Act on the round's deadline (see the module's doc); False if another transaction did."""
    async with service.store.read() as tx:
        going = [p for p in await TournamentTables(tx).pairings(t.id)
                 if p.round == t.round and p.game_id is not None and p.status == GameStatus.ACTIVE]
        games = {p.game_id: await tx.game(p.game_id) for p in going}
    scores: dict[int, int] = {}
    if t.adjudicate:
        for gid, g in games.items():  # one at a time: a short search each, off the loop
            scores[gid] = await asyncio.to_thread(score_for_white, g.game, g.current_vfen)
    async with service.store.write() as tx:
        tables = TournamentTables(tx)
        n = await tx.change("UPDATE tournaments SET deadline_round = ? WHERE id = ? AND round = ? "
                            "AND status = 'running' AND COALESCE(deadline_round, 0) < ?",
                            (t.round, t.id, t.round, t.round))
        if n != 1:
            return False
        decided = []
        for gid in games:
            g = await tx.game(gid)
            if not t.adjudicate or g.status != GameStatus.ACTIVE or gid not in scores:
                continue
            if g.current_vfen != games[gid].current_vfen or not await tx.bump_version(g.id, g.version):
                continue  # moved since it was searched: left going (the director decides)
            await service._finish(tx, g, adjudicated(scores[gid]), now)
            decided.append(gid)
        told = tuple(decided) if t.adjudicate else tuple(games)
        if told:  # each director (an event the owner made at the command line may have none)
            for director in await DirectorTables(tx).directors(t.id):
                await service._emit(tx, ev.TournamentDeadline(tournament_id=t.id, name=t.name, round=t.round,
                                                              games=told, adjudicated=bool(t.adjudicate)),
                                    director, now)
        await tables.bump(t.id)
    await service._after_commit()
    return True
