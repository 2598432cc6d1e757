"""think / analyse: iterative deepening under a time budget, and the levels' choices."""
from __future__ import annotations

import gc
import random
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TypeVar

from rules.errors import GameOverError
from rules.pieces import Move
from rules.position import Position

from .levels import DEFAULT_LEVEL, Level
from .levels import level as level_of
from .search import INF, MATE, MATE_BOUND, Entry, Searcher, Timeout

DEFAULT_SECONDS = 5.0
# the search stops this much before the budget: SAN and the principal variation are
# written after it, and a node in flight finishes its move generation
RESERVE_SHARE, RESERVE_MIN, RESERVE_GENERATIONS = 0.15, 0.008, 8
# a new iteration is not begun after this share of the budget (it would rarely finish)
SOFT_SHARE = 0.45

_T = TypeVar("_T")   # a root move: a Move here, its LAN in ai.parallel


@dataclass
class Thought:
    """The chosen move and what the search saw."""
    move: Move                # legal in the position given
    lan: str
    san: str
    score_cp: int             # for the side to move; mates are +-(100000 - plies)
    depth: int                # plies of the last complete iteration
    pv: list[str] = field(default_factory=list)  # LANs, starting with the move
    nodes: int = 0
    elapsed: float = 0.0
    level: int = DEFAULT_LEVEL

    @property
    def mate_in(self) -> int | None:
        """Moves to mate (negative: being mated), or None."""
        return mate_in(self.score_cp)


@dataclass
class Analysis:
    """The best moves with their scores at the deepest complete depth, best first."""
    best: Thought
    lines: list[tuple[str, str, int]]   # (lan, san, score_cp)
    depth: int


def mate_in(score: int) -> int | None:
    if abs(score) <= MATE_BOUND:
        return None
    plies = MATE - abs(score)
    moves = (plies + 1) // 2
    return moves if score > 0 else -moves


def describe_score(score: int) -> str:
    m = mate_in(score)
    if m is not None:
        return f"mate in {m}" if m > 0 else f"mated in {-m}"
    return f"{score:+d} cp"


def _root_moves(position: Position) -> list[Move]:
    moves = position.legal_moves()
    if not moves:
        out = position.outcome()
        raise GameOverError(f"the game is over ({out[1] if out else 'no legal move'})")
    return moves


def root_score(searcher: Searcher, m: Move, depth: int, alpha: int, wide: bool,
               news: Callable[[], int] | None = None) -> int:
    """One root move's score at ``depth`` (principal-variation search at the root): above
    ``alpha`` it is exact, else only a bound (the move is no better than alpha). ``wide``:
    searched with the whole window above alpha at once (the first move); else a null
    window first, and the whole window only if the move beats alpha. Also the step each
    process of ``ai.parallel`` takes: there ``news()`` gives the best score found elsewhere
    meanwhile (alpha never falls), and a move that beats alpha is first tried against that."""
    searcher.make(m)
    try:
        if wide:
            return -searcher.negamax(depth - 1, -INF, -alpha, 1)
        while True:
            score = -searcher.negamax(depth - 1, -alpha - 1, -alpha, 1)
            better = alpha if score <= alpha or news is None else news()
            if better <= alpha:
                break
            alpha = better
        if score > alpha:
            score = -searcher.negamax(depth - 1, -INF, -alpha, 1)
        return score
    finally:
        searcher.unmake()


def depths(max_depth: int, min_depth: int, soft: float) -> Iterator[tuple[int, bool]]:
    """The iterative deepening's depths, each with whether it runs whatever the clock says
    (the first ``min_depth``); none begins after ``soft`` (but the first)."""
    for depth in range(1, max_depth + 1):
        if depth > max(1, min_depth) and time.perf_counter() >= soft:
            return
        yield depth, depth <= min_depth


def iteration_done(order: list[_T], best: _T, score: int, depth: int) -> bool:
    """After a complete iteration: its best move goes first in ``order``; True when the
    deepening ends (a forced mate found within the horizon: deeper adds nothing)."""
    order.remove(best)
    order.insert(0, best)
    return abs(score) > MATE_BOUND and MATE - abs(score) <= depth


