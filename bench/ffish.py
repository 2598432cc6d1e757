"""Grand Ducal perft beside pyffish (Fairy-Stockfish), and a native Fairy-Stockfish if present.

What is measured, and why so:

* pyffish has no perft. Its perft here is the ``legal_moves`` recursion: one
  ``pyffish.legal_moves(variant, start_fen, moves_so_far)`` call per inner node, the
  last ply counted by the length of the list (as our perft does). pyffish sets the
  variant and the position up again on every call, so each call costs a fixed few
  milliseconds however small the work: that figure is what Python code driving
  Fairy-Stockfish through pyffish gets, NOT the speed of the C++ engine. Its cost per
  call is measured on its own (``legal_moves`` at the start, beside ours there).
* The variant is the one the oracle registers (tests/oracle/ffish.py), ``grandducal``,
  the only name ever passed to pyffish, and only after checking it is registered
  (pyffish ends the interpreter on an unknown name). In it the Grand Duke is ``BR``, a
  superset of the real piece (Fairy-Stockfish cannot express "even orthogonal
  distances only"), so its counts may exceed ours once a Grand Duke can slide along a
  file; each side's nodes per second is its own count over its own time.
* A native ``fairy-stockfish`` on the PATH (Debian: apt-get install fairy-stockfish) is
  the C++ engine itself: ``go perft`` for orthodox chess beside our chess perft at the
  same depth. Debian's build (11.1) cannot read custom pieces, so it cannot play Grand
  Ducal; chess stands in for "the distance from a C++ engine".
"""

from __future__ import annotations

import shutil
import subprocess
import time

from .common import (
    Context,
    Series,
    fresh,
    paired_ratio,
    rate_figure,
    row,
    settle,
    time_figure,
    timed,
)

NAME = "ffish"
TITLE = "Grand Ducal perft beside pyffish; chess beside a native Fairy-Stockfish"

VARIANT = "grandducal"
# The oracle's definition (tests/oracle/ffish.py, GRANDDUCAL_INI), royal part only.
INI = """
[grandducal:chess]
maxFile = l
maxRank = 8
startFen = rginbqkbnsgr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RGINBQKBNSGR w - - 0 1
castling = false
customPiece1 = g:BR
customPiece2 = s:KN
customPiece3 = i:ADN
customPiece4 = m:K
promotionPieceTypes = m
"""
START = "rginbqkbnsgr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RGINBQKBNSGR w - - 0 1"


def _pyffish():
    """(module, None) with our variant registered, or (None, why)."""
    try:
        import pyffish
    except ImportError as e:
        return None, f"pyffish is not installed ({e}); pip install -e '.[bench]'"
    if VARIANT not in pyffish.variants():
        pyffish.load_variant_config(INI)
    if VARIANT not in pyffish.variants():  # never pass an unregistered name: it aborts
        return None, "pyffish did not register the grandducal variant"
    return pyffish, None


def _fsf_perft(pyffish, moves: list[str], depth: int) -> tuple[int, int]:
    """(leaves, calls) by the legal_moves recursion."""
    ms = pyffish.legal_moves(VARIANT, START, moves)
    if depth <= 1:
        return len(ms), 1
    leaves, calls = 0, 1
    for m in ms:
        n, c = _fsf_perft(pyffish, moves + [m], depth - 1)
        leaves += n
        calls += c
    return leaves, calls


def _ours_perft(game_id: str, fen: str, depth: int):
    import rules
    pos = rules.from_fen(game_id, fen)
    settle()
    return timed(lambda: pos.perft(depth))


class _Native:
    """A fairy-stockfish process spoken to over UCI."""

    def __init__(self, exe: str):
        self.p = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("uci")
        self.name = next((line[8:] for line in self._until("uciok") if line.startswith("id name ")),
                         exe)
        self.send("isready")
        self._until("readyok")

    def send(self, line: str) -> None:
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def _until(self, prefix: str, limit: float = 120) -> list[str]:
        lines, t0 = [], time.monotonic()
        while time.monotonic() - t0 < limit:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("fairy-stockfish stopped")
            lines.append(line.strip())
            if line.startswith(prefix):
                return lines
        raise RuntimeError(f"fairy-stockfish: no {prefix!r} in {limit} s")

    def perft(self, depth: int) -> tuple[int, float, float]:
        self.send("position startpos")
        self.send("isready")
        self._until("readyok")
        t0 = time.perf_counter()
        self.send(f"go perft {depth}")
        lines = self._until("Nodes searched")
        wall = time.perf_counter() - t0
        return int(lines[-1].split(":")[1]), wall, wall

    def close(self) -> None:
        try:
            self.send("quit")
            self.p.wait(timeout=5)
        except Exception:  # noqa: BLE001
            self.p.kill()


