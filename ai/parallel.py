"""Thinking with every core: processes searching one position together.

    ai.parallel.think(position, seconds=30, cores=4)   -> ai.Thought, as ai.think's
    ai.parallel.think_each(positions, seconds, cores)  -> [ai.Thought], one per position
    ai.parallel.Pool(cores, games)                     -> the searching processes, kept warm

**One position (``think``): the root's moves shared out, one iteration at a time.** Each
process holds its own searcher (its own transposition table, killers and history) on
the same root. For every depth of the iterative deepening the coordinator (the caller's
process, which only waits) hands the root moves out in the order of the last iteration,
one at a time to whichever process is free, with the best score known so far as alpha:
each move is searched as ``engine.root_score`` searches it in one process, a null window
first and the whole window above alpha if it beats it. The best move is searched whole
(``wide``); the others begin before its score is known, with alpha a little below the
last iteration's score (an aspiration floor, ``ASPIRATION_CP``): when every move falls
under it, the iteration is searched again from no floor. A move scored above its alpha
has its exact score; the best exact score wins, ties going to the move first in order.
Python processes share no memory: a shared transposition table (the usual "lazy SMP")
would cost every node a trip through shared memory, where splitting the root costs a
message a move.

**Many positions (``think_each``, a game's review): one position a process**, each
searched by ``ai.think`` on one core: no coordination at all, and each position's answer
is what one core gives for it.

**The time budget.** Every process stops itself at the same hard deadline, placed as
``ai.think`` places it (``engine._Clock``, the machine's monotonic clock is every
process's); the coordinator never waits past the budget's end for a process that has
not answered (a process descheduled on a loaded machine): its answer is drained at the
next call. The budget counts from the call once the processes exist and hold the game's
tables: ``Pool`` starts them (spawned, 0.2-1 s each with every game's tables) and keeps
them warm between calls; ``think`` builds a game's tables in each process first, before
its clock starts, as ``fairypost think`` builds them in its own process before it.

**No orphans.** The processes ignore Ctrl-C (the coordinator handles it), end when their
parent process ends (a thread watches its sentinel: even a killed parent's processes
stop at once, mid-search), and are daemons of it. An error or an interrupt in the
coordinator closes the pool (every process terminated and joined) before it propagates.

Levels 1-4 always think on one core: their strength is a node budget, the same on
every machine. ``cores=1`` is ``ai.think`` itself, in the caller's process, and so is a
budget under ``MIN_SECONDS`` (1 s): the processes are warm, but a short search is mostly
its first iterations' many quick moves, which cost more to hand out than they take.
"""
from __future__ import annotations

import atexit
import contextlib
import gc
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from multiprocessing.connection import Connection, wait
from multiprocessing.context import SpawnContext
from typing import Any

from rules.pieces import Move
from rules.position import Position

from . import engine
from .engine import Thought, iteration_done, root_score
from .levels import DEFAULT_LEVEL
from .levels import level as level_of
from .search import INF, MATE_BOUND, Searcher, Timeout

MIN_SECONDS = 1.0       # shorter budgets think on one core (see think)
CHUNK_SHARE = 2         # a process takes at most 1/(this x processes) of the moves left at once
ASPIRATION_CP = 50      # the others' alpha while the best move is searched: its last score less this
JOIN_SECONDS = 2.0      # how long a closing pool waits for a process before killing it


def default_cores() -> int:
    """Every core of the machine."""
    return os.cpu_count() or 1


class HelperFailed(RuntimeError):
    """A searching process failed or died: the pool is closed; ``str()`` says what happened."""


# --- the searching process ---------------------------------------------------------------

