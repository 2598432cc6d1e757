"""Long thinking with every core (ai.parallel): depth and nodes at equal wall time, one
core beside all of them, per game.

For each game, two positions (the start, and the position after 30 seeded random plies):
``ai.think`` (level 5, one core, today's path) and ``ai.parallel.think`` with every core
(``os.cpu_count()`` processes, a warm pool holding every game's tables) search each for
the same budget (3 s; quick: 0.2 s, which ``think`` itself would leave to one core,
``MIN_SECONDS``: measured here all the same), interleaved ABBA. Rows: the nodes searched and the
depth completed (ratio: every core / one core, above 1 is the gain), and every core's
wall time over the budget (ms; below 0: under). Then both search to the depth one core
reached, whatever the time: the nodes each needed (the search overhead of splitting)
and the CPU seconds of one core beside those of the busiest process (the speed-up where
each process has a core to itself, which a loaded machine does not give).

And a review's way (``ai.parallel.think_each``): the positions of a 12-ply game, each
searched on one core for 0.3 s one after the other, beside every core sharing them out
with each searched cores x 0.3 s: the wall time (about equal) and the mean depth.

On a machine shared with other work a process waits for a core: the load is beside
every row, and the gain is what every core gives *on this machine as loaded*. The
processes run each in a session of its own (``Pool(own_session=True)``): Linux's
autogroup shares the CPU between sessions, so on a machine busy with other sessions'
work the processes of one session together would get one process's share. The "CPU
seconds the search got" rows say how much CPU the processes had, beside one.
"""

from __future__ import annotations

import os
import time

from .common import Context, Series, goal, median, percentile, random_line, row, settle, time_figure

NAME = "cores"
TITLE = "Depth and nodes at equal wall time: one core beside every core (ai.parallel), per game"
REVIEW_SECONDS = 0.3
REVIEW_PLIES = 12


def _figure(values: list[float]) -> dict:
    return {"n": len(values), "median": median(values), "p95": percentile(values, 95),
            "min": min(values), "max": max(values), "samples": values}


def _beside(case: str, metric: str, ours: list, one: list, better: str, **extra) -> dict:
    """A row of every core's figures beside one core's; without the anchor where a median
    is 0 (a depth not completed in a quick run on a loaded machine): no ratio to take."""
    both = median(ours) > 0 and median(one) > 0
    return row(case, metric, _figure(ours), _figure(one) if both else None,
               anchor_name="one core" if both else None, better=better, one_core=one, **extra)


def _one(pos, seconds: float):
    """(thought, wall seconds, CPU seconds the search got)"""
    import ai
    settle()
    t0, c0 = time.perf_counter(), time.thread_time()
    t = ai.think(pos, seconds=seconds, tt={})
    return t, time.perf_counter() - t0, time.thread_time() - c0


def _all(pool, pos, seconds: float):
    from ai import parallel
    settle()
    t0 = time.perf_counter()
    t = parallel.think(pos, seconds=seconds, cores=pool.cores, pool=pool, min_seconds=0)
    wall = time.perf_counter() - t0
    pool.settle()   # every process's part counted
    return t, wall, sum(pool.work)


def _to_depth(pool, pos, depth: int) -> dict:
    """One core and every core searching to the same depth, whatever the time: the nodes
    each needed (search overhead: the processes' tables are apart, and moves begin before
    the best one's score is known) and the CPU seconds on the longest path (one process's
    share of the work: the time it takes where each process has a core of its own)."""
    from ai import engine, parallel
    settle()
    searcher, moves = engine._Clock(3600.0).searcher(pos)
    c0 = time.thread_time()
    engine._best_line(searcher, moves, depth, float("inf"))
    one_cpu = time.thread_time() - c0
    settle()
    t = parallel.think(pos, seconds=3600.0, cores=pool.cores, pool=pool, max_depth=depth)
    pool.settle()
    return {"depth": depth, "one_nodes": searcher.nodes, "all_nodes": t.nodes, "one_cpu": one_cpu,
            "longest_cpu": max(pool.work), "overhead": t.nodes / searcher.nodes,
            "speedup": one_cpu / max(max(pool.work), 1e-6)}


def _review(ctx: Context, pool, gid: str, rows: list, notes: list) -> None:
    import ai
    from ai import parallel
    line = [p for p in random_line(gid, ctx.seed + 1, REVIEW_PLIES) if p.legal_moves()]
    one_wall, all_wall, one_depth, all_depth = Series(), Series(), [], []
    for i in range(ctx.size(2, 1)):
        for who in (("one", "all") if i % 2 == 0 else ("all", "one")):
            settle()
            t0 = time.perf_counter()
            if who == "one":
                ts = [ai.think(p, seconds=REVIEW_SECONDS, min_depth=2) for p in line]
                one_wall.add(time.perf_counter() - t0)
                one_depth.append(sum(t.depth for t in ts) / len(ts))
            else:
                ts = parallel.think_each(line, seconds=REVIEW_SECONDS * pool.cores, cores=pool.cores,
                                         pool=pool, min_depth=2)
                all_wall.add(time.perf_counter() - t0)
                all_depth.append(sum(t.depth for t in ts) / len(ts))
    rows.append(row(f"{gid} review of {len(line)} positions: wall", "ms", time_figure(all_wall),
                    time_figure(one_wall), anchor_name="one core", better="lower", game=gid))
    rows.append(_beside(f"{gid} review of {len(line)} positions: mean depth", "plies", all_depth,
                        one_depth, better="higher", game=gid))
    notes.append(f"{gid} review: mean depth {median(one_depth):.2f} on one core, "
                 f"{median(all_depth):.2f} with {pool.cores} (each position {pool.cores} x the time)")


