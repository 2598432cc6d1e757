"""The levels' ladder: each level's search effort per game (nodes, depth and time per
move, and whether every level searches at least as much as the one below), self-play
matches between adjacent levels in every game, and the top level against a random mover
and a one-ply greedy capturer.

Effort: every level thinks in the same positions of each game (the start and two seeded
random positions, 16 and 32 plies in) with the bot's budget (5 s a move; quick: the start
at 0.25 s),
one process, one call at a time; a level's figures are the medians over the positions.
The ladder holds in a game when, from each level to the next, the median nodes and depth
do not go down and the median time does not go down by more than a tenth or 20 ms (timer
noise on a shared machine).

Each pairing plays an even number of games, colours alternating, from the game's start
(Super Chess: its default set-up). A game ends by the rules (mate, stalemate, King and
Queen's stalemate loss, repetition, the 100-ply rule) or at the ply cap, where it is
adjudicated by material (``ai.values``, board and hands): a side ahead by at least
``ADJUDICATE_CP`` wins, otherwise a draw. A move has a short budget (full: 0.1 s;
quick: 0.02 s), so that the whole ladder runs in minutes on a shared 2-core machine
(two worker processes). Scores are points of the first-named player (win 1, draw 0.5).

    python -m bench.ladder [--effort-seconds S] [--no-effort] [--no-games]
                           [--games-per-pairing N] [--plies N] [--seconds S] [--jobs N] [GAME ...]

prints the markdown tables that bench/RESULTS.md holds; ``python -m bench ladder`` runs
it inside the benchmark run (JSON figures).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import zlib
from multiprocessing import get_context

from .common import Context, row

NAME = "ladder"
TITLE = ("Levels' effort per game (nodes, depth, time) and ladder; self-play between adjacent levels, "
         "the top one against random and greedy movers")
ADJUDICATE_CP = 300
EFFORT_PLIES = (0, 16, 32)   # the positions each level thinks in: start, and seeded random plies in
TIME_NOISE = 0.9, 0.02       # a level may show 10 % or 20 ms less time than the one below (timer noise)


def effort_positions(game_id: str, plies=EFFORT_PLIES, seed: int = 2026) -> list:
    """The start and the seeded random positions `plies` in (history kept)."""
    from .common import random_line
    line = random_line(game_id, zlib.crc32(f"{seed}:{game_id}".encode()), max(plies))
    return [line[min(p, len(line) - 1)] for p in plies]


def level_effort(game_ids, seconds: float, plies=EFFORT_PLIES, progress=None) -> list[dict]:
    """Per game and level: median nodes, depth and seconds of a move over effort_positions."""
    import ai

    from .common import median, settle
    out = []
    for gid in game_ids:
        ai.prepare(gid)
        positions = effort_positions(gid, plies)
        for lv in sorted(ai.LEVELS):
            nodes, depths, times = [], [], []
            for i, pos in enumerate(positions):
                settle()
                t = ai.think(pos, level=lv, seconds=seconds, rng=random.Random(i), tt={})
                nodes.append(t.nodes)
                depths.append(t.depth)
                times.append(t.elapsed)
            out.append({"game": gid, "level": lv, "nodes": median(nodes), "depth": median(depths),
                        "seconds": median(times), "budget": ai.LEVELS[lv].max_nodes,
                        "samples": {"nodes": nodes, "depth": depths, "seconds": times}})
            if progress:
                progress(f"effort {gid} L{lv}: {median(nodes):.0f} nodes, depth {median(depths)}, "
                         f"{median(times):.2f} s")
    return out


def ladder_holds(rows: list[dict]) -> dict[str, bool]:
    """Per game: whether nodes and depth never go down from a level to the next, and time
    not by more than TIME_NOISE (a tenth, or 20 ms)."""
    held = {}
    for gid in dict.fromkeys(r["game"] for r in rows):
        lv = sorted((r for r in rows if r["game"] == gid), key=lambda r: r["level"])
        share, slack = TIME_NOISE
        held[gid] = all(b["nodes"] >= a["nodes"] and b["depth"] >= a["depth"]
                        and (b["seconds"] >= share * a["seconds"] or b["seconds"] >= a["seconds"] - slack)
                        for a, b in zip(lv, lv[1:], strict=False))
    return held


def effort_markdown(rows: list[dict]) -> str:
    """One line per game: each level's nodes / depth / seconds, and whether the ladder holds."""
    import ai
    levels = sorted(ai.LEVELS)
    held = ladder_holds(rows)
    head = "| game | " + " | ".join(f"L{lv} nodes / depth / s" for lv in levels) + " | ladder |"
    lines = [head, "|---|" + "---:|" * len(levels) + "---|"]
    for gid, ok in held.items():
        cells = []
        for lv in levels:
            r = next(r for r in rows if r["game"] == gid and r["level"] == lv)
            cells.append(f"{r['nodes']:,.0f} / {r['depth']:g} / {r['seconds']:.2f}")
        lines.append(f"| {gid} | " + " | ".join(cells) + f" | {'holds' if ok else 'BROKEN'} |")
    budgets = ", ".join(f"L{lv} {ai.LEVELS[lv].max_nodes:,}" if ai.LEVELS[lv].max_nodes else
                        f"L{lv} none" for lv in levels)
    return "\n".join(lines) + f"\n\nnode budgets: {budgets}"


