"""Why one of the mover's pieces cannot go to a square: the words of a refusal.

A refused ``Nf3`` names the piece the player wrote and the reason, worked out from that
piece's own rules on that square (rules.tables: its rays with the squares that must be
empty, whether it may move or only take there): another piece of the player's in the way,
their own piece on the square, a move it makes only to take (or never to take), its
castle it never leaves, a pin or a check; else the square is simply not that piece's
move. Only the piece's own rules are looked at, never another piece's (issue #41).
"""
from __future__ import annotations

from .game import PositionView
from .pieces import PieceKind
from .tables import compile_square

_NOT_ITS_WAY = "does not move that way"


def plural(name: str) -> str:
    if name.endswith("ops"):  # Cyclops, Cyclopes
        return name[:-1] + "es"
    if name.endswith("y") and name[-2:-1] not in "aeiou":
        return name[:-1] + "ies"
    return name + ("es" if name.endswith(("s", "x", "ch", "sh")) else "s")


def _article(name: str) -> str:
    return "an" if name[:1] in "AEIOU" else "a"


def _who(pos: PositionView, sq: int) -> str:
    """A piece on the board as a reason names it: "your Pawn on f2", "Black's Knight on f3"."""
    k = pos.board[sq]
    assert k is not None, "a blocker is a piece"
    whose = "your" if k.color == pos.side else f"{pos.game.side_name(k.color)}'s"
    return f"{whose} {k.name} on {pos.game.geometry.names[sq]}"


def royal_name(pos: PositionView) -> str:
    royal = pos.royal[pos.side]
    k = pos.board[royal] if royal is not None else None
    return k.name if k is not None else "royal piece"


def _in_check_reason(pos: PositionView, k: PieceKind, where: str, dest: str) -> str:
    """A pseudo-legal move the royal's safety forbids: in check, pinned, or the royal's own."""
    royal = royal_name(pos)
    facing = " or facing the other royal" if pos.game.facing_royals else ""
    if k.royal:
        return f"it would leave your {royal} in check on {dest}{facing}"
    if pos.in_check():
        return f"the {k.name} {where} going to {dest} does not help: your {royal} is in check and stays so"
    return f"the {k.name} {where} is pinned: moving it would leave your {royal} in check{facing}"


def _pattern(pos: PositionView, sq: int, k: PieceKind, to: int) -> str | None:
    """Why the piece's own rays from sq do not bring it to ``to`` on this board; None when
    they do not reach ``to`` at all (not its move) or do (then the move is not the trouble)."""
    board, names = pos.board, pos.game.geometry.names
    where, dest = f"on {names[sq]}", names[to]
    target = board[to]
    tables = k.moves_at(sq)
    found: list[str] = []
    for prefix, ray, can_move, can_take, epok in tables.entries:
        if to not in ray:
            continue
        path = prefix + ray[:ray.index(to)]
        block = next((s for s in path if board[s] is not None), None)
        if block is not None:
            found.append(f"the {k.name} {where} is blocked by {_who(pos, block)}")
        elif target is None and not can_move and not (epok and pos.ep == to):
            found.append(f"the {k.name} {where} goes to {dest} only to take, and {dest} is empty")
        elif target is not None and target.color != k.color and not can_take:
            found.append(f"the {k.name} {where} goes to {dest} only when it is empty: "
                         f"{_article(k.name)} {k.name} does not take that way")
        else:
            return None
    for ray, can_move, can_take in tables.hops:
        if to not in ray[1:]:
            continue
        screens = [s for s in ray[:ray.index(to)] if board[s] is not None]
        mode = ("to take" if can_take and not can_move else "to move" if can_move and not can_take
                else "to go")
        if len(screens) != 1:
            found.append(f"the {k.name} {where} jumps over exactly one piece {mode} to {dest}, "
                         f"and {len(screens) or 'no'} piece{'' if len(screens) == 1 else 's'} "
                         f"stand{'s' if len(screens) == 1 else ''} between")
        elif target is None and not can_move:
            found.append(f"the {k.name} {where} jumps to {dest} only to take, and {dest} is empty")
        elif target is not None and not can_take:
            found.append(f"the {k.name} {where} does not take by jumping")
        else:
            return None
    return "; ".join(dict.fromkeys(found)) if found else None


def _first_move_only(pos: PositionView, sq: int, k: PieceKind, to: int) -> bool:
    """Whether the piece would reach ``to`` from its first squares' moves (a Pawn's double
    step) that it no longer has on sq."""
    game = pos.game
    if not any(c.initial for c in k._components) or sq in game.initial_squares(k.type, k.color):
        return False
    allowed = game.zone(k.type.confined, k.color) if k.type.confined else None
    first = compile_square(k._components, game.geometry, k.color, sq, True, allowed)
    return any(to in ray for _p, ray, *_ in first.entries)


