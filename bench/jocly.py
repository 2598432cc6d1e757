"""Strength against an engine nobody here wrote: Gigachess II, level 5 against Jocly's AI.

Jocly (https://github.com/mi-g/jocly, npm package ``jocly``, AGPL) is the only other
program that plays Gigachess II. The benchmark installs it with npm into a temporary
folder at run time (it is never part of fairypost) and drives it through
``bench/jocly_driver.js``, a node process speaking JSON lines. Both sides get the same
wall time per move (full: 1 s, quick: 0.2 s; ``--seconds``): fairypost's level 5 as its
budget; Jocly's UCT search (its levels differ only in their budgets, so this is its own
AI) as its ``maxDuration``, set move by move to what makes Jocly's mean wall time a move
so far (asked from here, through the driver) equal to fairypost's in the same game, never
above the budget: Jocly overruns its ``maxDuration`` and fairypost's level 5 stops early
(no new iteration past 45 % of the budget).

Every move of both sides is checked by both rules: before each ply the two legal move
lists are compared (any difference is reported, with the position), and a move the other
side's rules refuse is reported and not played: the game stops there, unscored. The start
positions are compared piece by piece before the first game. Games start from
``OPENINGS`` (Jocly's search is randomised too), each opening with both colours, colours
alternating (full: 10 games, quick: 2). A game ends by fairypost's rules (mate, stalemate,
threefold repetition, the 100-ply rule; Jocly's verdict must agree) or at the ply cap,
where a side ahead by ``ADJUDICATE_CP`` of material (ai.values) wins, else a draw.

    python -m bench jocly                 (inside a benchmark run: JSON figures)
    python -m bench.jocly [--games N] [--seconds S] [--plies N] [--jocly-dir DIR] [--json PATH]

Needs node and npm (and the npm registry, once a run); without them the benchmark is
reported as skipped. The quick run (the smoke test) never installs: it is skipped unless
``--jocly-dir``/``FAIRYPOST_JOCLY_DIR`` names a folder where Jocly is installed already.
Goal (issue 31): win the match (more than half the points).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .common import Context, goal, row
from .strength import ADJUDICATE_CP, equal_time, summary

NAME = "jocly"
TITLE = "Gigachess II: level 5 against Jocly's AI at equal time per move"
JOCLY_PACKAGE = "jocly@0.9.13"
JOCLY_GAME = "giga-chessII"
GAME = "gigachess2"
DRIVER = Path(__file__).with_name("jocly_driver.js")

# Jocly's piece type names (its Gigachess II model) -> fairypost's letters (data/variants)
PIECES = {
    "ipawnw": "P", "ipawnb": "P", "princew": "I", "princeb": "I", "king": "K", "queen": "Q",
    "rook": "R", "bishop": "B", "knight": "N", "giraffe": "Z", "rhino": "U", "bow": "V",
    "lion": "L", "elephant": "E", "cannon": "C", "machine": "W", "centaur": "J",
    "sorcerer": "O", "eagle": "G", "camel": "M", "amazon": "A", "marshall": "H",
    "cardinal": "X", "Buffalo": "F", "missionnary": "Y", "amiral": "S", "duchess": "D",
}
# what a piece can be promoted to: the only letters a move names (the pawns' two names
# are never a promotion's)
PROMOTED_TO = {PIECES[n]: n for n in ("queen", "amazon", "Buffalo", "lion")}
WINNERS = {1: "1-0", -1: "0-1", 2: "1/2-1/2"}   # Jocly.PLAYER_A, PLAYER_B, DRAW

OPENINGS = (
    (), ("g4g6", "h11h9"), ("h4h6", "g11g9"), ("e4e5", "j11j10"), ("i4i6", "f11f9"),
    ("c2d4", "l13k11"), ("f4f6", "i11i9"), ("j4j5", "e11e10"),
)
_LAN = re.compile(r"([a-n]\d{1,2})([a-n]\d{1,2})(?:=([A-Z]))?$")


# --- translation (pure: tested with recorded Jocly moves, tests/bench) ----------------

def to_lan(move: dict) -> str:
    """A Jocly move as the driver gives it ({"f", "t", "pr"}) in fairypost's LAN."""
    return move["f"] + move["t"] + (f"={PIECES[move['pr']]}" if move.get("pr") else "")


def to_jocly(lan: str) -> dict:
    """fairypost's LAN (``h4h6``, ``a13a14=Q``) as a move for the driver."""
    m = _LAN.match(lan)
    if not m:
        raise ValueError(f"not a Gigachess II move: {lan!r}")
    if m[3] and m[3] not in PROMOTED_TO:
        raise ValueError(f"no Gigachess II piece is promoted to {m[3]}: {lan!r}")
    return {"f": m[1], "t": m[2], "pr": PROMOTED_TO[m[3]] if m[3] else None}


