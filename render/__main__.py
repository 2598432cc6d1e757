"""Command line of render: pictures for a person to look at.

    python -m render gallery DIR [--games ID,ID]
    python -m render docs docs/images

writes into DIR, for every game: its start position (and its legend), positions with
its special states and overlays (Walls both ways, Spearman settings, Cyclops
facings, promoted pieces, pieces in hand, a capture, a Cyclops run, a Wall capture,
an Archer shot, a drop, check, one piece's destinations), and every piece card;
then DIR/index.html, which shows them all. One line per picture as it is written.
`docs` writes the pictures that README.md and render/README.md show.
"""

from __future__ import annotations

import argparse
import html
import os
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from .board import to_png
from .card import piece_card_image
from .diagram import diagram
from .legend import legend_image
from .position import board_image
from .result import result_text


@dataclass
class Item:
    path: str          # relative to the gallery directory
    caption: str
    make: Callable     # () -> PIL image
    section: str


def _play(pos, *moves):
    for m in moves:
        pos = pos.play(m)
    return pos


# -- the special positions, one set per game ---------------------------------------

def chess_mate():
    import rules
    return _play(rules.start("chess"), *"e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#".split())


def chess_spanish():
    import rules
    return _play(rules.start("chess"), *"e4 e5 Nf3 Nc6 Bb5 a6".split())


GRANDDUCAL = {"d8": "r", "e8": "k", "e7": "P", "c6": "s", "f5": "M", "g4": "m", "c3": "I",
              "i2": "G", "g1": "K", "a2": "P", "b3": "P", "k7": "p", "l7": "p", "j6": "b",
              "b1": "R"}

GANYMEDE = {  # Walls both ways, Spearmen set every way, promoted pieces of both sides
    "g1": "K", "a1": "R", "c5": "W(N)", "c6": "W(S)", "a2": "W(E)", "b2": "W(W)",
    "e4": "S(R)", "h3": "S(L)", "f4": "S(V)", "b8": "+N", "e7": "+G", "a7": "+I", "j3": "+B",
    "e9": "+P", "c3": "P", "d3": "P", "g3": "P", "k3": "P",
    "g12": "k", "l12": "r", "h7": "w(E)", "i7": "w(W)", "k10": "w(N)", "k11": "w(S)",
    "d9": "s(L)", "j9": "s(R)", "g10": "s(V)", "k5": "+p", "i4": "+d", "l6": "+s", "f9": "+q",
    "d5": "p", "d6": "n", "a10": "p", "b10": "p", "h10": "p"}

SUPERCHESS = {  # Cyclopes facing four ways, Archers, Super Pawns
    "e1": "K", "e4": "C(N)", "a6": "C(E)", "c2": "A", "b2": "S", "h2": "S", "a2": "P", "g3": "P",
    "d1": "R", "e10": "k", "e5": "p", "e6": "p", "h8": "c(SW)", "j3": "c(W)", "g9": "a",
    "d7": "s", "f7": "s", "b7": "p", "k10": "r"}

KINGQUEEN = {  # promoted royals and pieces; both hands hold several kinds
    "d1": "+K", "e2": "N", "a3": "+P", "c4": "+N", "e3": "P", "f7": "+k", "d6": "+b", "f5": "p",
    "a5": "p", "i5": "+c", "e6": "p"}
KINGQUEEN_EXTRAS = "hand=CPPNbccp;dropped=-"


def ganymede_before():
    return diagram("ganymede", GANYMEDE)


def superchess_before(shot: bool = False):
    pieces = dict(SUPERCHESS)
    if shot:
        del pieces["e5"], pieces["e6"]
        pieces["c6"] = "q"
    return diagram("superchess", pieces)


def superchess_setup():
    import rules
    g = rules.game("superchess")
    return rules.from_fen("superchess", g.setup_start_fen).play("S@c2,S@g2")


