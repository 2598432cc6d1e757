"""A start's or a round's games, made in short transactions of their own, so that a big
event (a 60-player round robin: 1,770 games) never holds the database: another game's move
waits at most for one batch.

The step that starts the event (or pairs its round) writes every pairing at once, its game
still to be made (``game_id`` NULL), in the one conditional transaction that makes the step
happen once. Then :func:`make_games` makes the games, a batch a transaction: at most
``BATCH_GAMES`` games, and no more once the batch has taken ``BATCH_SECONDS`` (on a busy
machine a game takes longer: the batch ends sooner, not later). After each batch it waits as
long as the batch took, so a start takes at most half of the database's time: a move needs
the store three times (its snapshot, its write, its view) and finds it free at once, or after
one short batch, each time. Until every game is made the
event shows "starting" (``TournamentView.starting``), its round is not over (the count of
games going counts the pairings still to make) and players cannot join. The last
``LAST_BATCH`` games of a round are made in one transaction, after the round's news
(``TournamentNews``: "started", or "round" N): a small event's round is one transaction with
its news first, as before batches; in a big one the players of the earlier batches are told
of their games before the news (on Discord their notice then has no link to the game's
thread, which the news opens).

A process killed between batches leaves the games made so far, each with its pairing; the
next try (the start command again, a round's step, or the sweep of a restarted process)
makes the rest, each exactly once: a pairing takes its game only if it has none
(``TournamentTables.set_game``), and on PostgreSQL two processes claim disjoint pairings
(``FOR UPDATE SKIP LOCKED``).
"""

from __future__ import annotations

import asyncio
import time

from .tables import PAUSED, ROUND_ROBIN, RUNNING, TournamentTables

#: The most games one transaction makes (each game: its row, its turn's reminders, two notices)
BATCH_GAMES = 50
#: A batch ends once it has lasted this long (wall seconds): what another writer waits at most
BATCH_SECONDS = 0.012
#: The last games of a round, this many or fewer, are made in one transaction (no time limit),
#: after the round's news: a small event's round is one transaction, as it always was
LAST_BATCH = 8


async def make_games(service, tournament_id: int, *, batch: int | None = None,
                     seconds: float | None = None) -> int:
    """Make the event's games still to be made (see the module's doc); how many this call
    made. ``service``: the ``GameService`` (its ``store``, ``_create_game``, ``_after_commit``)."""
    batch = BATCH_GAMES if batch is None else batch
    seconds = BATCH_SECONDS if seconds is None else seconds
    made = 0
    while True:
        async with service.store.write() as tx:
            tables = TournamentTables(tx)
            t = await tables.get(tournament_id)
            if t is None or t.status not in (RUNNING, PAUSED):
                return made
            final = max(LAST_BATCH, 1)
            todo = await tables.games_to_make(tournament_id, batch + final + 1)
            if not todo:
                return made
            now = service._now()
            began = time.perf_counter()
            last = len(todo) <= final
            if last:
                # the round's news, then its last games: an adapter that opens a place for
                # each game from the news (Discord's threads) has them open when the
                # players of these games are told
                what, number = ("started", t.rounds) if t.format == ROUND_ROBIN else ("round", t.round)
                await service._news(tx, t, what, number, now)
            else:  # leaving the last ones (``final`` at least) for the round's last transaction
                todo = todo[:min(batch, len(todo) - final)]
            for p in todo:
                assert p.black_id is not None
                gid = await service._create_game(tx, t.game, p.white_id, p.black_id, t.days, now,
                                                 scope=t.scope, rated=bool(t.rated),
                                                 tournament=(t.id, t.name, p.round,
                                                             t.round_deadline if p.round == t.round else None))
                if not await tables.set_game(p, gid):
                    # made meanwhile by another process: this batch is undone whole
                    raise RuntimeError(f"tournament {t.id}: pairing {p.id}'s game was made twice")
                made += 1
                if not last and time.perf_counter() - began >= seconds:
                    break
            await tables.bump(tournament_id)
        took = time.perf_counter() - began
        await service._after_commit()
        await asyncio.sleep(took)  # the others' turn: as long again


async def make_all_pending(service) -> int:
    """The sweep's share: every event's games a crash (or another process) left to make; how
    many events this call made games for."""
    async with service.store.read() as tx:
        events = await TournamentTables(tx).with_games_to_make()
    return sum([await make_games(service, tid) > 0 for tid in events])