def end_with_parent() -> None:
    """End this process as soon as its parent ends, however it ends (kill -9 too), even
    mid-search: no orphan process, and none left holding multiprocessing's resource tracker
    (which ends when the last process holding its pipe does). A spawned process's parent
    holds the write end of a pipe whose read end is the child's ``sentinel`` of it: the
    system closes it when the parent dies. For every process fairypost spawns: these
    searching processes, the computer's worker (bot/computer/player.py), the pages'
    workers (bot/web/work.py)."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        wait([parent.sentinel])
        os._exit(0)

    threading.Thread(target=watch, name="fairypost-parent-watch", daemon=True).start()


def _rebuild(game_id: str, vfen: str, lans: Iterable[str], fen: str) -> Position:
    """The position with the history the repetition rule looks back to (see ``_portable``)."""
    import rules
    pos = rules.from_fen(game_id, vfen)
    for lan in lans:
        pos = pos.play(lan)
    if pos.fen() != fen:   # never expected: the position without its history rather than another one
        pos = rules.from_fen(game_id, fen)
    return pos


class _Helper:
    """A searching process's state: the root it searches and its searcher."""

    def __init__(self, conn: Connection):
        self.conn = conn
        self.searcher: Searcher | None = None
        self.moves: dict[str, Move] = {}
        self.deadline = 0.0
        self.cpu0 = 0.0
        self.alpha_now = -INF

    def work(self) -> float:
        """CPU seconds this process has spent on the current call."""
        return time.thread_time() - self.cpu0

    # each request's answer: a tuple naming what it is, then its figures (None: no answer)
    def prepare(self, game_id: str) -> tuple[str]:
        engine.prepare(game_id)
        return ("ok",)

    def root(self, game_id: str, vfen: str, lans: list[str], fen: str,
             deadline: float) -> tuple[str, None, int, float]:
        self.cpu0 = time.thread_time()
        gc.disable()   # as ai.think: no collection pauses mid-search
        pos = _rebuild(game_id, vfen, lans, fen)
        self.searcher = Searcher(pos, deadline)
        self.deadline = deadline
        self.moves = {m.lan: m for m in self.searcher.pos.legal_moves()}
        return ("root", None, 0, self.work())

    def search(self, depth: int, lans: list[str], alpha: int, wide: bool,
               unbounded: bool) -> tuple[str, list[tuple[str, int, int]], int, float]:
        """Root moves in turn at ``depth``: [(lan, the alpha it was searched with, score)].
        Alpha rises with each exact score here and with the coordinator's news ("alpha"
        messages, read between moves); ``wide``: the first move is the last best."""
        s = self.searcher
        assert s is not None, "a search follows its root"
        s.deadline = float("inf") if unbounded else self.deadline
        out: list[tuple[str, int, int]] = []
        self.alpha_now = alpha
        for i, lan in enumerate(lans):
            self.news()
            try:
                score = root_score(s, self.moves[lan], depth, self.alpha_now,
                                   (wide and i == 0) or self.alpha_now <= -INF, self.news)
            except Timeout:
                return ("timeout", out, s.nodes, self.work())
            out.append((lan, self.alpha_now, score))
            self.alpha_now = max(self.alpha_now, score)
        return ("done", out, s.nodes, self.work())

    def news(self) -> int:
        """Alpha, raised by the scores the coordinator has sent meanwhile."""
        while self.conn.poll():
            _op, better = self.conn.recv()
            self.alpha_now = max(self.alpha_now, int(better))
        return self.alpha_now

    def alpha(self, _better: int) -> None:
        """News for a search that has ended meanwhile: nothing to do, no answer."""

    def pv(self, lan: str, until: float) -> tuple[str, list[str]]:
        assert self.searcher is not None, "a principal variation follows its root"
        line = self.searcher.pv(self.moves[lan], lambda: time.perf_counter() < until)
        return ("pv", [m.lan for m in line])

    def end(self) -> None:
        """Forget the root (its table may hold a million entries); no answer."""
        self.searcher, self.moves = None, {}
        gc.enable()   # no collection now: the table goes by reference counts, and a full
        # collection of these tables would delay the next call's start

    def think(self, game_id: str, vfen: str, lans: list[str], fen: str, seconds: float | None, level: int,
              min_depth: int) -> tuple[str, str, int, int, int, list[str], float]:
        self.cpu0 = time.thread_time()
        pos = _rebuild(game_id, vfen, lans, fen)
        t = engine.think(pos, level=level, seconds=seconds, min_depth=min_depth)
        return ("thought", t.lan, t.score_cp, t.depth, t.nodes, t.pv, self.work())


def _helper_main(conn: Connection, games: Iterable[str], own_session: bool = False) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # Ctrl-C is the coordinator's to handle
    if own_session and hasattr(os, "setsid"):
        os.setsid()
    end_with_parent()
    helper = _Helper(conn)
    for g in games:
        engine.prepare(g)
    try:
        conn.send(("ready", os.getpid()))
    except OSError:   # the coordinator closed the pool while this process started
        return
    while True:
        try:
            op, *args = conn.recv()
        except (EOFError, OSError):   # the coordinator is gone
            return
        try:
            reply = getattr(helper, op)(*args)
        except Exception as e:  # noqa: BLE001 - told to the coordinator, which raises it
            reply = ("error", f"{type(e).__name__}: {e}")
        if reply is not None:
            try:
                conn.send(reply)
            except OSError:   # the coordinator is gone (closed the pool mid-search)
                return


