"""Benchmarks: how fast the engine, the images and a whole move are, beside the anchors.

    python -m bench                 every benchmark, full size (12-20 minutes on a shared 2-core machine,
                                    and half an hour each for the strength and jocly matches)
    python -m bench perft legal     some of them
    python -m bench --quick         small sizes: a first look, and what the smoke test runs
    python -m bench --list          the names

Each benchmark measures what players and operators feel and, where there is one,
measures in the same run, interleaved with ours, what people use today (the
"anchor": python-chess, python-chess svg + cairosvg, pyffish / Fairy-Stockfish), so
that a noisy machine moves both figures and the ratio stays honest. Every figure is
a median and a p95 over repetitions after a warm-up, in wall time (what a person
waits) with the process CPU time beside it (less sensitive to other processes).

The figures go to a JSON file (``--json``, default ``bench-results.json``, or
``bench-results-quick.json`` with ``--quick``) with the machine and its load;
``bench/RESULTS.md`` says what they were here and what limits each.

Modules, one per benchmark (each has ``NAME``, ``TITLE`` and ``run(ctx) -> dict``):

    perft    perft nodes/s per game from the start; chess beside python-chess
    ffish    Grand Ducal perft beside pyffish (Fairy-Stockfish); a native FSF binary if present
    legal    legal moves + outcome of one position (a move command's rules work) per game
    image    one board image per game beside python-chess svg + cairosvg at 512 px
    move     a whole move command through the game service with SQLite, and its picture
    load     1,000 and 10,000 active games: a burst of concurrent moves, the reminder sweep
    memory   peak RSS of a bot process holding 10,000 games
    growth   database bytes per 1,000 moves, with and without pruning old notices
    search   the computer opponent's search nodes/s per game; chess beside python-chess movegen
    ladder   each level's nodes, depth and time per game and whether the ladder holds; self-play
             between adjacent levels, and the top level against a random and a greedy mover
    strength chess level 5 against sunfish (PyPI) at equal time per move, 20 games
    jocly    Gigachess II level 5 against Jocly's AI (npm, installed at run time), 10 games
    replay   an animated GIF of a 300-ply Gigachess II game: its size and time
    reads    a cold read of a 300-ply Gigachess II game; the event loop while 20 players spam reads
    web      the web page of a 300-ply Gigachess II game over HTTP on 127.0.0.1
    webflood another game's page latency while one game's pages are flooded (streams, pictures, lines, evaluations)
    scale    100,000 games held: sweeps, and moves/s over 1-4 processes, SQLite and PostgreSQL
    cores    depth and nodes at equal wall time, one core beside every core (ai.parallel), per game

Bench-only dependencies are the ``bench`` extra (python-chess, cairosvg, pyffish, sunfish); cairosvg
needs the Cairo C library (Debian: ``libcairo2``). A missing anchor is reported as skipped,
never as a failure: the benchmark still runs and writes its own figures.
"""

BENCHMARKS = ("perft", "ffish", "legal", "image", "move", "load", "memory", "growth", "search",
              "ladder", "strength", "jocly", "replay", "reads", "web", "webflood", "scale", "cores")