def _best_line(searcher: Searcher, moves: Sequence[Move], max_depth: int, soft: float,
               min_depth: int = 0) -> tuple[Move, int, int]:
    """Plain iterative deepening (PVS at the root). Returns (move, score, depth). The first
    ``min_depth`` iterations run to their end whatever the clock says."""
    order = searcher.order(moves, None, 0)
    best_score: int | None
    best, best_score, done = order[0], None, 0
    deadline, node_limit = searcher.deadline, searcher.node_limit
    for depth, unbounded in depths(max_depth, min_depth, soft):
        searcher.deadline = float("inf") if unbounded else deadline
        searcher.node_limit = float("inf") if unbounded else node_limit
        cur: Move | None
        alpha, cur, cur_score = -INF, None, -INF
        try:
            for i, m in enumerate(order):
                score = root_score(searcher, m, depth, alpha, wide=i == 0)
                if score > cur_score:
                    cur, cur_score = m, score
                    alpha = max(alpha, score)
        except Timeout:
            if cur is not None:  # searched in full at this depth: better informed
                best, best_score = cur, cur_score
            break
        assert cur is not None, "a complete iteration scores every move"
        best, best_score, done = cur, cur_score, depth
        if iteration_done(order, cur, cur_score, depth):
            break
    if best_score is None:
        best_score = searcher.evaluate()
    return best, best_score, done


def _all_scores(searcher: Searcher, moves: Sequence[Move], max_depth: int, soft: float,
                shallow: bool = False) -> tuple[list[tuple[int, Move]], int]:
    """Every move's exact score at the deepest complete depth: [(score, move)], best first.

    shallow: judge each move by the evaluation right after it (no reply seen)."""
    if shallow:
        out: list[tuple[int, Move]] = []
        for m in moves:
            searcher.make(m)
            try:
                out.append((-searcher.evaluate(), m))
            finally:
                searcher.unmake()
        out.sort(key=lambda x: -x[0])
        return out, 0
    order = searcher.order(moves, None, 0)
    result: list[tuple[int, Move]] | None = None
    done = 0
    for depth in range(1, max_depth + 1):
        if depth > 1 and time.perf_counter() >= soft:
            break
        scored: list[tuple[int, Move]] = []
        try:
            for m in order:
                searcher.make(m)
                try:
                    scored.append((-searcher.negamax(depth - 1, -INF, INF, 1), m))
                finally:
                    searcher.unmake()
        except Timeout:
            break
        scored.sort(key=lambda x: -x[0])
        result, done = scored, depth
        order = [m for _s, m in scored]
    if result is None:  # not even depth 1 in time: the ordering's guess
        result = [(0, m) for m in order]
    return result, done


def _choose(scored: list[tuple[int, Move]], lvl: Level, rng: random.Random) -> tuple[int, Move]:
    candidates = scored
    if lvl.miss_capture and rng.random() < lvl.miss_capture:
        quiet = [x for x in scored if not x[1].captures]
        if quiet:
            candidates = quiet
    top = candidates[:lvl.top_n]
    return max(top, key=lambda x: x[0] + rng.gauss(0, lvl.noise_cp) if lvl.noise_cp else x[0])


def think(position: Position, *, level: int = DEFAULT_LEVEL, seconds: float | None = None,
          rng: random.Random | None = None, tt: dict[int, Entry] | None = None, min_depth: int = 0) -> Thought:
    """The move the computer plays in `position` at this level, within `seconds`.

    Never takes longer than `seconds` (default 5), counted from the call, once the
    game's tables are built (``prepare``) -- unless `min_depth` (for the exact levels)
    asks for that many plies whatever the time: an analysis whose judgement must not
    depend on how busy the machine is (a game's review). Raises GameOverError when the
    game is over, ValueError for a bad level or budget. `tt` may carry a transposition
    table from one call to the next (same game).
    """
    lvl = level_of(level)
    # no collection from the first allocation on: a full one in a process holding many
    # moves' plans (rules.movegen) could take most of a short budget
    with _no_gc_pauses():
        clock = _Clock(seconds, lvl.time_share)
        rng = rng if rng is not None else random.Random()
        searcher, moves = clock.searcher(position, tt)
        if lvl.max_nodes is not None:
            searcher.node_limit = lvl.max_nodes
        if lvl.exact:
            move, score, depth = _best_line(searcher, moves, lvl.max_depth, clock.soft, min_depth)
        else:
            shallow = bool(lvl.blunder) and rng.random() < lvl.blunder
            scored, depth = _all_scores(searcher, moves, lvl.max_depth, clock.soft, shallow)
            score, move = _choose(scored, lvl, rng)
        thought = _thought(position, searcher, move, score, depth, clock, lvl.number)
        del searcher   # its table and stacks freed by reference counts, not collected
        _collect_young()
    return thought