def kingqueen_before():
    return diagram("kingqueen", KINGQUEEN, extras=KINGQUEEN_EXTRAS)


@lru_cache(maxsize=4)
def gigachess_game(seed: int = 7, plies: int = 300):
    """A position from a seeded random game: the first after ply 24 whose last move
    captured and gave check (or the last one reached)."""
    import rules
    rng = random.Random(seed)
    pos = rules.start("gigachess2")
    for ply in range(plies):
        moves = pos.legal_moves()
        if not moves or pos.outcome():
            break
        captures = [m for m in moves if m.captures]
        m = rng.choice(captures if captures and rng.random() < 0.5 else moves)
        pos = pos.play(m)
        if ply > 24 and pos.last_move.captures and pos.in_check():
            break
    return pos


def check_position(game_id: str, seed: int = 1, plies: int = 120):
    """A position of a seeded random game where the side to move is in check and can
    still move: after a few plies, moves that give check are chosen first."""
    import rules
    rng = random.Random(seed)
    pos = rules.start(game_id)
    for ply in range(plies):
        moves = pos.legal_moves()
        checking = [m for m in moves if pos.apply(m).in_check()] if ply > 6 else []
        pos = pos.play(rng.choice(checking or moves))
        if pos.in_check() and pos.legal_moves():
            return pos
    raise ValueError(f"no check in {plies} plies of {game_id}")


def kingqueen_castle_move():
    """Red's royal steps inside its castle after Blue's Knight left its own."""
    return kingqueen_before().play("Nc3").play("+Ke7")


def _best_piece(pos) -> int:
    """The square of the side to move's piece with the most destinations."""
    best, count = None, -1
    for sq, k in enumerate(pos.board):
        if k is not None and k.color == pos.side:
            n = len({m.to for m in pos.moves_from(sq)})
            if n > count:
                best, count = sq, n
    return best


def _highlight_best(pos):
    return board_image(pos, highlight=_best_piece(pos))


# -- the list of pictures --------------------------------------------------------------

