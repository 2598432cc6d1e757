"""Tournaments at size (issue 35): a 100-player Swiss (7 rounds) and a 20-player double
round robin (380 games), through the game service on SQLite, each figure beside an anchor
measured in the same run:

* **pairing a Swiss round** (pure, bot/tournaments/pairing.py), every round's real state,
  beside caissify-pairings' FIDE Dutch engine (PyPI, A.7-conformant against bbpPairings)
  on the same state, interleaved; skipped (said so) where it is not installed;
* **starting a round in the service** (``advance_tournament``: the conditional step, the
  pairing, 50 games made with their clocks, reminders and notices, one transaction)
  beside making the same number of games alone in one transaction (``_create_game``);
  the round robin's start (380 games) likewise;
* **standings** (``service.tournament``: the event, its entrants, every pairing and result,
  the tie-breaks) of each event beside one game's view (``service.game``): what a standings
  command or the tournament page costs, in game reads;
* **the sweep** with the events' 430 games live: with nothing due, and with every game's
  turn due ("your move" and the 50% warning, re-armed as bench/load.py does), beside a
  database with as many ordinary games (no tournament) live, swept in turns.

Then the big events (bench/tournament_big.py): a 500-player Swiss's pairing and page, and
a 60-player round robin's start beside another game's moves.

``--quick``: 16 players, 3 rounds, a 6-player double round robin.
"""

from __future__ import annotations

import contextlib
import random
import time

from .common import Context, Series, row, run_async, service_settings, settle, time_figure
from .load import _rearm
from .tournament_big import run_big

NAME = "tournament"
TITLE = ("Tournaments: a 100-player Swiss and a 20-player double round robin (pairing, standings, sweep); "
         "a 500-player Swiss and a 60-player round robin (pairing, start, page)")
GAME = "chess"


async def _open(ctx: Context, name: str, clock):
    from bot.delivery.events import MemoryNotifier
    from bot.operations.service import GameService
    settings = service_settings(ctx.tmp / f"{name}.db", command_rate_per_minute=0)
    svc = await GameService.open(settings, clock=clock, notifier=MemoryNotifier(), rng=random.Random(ctx.seed))
    _OPENED.append(svc)
    return svc


# every service a run opened: all closed at its end, also when a case fails half-way (an open
# database's thread would keep the process from ever exiting after the error is reported)
_OPENED: list = []


async def _people(svc, n: int, tag: str) -> list:
    return [await svc.player("bench", f"{tag}{i}", f"Player {tag}{i}") for i in range(n)]


def _result(rng: random.Random) -> float:
    return rng.choice((1.0, 1.0, 0.5, 0.0, 0.0))


async def _end(svc, p, points: float) -> None:
    """End a pairing's game: 1, ½ or 0 for White."""
    if points == 1.0:
        await svc.resign(p.game_id, p.black.id)
    elif points == 0.0:
        await svc.resign(p.game_id, p.white.id)
    else:
        await svc.offer_draw(p.game_id, p.white.id)
        await svc.accept_draw(p.game_id, p.black.id)


async def _games_alone(svc, people: list, count: int, now: int) -> tuple[float, float]:
    """Wall and CPU seconds to make ``count`` ordinary games in one transaction (the anchor
    of a round)."""
    c, t = time.process_time(), time.perf_counter()
    async with svc.store.write() as tx:
        for k in range(count):
            w, b = people[(2 * k) % len(people)], people[(2 * k + 1) % len(people)]
            await svc._create_game(tx, GAME, w.id, b.id, 3, now, scope=None, rated=False)
    await svc._after_commit()
    return time.perf_counter() - t, time.process_time() - c


# --- the Dutch anchor ----------------------------------------------------------------------

def _dutch():
    try:
        from caissify_pairings import generate_pairings
    except ImportError:
        return None
    return generate_pairings


