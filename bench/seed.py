"""A database holding many active games, written through bot/store.py's own functions,
opened as the bot opens it (``bot.schemas.open_store``: its adapters' tables too, so that
``fairypost run`` can run it as it is).

Creating 10,000 games through the service (challenge, accept, every move) would take
long; this writes the rows the service leaves behind, in the same shapes:

* players (``insert_player``): one per five games; one in ten with a digest at 08:00
  Paris time, one in twenty with quiet hours 23:00-07:00 (``PlayerSettings.to_json``);
* each game (``insert_game``): a random pair of players, one of the games in turn,
  0-12 plies (or another range: ``plies``) of a seeded random game of that game (``insert_move``, LAN and SAN from
  the engine), ``current_vfen``, ``ply`` and the current turn (``update_game`` with
  ``turn_no``, ``to_move``, ``to_move_id``, ``turn_started_at`` in the last hour and
  the deadline ``deadline_for``), days per move drawn from 1, 2, 3, 5, 7 or no clock;
* the current turn's reminders as ``_start_turn`` writes them (``insert_reminder`` for
  each of ``turn_plan(days)``), its "your move" already sent (``close_reminder``).

Not written: earlier turns' reminders (cancelled or sent: the queries select pending
ones through the index ``reminders_by_status``), outbox events already sent, and the
challenges. Nothing is due at the seed's ``now``: the first warning of a turn comes at
half its time, at least 12 hours after it began.
"""

from __future__ import annotations

import random
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from .common import Context, random_line

DAYS = (1, 2, 3, 3, 5, 7, None)
PLIES = (0, 12)


@dataclass
class Seeded:
    path: Path
    n_games: int
    n_players: int
    now: int
    seconds: float
    games: list  # (game id, variant, start_vfen, lans, to_move player id, days)


def _lines(ids: list[str], plies: int) -> dict:
    out = {}
    for gid in ids:
        out[gid] = []
        for seed in (11, 12, 13):
            line = random_line(gid, seed, plies)
            out[gid].append([(line[i + 1].last_move.lan, line[i].san(line[i + 1].last_move),
                              line[i + 1].fen(), line[i + 1].turn) for i in range(len(line) - 1)])
    return out


async def seed(path: Path, n_games: int, ids: list[str], now: int, rng: random.Random,
               progress=None, plies: tuple[int, int] = PLIES) -> Seeded:
    import rules
    from bot.identity.players import PlayerSettings
    from bot.schemas import open_store
    from bot.timekeeping.clock import DAY, deadline_for
    from bot.timekeeping.reminders import turn_plan

    t0 = time.perf_counter()
    lines = _lines(ids, plies[1])
    starts = {gid: rules.start(gid) for gid in ids}
    n_players = max(4, n_games // 5)
    store = await open_store(path)  # as the bot does: its adapters' tables too
    meta = []
    try:
        async with store.write() as tx:
            for i in range(n_players):
                if i % 10 == 0:
                    s = PlayerSettings(timezone="Europe/Paris", digest_time="08:00")
                elif i % 20 == 5:
                    s = PlayerSettings(quiet_start="23:00", quiet_end="07:00")
                else:
                    s = PlayerSettings()
                await tx.insert_player("bench", f"u{i}", f"Player {i}", s.to_json(), now - 60 * DAY)
        batch = 250
        for first in range(0, n_games, batch):
            async with store.write() as tx:
                for i in range(first, min(n_games, first + batch)):
                    gid = ids[i % len(ids)]
                    line = lines[gid][i % len(lines[gid])]
                    k = rng.randint(min(plies[0], len(line)), len(line))
                    white, black = rng.sample(range(1, n_players + 1), 2)
                    days = rng.choice(DAYS)
                    created = now - rng.randint(1, 10) * DAY
                    start = starts[gid]
                    game_id = await tx.insert_game(
                        game=gid, challenge_id=None, white_id=white, black_id=black,
                        start_vfen=start.fen(), to_move=start.turn,
                        to_move_id=white if start.turn == "w" else black, days=days, now=created,
                        deadline=deadline_for(created, days))
                    side = start.turn
                    for j in range(k):
                        lan, san, _fen, _after = line[j]
                        await tx.insert_move(game_id, j + 1, lan, san,
                                             white if side == "w" else black, side, created + j * 600)
                        side = line[j][3]
                    to_move_id = white if side == "w" else black
                    started = now - rng.randint(0, 3600)
                    await tx.update_game(game_id, current_vfen=line[k - 1][2] if k else start.fen(),
                                         ply=k, turn_no=k + 1, to_move=side, to_move_id=to_move_id,
                                         turn_started_at=started, deadline=deadline_for(started, days))
                    deadline = deadline_for(started, days)
                    for kind, before in turn_plan(days):
                        due_at = started if before is None else deadline - before
                        await tx.insert_reminder(game_id, k + 1, to_move_id, kind, before, due_at)
                    await tx.close_reminders([(r.id, "sent", None) for r in await tx.pending_reminders(game_id)
                                              if r.kind == "your_move"], started)
                    meta.append((game_id, gid, start.fen(), [m[0] for m in line[:k]], to_move_id,
                                 days))
            if progress and (first // batch) % 8 == 7:
                progress(f"seeding: {min(n_games, first + batch):,}/{n_games:,} games")
    finally:
        await store.close()
    return Seeded(path, n_games, n_players, now, time.perf_counter() - t0, meta)


def seeded(ctx: Context, n_games: int, ids: list[str], plies: tuple[int, int] = PLIES) -> Seeded:
    """A pristine seeded database of n_games for this run (made once, then reused)."""
    import asyncio
    key = ("seed", n_games, plies)
    if key not in ctx.cache:
        path = ctx.tmp / f"seed-{n_games}-{plies[0]}-{plies[1]}.db"
        ctx.progress(f"seeding {n_games:,} games of {plies[0]}-{plies[1]} plies through bot.store")
        ctx.cache[key] = asyncio.run(seed(path, n_games, ids, int(time.time()),
                                          ctx.rng(f"seed{n_games}:{plies}"), ctx.progress, plies))
        ctx.progress(f"seeded {n_games:,} games in {ctx.cache[key].seconds:.1f} s")
    return ctx.cache[key]


def working_copy(s: Seeded, path: Path) -> Path:
    """A copy of the seeded file to change (the store closed it: no WAL left to copy)."""
    shutil.copyfile(s.path, path)
    for suffix in ("-wal", "-shm"):
        extra = Path(str(s.path) + suffix)
        if extra.exists():
            shutil.copyfile(extra, Path(str(path) + suffix))
    return path
