"""Command line of render: pictures for a person to look at.

    python -m render gallery DIR [--games ID,ID] [--variants-dir VDIR]
    python -m render docs docs/images

writes into DIR, for every game: its start position (and its legend), check, the
positions with its special states and overlays that data/gallery.toml lists (states,
promoted pieces, pieces in hand, captures, shots, drops, one piece's destinations),
and every piece card; then DIR/index.html, which shows them all. One line per picture as it is written.
The server owner's own variants (VDIR, default $FAIRYPOST_VARIANTS_DIR) are drawn like the
built-in games; a bad variant file is named with what is wrong, the others still drawn, and
the command then exits with status 1.
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

from rules.cli import VARIANTS_DIR_ENV

from . import gallery as gallery_data
from .board import to_png
from .card import piece_card_image
from .legend import legend_image
from .position import board_image


@dataclass
class Item:
    path: str          # relative to the gallery directory
    caption: str
    make: Callable     # () -> PIL image
    section: str


# -- positions ------------------------------------------------------------------------

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

    for scene in gallery_data.scenes():   # the special positions, from the data
        if scene.game in games:
            add(f"{scene.game}/{scene.name}.png", scene.caption, scene.make, scene.game)

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
        for key, state in gallery_data.card_states(gid):
            add(f"{gid}/cards/{key}-{state}.png", f"{g.types[key].name} ({key}), state {state}",
                lambda gid=gid, key=key, state=state: piece_card_image(gid, key, "w", state), gid)
    return out


# -- the pictures of the READMEs (docs/images) ------------------------------------------

def docs_items() -> list[Item]:
    """The pictures README.md and render/README.md show, by file name (data/gallery.toml)."""
    import rules
    out = [Item(f"{gid}.png", f"{rules.game(gid).name}, start",
                lambda gid=gid, sq=sq: board_image(rules.start(gid), square=sq), "start")
           for gid, sq in gallery_data.docs_start_squares().items()]
    out += [Item(path, caption, make, "render") for path, caption, make in gallery_data.docs_pictures()]
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


def own_variants(folder: str, out=None) -> list[str]:
    """Register the owner's variant files in `folder` that load (rules.add_good_variants),
    printing one line per bad file, which names it and says what is wrong. Returns those
    lines (a missing folder raises rules.VariantError)."""
    import rules

    out = out or sys.stdout
    ids, bad = rules.add_good_variants(folder)
    problems = [f"{e}" if str(path) in str(e) else f"{path}: {e}" for path, e in bad.items()]
    print(f"own variants in {folder}: {', '.join(ids) or 'none that load'}", file=out, flush=True)
    for line in problems:
        print(f"BAD VARIANT FILE {line}", file=out, flush=True)
    return problems


def gallery(directory: str, games: list[str] | None = None, out=None,
            problems: list[str] = ()) -> list[str]:
    """Write the gallery; returns the paths written. `problems`: the bad variant files'
    lines (own_variants), shown on the index page too."""
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
    _index(directory, written, problems)
    print(f"wrote {len(written)} of {len(todo)} pictures and {directory}/index.html "
          f"in {time.monotonic() - start:.1f} s", file=out, flush=True)
    return [os.path.join(directory, it.path) for it in written]


def _index(directory: str, written: list[Item], problems: list[str] = ()) -> None:
    parts = ["<!doctype html><meta charset=utf-8><title>fairypost render gallery</title>",
             ("<style>body{background:#222;color:#ddd;font-family:sans-serif}"
              "figure{display:inline-block;margin:8px;vertical-align:top}"
              "img{max-width:420px;display:block}figcaption{max-width:420px}</style>")]
    if problems:
        parts.append("<h2>Variant files not drawn</h2><ul>")
        parts += [f"<li>{html.escape(line)}</li>" for line in problems]
        parts.append("</ul>")
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
    g.add_argument("--variants-dir", metavar="VDIR",
                   help=f"also draw your own variant files in VDIR (default: ${VARIANTS_DIR_ENV})")
    d = sub.add_parser("docs", help="write the READMEs' pictures into DIR (docs/images)")
    d.add_argument("directory", metavar="DIR")
    args = ap.parse_args(argv)
    if args.command == "gallery":
        import rules
        problems = []
        folder = args.variants_dir or os.environ.get(VARIANTS_DIR_ENV)
        if folder:
            try:
                problems = own_variants(folder)
            except rules.VariantError as e:
                print(f"error: {e}", file=sys.stderr)
                return 2
        games = args.games.split(",") if args.games else None
        unknown = [g for g in games or () if g not in rules.variants()]
        if unknown:
            print(f"error: no game {', '.join(unknown)}; the games are: {', '.join(rules.variants())}",
                  file=sys.stderr)
            return 2
        gallery(args.directory, games, problems=problems)
        return 1 if problems else 0
    elif args.command == "docs":
        docs(args.directory)
    return 0


if __name__ == "__main__":
    sys.exit(main())
