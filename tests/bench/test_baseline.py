"""bench --baseline: an earlier commit's code measured in a child process beside ours."""
from __future__ import annotations

import pytest

import rules
from bench.baseline import Baseline, BaselineError
from bench.baseline_worker import fixed_depth


def test_the_baseline_runs_the_commits_own_code(tmp_path):
    base = Baseline("HEAD", tmp_path)
    try:
        assert (base.dir / "rules" / "position.py").is_file()
        fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
        got = base.call("perft", game="chess", fen=fen, depth=2)
        # the same count as this tree's rules (HEAD is this tree, less any uncommitted work)
        assert got["nodes"] == rules.from_fen("chess", fen).perft(2) == 30
        assert got["wall"] > 0 and got["cpu"] >= 0
        t = base.call("think", game="kingqueen",
                      fen="***nkc***/***1b1***/p1p1p1p1p/9/P1P1P1P1P/***1B1***/***CKN*** w - - 0 1 hand=-;dropped=-",
                      line=["e2d3"], seconds=0.05)
        assert t["nodes"] > 0 and t["depth"] >= 0 and t["lan"]
        # a search to a fixed depth: HEAD's searcher walks the tree this tree's does, node
        # for node, whatever the clock (bench/search.py runs ours in its own process)
        req = {"game": "chess", "fen": rules.game("chess").default_start_fen, "line": ["e2e4"], "depth": 3}
        s = base.call("search", **req)
        ours = fixed_depth(req)
        assert s["nodes"] == ours["nodes"] > 0 and s["lan"] == ours["lan"] and s["cpu"] > 0
        with pytest.raises(BaselineError, match="no game 'no-such-game'"):
            base.call("perft", game="no-such-game", fen="-", depth=1)
        # the worker goes on answering after an error
        assert base.call("perft", game="chess", fen=fen, depth=1)["nodes"] == 6
    finally:
        base.close()
    assert base.proc.returncode == 0


def test_an_unknown_ref_is_a_clear_error(tmp_path):
    with pytest.raises(BaselineError, match="no-such-ref"):
        Baseline("no-such-ref", tmp_path)