def pairings(levels: list[int]) -> list[tuple[str, str, int]]:
    """(player, opponent, weight): adjacent levels, then the top against the two simple movers."""
    top = f"L{max(levels)}"
    out = [(f"L{b}", f"L{a}", 1) for a, b in zip(levels, levels[1:], strict=False)]
    return out + [(top, "random", 2), (top, "greedy", 2)]


def choose(player: str, pos, rng: random.Random, seconds: float):
    import ai
    from ai.values import capture_gain, piece_values
    moves = sorted(pos.legal_moves(), key=lambda m: m.lan)
    if player == "random":
        return rng.choice(moves)
    if player == "greedy":  # the biggest immediate material gain, a random one among equals
        values = piece_values(pos.game)
        gains = [capture_gain(pos.board, values, m) for m in moves]
        best = max(gains)
        return rng.choice([m for m, g in zip(moves, gains, strict=True) if g == best])
    return ai.think(pos, level=int(player[1:]), seconds=seconds, rng=rng).move


def play_game(task) -> dict:
    """One game: task = (game_id, white, black, plies, seconds, seed)."""
    import rules
    from ai.values import material
    game_id, white, black, plies, seconds, seed = task
    rng = random.Random(seed)
    pos = rules.start(game_id)
    t0 = time.perf_counter()
    ply = 0
    while ply < plies and pos.outcome() is None:
        player = white if pos.side == 0 else black
        pos = pos.play(choose(player, pos, rng, seconds))
        ply += 1
    out = pos.outcome()
    if out is not None:
        result, how = out
    else:
        diff = material(pos)
        result = "1-0" if diff >= ADJUDICATE_CP else "0-1" if diff <= -ADJUDICATE_CP else "1/2-1/2"
        how = f"adjudicated at {ply} plies (material {diff:+.0f})"
    return {"game": game_id, "white": white, "black": black, "result": result, "how": how,
            "plies": ply, "seconds": time.perf_counter() - t0}


def _init_worker(game_ids) -> None:
    import ai
    for g in game_ids:
        ai.prepare(g)


def run_ladder(game_ids, games_per_pairing: int, plies: int, seconds: float, jobs: int,
               seed: int = 2026, progress=None) -> list[dict]:
    import ai
    levels = sorted(ai.LEVELS)
    tasks = []
    for gid in game_ids:
        for player, opponent, weight in pairings(levels):
            for i in range(games_per_pairing * weight):
                white, black = (player, opponent) if i % 2 == 0 else (opponent, player)
                game_seed = zlib.crc32(f"{seed}:{gid}:{player}:{opponent}:{i}".encode())
                tasks.append((gid, white, black, plies, seconds, game_seed))
    results = []
    if jobs <= 1:
        _init_worker(game_ids)
        for t in tasks:
            results.append(play_game(t))
            if progress:
                progress(f"{len(results)}/{len(tasks)} games")
    else:
        with get_context("spawn").Pool(jobs, _init_worker, (game_ids,)) as pool:
            for r in pool.imap_unordered(play_game, tasks):
                results.append(r)
                if progress:
                    progress(f"{len(results)}/{len(tasks)} games")
    return results


def score_table(results: list[dict]) -> list[dict]:
    """Per game and pairing: the first-named player's points, wins/draws/losses, how games ended."""
    import ai
    table = {}
    for gid in dict.fromkeys(r["game"] for r in results):
        for player, opponent, _w in pairings(sorted(ai.LEVELS)):
            table[(gid, player, opponent)] = {"game": gid, "player": player, "opponent": opponent,
                                              "wins": 0, "draws": 0, "losses": 0, "adjudicated": 0,
                                              "plies": 0, "n": 0}
    for r in results:
        for (gid, player, opponent), e in table.items():
            if r["game"] == gid and {r["white"], r["black"]} == {player, opponent}:
                mine = "1-0" if r["white"] == player else "0-1"
                if r["result"] == "1/2-1/2":
                    e["draws"] += 1
                elif r["result"] == mine:
                    e["wins"] += 1
                else:
                    e["losses"] += 1
                e["adjudicated"] += r["how"].startswith("adjudicated")
                e["plies"] += r["plies"]
                e["n"] += 1
    out = []
    for e in table.values():
        if e["n"]:
            e["score"] = (e["wins"] + 0.5 * e["draws"]) / e["n"]
            e["plies"] = e["plies"] / e["n"]
            out.append(e)
    return out


