"""The gallery's special positions, read from the data (data/gallery.toml): every
game-specific position, scene, card state and README picture is there, so this code
names no game. See that file for the fields."""

from __future__ import annotations

import random
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from .card import piece_card_image
from .diagram import diagram
from .legend import legend_image
from .position import board_image
from .result import result_text


@dataclass(frozen=True)
class Scene:
    game: str
    name: str
    caption: str
    make: Callable     # () -> PIL image


@lru_cache(maxsize=1)
def spec() -> dict:
    from rules.resources import data_path
    return tomllib.loads(data_path("gallery.toml").read_text(encoding="utf-8"))


@lru_cache(maxsize=32)
def position(name: str):
    """The rules Position a [position.<name>] describes."""
    import rules

    p = spec()["position"][name]
    gid = p["game"]
    if "from" in p:
        pos = position(p["from"])
    elif p.get("start"):
        pos = rules.start(gid)
    elif p.get("setup_start"):
        pos = rules.from_fen(gid, rules.game(gid).setup_start_fen)
    elif "random" in p:
        pos = random_game(gid, p["random"]["seed"], p["random"]["plies"])
    else:
        pos = diagram(gid, p["pieces"], side=p.get("side", "w"), extras=p.get("extras", ""))
    for move in p.get("moves", ()):
        pos = pos.play(move)
    return pos


def random_game(game_id: str, seed: int, plies: int):
    """A position from a seeded random game: the first after ply 24 whose last move
    captured and gave check (or the last one reached)."""
    import rules
    rng = random.Random(seed)
    pos = rules.start(game_id)
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


def busiest_piece(pos) -> int:
    """The square of the side to move's piece with the most destinations."""
    best, count = None, -1
    for sq, k in enumerate(pos.board):
        if k is not None and k.color == pos.side:
            n = len({m.to for m in pos.moves_from(sq)})
            if n > count:
                best, count = sq, n
    return best


def _draw(s: dict):
    pos = position(s["position"])
    for move in s.get("moves", ()):
        pos = pos.play(move)
    if s.get("picture") == "legend":
        return legend_image(pos)
    highlight = s.get("highlight")
    if highlight == "busiest":
        highlight = busiest_piece(pos)
    result = s.get("result")
    banner = result_text(pos.game.id, *result) if result else None
    kwargs = {"flip": s["flip"]} if "flip" in s else {}
    return board_image(pos, highlight=highlight, result=banner, **kwargs)


def scenes() -> list[Scene]:
    out = []
    for s in spec().get("scene", ()):
        gid = spec()["position"][s["position"]]["game"]
        out.append(Scene(gid, s["name"], s["caption"], lambda s=s: _draw(s)))
    return out


def card_states(game_id: str) -> list[tuple[str, str]]:
    """(key, state) of the extra piece cards of a game."""
    return [tuple(ks) for c in spec().get("card", ()) if c["game"] == game_id for ks in c["states"]]


def docs_pictures() -> list[tuple[str, str, Callable]]:
    """(file, caption, make) of the README pictures beside the start positions."""
    by_path = {f"{s.game}/{s.name}": s for s in scenes()}
    out = []
    for p in spec()["docs"]["picture"]:
        if "card" in p:
            gid, key = p["card"]
            out.append((p["file"], p["caption"], lambda gid=gid, key=key: piece_card_image(gid, key)))
        else:
            out.append((p["file"], p["caption"], by_path[p["scene"]].make))
    return out


def docs_start_squares() -> dict[str, int]:
    return dict(spec()["docs"]["start_square"])