def jocly_board(pieces: list[dict]) -> dict[str, str]:
    """Square -> letter (upper case White) of the driver's piece list."""
    return {p["sq"]: PIECES[p["type"]] if p["side"] == 1 else PIECES[p["type"]].lower()
            for p in pieces}


def fairypost_board(pos) -> dict[str, str]:
    names = pos.game.geometry.names
    return {names[sq]: k.key if k.color == 0 else k.key.lower()
            for sq, k in enumerate(pos.board) if k is not None}


def board_difference(jocly_pieces: list[dict], pos) -> list[str]:
    """Where Jocly's board and fairypost's differ (square: Jocly's piece / fairypost's)."""
    a, b = jocly_board(jocly_pieces), fairypost_board(pos)
    return [f"{sq}: Jocly {a.get(sq, '-')}, fairypost {b.get(sq, '-')}"
            for sq in sorted(set(a) | set(b), key=lambda s: (int(s[1:]), s[0])) if a.get(sq) != b.get(sq)]


def move_difference(jocly_moves: list[dict], pos) -> tuple[list[str], list[str]]:
    """(legal for Jocly only, legal for fairypost only), as LAN."""
    j = {to_lan(m) for m in jocly_moves}
    f = {m.lan for m in pos.legal_moves()}
    return sorted(j - f), sorted(f - j)


# --- Jocly --------------------------------------------------------------------------

def jocly_unavailable(jocly_dir: str | None = None) -> str | None:
    """Why Jocly cannot be played against here, or None."""
    if shutil.which("node") is None:
        return "node is not installed"
    if jocly_dir:
        if not (Path(jocly_dir) / "node_modules" / "jocly").is_dir():
            return f"no node_modules/jocly in {jocly_dir}"
        return None
    if shutil.which("npm") is None:
        return "npm is not installed"
    return None


def install(folder: Path) -> float:
    """npm-install Jocly into folder (a temporary one); the seconds it took."""
    t0 = time.perf_counter()
    proc = subprocess.run(["npm", "install", "--prefix", str(folder), "--no-audit", "--no-fund",
                           "--loglevel=error", JOCLY_PACKAGE], capture_output=True, text=True,
                          timeout=900, check=False)
    if proc.returncode != 0 or not (folder / "node_modules" / "jocly").is_dir():
        raise RuntimeError(f"npm install {JOCLY_PACKAGE} failed: {proc.stderr.strip()[-500:]}")
    return time.perf_counter() - t0