def items(games: list[str]) -> list[Item]:
    import rules

    out: list[Item] = []

    def add(path, caption, make, section):
        out.append(Item(path, caption, make, section))

    for gid in games:
        g = rules.game(gid)
        add(f"{gid}/start.png", f"{g.name}: start, {g.side_names[0]} to move",
            lambda gid=gid: board_image(rules.start(gid)), gid)
        add(f"{gid}/start-legend.png", f"{g.name}: legend of the start position",
            lambda gid=gid: legend_image(rules.start(gid)), gid)
        add(f"{gid}/check.png", f"{g.name}: check, the royal framed and each checker cornered",
            lambda gid=gid: board_image(check_position(gid)), gid)

    def states(gid, name, caption, make):
        if gid in games:
            add(f"{gid}/{name}.png", caption, make, gid)

    states("chess", "mate", "Qxf7#: a capture, mate, seen by Black; the result banner",
           lambda: board_image(chess_mate()))
    states("chess", "highlight-b5", "the Bishop's legal moves (b5), a capture on c6",
           lambda: board_image(chess_spanish(), highlight="b5"))
    states("grandducal", "promotion-check", "e7xd8=M: a Pawn takes and becomes a Mann, check",
           lambda: board_image(diagram("grandducal", GRANDDUCAL).play("e7d8=M")))
    states("grandducal", "highlight-grandduke", "the Grand Duke's legal moves (i2)",
           lambda: board_image(diagram("grandducal", GRANDDUCAL), highlight="i2"))
    states("ganymede", "states", "Walls both ways, Spearmen set V, R and L, promoted pieces",
           lambda: board_image(ganymede_before()))
    states("ganymede", "wall-capture", "the Wall c5c6 takes two pieces (d5, d6); Black to move",
           lambda: board_image(ganymede_before().play("c5c6-d5d6")))
    states("ganymede", "wall-capture-white", "the same, seen by White (flip=False)",
           lambda: board_image(ganymede_before().play("c5c6-d5d6"), flip=False))
    states("ganymede", "highlight-wall", "the Wall's legal moves (c5)",
           lambda: board_image(ganymede_before(), highlight="c5"))
    states("ganymede", "highlight-spearman", "the Spearman's legal moves (e4, set R)",
           lambda: board_image(ganymede_before(), highlight="e4"))
    states("superchess", "cyclops-run", "the Cyclops runs e4-e7 over two Pawns, then faces E",
           lambda: board_image(superchess_before().play("e4e7(E)")))
    states("superchess", "highlight-cyclops", "the Cyclops's legal moves (e4, facing N)",
           lambda: board_image(superchess_before(), highlight="e4"))
    states("superchess", "archer-shot", "the Archer on c2 shoots the Queen on c6",
           lambda: board_image(superchess_before(shot=True).play("c2^c6")))
    states("superchess", "setup", "the set-up phase: Super Pawns placed, Cyclopes not yet facing",
           lambda: board_image(superchess_setup()))
    states("kingqueen", "drop-check", "Blue drops a Cannon on f2: check; hands with counts",
           lambda: board_image(kingqueen_before().play("C@f2")))
    states("kingqueen", "drop-check-legend", "the legend of that position (board and hands)",
           lambda: legend_image(kingqueen_before().play("C@f2")))
    states("kingqueen", "castle-move", "Red's royal steps inside its castle: the last move framed",
           lambda: board_image(kingqueen_castle_move()))
    states("kingqueen", "resigned", "Blue resigned: the banner the bot adds for a stored result",
           lambda: board_image(kingqueen_castle_move(),
                               result=result_text("kingqueen", "0-1", "resignation")))
    states("kingqueen", "highlight-knight", "the promoted Knight's legal moves (c4)",
           lambda: board_image(kingqueen_before(), highlight="c4"))
    states("gigachess2", "game", "a random game: a capture with check",
           lambda: board_image(gigachess_game()))
    states("gigachess2", "highlight", "the side to move's busiest piece, its legal moves",
           lambda: _highlight_best(gigachess_game(plies=14)))
    states("gigachess2", "game-legend", "the legend of that position",
           lambda: legend_image(gigachess_game()))

    for gid in games:
        g = rules.game(gid)
        for key, t in g.types.items():
            colours = "wb" if t.side_names else "w"
            for c in colours:
                side = g.side_names["wb".index(c)]
                suffix = "" if colours == "w" else f"-{c}"
                name = key.replace("+", "promoted-")
                add(f"{gid}/cards/{name}{suffix}.png", f"{t.name} ({key}), {side}",
                    lambda gid=gid, key=key, c=c: piece_card_image(gid, key, c), gid)
        for key, state in {"ganymede": [("S", "R"), ("S", "L"), ("W", "N")],
                           "superchess": [("C", "NE")]}.get(gid, []):
            add(f"{gid}/cards/{key}-{state}.png", f"{g.types[key].name} ({key}), state {state}",
                lambda gid=gid, key=key, state=state: piece_card_image(gid, key, "w", state), gid)
    return out


# -- the pictures of the READMEs (docs/images) ------------------------------------------

# the start pictures are shown 200 px wide in the README: small squares keep them light
_START_SQUARE = {"ganymede": 46, "gigachess2": 40, "grandducal": 46, "superchess": 56,
                 "kingqueen": 62}