def _dutch_state(state: dict, rows, seeds: dict[int, int], ratings: dict[int, float], round_number: int):
    """caissify-pairings' input for the same round: scores, colours, floats (from each
    round's scores before it), byes, the games played."""
    before: dict[int, float] = {p: 0.0 for p in state}
    floats: dict[int, list[str]] = {p: [] for p in state}
    colours: dict[int, list[str]] = {p: [] for p in state}
    points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
    for r in sorted({x.round for x in rows}):
        after = dict(before)
        for x in (x for x in rows if x.round == r):
            if x.black_id is None:
                if x.white_id in state:
                    colours[x.white_id].append("none")
                    floats[x.white_id].append("down")
                    after[x.white_id] += x.bye_points or 0
                continue
            w, b = x.white_id, x.black_id
            if w in state:
                colours[w].append("white")
                floats[w].append("down" if before[w] > before[b] else "up" if before[w] < before[b] else "none")
                after[w] += points.get(x.result, 0)
            if b in state:
                colours[b].append("black")
                floats[b].append("down" if before[b] > before[w] else "up" if before[b] < before[w] else "none")
                after[b] += 1 - points.get(x.result, 1)
        before = after
    players = [{"id": p, "name": str(p), "score": state[p].score, "rating": int(ratings[p]),
                "starting_number": seeds[p], "color_hist": colours[p], "float_history": floats[p],
                "bye_count": int(state[p].had_bye)} for p in state]
    previous = {(x.white_id, x.black_id) for x in rows if x.black_id is not None}
    return players, previous


# --- the events ------------------------------------------------------------------------------