def piece_reason(pos: PositionView, sq: int, to: int) -> str:
    """Why the mover's piece on sq cannot go to ``to`` now, in words naming it."""
    game, board = pos.game, pos.board
    names = game.geometry.names
    k = board[sq]
    assert k is not None and k.color == pos.side, "a reason is asked of the mover's piece"
    where, dest = f"on {names[sq]}", names[to]
    tries = [m for m in pos.pseudo_moves() if m.frm == sq and (m.to == to or any(s == to for s, _ in m.put))]
    if tries and not any(pos.is_legal(m) for m in tries):
        return _in_check_reason(pos, k, where, dest)
    if k.type.confined and to not in game.zone(k.type.confined, k.color):
        return f"{_article(k.name)} {k.name} never leaves its {k.type.confined}"
    why = _pattern(pos, sq, k, to)
    if why is not None:
        return why
    if _first_move_only(pos, sq, k, to):
        return f"the {k.name} {where} is no longer on its first squares, where it may go further"
    if k.hook is not None:  # a special mover's moves are its own (a Wall, a Cyclops, an Archer)
        dests = sorted({names[m.to] for m in pos.legal_moves() if m.frm == sq})
        can = f"it can go to {', '.join(dests)}" if dests else "it has no legal move now"
        return f"the {k.name} {where} cannot reach {dest} now ({can})"
    return f"the {k.name} {where} {_NOT_ITS_WAY}"


def pieces_reason(pos: PositionView, squares: list[int], to: int) -> str:
    """Why none of these pieces of the mover's (one letter's) can go to ``to``: the
    square's own piece if it is theirs, else each piece's reason, those that are simply
    not its move said together."""
    board, names = pos.board, pos.game.geometry.names
    dest = names[to]
    target = board[to]
    if target is not None and target.color == pos.side:
        return f"your own {target.name} stands on {dest}"
    reasons: list[str] = []
    far: list[int] = []
    for sq in sorted(squares):
        why = piece_reason(pos, sq, to)
        if why.endswith(_NOT_ITS_WAY):
            far.append(sq)
        else:
            reasons.append(why)
    if far:
        k = board[far[0]]
        assert k is not None
        if len(far) == 1:
            reasons.append(f"the {k.name} on {names[far[0]]} {_NOT_ITS_WAY}")
        elif len(far) <= 4:
            froms = ", ".join(names[s] for s in far[:-1]) + f" and {names[far[-1]]}"
            reasons.append(f"the {plural(k.name)} on {froms} do not move that way")
        else:
            others = " other" if reasons else ""
            reasons.append(f"none of your{others} {plural(k.name)} moves that way")
    return "; ".join(reasons)


def written_as(pos: PositionView, letter: str) -> list[tuple[str, str]]:
    """The mover's pieces (on the board or in hand) whose name begins with ``letter`` but
    whose letter is another: (name, letter), as King and Queen's Amazon is written P."""
    game = pos.game
    kinds = {k for sq in pos.occ[pos.side] if (k := pos.board[sq]) is not None}
    kinds |= {game.kind(key, pos.side) for key, _n in pos.hands[pos.side]}
    up = letter.upper()
    return sorted({(k.name, k.key) for k in kinds if k.name[:1] == up and k.key.lstrip("+") != up})


def letter_note(pos: PositionView, letter: str, square: str = "", drop: bool = False) -> str:
    """"; your Amazon is written P (P@d2)": the letters of the pieces a wrong letter may mean."""
    said = [f"your {name} is written {key}" + (f" ({key}@{square})" if drop and square
                                              else f" ({key}{square})" if square else "")
            for name, key in written_as(pos, letter)]
    return "; " + "; ".join(said) if said else ""


def drop_reason(pos: PositionView, code: str, to: int) -> str | None:
    """Why the mover's piece in hand with this letter cannot be dropped on ``to``, naming
    it; None when they hold no such piece (the caller says what they hold)."""
    game = pos.game
    key = code.lstrip("+")
    if game.drop_zone is None or key not in dict(pos.hands[pos.side]):
        return None
    kind = game.kind(key, pos.side)
    dest = game.geometry.names[to]
    head = f"your {kind.name} ({key}) cannot be dropped on {dest}"
    if code.startswith("+"):
        return f"{head}: a piece is always dropped unpromoted; write {key}@{dest}"
    if pos.dropped[pos.side]:
        return f"{head}: you dropped last turn, and you cannot drop twice running"
    zone = game.zone(game.drop_zone, pos.side)
    if to not in zone:
        return f"{head}: drop only onto an empty square of your own {game.drop_zone}"
    if pos.board[to] is not None:
        return f"{head}: {_who(pos, to)} stands there; drop only onto an empty square"
    if not pos.in_check() and pos.setup is None:
        return f"{head}: it would leave your {royal_name(pos)} in check"
    return f"{head}: your {royal_name(pos)} is in check and this does not answer it"