def run(ctx: Context) -> dict:
    import rules

    rows, skipped, notes = [], [], []
    reps = ctx.size(3, 1)
    depth = ctx.size(3, 2)
    pyffish, why = _pyffish()
    try:
        rules.start(VARIANT).legal_moves()
        ours_ok = True
    except Exception as e:  # noqa: BLE001
        ours_ok = False
        skipped.append({"case": VARIANT, "why": f"does not load: {type(e).__name__}: {e}"})
    if pyffish is None:
        skipped.append({"case": "pyffish anchor", "why": why})

    if ours_ok and pyffish is not None:
        # cost of one call at the start: ours (fresh position) beside pyffish
        ctx.progress("legal moves at the start: ours beside pyffish")
        start = rules.start(VARIANT)
        n_calls = ctx.size(40, 5)
        ours_c, fsf_c = Series(), Series()
        fresh(start).legal_moves()
        pyffish.legal_moves(VARIANT, START, [])
        for _rep in range(n_calls):
            p = fresh(start)
            _, w, c = timed(p.legal_moves)
            ours_c.add(w, c)
            _, w, c = timed(lambda: pyffish.legal_moves(VARIANT, START, []))
            fsf_c.add(w, c)
        ours_n = len(fresh(start).legal_moves())
        fsf_n = len(pyffish.legal_moves(VARIANT, START, []))
        rows.append(row("grandducal legal moves at start (1 call)", "ms", time_figure(ours_c),
                        time_figure(fsf_c), anchor_name="pyffish.legal_moves", better="lower",
                        moves=ours_n, anchor_moves=fsf_n))

        ctx.progress(f"perft d{depth}: warm-up")
        nodes, _, _ = _ours_perft(VARIANT, START, depth)
        settle()
        (fsf_nodes, calls), _, _ = timed(lambda: _fsf_perft(pyffish, [], depth))
        ours, fsf = Series(), Series()
        for i in range(reps):
            for who in (("ours", "fsf") if i % 2 == 0 else ("fsf", "ours")):
                if who == "ours":
                    _, w, c = _ours_perft(VARIANT, START, depth)
                    ours.add(w, c)
                else:
                    settle()
                    _, w, c = timed(lambda: _fsf_perft(pyffish, [], depth))
                    fsf.add(w, c)
            ctx.progress(f"perft d{depth}: rep {i + 1}/{reps}: ours {nodes / ours.wall[-1]:,.0f} "
                         f"nodes/s, pyffish {fsf_nodes / fsf.wall[-1]:,.0f} nodes/s "
                         f"({calls} calls)")
        r = row(f"grandducal start d{depth} perft", "nodes/s", rate_figure(ours, nodes),
                rate_figure(fsf, fsf_nodes), anchor_name="pyffish legal_moves recursion",
                better="higher", nodes=nodes, anchor_nodes=fsf_nodes, anchor_calls=calls,
                anchor_ms_per_call=1000 * fsf.summary()["median"] / calls,
                paired_ratio=paired_ratio(fsf.wall, ours.wall))
        rows.append(r)
        if fsf_nodes != nodes:
            notes.append(f"pyffish counts {fsf_nodes} nodes at depth {depth}, ours {nodes}: its "
                         "Grand Duke is BR, a superset of the real piece (odd orthogonal moves).")

    exe = shutil.which("fairy-stockfish") or shutil.which("fairy-stockfish", path="/usr/games")
    if exe is None:
        skipped.append({"case": "native Fairy-Stockfish",
                        "why": "no fairy-stockfish on the PATH (optional; Debian: apt-get install "
                               "fairy-stockfish)"})
    else:
        native = None
        try:
            native = _Native(exe)
            d = ctx.size(4, 3)
            ctx.progress(f"chess perft d{d}: ours beside {native.name}")
            fen = rules.game("chess").default_start_fen
            nodes, _, _ = _ours_perft("chess", fen, d)
            fsf_nodes, _, _ = native.perft(d)
            ours, nat = Series(), Series()
            for _rep in range(ctx.size(5, 1)):
                _, w, c = _ours_perft("chess", fen, d)
                ours.add(w, c)
                _, w, c = native.perft(d)
                nat.add(w, c)
            rows.append(row(f"chess start d{d} perft vs native", "nodes/s", rate_figure(ours, nodes),
                            rate_figure(nat, fsf_nodes), anchor_name=native.name, better="higher",
                            nodes=nodes, anchor_nodes=fsf_nodes,
                            note="native time: wall from 'go perft' to its answer, over a pipe; "
                                 "its CPU time is not ours to read"))
            rows[-1]["cpu_ratio"] = None
            notes.append(f"{native.name}: Debian's build; it cannot read custom pieces, so Grand "
                         "Ducal is measured with pyffish only.")
        except Exception as e:  # noqa: BLE001
            skipped.append({"case": "native Fairy-Stockfish", "why": f"{type(e).__name__}: {e}"})
        finally:
            if native is not None:
                native.close()
    return {"rows": rows, "goals": [], "skipped": skipped, "notes": notes,
            "params": {"reps": reps, "depth": depth, "variant": VARIANT,
                       "pyffish": getattr(pyffish, "version", lambda: None)() if pyffish else None}}