async def _swiss(ctx: Context, clock, out: dict, scratch) -> tuple:
    from bot.tournaments import pairing
    from bot.tournaments.tables import TournamentTables
    n, rounds = ctx.size((100, 7), (16, 3))
    rng = ctx.rng("tournament-swiss")
    svc = await _open(ctx, "swiss", clock)
    people = await _people(svc, n, "s")
    t = await svc.create_tournament(GAME, name="Bench Swiss", format="swiss", rounds=rounds, days=3)
    for p in people:
        await svc.join_tournament(t.id, p.id)
    c, w = time.process_time(), time.perf_counter()
    await svc.start_tournament(t.id)
    first_round = time.perf_counter() - w, time.process_time() - c
    # rounds are started by hand here (timed), not by the last game's end
    svc._after_games_ended = _nothing.__get__(svc)
    ours_pair, anchor_pair, ours_round, anchor_round = Series(), Series(), Series(), Series()
    ours_round.add(*first_round)
    dutch = _dutch()
    now = svc._now()
    for r in range(1, rounds):
        view = await svc.tournament(t.id)
        for p in view.pairings:
            if p.round == r and p.black is not None and p.result is None:
                await _end(svc, p, _result(rng))
        # the state the next round is paired from, as the service reads it
        async with svc.store.read() as tx:
            tables = TournamentTables(tx)
            rows = await tables.pairings(t.id)
            entrants = await tables.entrants(t.id)
        seeds = {e.player_id: e.seed for e in entrants}
        playing = [e.player_id for e in sorted(entrants, key=lambda e: e.seed)]
        state = svc._swiss_state(playing, rows)
        for _ in range(ctx.size(3, 1)):
            settle()
            c, w = time.process_time(), time.perf_counter()
            pairing.pair_swiss([state[p] for p in playing])
            ours_pair.add(time.perf_counter() - w, time.process_time() - c)
            if dutch is not None and (len(anchor_pair) < r or ctx.quick):  # once a round: it takes seconds
                players, previous = _dutch_state(state, rows, seeds, {p: 1500.0 for p in playing}, r + 1)
                settle()
                c, w = time.process_time(), time.perf_counter()
                dutch(system="dutch", players=players, previous_pairings=previous, round_number=r + 1,
                      total_rounds=rounds)
                anchor_pair.add(time.perf_counter() - w, time.process_time() - c)
        settle()
        c, w = time.process_time(), time.perf_counter()
        assert await svc.advance_tournament(t.id)
        ours_round.add(time.perf_counter() - w, time.process_time() - c)
        settle()
        anchor_round.add(*await _games_alone(scratch, scratch.people, n // 2, now))
        ctx.progress(f"Swiss round {r + 1}: paired in {ours_pair.wall[-1] * 1000:.1f} ms, "
                     f"started in {ours_round.wall[-1] * 1000:.0f} ms")
    out["pair"] = (ours_pair, anchor_pair if dutch is not None else None)
    out["round"] = (ours_round, anchor_round)
    # the last round half played: standings with games going on
    view = await svc.tournament(t.id)
    last = [p for p in view.pairings if p.round == rounds and p.black is not None]
    for p in last[: len(last) // 2]:
        await _end(svc, p, _result(rng))
    out["standings"] = await _standings(ctx, svc, t.id, last[-1].game_id)
    out["sweep"], out["plain_sweep"] = await _sweeps_beside_ordinary(ctx, svc, clock, len(last) - len(last) // 2)
    return svc, t.id


async def _nothing(self) -> None:
    self._games_ended = set()


async def _round_robin(ctx: Context, clock, out: dict, scratch) -> tuple:
    n = ctx.size(20, 6)
    rng = ctx.rng("tournament-rr")
    svc = await _open(ctx, "roundrobin", clock)
    people = await _people(svc, n, "r")
    t = await svc.create_tournament(GAME, name="Bench double round robin", format="round-robin",
                                    double=True, days=3)
    for p in people:
        await svc.join_tournament(t.id, p.id)
    settle()
    c, w = time.process_time(), time.perf_counter()
    view = await svc.start_tournament(t.id)
    start = Series()
    start.add(time.perf_counter() - w, time.process_time() - c)
    games = [p for p in view.pairings if p.black is not None]
    settle()
    anchor = Series()
    anchor.add(*await _games_alone(scratch, scratch.people, len(games), svc._now()))
    out["start"] = (start, anchor, len(games))
    ctx.progress(f"round robin: {len(games)} games started in {start.wall[0]:.2f} s")
    # the sweep with every game live, beside as many ordinary games live
    out["sweep"], out["plain_sweep"] = await _sweeps_beside_ordinary(ctx, svc, clock, len(games))
    for p in games[: len(games) // 2]:  # half of them over: standings with results and games going on
        await _end(svc, p, _result(rng))
    out["standings"] = await _standings(ctx, svc, t.id, games[-1].game_id)
    return svc, t.id, len(games)


async def _standings(ctx: Context, svc, tid: int, game_id: int) -> tuple[Series, Series]:
    ours, anchor = Series(), Series()
    await svc.tournament(tid)
    await svc.game(game_id)
    for _ in range(ctx.size(7, 3)):
        settle()
        c, w = time.process_time(), time.perf_counter()
        await svc.tournament(tid)
        ours.add(time.perf_counter() - w, time.process_time() - c)
        settle()
        c, w = time.process_time(), time.perf_counter()
        await svc.game(game_id)
        anchor.add(time.perf_counter() - w, time.process_time() - c)
    return ours, anchor


async def _sweeps_beside_ordinary(ctx: Context, svc, clock, live: int):
    """The event's database and one with ``live`` ordinary games live, swept in turns: with
    nothing due, and with every live game's turn re-armed 60% gone ("your move" and the 50%
    warning due, as bench/load.py does). ((idle, due, sent) each)."""
    from bot.timekeeping.clock import ManualClock, to_ts
    plain_clock = ManualClock(clock.now())
    plain = await _ordinary(ctx, plain_clock, live)
    try:
        out = []
        for s in (svc, plain):
            await s.sweep()  # the notices made so far, out of the way
            async with s.store.read() as tx:
                ids = [r[0] for r in await tx.fetch_all("SELECT id FROM games WHERE status = 'active'")]
            out.append((s, ids, Series(), Series(), [0]))
        for _ in range(ctx.size(7, 3)):
            for s, _ids, idle, _due, _sent in out:
                settle()
                c, w = time.process_time(), time.perf_counter()
                await s.sweep()
                idle.add(time.perf_counter() - w, time.process_time() - c)
        for _ in range(ctx.size(3, 1)):
            for s, ids, _idle, due, sent in out:
                await _rearm(s, ids, to_ts(s.clock.now()))
                settle()
                c, w = time.process_time(), time.perf_counter()
                report = await s.sweep()
                due.add(time.perf_counter() - w, time.process_time() - c)
                sent[0] += report.reminders
        return [(idle, due, sent[0]) for _s, _ids, idle, due, sent in out]
    finally:
        await plain.close()


async def _ordinary(ctx: Context, clock, games: int):
    """The anchor's database: as many ordinary games live, no tournament."""
    svc = await _open(ctx, "ordinary", clock)
    people = await _people(svc, 120, "o")
    made = 0
    while made < games:
        batch = min(200, games - made)
        await _games_alone(svc, people, batch, svc._now())
        made += batch
    return svc


async def _run(ctx: Context) -> dict:
    from datetime import UTC, datetime

    from bot.timekeeping.clock import ManualClock
    rows, skipped, notes, goals = [], [], [], []
    start = datetime(2026, 3, 2, 12, tzinfo=UTC)
    sw, rr = {}, {}
    scratch = await _open(ctx, "scratch", ManualClock(start))  # the games made alone
    scratch.people = await _people(scratch, 120, "x")
    swiss_svc = rr_svc = None
    try:
        swiss_svc, _ = await _swiss(ctx, ManualClock(start), sw, scratch)
        rr_svc, _, rr_games = await _round_robin(ctx, ManualClock(start), rr, scratch)
        n, rounds = ctx.size((100, 7), (16, 3))
        ours, anchor = sw["pair"]
        rows.append(row(f"pair a Swiss round, {n} players (rounds 2-{rounds})", "ms", time_figure(ours),
                        time_figure(anchor) if anchor else None, anchor_name="caissify-pairings Dutch"))
        if anchor is None:
            skipped.append({"case": "the Dutch anchor",
                            "why": "caissify-pairings is not installed (pip install caissify-pairings)"})
        ours, anchor = sw["round"]
        rows.append(row(f"start a Swiss round in the service ({n // 2} games)", "ms", time_figure(ours),
                        time_figure(anchor), anchor_name=f"{n // 2} games made alone"))
        ours, anchor, count = rr["start"]
        rows.append(row(f"start a double round robin ({count} games)", "ms", time_figure(ours),
                        time_figure(anchor), anchor_name=f"{count} games made alone"))
        for label, (ours, anchor) in ((f"standings, {n}-player Swiss", sw["standings"]),
                                      (f"standings, double round robin ({rr_games} games)", rr["standings"])):
            rows.append(row(label, "ms", time_figure(ours), time_figure(anchor), anchor_name="one game's view"))
        (idle, due, sent), (p_idle, p_due, p_sent) = rr["sweep"], rr["plain_sweep"]
        rows.append(row(f"sweep, nothing due, the round robin's {rr_games} games live", "ms", time_figure(idle),
                        time_figure(p_idle), anchor_name=f"{rr_games} ordinary games live"))
        rows.append(row(f"sweep, all {rr_games} games' turn due (your move, 50%)", "ms", time_figure(due),
                        time_figure(p_due), anchor_name=f"{rr_games} ordinary games due",
                        reminders=sent, anchor_reminders=p_sent))
        notes.append(f"the due sweeps sent {sent} reminders (the ordinary games' {p_sent})")
        (idle, due, sent), (p_idle, p_due, p_sent) = sw["sweep"], sw["plain_sweep"]
        live = (n // 2) - (n // 2) // 2
        rows.append(row(f"sweep, nothing due, the Swiss ({live} of its last round's games live)", "ms",
                        time_figure(idle), time_figure(p_idle), anchor_name=f"{live} ordinary games live"))
        rows.append(row(f"sweep, those {live} games' turn due", "ms", time_figure(due),
                        time_figure(p_due), anchor_name=f"{live} ordinary games due", reminders=sent,
                        anchor_reminders=p_sent))
        big = await run_big(ctx, lambda name: _open(ctx, name, ManualClock(start)), _games_alone, scratch)
        rows += big["rows"]
        goals += big["goals"]
        notes += big["notes"]
    finally:
        while _OPENED:
            with contextlib.suppress(Exception):  # closed already by its case: nothing left to do
                await _OPENED.pop().close()
    return {"rows": rows, "goals": goals, "skipped": skipped, "notes": notes}


def run(ctx: Context) -> dict:
    return run_async(_run(ctx))
