"""ai.parallel: processes searching together give a legal, informed move in every game,
keep the time budget (judged by each process's CPU work), leave no process behind (on
close, on a process dying, on Ctrl-C, on the coordinator being killed), and agree with
one core where the answer does not depend on how the search was split."""
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

import ai
import rules
from ai import engine, parallel
from ai.search import Searcher
from tests.rules.randgames import random_game

from .mates import forces_win_in_two, winning_moves
from .positions import MATE_IN_ONE, MATE_IN_TWO

GAMES = sorted(rules.variants())
SLACK = 0.03       # CPU seconds: a node in flight, the root's rebuilding
WAIT_GONE = 20.0   # how long a process may take to disappear (a loaded machine), never a figure judged


@pytest.fixture(scope="module")
def pool():
    for g in GAMES:
        ai.prepare(g)
    p = parallel.Pool(2, games=GAMES)
    yield p
    p.close()
    assert not any(h.process.is_alive() for h in p.helpers)


def _gone(pid: int) -> bool:
    """No such process, or one that has ended and awaits its parent (a zombie)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def _wait_gone(pids) -> list[int]:
    end = time.monotonic() + WAIT_GONE
    while time.monotonic() < end and not all(_gone(p) for p in pids):
        time.sleep(0.05)
    return [p for p in pids if not _gone(p)]


def _children(pid: int) -> list[int]:
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        out.append(int(d))
            except (FileNotFoundError, ProcessLookupError):
                pass
    return out


def _midgame(game_id: str, plies: int = 24):
    line = [p for p, _m in random_game(game_id, seed=7, max_plies=plies)]
    return next(p for p in reversed(line) if p.legal_moves())


@pytest.mark.parametrize("game_id", GAMES)
def test_a_legal_move_in_every_game_within_the_budget_of_every_process(pool, game_id):
    seconds = 0.3
    for pos in (rules.start(game_id), _midgame(game_id)):
        cpu0 = time.thread_time()
        t = parallel.think(pos, seconds=seconds, cores=2, pool=pool, min_seconds=0)
        coordinator = time.thread_time() - cpu0
        pool.settle()   # every process's last answer in: its whole part of the search counted
        assert t.lan in {m.lan for m in pos.legal_moves()}, (pos.fen(), t.lan)
        assert t.san == pos.san(t.move) and t.pv[0] == t.lan
        pos.play(t.move)
        # each process stops itself at the deadline: the work it did stays within the budget
        assert all(w <= seconds + SLACK for w in pool.work), pool.work
        assert coordinator <= seconds + SLACK
        assert t.nodes > 0 and sum(pool.work) > 0


def test_a_minimum_depth_and_a_fixed_depth_are_searched(pool):
    pos = _midgame("grandducal")
    t = parallel.think(pos, seconds=0.01, cores=2, pool=pool, min_depth=2, min_seconds=0)
    assert t.depth >= 2   # whatever the clock, as in one process (a review's two plies)
    t = parallel.think(pos, seconds=60, cores=2, pool=pool, max_depth=2)
    assert t.depth == 2


@pytest.mark.parametrize("game_id,fen,what", MATE_IN_ONE, ids=[f"{g}-{w}" for g, _f, w in MATE_IN_ONE])
def test_the_same_mate_in_one_as_one_core(pool, game_id, fen, what):
    _same_as_one_core(pool, rules.from_fen(game_id, fen), depth=2, winners=winning_moves)


@pytest.mark.parametrize("game_id,fen", MATE_IN_TWO, ids=[g for g, _f in MATE_IN_TWO])
def test_the_same_mate_in_two_as_one_core(pool, game_id, fen):
    pos = rules.from_fen(game_id, fen)
    _same_as_one_core(pool, pos, depth=3,
                      winners=lambda p: [m for m in p.legal_moves() if forces_win_in_two(p, m)])


def _same_as_one_core(pool, pos, depth, winners):
    """At a fixed depth a forced mate's score does not depend on how the root was split:
    the same score as one process's search, and a move that mates."""
    searcher, moves = engine._Clock(3600.0).searcher(pos)
    one_move, one_score, one_depth = engine._best_line(searcher, moves, depth, float("inf"))
    t = parallel.think(pos, seconds=3600, cores=2, pool=pool, max_depth=depth)
    assert (t.score_cp, t.depth) == (one_score, one_depth)
    assert ai.mate_in(t.score_cp) is not None
    assert t.lan in {m.lan for m in winners(pos)}


def test_the_history_crosses_to_the_processes():
    """A repetition of the game's line is seen by the processes: the position goes to
    them with the plies since the last irreversible move."""
    pos = rules.start("chess")
    for lan in ("e2e4", "e7e5", "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"):
        pos = pos.play(lan)
    game_id, vfen, lans, fen = parallel._portable(pos)
    assert (game_id, fen) == ("chess", pos.fen()) and lans == pos.line()[2:]   # since e7e5
    again = parallel._rebuild(game_id, vfen, lans, fen)
    assert again.fen() == pos.fen() and again.repetitions() == pos.repetitions() == 2
    s = Searcher(again, deadline=float("inf"))
    s.make({m.lan: m for m in s.pos.legal_moves()}["f6g8"])
    assert s.repeated()