# --- the coordinator's side ----------------------------------------------------------------

@contextlib.contextmanager
def sigint_ignored() -> Iterator[None]:
    """Ctrl-C ignored while a process is started, so that it starts ignoring it (Python
    keeps an ignored SIGINT ignored): a Ctrl-C while it imports is the coordinator's alone.
    The coordinator still gets a Ctrl-C typed meanwhile: SIGINT is also blocked here, and
    Linux keeps a blocked signal pending (not discarded as ignored) until it is unblocked,
    after the handler is back. Only the main thread may change a handler; elsewhere the
    process ignores it from its first line of ours (``_helper_main``)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


class _Handle:
    """One searching process seen from the coordinator: requests sent, answers owed."""

    def __init__(self, ctx: SpawnContext, games: Iterable[str], own_session: bool = False):
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=_helper_main, args=(child, tuple(games), own_session),
                                   name="fairypost-search", daemon=True)
        with sigint_ignored():
            self.process.start()
        child.close()
        self.owed = 1      # its "ready"
        self.work = 0.0    # CPU seconds of its part of the last call
        self.nodes = 0

    @property
    def pid(self) -> int | None:
        return self.process.pid

    def send(self, *msg: object, answer: bool = True) -> None:
        try:
            self.conn.send(msg)
        except (OSError, ValueError) as e:
            raise HelperFailed(f"a searching process (pid {self.pid}) is gone ({e})") from None
        self.owed += answer

    def recv(self) -> Any:   # a reply of _Helper's, as it came over the pipe
        try:
            reply = self.conn.recv()
        except (EOFError, OSError) as e:
            raise HelperFailed(f"a searching process (pid {self.pid}) died "
                               f"(exit code {self.process.exitcode}; {type(e).__name__})") from None
        self.owed -= 1
        if reply[0] == "error":
            raise HelperFailed(f"a searching process failed: {reply[1]}")
        if reply[0] in ("root", "done", "timeout"):   # (..., nodes, CPU seconds, ...)
            self.nodes, self.work = reply[2], reply[3]
        return reply

    def settle(self) -> None:
        """Take the answers still owed (a search past its deadline ends by itself)."""
        while self.owed:
            self.recv()


class Pool:
    """``cores`` searching processes (spawned), each with the tables of ``games`` built
    at its start; kept until ``close()`` (or the end of this process).

    ``own_session``: each process in a session of its own (POSIX). Linux's autogroup
    scheduling shares the CPU between sessions, not processes: on a machine busy with
    other sessions' work, processes of one session together get what one would. The
    benchmark measures the search's gain with it; the bot and ``fairypost think`` leave
    their processes in their session (they take no more than their share)."""

    def __init__(self, cores: int, games: Iterable[str] = (), *, own_session: bool = False):
        if cores < 1:
            raise ValueError(f"a pool needs at least 1 process, not {cores}")
        ctx = multiprocessing.get_context("spawn")
        self.helpers: list[_Handle] = []
        games = tuple(games)
        self.prepared = set(games)
        self.closed = False
        try:
            for _ in range(cores):
                self.helpers.append(_Handle(ctx, games, own_session))
            for h in self.helpers:
                h.settle()
        except BaseException:
            self.close()
            raise

    @property
    def cores(self) -> int:
        return len(self.helpers)

    @property
    def pids(self) -> list[int | None]:
        return [h.pid for h in self.helpers]

    @property
    def alive(self) -> bool:
        return not self.closed and all(h.process.is_alive() for h in self.helpers)

    @property
    def work(self) -> list[float]:
        """Each process's CPU seconds in the last call (the time budget judged by work)."""
        return [h.work for h in self.helpers]

    def settle(self) -> None:
        """Wait for every answer still owed: each process idle (a search past the deadline
        of the last call stops by itself)."""
        for h in self.helpers:
            h.settle()

    def ready(self, game_id: str) -> None:
        """Every process idle and holding ``game_id``'s tables (before a clock starts)."""
        self.settle()
        if game_id not in self.prepared:
            for h in self.helpers:
                h.send("prepare", game_id)
            for h in self.helpers:
                h.settle()
            self.prepared.add(game_id)
        for h in self.helpers:
            h.work, h.nodes = 0.0, 0

    def close(self) -> None:
        """Every process ended and joined (terminated if it does not end by itself)."""
        self.closed = True
        for h in self.helpers:
            h.conn.close()   # an idle process ends at once on the closed pipe
        for h in self.helpers:
            h.process.join(JOIN_SECONDS / 4)
            if h.process.is_alive():   # mid-search
                h.process.terminate()
                h.process.join(JOIN_SECONDS)
            if h.process.is_alive():
                h.process.kill()
                h.process.join()

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_shared: Pool | None = None


