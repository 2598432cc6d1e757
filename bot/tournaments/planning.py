"""A Swiss round's pairing worked out before the transaction that writes it, and for a big
event in a worker process: pairing 500 players is over a hundred milliseconds of pure
Python, which must neither hold the event loop nor the database (another game's move waits
for neither). A thread would not do: it holds the interpreter's lock, and the loop, woken
by every database answer, would wait for it each time. Up to ``INLINE_PLAYERS`` players the
pairing takes a few milliseconds and is done on the spot.

The plan is read from a snapshot; the transaction that writes the round reads the same
inputs again (the players in seed order and their scores, colours, opponents and byes, as
``SwissPlayer`` values) and uses the plan only if they are equal, else pairs again then
and there (a result changed in between: rare, and still correct).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import threading
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from ..operations.ratings import rating_now
from ..store import Tx
from . import pairing
from .counting import CANCELLED, counted_result, counted_results, is_forfeit, white_points
from .tables import OPEN, RUNNING, SWISS, PairingRow, TournamentRow, TournamentTables


@dataclass(frozen=True)
class Plan:
    """A round paired from ``players`` (the pairing's input): its pairs, or why it cannot be."""

    players: tuple[pairing.SwissPlayer, ...]
    round: pairing.SwissRound | None
    impossible: str | None = None

    def for_(self, players: list[pairing.SwissPlayer]) -> pairing.SwissRound | None:
        """The planned round if it was paired from these very inputs (None: pair again)."""
        if tuple(players) != self.players:
            return None
        if self.round is None:
            raise pairing.PairingImpossible(self.impossible or "no pairing")
        return self.round


async def seed_order(tables: TournamentTables, t: TournamentRow, now: int) -> list[int]:
    """The entrants by seed: the strongest first (the game's rating now), then who joined first."""
    entrants = await tables.entrants(t.id)
    rows = await tables.ratings(t.id, t.game)
    ratings = {e.player_id: rating_now(rows.get(e.player_id), now).rating for e in entrants}
    order = sorted(entrants, key=lambda e: (-ratings[e.player_id], e.joined_at, e.player_id))
    return [e.player_id for e in order]


def swiss_state(playing: list[int], rows: list[PairingRow],
                counted: dict[int, str | None] | None = None) -> dict[int, pairing.SwissPlayer]:
    """Each player still playing as the next round's pairing sees them, from the event's
    pairings and their results as the event counts them (``counted``, by game id:
    counting.py; None: the games' own, no decision): a forfeit scores but gives no colour,
    a cancelled or aborted game neither."""
    if counted is None:
        counted = {p.game_id: counted_result(p, {}) for p in rows if p.game_id is not None}
    score = {p: 0.0 for p in playing}
    colours: dict[int, list[str]] = {p: [] for p in playing}
    opponents: dict[int, set[int]] = {p: set() for p in playing}
    bye = {p: False for p in playing}
    for p in rows:
        if p.black_id is None:
            if p.white_id in score:
                bye[p.white_id] = True
                score[p.white_id] += p.bye_points or 0.0
            continue
        result = counted.get(p.game_id) if p.game_id is not None else None
        points = white_points(result)
        for me, other, colour in ((p.white_id, p.black_id, pairing.WHITE), (p.black_id, p.white_id, pairing.BLACK)):
            if me not in score:
                continue
            opponents[me].add(other)
            if result not in ("*", CANCELLED) and not is_forfeit(result):
                colours[me].append(colour)  # a game played (or being played): its colour counts
            if points is not None:
                score[me] += points if colour == pairing.WHITE else 1 - points
    return {p: pairing.SwissPlayer(p, score[p], tuple(colours[p]), frozenset(opponents[p]), bye[p])
            for p in playing}


async def next_round_inputs(tx: Tx, tables: TournamentTables, t: TournamentRow) -> list[pairing.SwissPlayer]:
    """The players of the event's next Swiss round, in seed order, as its pairing sees them."""
    entrants = await tables.entrants(t.id)
    playing = [e.player_id for e in sorted(entrants, key=lambda e: e.seed or 0) if e.withdrawn_at is None]
    rows = await tables.pairings(t.id)
    state = swiss_state(playing, rows, await counted_results(tx, t.id, rows))
    return [state[p] for p in playing]


#: Up to this many players a round is paired on the spot (a few milliseconds)
INLINE_PLAYERS = 128

_pool: ProcessPoolExecutor | None = None
_pool_lock = threading.Lock()


def _worker() -> ProcessPoolExecutor:
    """One worker process for the pairings of big events, started at the first (a fresh
    interpreter: nothing of this process's threads or connections is copied into it)."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
        return _pool


async def paired(players: list[pairing.SwissPlayer]) -> Plan:
    """The round for ``players``: on the spot for a small event, else in the worker process."""
    try:
        if len(players) <= INLINE_PLAYERS:
            found = pairing.pair_swiss(players)
        else:
            found = await asyncio.get_running_loop().run_in_executor(_worker(), pairing.pair_swiss, players)
    except pairing.PairingImpossible as e:
        return Plan(tuple(players), None, str(e))
    return Plan(tuple(players), found)


async def plan(store, tournament_id: int, now: int) -> Plan | None:
    """The pairing the event's next step would write, if that step pairs a Swiss round (its
    first, at the start; or the next): read in a snapshot, paired in a thread."""
    async with store.read() as tx:
        tables = TournamentTables(tx)
        t = await tables.get(tournament_id)
        if t is None or t.format != SWISS:
            return None
        if t.status == OPEN:
            players = [pairing.SwissPlayer(p) for p in await seed_order(tables, t, now)]
        elif t.status == RUNNING and t.round < t.rounds:
            players = await next_round_inputs(tx, tables, t)
        else:
            return None
    return await paired(players)