def test_levels_below_the_top_one_core_and_short_budgets_think_in_this_process(pool):
    pos = rules.start("chess")
    before = [h.owed for h in pool.helpers], pool.work
    t = parallel.think(pos, seconds=0.2, cores=2, pool=pool, level=3)
    assert t.level == 3 and t.lan in {m.lan for m in pos.legal_moves()}
    t = parallel.think(pos, seconds=0.2, cores=1, pool=pool)
    t = parallel.think(pos, seconds=0.5, cores=2, pool=pool)   # under MIN_SECONDS
    assert t.lan in {m.lan for m in pos.legal_moves()}
    assert ([h.owed for h in pool.helpers], pool.work) == before   # no process was asked


def test_bad_calls_are_refused_and_keep_the_pool(pool):
    over = rules.from_fen("chess", "7k/5QQ1/8/8/8/8/8/K7 b - - 0 1")
    with pytest.raises(rules.GameOverError):
        parallel.think(over, seconds=1, cores=2, pool=pool)
    with pytest.raises(ValueError, match="more than 0"):
        parallel.think(rules.start("chess"), seconds=0, cores=2, pool=pool)
    with pytest.raises(ValueError, match="cores must be at least 1"):
        parallel.think(rules.start("chess"), seconds=1, cores=0, pool=pool)
    assert pool.alive


def test_think_each_shares_the_positions_and_answers_each_in_order(pool):
    positions = [_midgame(g, 12) for g in ("chess", "kingqueen", "superchess")]
    cpu0 = time.thread_time()
    thoughts = parallel.think_each(positions, seconds=0.2, cores=2, pool=pool, min_depth=1)
    assert time.thread_time() - cpu0 < 0.2   # the coordinator only hands them out
    for pos, t in zip(positions, thoughts, strict=True):
        assert t.lan in {m.lan for m in pos.legal_moves()} and t.san == pos.san(t.move)
        assert t.depth >= 1
    assert all(w <= 0.2 + SLACK for w in pool.work)


def test_a_process_dying_mid_search_fails_the_call_and_leaves_none():
    pool = parallel.Pool(2, games=("chess",))
    pids = pool.pids
    killer = threading.Timer(0.5, os.kill, (pids[0], signal.SIGKILL))
    killer.start()
    try:
        with pytest.raises(parallel.HelperFailed, match="died|gone"):
            parallel.think(rules.start("chess"), seconds=30, cores=2, pool=pool)
    finally:
        killer.cancel()
    assert pool.closed and not _wait_gone(pids)


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads the process table in /proc (Linux)")
def test_ctrl_c_in_fairypost_think_leaves_no_process():
    proc = subprocess.Popen([sys.executable, "-m", "bot.cli", "think", "chess", "--seconds", "60",
                             "--cores", "2"], start_new_session=True, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        kids = _searching_children(proc.pid, 2)
        os.killpg(proc.pid, signal.SIGINT)   # as a terminal's Ctrl-C: the whole process group
        out, err = proc.communicate(timeout=WAIT_GONE)
    finally:
        proc.kill()
    assert proc.returncode == 130 and "interrupted" in err and "Traceback" not in err
    assert not _wait_gone(kids)


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads the process table in /proc (Linux)")
def test_a_killed_coordinator_s_processes_stop_mid_search():
    """Its processes were told to search for a minute: they end when it does."""
    code = ("import rules, ai.parallel as p\n"
            "ai_pool = p.Pool(2, games=('chess',))\n"
            "p.think(rules.start('chess'), seconds=60, cores=2, pool=ai_pool)\n")
    proc = subprocess.Popen([sys.executable, "-c", code], stderr=subprocess.PIPE)
    try:
        kids = _searching_children(proc.pid, 2)
        time.sleep(0.5)   # searching by now
        proc.kill()
        proc.wait()
    finally:
        proc.kill()
    assert not _wait_gone(kids)


def _searching_children(pid: int, count: int) -> list[int]:
    """The pids of the searching processes, once they all exist."""
    end = time.monotonic() + WAIT_GONE
    while time.monotonic() < end:
        kids = [k for k in _children(pid) if _cmdline(k).find("multiprocessing.spawn") >= 0]
        if len(kids) >= count:
            return kids
        time.sleep(0.05)
    raise AssertionError(f"the searching processes did not start within {WAIT_GONE} s")


def _cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline") as f:
            return f.read().replace("\0", " ")
    except FileNotFoundError:
        return ""


def test_a_ctrl_c_while_a_process_starts_is_not_lost():
    """Processes start with Ctrl-C ignored (so that they keep ignoring it), yet a Ctrl-C
    that comes meanwhile still interrupts the coordinator, right after."""
    code = ("import os, signal, time\n"
            "from ai.parallel import sigint_ignored\n"
            "try:\n"
            "    with sigint_ignored():\n"
            "        os.kill(os.getpid(), signal.SIGINT)\n"
            "        time.sleep(0.05)\n"
            "        print('inside', flush=True)\n"
            "    time.sleep(5)\n"
            "    print('lost', flush=True)\n"
            "except KeyboardInterrupt:\n"
            "    print('interrupted', flush=True)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == ["inside", "interrupted"], (done.stdout, done.stderr)