def shared_pool(cores: int, games: Iterable[str] = ()) -> Pool:
    """This process's warm pool of ``cores`` processes (made on first use, made again if
    it was closed or a process died)."""
    global _shared
    if _shared is None or not _shared.alive or _shared.cores != cores:
        if _shared is not None:
            _shared.close()
        _shared = Pool(cores, games)
    return _shared


def close_shared_pool() -> None:
    global _shared
    if _shared is not None:
        _shared.close()
        _shared = None


atexit.register(close_shared_pool)


def _portable(position: Position) -> tuple[str, str, list[str], str]:
    """(game, VFEN, LANs, VFEN of the position itself): a position as text, with as much of
    its history as the repetition rule looks back to (the plies since the last capture or
    pawn move), rebuilt in another process by playing the LANs from the VFEN. Positions
    pickle badly (interned piece kinds), and the history holds only keys: the oldest one
    needed is made a position again to write its VFEN."""
    from rules.pieces import BLACK
    game = position.game
    lans: list[str] = []
    cell, fullmove = position.history, position.fullmove
    oldest = None
    while cell is not None and len(lans) < position.halfmove:
        oldest, lan, cell = cell
        lans.append(lan)
        if oldest[1] == BLACK:   # a black move took the count up by one
            fullmove -= 1
    fen = position.fen()
    if oldest is None:
        return game.id, fen, [], fen
    board, side, rights, ep, hands, dropped, setup = oldest
    start = type(position)(game, list(board), side, rights, ep, position.halfmove - len(lans),
                           max(1, fullmove), hands, dropped, setup)
    return game.id, start.fen(), lans[::-1], fen


def think(position: Position, *, seconds: float | None = None, cores: int | None = None,
          level: int = DEFAULT_LEVEL, min_depth: int = 0, max_depth: int = 64,
          pool: Pool | None = None, min_seconds: float = MIN_SECONDS) -> Thought:
    """ai.think with ``cores`` processes searching together (default: every core).

    The same contract: a legal move within ``seconds`` (from the call, once the processes
    hold the game's tables), GameOverError on a finished game, ValueError for a bad level
    or budget; ``min_depth`` plies whatever the clock. ``pool``: processes to use (default:
    this process's warm pool of ``cores``). Levels below the top, ``cores=1`` and budgets
    under ``min_seconds`` are ``ai.think`` in this process: in a short search the first
    iterations' many quick moves are most of the work, and handing them out costs more
    than another core gives (bench/RESULTS.md: at 0.2 s, fewer nodes than one core)."""
    cores = default_cores() if cores is None else cores
    if cores < 1:
        raise ValueError(f"cores must be at least 1, not {cores}")
    lvl = level_of(level)
    budget = (engine.DEFAULT_SECONDS if seconds is None else seconds) * lvl.time_share
    if cores == 1 or not lvl.exact or lvl.max_nodes is not None or budget < min_seconds:
        return engine.think(position, level=level, seconds=seconds, min_depth=min_depth)
    engine._root_moves(position)   # a finished game raises before any process is asked
    engine._Clock(seconds)         # and so does a bad budget
    pool = pool if pool is not None else shared_pool(cores)
    try:
        engine.prepare(position.game.id)   # this process orders the root moves
        pool.ready(position.game.id)
        where = _portable(position)
        with engine._no_gc_pauses():
            clock = engine._Clock(seconds, lvl.time_share)
            searcher, moves = clock.searcher(position)
            return _Together(pool, searcher, clock, where).run(position, moves, lvl.number,
                                                               min_depth, max_depth)
    except BaseException:   # an interrupt, a process gone: none left searching
        pool.close()
        raise