class Jocly:
    """One node process running bench/jocly_driver.js: one match at a time."""

    def __init__(self, jocly_dir: Path):
        self.proc = subprocess.Popen(["node", str(DRIVER), str(jocly_dir)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, bufsize=1)

    def ask(self, **req) -> dict:
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the Jocly driver stopped (exit {self.proc.wait()})")
        return json.loads(line)

    def close(self) -> None:
        try:
            self.ask(cmd="quit") if self.proc.poll() is None else None
        except (BrokenPipeError, RuntimeError):
            pass
        self.proc.wait(timeout=10)


# --- the match ----------------------------------------------------------------------

def _result_of_jocly(reply: dict) -> str | None:
    return WINNERS.get(reply.get("winner")) if reply.get("finished") else None


def play_game(jocly: Jocly, opening, ours_white: bool, seconds: float, plies: int) -> dict:
    import ai
    import rules
    from ai.values import material

    pos = rules.start(GAME)
    tt: dict = {}
    rec = {"opening": " ".join(opening), "ours_white": ours_white, "moves": [], "disagreements": []}
    reply = jocly.ask(cmd="new", game=JOCLY_GAME)
    diff = board_difference(reply["pieces"], pos)
    if diff:
        return {**rec, "error": f"the start positions differ: {diff}"}
    jocly_moves, jocly_result = reply["moves"], None
    times = {"ours": [], "jocly": []}
    asked = 0.0   # the maxDurations Jocly was given, summed
    depths = []
    while pos.outcome() is None and jocly_result is None and len(rec["moves"]) < plies:
        ply = len(rec["moves"])
        only_jocly, only_ours = move_difference(jocly_moves, pos)
        if only_jocly or only_ours:
            rec["disagreements"].append({"ply": ply, "fen": pos.fen(), "only_jocly": only_jocly,
                                         "only_fairypost": only_ours})
        ours = (pos.side == 0) == ours_white
        t0 = time.perf_counter()
        if ply < len(opening):
            lan, who = opening[ply], "opening"
        elif ours:
            t = ai.think(pos, level=5, seconds=seconds, tt=tt)
            lan, who = t.lan, "fairypost"
            times["ours"].append(time.perf_counter() - t0)
            depths.append(t.depth)
        else:
            limit = equal_time(seconds, sum(times["ours"]) / len(times["ours"]) if times["ours"] else None,
                               sum(times["jocly"]) / asked if asked else 1.0, floor=0.05)
            asked += limit
            got = jocly.ask(cmd="think", seconds=limit)
            if "error" in got:
                return {**rec, "error": f"Jocly's AI failed at ply {ply}: {got['error']}"}
            lan, who = to_lan(got["move"]), "Jocly"
            times["jocly"].append(time.perf_counter() - t0)
        # both rules must accept it before either plays it
        if lan not in {m.lan for m in pos.legal_moves()}:
            return {**rec, "error": f"{who} played {lan} at ply {ply}: fairypost's rules refuse it",
                    "fen": pos.fen()}
        if lan not in {to_lan(m) for m in jocly_moves}:
            return {**rec, "error": f"{who} played {lan} at ply {ply}: Jocly's rules refuse it",
                    "fen": pos.fen()}
        reply = jocly.ask(cmd="play", move=to_jocly(lan))
        if "error" in reply:
            return {**rec, "error": f"Jocly could not play {lan} at ply {ply}: {reply['error']}",
                    "fen": pos.fen()}
        pos = pos.play(lan)
        rec["moves"].append(lan)
        jocly_moves, jocly_result = reply["moves"], _result_of_jocly(reply)
    outcome = pos.outcome()
    if outcome is not None or jocly_result is not None:
        if outcome is None or jocly_result != outcome[0]:
            rec["disagreements"].append({"ply": len(rec["moves"]), "fen": pos.fen(),
                                         "end": f"fairypost {outcome}, Jocly {jocly_result or 'goes on'}"})
        if outcome is None:
            return {**rec, "error": f"Jocly ended the game ({jocly_result}) at ply {len(rec['moves'])}, "
                                    f"fairypost's rules go on", "fen": pos.fen()}
        result, reason = outcome
    else:
        m = material(pos)
        result = "1-0" if m >= ADJUDICATE_CP else "0-1" if m <= -ADJUDICATE_CP else "1/2-1/2"
        reason = f"ply cap, material {m:+d}"
    points = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
    mean = {k: sum(v) / len(v) if v else None for k, v in times.items()}
    return {**rec, "result": result, "reason": reason, "plies": len(rec["moves"]),
            "score": points if ours_white else 1 - points, "depths": depths,
            "our_seconds_per_move": mean["ours"], "jocly_seconds_per_move": mean["jocly"]}


def record(jocly: Jocly, lines: list[list[str]]) -> dict:
    """Jocly's start and its legal moves before each ply of these lines (and after the
    last): data for tests/bench, which checks the translation and fairypost's rules
    against them without node or the network."""
    out = {"jocly": JOCLY_PACKAGE, "game": JOCLY_GAME, "lines": []}
    for line in lines:
        reply = jocly.ask(cmd="new", game=JOCLY_GAME)
        out.setdefault("start_pieces", reply["pieces"])
        plies = []
        for lan in line:
            plies.append({"jocly_moves": [{k: m[k] for k in ("f", "t", "pr")} for m in reply["moves"]],
                          "played": lan})
            reply = jocly.ask(cmd="play", move=to_jocly(lan))
            if "error" in reply:
                raise RuntimeError(f"Jocly refuses {lan}: {reply['error']}")
        plies.append({"jocly_moves": [{k: m[k] for k in ("f", "t", "pr")} for m in reply["moves"]],
                      "finished": reply.get("finished", False)})
        out["lines"].append(plies)
    return out


def match(jocly_dir: Path, games: int, seconds: float, plies: int, progress=print) -> list[dict]:
    import ai
    ai.prepare(GAME)
    out = []
    jocly = Jocly(jocly_dir)
    try:
        for i in range(games):
            opening = OPENINGS[(i // 2) % len(OPENINGS)]
            g = play_game(jocly, opening, ours_white=i % 2 == 0, seconds=seconds, plies=plies)
            out.append(g)
            done = [x for x in out if "score" in x]
            progress(f"game {i + 1}/{games}: "
                     + (g.get("error") or f"{g['result']} ({g['reason']}, {g['plies']} plies), "
                                          f"ours {'white' if g['ours_white'] else 'black'}")
                     + f"; rule disagreements {len(g['disagreements'])}"
                     + f"; level 5 so far {sum(x['score'] for x in done):g}/{len(done)}")
    finally:
        jocly.close()
    return out


def match_summary(results: list[dict]) -> dict:
    return {**summary(results), "disagreements": [d for g in results for d in g["disagreements"]]}


def _describe(s: dict, seconds: float) -> str:
    return (f"level 5 vs Jocly at {seconds:g} s a move: {s['points']:g}/{s['games']} "
            f"(+{s['wins']} ={s['draws']} -{s['losses']}), mean depth {s['mean_depth'] or 0:.1f}, "
            f"seconds a move ours {s['our_seconds_per_move'] or 0:.2f}, Jocly's "
            f"{s['jocly_seconds_per_move'] or 0:.2f}; rule disagreements: "
            f"{len(s['disagreements'])}; stopped games: {s['errors'] or 'none'}")


def _with_jocly(jocly_dir: str | None, fn):
    """fn(folder holding node_modules/jocly): an installed one, or a fresh temporary install."""
    if jocly_dir:
        return fn(Path(jocly_dir), None)
    with tempfile.TemporaryDirectory(prefix="fairypost-jocly-") as tmp:
        took = install(Path(tmp))
        return fn(Path(tmp), took)


def run(ctx: Context) -> dict:
    jocly_dir = os.environ.get("FAIRYPOST_JOCLY_DIR")
    why = jocly_unavailable(jocly_dir)
    if why is None and ctx.quick and not jocly_dir:
        why = "the quick run does not install Jocly from npm (set FAIRYPOST_JOCLY_DIR to a folder where it is)"
    if why:
        return {"rows": [], "goals": [goal("3", "Gigachess II level 5 against Jocly: win the match",
                                           None, 0.5, None, why)],
                "skipped": [{"case": "level 5 vs Jocly", "why": why}]}
    games, seconds, plies = ctx.size(10, 2), ctx.size(1.0, 0.2), ctx.size(300, 12)

    def play(folder, install_seconds):
        return match(folder, games, seconds, plies, ctx.progress), install_seconds
    results, install_seconds = _with_jocly(jocly_dir, play)
    s = match_summary(results)
    if s["share"] is None:
        return {"rows": [], "goals": [], "skipped": [{"case": "level 5 vs Jocly",
                                                      "why": f"no game finished: {s['errors']}"}]}
    r = row("gigachess2 level 5 vs Jocly", "score", {"median": s["share"], "p95": s["share"], "n": s["games"]},
            better="higher", seconds=seconds, game_records=results, install_seconds=install_seconds,
            **{k: v for k, v in s.items() if k != "share"})
    return {"rows": [r], "goals": [goal("3", f"Gigachess II level 5 against Jocly's AI at {seconds:g} s a move "
                                           f"(both sides), {games} games: win the match (> 50 %)",
                                        s["share"], 0.5, s["share"] > 0.5, _describe(s, seconds))],
            "skipped": [], "params": {"games": games, "seconds": seconds, "plies": plies,
                                      "jocly": JOCLY_PACKAGE}}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.jocly", description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--plies", type=int, default=300)
    ap.add_argument("--jocly-dir", default=os.environ.get("FAIRYPOST_JOCLY_DIR"),
                    help="a folder where npm installed jocly already (default: a fresh temporary install)")
    ap.add_argument("--json", metavar="PATH", help="write the game records there")
    ap.add_argument("--record", metavar="PATH", help="play no match: write Jocly's legal moves along "
                    "the --line lines there (test data)")
    ap.add_argument("--line", action="append", default=[], help="moves in LAN, space-separated")
    args = ap.parse_args(argv)
    why = jocly_unavailable(args.jocly_dir)
    if why:
        print(why, file=sys.stderr)
        return 2
    if args.record:
        def rec(folder, _install_seconds):
            jocly = Jocly(folder)
            try:
                return record(jocly, [line.split() for line in args.line])
            finally:
                jocly.close()
        Path(args.record).write_text(json.dumps(_with_jocly(args.jocly_dir, rec), separators=(",", ":")) + "\n")
        return 0

    def play(folder, install_seconds):
        if install_seconds is not None:
            print(f"installed {JOCLY_PACKAGE} in {install_seconds:.0f} s", flush=True)
        return match(folder, args.games, args.seconds, args.plies, lambda s: print(s, flush=True))
    results = _with_jocly(args.jocly_dir, play)
    s = match_summary(results)
    if args.json:
        Path(args.json).write_text(json.dumps({"summary": s, "games": results}, indent=1) + "\n")
    print(_describe(s, args.seconds))
    for d in s["disagreements"]:
        print("disagreement:", json.dumps(d))
    return 0


if __name__ == "__main__":
    sys.exit(main())