def run(ctx: Context) -> dict:
    import ai
    from ai import parallel

    from .common import games
    ids, skipped = games(ctx)
    cores = os.cpu_count() or 1
    if cores < 2:
        return {"rows": [], "goals": [], "notes": [], "skipped": [
            {"case": "every core", "why": f"this machine has {cores} core: nothing to share"}]}
    seconds = ctx.size(3.0, 0.2)
    reps = ctx.size(3, 1)
    for gid in ids:
        ai.prepare(gid)
    rows, notes, nodes_gain, depth_gain, speedups = [], [], {}, {}, {}
    # each process in a session of its own: Linux shares the CPU between sessions
    # (autogroup), and on a machine loaded by other sessions the processes of one would
    # together get what one process gets (ai.parallel.Pool)
    with parallel.Pool(cores, games=ids, own_session=True) as pool:
        for gid in ids:
            line = random_line(gid, ctx.seed, 30)
            cases = ((f"{gid} start", line[0]), (f"{gid} ply {len(line) - 1}", line[-1]))
            for label, pos in cases[:ctx.size(2, 1)]:
                one_nodes, all_nodes, one_depth, all_depth, over = [], [], [], [], Series()
                one_cpu, all_cpu = [], []
                for i in range(reps):
                    for who in (("one", "all") if i % 2 == 0 else ("all", "one")):
                        if who == "one":
                            t, _wall, cpu = _one(pos, seconds)
                            one_cpu.append(cpu)
                            one_nodes.append(t.nodes)
                            one_depth.append(t.depth)
                        else:
                            t, wall, cpu = _all(pool, pos, seconds)
                            all_cpu.append(cpu)
                            all_nodes.append(t.nodes)
                            all_depth.append(t.depth)
                            over.add(wall - seconds)
                    ctx.progress(f"{label}: rep {i + 1}/{reps}: nodes {one_nodes[-1]:,} -> "
                                 f"{all_nodes[-1]:,}, depth {one_depth[-1]} -> {all_depth[-1]}")
                r = _beside(f"{label} nodes", "nodes", all_nodes, one_nodes, better="higher",
                            game=gid, seconds=seconds, cores=cores)
                rows.append(r)
                if r["ratio"] is not None:
                    nodes_gain[label] = r["ratio"]
                r = _beside(f"{label} depth", "plies", all_depth, one_depth, better="higher",
                            game=gid, seconds=seconds, cores=cores)
                rows.append(r)
                depth_gain[label] = median(all_depth) - median(one_depth)
                rows.append(_beside(f"{label} CPU seconds the search got", "s", all_cpu, one_cpu,
                                    better="higher", game=gid))
                fig = time_figure(over)
                fig["max"] = max(over.wall) * 1000
                rows.append(row(f"{label} {cores} cores: time over budget", "ms", fig, better="lower",
                                game=gid, exceeded=sum(1 for x in over.wall if x > 0)))
                d = _to_depth(pool, pos, max(1, int(median(one_depth))))
                rows.append(_beside(f"{label} to depth {d['depth']}: nodes", "nodes", [d["all_nodes"]],
                                    [d["one_nodes"]], better="lower", game=gid))
                rows.append(_beside(f"{label} to depth {d['depth']}: CPU s on the longest path", "s",
                                    [d["longest_cpu"]], [d["one_cpu"]], better="lower", game=gid))
                speedups[label] = d["speedup"]
            if not ctx.quick:
                _review(ctx, pool, gid, rows, notes)
    notes.append(f"{cores} processes beside one, {seconds:g} s a search, {reps} repetitions "
                 f"(ABBA); load {os.getloadavg()[0]:.2f} at the end")
    notes.append("to the depth one core reaches in the budget, one core's CPU seconds over the "
                 "longest process's (the speed-up where each process has a core): "
                 + ", ".join(f"{k}: {v:.2f}" for k, v in speedups.items()))
    notes.append("depth gained (median plies, every core - one core): "
                 + ", ".join(f"{k}: {v:+g}" for k, v in depth_gain.items()))
    if not nodes_gain:
        nodes_gain["none measured"] = 0.0
    worst = min(nodes_gain, key=nodes_gain.get)
    goals = [goal("4", f"every core ({cores}) searches more nodes than one at equal wall time, every game",
                  nodes_gain[worst], 1.0, nodes_gain[worst] > 1.0,
                  f"lowest: {worst}; all: " + ", ".join(f"{k}: {v:.2f}" for k, v in nodes_gain.items())),
             goal("4b", "and at least as deep, every game", min(depth_gain.values()), 0.0,
                  min(depth_gain.values()) >= 0, "median plies gained per position"),
             goal("4c", "to the same depth, the busiest process works less than one core does, every game",
                  min(speedups.values()), 1.0, min(speedups.values()) > 1.0,
                  "one core's CPU seconds / the busiest process's: "
                  + ", ".join(f"{k}: {v:.2f}" for k, v in speedups.items()))]
    return {"rows": rows, "goals": goals, "skipped": skipped, "notes": notes,
            "params": {"seconds": seconds, "reps": reps, "cores": cores}}
