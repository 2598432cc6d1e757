"""The child process of bench/baseline.py: runs requests on the code found first on its
path (an earlier commit's tree), one JSON object per line in, one per line out. It uses
the public API every version has (rules.from_fen, Position.play/perft, ai.prepare,
ai.think) and, for a search to a fixed depth, the searcher itself (``fixed_depth``, which
bench/search.py also calls in its own process for the code under test)."""
import gc
import json
import sys
import time


def _position(req):
    import rules
    pos = rules.from_fen(req["game"], req["fen"])
    for lan in req.get("line", ()):
        pos = pos.play(lan)
    return pos


def _perft(req):
    pos = _position(req)
    gc.collect()
    c0, t0 = time.process_time(), time.perf_counter()
    nodes = pos.perft(req["depth"])
    return {"nodes": nodes, "wall": time.perf_counter() - t0, "cpu": time.process_time() - c0}


def _think(req):
    import ai
    ai.prepare(req["game"])
    pos = _position(req)
    gc.collect()
    c0 = time.process_time()
    t = ai.think(pos, seconds=req["seconds"], tt={})
    return {"nodes": t.nodes, "depth": t.depth, "elapsed": t.elapsed, "cpu": time.process_time() - c0,
            "lan": t.lan}


def fixed_depth(req):
    """A search to a fixed depth without a clock, through the searcher itself
    (ai.search.Searcher and ai.engine._best_line, as they are at 82cd786 and since): its
    nodes and the CPU seconds of this thread."""
    import ai
    from ai.engine import _best_line
    from ai.search import Searcher
    ai.prepare(req["game"])
    pos = _position(req)
    gc.collect()
    gc.disable()
    try:
        searcher = Searcher(pos, float("inf"), {})
        moves = searcher.pos.legal_moves()
        c0 = time.thread_time()
        move, _score, _depth = _best_line(searcher, moves, req["depth"], float("inf"))
        cpu = time.thread_time() - c0
    finally:
        gc.enable()
    return {"nodes": searcher.nodes, "cpu": cpu, "lan": move.lan}


OPS = {"perft": _perft, "think": _think, "search": fixed_depth}


def main():
    for line in sys.stdin:
        req = json.loads(line)
        try:
            out = OPS[req["op"]](req)
        except Exception as e:  # noqa: BLE001 - reported to the parent, which names it
            out = {"error": f"{type(e).__name__}: {e}"}
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    sys.path = [p for p in sys.path if not p.endswith("bench")]   # not this folder's modules
    main()