class _Shares:
    """One iteration's root moves still to hand out. The last best alone first; then each
    process takes its own, the moves it searched the iteration before (its table holds
    their trees: hash moves all the way down), then moves no one has searched, then the
    last of another's. Shares shrink as the moves left do: few messages for the many
    quick moves of a shallow depth, balance at the end."""

    def __init__(self, order: Sequence[str], owner: dict[str, _Handle], helpers: Sequence[_Handle]):
        self.first, self.first_left = order[0], True
        self.first_to = owner.get(order[0])
        self.own: dict[_Handle | None, list[str]] = {h: [] for h in helpers}
        self.free: list[str] = []
        for lan in order[1:]:
            self.own.get(owner.get(lan), self.free).append(lan)
        self.share = CHUNK_SHARE * len(helpers)

    def __len__(self) -> int:
        return self.first_left + len(self.free) + sum(map(len, self.own.values()))

    def take(self, h: _Handle) -> list[str]:
        if self.first_left:
            self.first_left = False
            return [self.first]
        n = -(-len(self) // self.share)
        src = self.own[h] or self.free
        if src:
            chunk, src[:n] = src[:n], []
            return chunk
        src = max(self.own.values(), key=len)   # another's, from its end (its least likely)
        chunk, src[-n:] = src[-n:], []
        return chunk


class _Together:
    """One ``think``: iterations whose root moves are shared among the processes."""

    def __init__(self, pool: Pool, searcher: Searcher, clock: engine._Clock, where: tuple[str, str, list[str], str]):
        self.pool, self.searcher, self.clock = pool, searcher, clock
        self.idle = list(pool.helpers)
        for h in self.idle:
            h.send("root", *where, searcher.deadline)
        self.searched_by: dict[tuple[int, str], _Handle] = {}   # (depth, lan) -> the process holding its search
        self.owner: dict[str, _Handle] = {}         # lan -> the process that searched it last

    def _answers(self, busy: dict[_Handle, Any], until: float) -> list[tuple[_Handle, Any, Any]]:
        """The answers of busy processes as they come, until ``until``."""
        left = until - time.perf_counter()
        if left <= 0:
            return []
        ready = wait([h.conn for h in busy], timeout=None if left == float("inf") else left)
        out = []
        for h in list(busy):
            if h.conn in ready:
                reply = h.recv()
                out.append((h, busy.pop(h), reply))
                self.idle.append(h)
        return out

    def _start(self, unbounded: bool) -> bool:
        """Every process has its root (it rebuilt the position); False if the budget ran out."""
        busy: dict[_Handle, None] = {h: None for h in self.idle}
        self.idle = []
        while busy:
            if not self._answers(busy, float("inf") if unbounded else self.searcher.deadline):
                return False
        return True

    def iteration(self, order: list[str], depth: int, floor: int,
                  unbounded: bool) -> tuple[str | None, int, bool, dict[str, int]]:
        """One depth: (best lan, its score, complete?, scores of the moves searched whole).
        The best is None if no move scored above ``floor``."""
        queue = _Shares(order, self.owner, self.pool.helpers)
        busy: dict[_Handle, list[str]] = {}
        told: dict[_Handle, int] = {}
        first = order[0]
        cur: str | None = None
        cur_score = -INF
        exact: dict[str, int] = {}
        rank = {lan: i for i, lan in enumerate(order)}
        timed_out = lost = False   # no more moves handed out / a move not searched whole
        deadline = float("inf") if unbounded else self.searcher.deadline
        while queue or busy:
            if queue.first_left and queue.first_to in self.idle:   # the last best goes first,
                self.idle.remove(queue.first_to)                    # to the process that knows it
                self.idle.append(queue.first_to)
            while queue and self.idle and not timed_out:
                h = self.idle.pop()
                chunk = queue.take(h)
                alpha = max(floor, cur_score)
                h.send("search", depth, chunk, alpha, chunk[0] == first, unbounded)
                busy[h], told[h] = chunk, alpha
            # past the hard deadline the processes stop by themselves: waited for until the
            # budget's end (less what the principal variation and SAN need), not beyond
            until = float("inf") if unbounded else (
                self.clock.end - 0.5 * (self.clock.end - self.searcher.deadline))
            answers = self._answers(busy, until)
            if not answers:
                lost = True
                break
            for h, _chunk, reply in answers:
                if reply[0] == "timeout":
                    timed_out = lost = True
                for lan, alpha, score in reply[1]:
                    self.owner[lan] = h
                    if score > alpha:
                        exact[lan] = score
                        self.searched_by[(depth, lan)] = h
                        if score > cur_score or (score == cur_score and cur is not None
                                                 and rank[lan] < rank[cur]):
                            cur, cur_score = lan, score
            for h in busy:   # the others' alpha rises with the best score now known
                if cur_score > told[h]:
                    h.send("alpha", cur_score, answer=False)
                    told[h] = cur_score
            if time.perf_counter() >= deadline:
                timed_out = True
            if timed_out and not busy:
                break
        return cur, cur_score, not (lost or queue or busy), exact

    def run(self, position: Position, moves: Sequence[Move], level: int, min_depth: int,
            max_depth: int) -> Thought:
        searcher, clock = self.searcher, self.clock
        order = [m.lan for m in searcher.order(moves, None, 0)]
        best_score: int | None
        best, best_score, done = order[0], None, 0
        if self._start(min_depth > 0):
            for depth, unbounded in engine.depths(max_depth, min_depth, clock.soft):
                floor = -INF if best_score is None or abs(best_score) > MATE_BOUND \
                    else best_score - ASPIRATION_CP
                cur, score, complete, exact = self.iteration(order, depth, floor, unbounded)
                if complete and cur is None:   # all under the floor: again from none
                    cur, score, complete, exact = self.iteration(order, depth, -INF, unbounded)
                if not complete:
                    # as in one process: a move searched whole at this depth that is at
                    # least as good as the last best (searched whole too) is better informed
                    if cur is not None and (order[0] in exact or best_score is None
                                            or score > best_score):
                        best, best_score = cur, score
                    break
                assert cur is not None, "a complete iteration with a floor of -INF has a best"
                best, best_score, done = cur, score, depth
                if iteration_done(order, cur, score, depth):
                    break
        if best_score is None:
            best_score = searcher.evaluate()
        move = {m.lan: m for m in position.legal_moves()}[best]
        pv = self._pv(best, done) if done else [best]
        for h in self.pool.helpers:
            if not h.owed:
                h.send("end", answer=False)
        return Thought(move=move, lan=best, san=position.san(move), score_cp=int(best_score),
                       depth=done, pv=pv, nodes=sum(h.nodes for h in self.pool.helpers),
                       elapsed=time.perf_counter() - clock.start, level=level)

    def _pv(self, best: str, depth: int) -> list[str]:
        """The principal variation from the table of the process that searched the best
        move last, if it is free and there is time."""
        h = self.searched_by.get((depth, best))
        until = self.clock.end - engine.RESERVE_MIN
        if h is None or h.owed or not self.clock.left_for(4):
            return [best]
        h.send("pv", best, until)
        if not wait([h.conn], timeout=max(0.0, until - time.perf_counter())):
            return [best]
        pv: list[str] = h.recv()[1]
        return pv


def think_each(positions: Iterable[Position], *, seconds: float | None = None, cores: int | None = None,
               level: int = DEFAULT_LEVEL, min_depth: int = 0, pool: Pool | None = None) -> list[Thought]:
    """``ai.think`` of every position (one game's), each within ``seconds`` on one core,
    ``cores`` positions at a time. Finished games raise GameOverError before any search."""
    positions = list(positions)
    cores = default_cores() if cores is None else cores
    if cores < 1:
        raise ValueError(f"cores must be at least 1, not {cores}")
    for pos in positions:
        engine._root_moves(pos)
    if cores == 1 or len(positions) <= 1:
        return [engine.think(p, level=level, seconds=seconds, min_depth=min_depth) for p in positions]
    pool = pool if pool is not None else shared_pool(cores)
    try:
        for game_id in {p.game.id for p in positions}:
            pool.ready(game_id)
        return _each(pool, positions, seconds, level, min_depth)
    except BaseException:
        pool.close()
        raise


def _each(pool: Pool, positions: list[Position], seconds: float | None, level: int,
          min_depth: int) -> list[Thought]:
    out: list[Thought | None] = [None] * len(positions)
    queue, idle = list(range(len(positions))), list(pool.helpers)
    busy: dict[_Handle, int] = {}
    while queue or busy:
        while queue and idle:
            i, h = queue.pop(0), idle.pop()
            h.send("think", *_portable(positions[i]), seconds, level, min_depth)
            busy[h] = i
        for conn in wait([h.conn for h in busy]):
            h = next(x for x in busy if x.conn is conn)
            _, lan, score, depth, nodes, pv, work = h.recv()
            h.work = max(h.work, work)
            i = busy.pop(h)
            pos = positions[i]
            move = {m.lan: m for m in pos.legal_moves()}[lan]
            out[i] = Thought(move=move, lan=lan, san=pos.san(move), score_cp=score,
                                                depth=depth, pv=pv, nodes=nodes, level=level)
            idle.append(h)
    return [t for t in out if t is not None]   # (every one answered)