def docs_items() -> list[Item]:
    """The pictures README.md and render/README.md show, by file name."""
    import rules
    out = [Item(f"{gid}.png", f"{rules.game(gid).name}, start",
                lambda gid=gid, sq=sq: board_image(rules.start(gid), square=sq), "start")
           for gid, sq in _START_SQUARE.items()]
    out += [
        Item("ganymede-wall-capture.png", "the Wall c5c6 takes d5 and d6",
             lambda: board_image(ganymede_before().play("c5c6-d5d6")), "render"),
        Item("kingqueen-drop-check.png", "Blue drops a Cannon on f2 with check",
             lambda: board_image(kingqueen_before().play("C@f2")), "render"),
        Item("kingqueen-legend.png", "the legend of that position",
             lambda: legend_image(kingqueen_before().play("C@f2")), "render"),
        Item("superchess-cyclops-moves.png", "the Cyclops's legal moves (e4)",
             lambda: board_image(superchess_before(), highlight="e4"), "render"),
        Item("superchess-card-archer.png", "the Archer's card",
             lambda: piece_card_image("superchess", "A"), "render"),
    ]
    return out


def docs(directory: str, out=None) -> list[str]:
    """Write the READMEs' pictures (docs/images), compressed hard: they are stored."""
    out = out or sys.stdout
    os.makedirs(directory, exist_ok=True)
    written = []
    for item in docs_items():
        path = os.path.join(directory, item.path)
        img = item.make()
        img.save(path, "PNG", optimize=True)
        written.append(path)
        print(f"{path}  {img.size[0]}x{img.size[1]}  {os.path.getsize(path) // 1024} KB  "
              f"{item.caption}", file=out, flush=True)
    return written


def gallery(directory: str, games: list[str] | None = None, out=None) -> list[str]:
    """Write the gallery; returns the paths written."""
    import rules

    out = out or sys.stdout
    games = games or rules.variants()
    todo = items(games)
    written = []
    start = time.monotonic()
    width = len(str(len(todo)))
    for i, item in enumerate(todo, 1):
        path = os.path.join(directory, item.path)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        try:
            img = item.make()
            data = to_png(img)
        except Exception as e:  # one broken picture must not hide the others
            print(f"[{i:{width}}/{len(todo)}] FAILED {item.path}: {type(e).__name__}: {e}",
                  file=out, flush=True)
            continue
        with open(path, "wb") as f:
            f.write(data)
        written.append(item)
        print(f"[{i:{width}}/{len(todo)}] {path}  {img.size[0]}x{img.size[1]}  "
              f"{len(data) // 1024} KB  {item.caption}", file=out, flush=True)
    _index(directory, written)
    print(f"wrote {len(written)} of {len(todo)} pictures and {directory}/index.html "
          f"in {time.monotonic() - start:.1f} s", file=out, flush=True)
    return [os.path.join(directory, it.path) for it in written]


def _index(directory: str, written: list[Item]) -> None:
    parts = ["<!doctype html><meta charset=utf-8><title>fairypost render gallery</title>",
             ("<style>body{background:#222;color:#ddd;font-family:sans-serif}"
              "figure{display:inline-block;margin:8px;vertical-align:top}"
              "img{max-width:420px;display:block}figcaption{max-width:420px}</style>")]
    section = None
    for it in written:
        if it.section != section:
            section = it.section
            parts.append(f"<h2>{html.escape(section)}</h2>")
        parts.append(f'<figure><a href="{html.escape(it.path)}"><img src="{html.escape(it.path)}" '
                     f'loading=lazy></a><figcaption>{html.escape(it.path)}: '
                     f"{html.escape(it.caption)}</figcaption></figure>")
    with open(os.path.join(directory, "index.html"), "w", encoding="utf-8") as f:
        f.write("\n".join(parts) + "\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m render", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    g = sub.add_parser("gallery", help="write every game's pictures into DIR")
    g.add_argument("directory", metavar="DIR")
    g.add_argument("--games", help="comma-separated game ids (default: all)")
    d = sub.add_parser("docs", help="write the READMEs' pictures into DIR (docs/images)")
    d.add_argument("directory", metavar="DIR")
    args = ap.parse_args(argv)
    if args.command == "gallery":
        games = args.games.split(",") if args.games else None
        gallery(args.directory, games)
    elif args.command == "docs":
        docs(args.directory)
    return 0


if __name__ == "__main__":
    sys.exit(main())
