"""think(): always a legal move, within its time budget, at every level; the levels differ."""
import os
import random
import time

import pytest

import ai
import rules
from tests.rules.randgames import random_game

GAMES = sorted(rules.variants())
LONG = os.environ.get("FAIRYPOST_LONG") == "1"
SCHEDULER_SLACK = 0.02


@pytest.fixture(scope="module", autouse=True)
def prepared():
    for g in GAMES:
        ai.prepare(g)


def _positions(game_id, count, seed):
    """Positions along seeded random games (the set-up phase too where there is one)."""
    out, n = [], 0
    g = rules.game(game_id)
    starts = [None] + ([rules.from_fen(game_id, g.setup_start_fen)] if g.setup_start_fen else [])
    while len(out) < count:
        for start in starts:
            for pos, move in random_game(game_id, seed=seed + n, max_plies=120, start=start):
                if move is not None and pos.fullmove % 3 == n % 3:
                    out.append(pos)
            n += 1
    return out[:count]


@pytest.mark.parametrize("game_id", GAMES)
def test_never_an_illegal_move_on_random_positions(game_id):
    count = 400 if LONG else 100
    rng = random.Random(3)
    for i, pos in enumerate(_positions(game_id, count, seed=100)):
        level = (1, 2, 5)[i % 3]
        t = ai.think(pos, level=level, seconds=0.01, rng=rng)
        legal = {m.lan for m in pos.legal_moves()}
        assert t.lan in legal, (pos.fen(), t.lan)
        pos.play(t.move)  # the rules accept it as the move played
        assert t.san == pos.san(t.move)


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("seconds", [0.05, 0.4])
def test_the_time_budget_holds(game_id, seconds):
    pos = _positions(game_id, 12, seed=5)[-1]
    t0, cpu0 = time.perf_counter(), time.thread_time()
    t = ai.think(pos, seconds=seconds)
    took, worked = time.perf_counter() - t0, time.thread_time() - cpu0
    # the search stops itself at its deadline: the work done in this thread stays within the
    # budget (20 ms allow for a node in flight). Wall time adds what no program controls --
    # the OS running another process, another thread holding the GIL -- so it is reported,
    # not judged (bench/RESULTS.md has the overshoot measured).
    assert worked <= seconds + SCHEDULER_SLACK, (
        f"{worked:.4f} s of work ({took:.4f} s on the wall) for a budget of {seconds} s")
    assert t.elapsed <= took and t.nodes > 0
    if seconds >= 0.4:
        assert t.depth >= 1


def test_more_time_searches_deeper():
    pos = rules.start("chess")
    quick = ai.think(pos, seconds=0.05)
    slow = ai.think(pos, seconds=1.0)
    assert slow.depth > quick.depth and slow.nodes > quick.nodes


def test_level_one_plays_differently_from_level_five():
    """Over the same positions the beginner often chooses other (and worse) moves."""
    rng = random.Random(1)
    positions = _positions("chess", 12, seed=40)
    differ = 0
    for pos in positions:
        weak = ai.think(pos, level=1, seconds=0.1, rng=rng)
        strong = ai.think(pos, level=5, seconds=0.1)
        differ += weak.lan != strong.lan
    assert differ >= 5, differ


def test_level_one_misses_a_free_queen_sometimes_level_five_never():
    pos = rules.from_fen("chess", "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1")  # Rxd5 wins a queen
    rng = random.Random(2)
    weak = {ai.think(pos, level=1, seconds=0.2, rng=rng).lan for _ in range(20)}
    strong = {ai.think(pos, level=5, seconds=0.2).lan for _ in range(3)}
    assert strong == {"d2d5"}
    assert len(weak) > 1


def test_a_repetition_counts_as_a_draw():
    """The searcher knows a position of the game's line when it comes back."""
    pos = rules.start("chess")
    for lan in ("g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"):
        pos = pos.play(lan)
    # f6g8 now brings back the start position
    from ai.search import Searcher
    s = Searcher(pos, deadline=float("inf"))
    m = {x.lan: x for x in s.pos.legal_moves()}["f6g8"]
    s.make(m)
    assert s.repeated()
    s.unmake()
    s.make({x.lan: x for x in s.pos.legal_moves()}["e7e5"])
    assert not s.repeated()


def test_bad_calls_are_refused():
    pos = rules.start("chess")
    with pytest.raises(ValueError, match="level"):
        ai.think(pos, level=9)
    with pytest.raises(ValueError, match="more than 0"):
        ai.think(pos, seconds=0)
    mated = rules.from_fen("chess", "7k/5QQ1/8/8/8/8/8/K7 b - - 0 1")
    with pytest.raises(rules.GameOverError):
        ai.think(mated)


def test_evaluate_and_analyse():
    start = rules.start("chess")
    assert abs(ai.evaluate(start)) < 50
    up = rules.from_fen("chess", "4k3/8/8/8/8/8/8/Q3K3 w - - 0 1")
    assert ai.evaluate(up) > 700
    assert ai.evaluate(rules.from_fen("chess", "4k3/8/8/8/8/8/8/Q3K3 b - - 0 1")) < -700
    kq = rules.from_fen("kingqueen", "***1k1***/***3***/9/9/9/***3***/***1K1*** w - - 0 1 hand=C;dropped=-")
    assert ai.evaluate(kq) > 100  # a piece in hand counts
    a = ai.analyse(rules.from_fen("chess", "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1"), seconds=0.5, lines=3)
    assert a.lines[0][0] == "d2d5" and a.lines[0][1] == "Rxd5"
    assert len(a.lines) == 3 and a.lines[0][2] >= a.lines[1][2] >= a.lines[2][2]


def test_levels_are_named_from_beginner_to_strongest():
    assert ai.LEVELS[1].name == "beginner"
    assert ai.LEVELS[max(ai.LEVELS)].name == "strongest within the time budget"
    assert len(ai.LEVELS) >= 5


def test_a_minimum_depth_is_searched_whatever_the_clock():
    # a review's judgement must not change with the machine's load: with a budget far too
    # short for two plies, min_depth=2 still sees that ...Nf6 allows Qxf7# (Black to move)
    pos = rules.start("chess")
    for lan in ("e2e4", "e7e5", "d1h5", "b8c6", "f1c4"):
        pos = pos.play(lan)
    ai.prepare("chess")
    rushed = ai.think(pos, level=5, seconds=1e-6, min_depth=2)
    assert rushed.depth >= 2 and rushed.lan != "g8f6" and rushed.score_cp > -10_000
    assert ai.think(pos, level=5, seconds=1e-6).depth <= 1