@contextmanager
def _no_gc_pauses() -> Iterator[None]:
    """A full collection of a big process can take longer than a short budget's reserve;
    the search makes few reference cycles, so collection waits until it is done."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _collect_young() -> None:
    """Collect what a search kept (plans built, moves' memos: a few thousand objects)
    while it is young, before collection comes back on: otherwise the first allocation
    after it pays for every object the search allocated, and may start a full
    collection - 0.1-0.2 s in a process holding many plans - before the call returns.
    A full collection comes when the process's own allocations call for it."""
    gc.collect(0)


class _Clock:
    """The budget: a hard deadline for the search, leaving time for what comes after it
    (a node in flight, the principal variation, the SAN), and a soft one after which no
    new iteration begins. What comes after is priced by the time one move generation
    took in this very position."""

    def __init__(self, seconds: float | None, share: float = 1.0):
        if seconds is None:
            seconds = DEFAULT_SECONDS
        if not seconds > 0:
            raise ValueError(f"the time budget must be more than 0 seconds, not {seconds}")
        seconds *= share
        self.start = time.perf_counter()
        self.end = self.start + seconds
        self.soft = self.start + seconds * SOFT_SHARE
        self.generation = 0.0

    def searcher(self, position: Position, tt: dict[int, Entry] | None = None) -> tuple[Searcher, list[Move]]:
        _root_moves(position)
        searcher = Searcher(position, self.end, tt)
        t0 = time.perf_counter()
        moves = searcher.pos.legal_moves()   # the private copy's: the ones it can make
        self.generation = time.perf_counter() - t0
        seconds = self.end - self.start
        searcher.deadline = self.end - max(RESERVE_MIN, seconds * RESERVE_SHARE,
                                           RESERVE_GENERATIONS * self.generation)
        return searcher, moves

    def left_for(self, generations: int) -> bool:
        """Whether this many move generations still fit in the budget."""
        return time.perf_counter() + generations * self.generation + RESERVE_MIN < self.end


def _thought(position: Position, searcher: Searcher, move: Move, score: int, depth: int, clock: _Clock,
             level: int) -> Thought:
    move = {m.lan: m for m in position.legal_moves()}[move.lan]   # the caller's own Move
    pv = [m.lan for m in searcher.pv(move, lambda: clock.left_for(4))] if depth else [move.lan]
    return Thought(move=move, lan=move.lan, san=position.san(move), score_cp=int(score), depth=depth,
                   pv=pv, nodes=searcher.nodes, elapsed=time.perf_counter() - clock.start, level=level)


def analyse(position: Position, seconds: float | None = None, *, lines: int = 5, max_depth: int = 64) -> Analysis:
    """The `lines` best moves with exact scores (for hints and reviews), searched within
    `seconds`; writing their SAN comes after."""
    with _no_gc_pauses():
        clock = _Clock(seconds)
        searcher, moves = clock.searcher(position)
        scored, depth = _all_scores(searcher, moves, max_depth, clock.soft)
        score, move = scored[0]
        best = _thought(position, searcher, move, score, depth, clock, DEFAULT_LEVEL)
        del searcher   # as think
        _collect_young()
    top = [(m.lan, position.san(m), int(s)) for s, m in scored[:lines]]
    best.elapsed = time.perf_counter() - clock.start
    return Analysis(best=best, lines=top, depth=depth)


def prepare(game_id: str) -> None:
    """Build a game's move and evaluation tables (0.1-0.5 s the first time in a process).

    think() holds its budget from the call once the game's tables exist; a worker calls
    this for every game when it starts, so that no player's first move pays for it."""
    import rules

    from .evaluation import evaluator
    game = rules.game(game_id)
    game.build_tables()
    ev = evaluator(game)
    for key in game.types:
        for color in (0, 1):
            for kind in game.state_kinds(key, color):
                ev.table(kind)
    start = rules.start(game_id)
    start.san(start.legal_moves()[0])   # and the notation module, which SAN imports


def evaluate(position: Position) -> int:
    """The static evaluation, centipawns for the side to move."""
    from .evaluation import static_eval
    return static_eval(position)