def markdown(rows: list[dict]) -> str:
    lines = ["| game | pairing | games | +/=/- | score | adjudicated | mean plies |",
             "|---|---|---:|---:|---:|---:|---:|"]
    for e in rows:
        lines.append(f"| {e['game']} | {e['player']} vs {e['opponent']} | {e['n']} | "
                     f"{e['wins']}/{e['draws']}/{e['losses']} | {e['score']:.2f} | "
                     f"{e['adjudicated']} | {e['plies']:.0f} |")
    return "\n".join(lines)


def run(ctx: Context) -> dict:
    from .common import games
    ids, skipped = games(ctx)
    if ctx.quick:
        ids = [g for g in ids if g in ("chess", "kingqueen")]
    n, plies, seconds = ctx.size(2, 1), ctx.size(60, 12), ctx.size(0.1, 0.02)
    effort_seconds, effort_plies = ctx.size(5.0, 0.25), ctx.size(EFFORT_PLIES, (0,))
    rows = []
    effort = level_effort(ids, effort_seconds, effort_plies, progress=ctx.progress)
    held = ladder_holds(effort)
    for e in effort:
        for metric, unit in (("nodes", "nodes"), ("depth", "plies"), ("seconds", "s")):
            figure = {"n": len(effort_plies), "median": e[metric], "p95": max(e["samples"][metric])}
            rows.append(row(f"{e['game']} L{e['level']} {metric} a move", unit, figure, better="higher",
                            game=e["game"], level=e["level"], budget=e["budget"],
                            samples=e["samples"][metric], ladder_holds=held[e["game"]]))
    t0 = time.perf_counter()
    results = run_ladder(ids, n, plies, seconds, jobs=ctx.size(2, 1), progress=ctx.progress)
    for e in score_table(results):
        figure = {"n": e["n"], "median": e["score"], "p95": e["score"]}
        rows.append(row(f"{e['game']} {e['player']} vs {e['opponent']}", "score", figure,
                        better="higher", **{k: e[k] for k in ("wins", "draws", "losses", "adjudicated")}))
    from .common import goal
    broken = [g for g, ok in held.items() if not ok]
    return {"rows": rows, "skipped": skipped,
            "goals": [goal("ladder", "every level searches at least as much as the one below "
                           "(nodes, depth; time within 10 % or 20 ms), in every game",
                           len(held) - len(broken), len(held), not broken,
                           f"broken in {', '.join(broken)}" if broken else "holds in every game")],
            "notes": [f"effort: {effort_seconds} s a move, medians over {len(effort_plies)} positions a game",
                      f"{len(results)} games in {time.perf_counter() - t0:.0f} s; {seconds} s a move, "
                      f"capped at {plies} plies and adjudicated by material (>= {ADJUDICATE_CP} cp)"],
            "params": {"games_per_pairing": n, "plies": plies, "seconds": seconds,
                       "effort_seconds": effort_seconds}}


def main(argv=None) -> int:
    import rules
    ap = argparse.ArgumentParser(prog="python -m bench.ladder", description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", help="game ids (default: all)")
    ap.add_argument("--games-per-pairing", type=int, default=2,
                    help="games per pairing of adjacent levels; twice as many for the top level "
                         "against the random and greedy movers (default 2)")
    ap.add_argument("--plies", type=int, default=60)
    ap.add_argument("--seconds", type=float, default=0.1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--effort-seconds", type=float, default=5.0,
                    help="the budget of a move when measuring each level's effort (default 5, the bot's)")
    ap.add_argument("--no-effort", action="store_true", help="skip the effort table")
    ap.add_argument("--no-games", action="store_true", help="skip the self-play matches")
    args = ap.parse_args(argv)
    ids = args.games or sorted(rules.variants())
    say = lambda s: print(s, file=sys.stderr, flush=True)  # noqa: E731
    held = {}
    if not args.no_effort:
        t0 = time.perf_counter()
        effort = level_effort(ids, args.effort_seconds, progress=say)
        held = ladder_holds(effort)
        print(effort_markdown(effort))
        print(f"\n{args.effort_seconds} s a move, medians over {len(EFFORT_PLIES)} positions a game "
              f"(plies {', '.join(map(str, EFFORT_PLIES))}), {time.perf_counter() - t0:.0f} s\n")
    if not args.no_games:
        t0 = time.perf_counter()
        results = run_ladder(ids, args.games_per_pairing, args.plies, args.seconds, args.jobs,
                             progress=say)
        print(markdown(score_table(results)))
        print(f"\n{len(results)} games in {time.perf_counter() - t0:.0f} s, {args.seconds} s a move, "
              f"capped at {args.plies} plies, {args.jobs} processes")
    return 0 if all(held.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
