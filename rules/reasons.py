"""Why one of the mover's pieces cannot go to a square: the words of a refusal.

A refused ``Nf3`` names the piece the player wrote and the reason, worked out from that
piece's own rules on that square (rules.tables: its rays with the squares that must be
empty, whether it may move or only take there): another piece of the player's in the way,
their own piece on the square, a move it makes only to take (or never to take), its
castle it never leaves, a pin or a check; else the square is simply not that piece's
move. Only the piece's own rules are looked at, never another piece's (issue #41).

Every reason is a ``Text`` (language.text, issue #44): its English is the sentence of
before, and a front end says it in its reader's language. Piece and side names are the
data's (``known``); squares are values, never words.
"""
from __future__ import annotations

from language.text import T, Text, known

from .game import PositionView
from .pieces import PieceKind
from .tables import compile_square


def plural(name: str) -> str:
    if name.endswith("ops"):  # Cyclops, Cyclopes
        return name[:-1] + "es"
    if name.endswith("y") and name[-2:-1] not in "aeiou":
        return name[:-1] + "ies"
    return name + ("es" if name.endswith(("s", "x", "ch", "sh")) else "s")


class _Plural(Text):
    """A piece's name for several of them: "Knights" in English, the name as the data has it
    in a translation (whose sentence says "pieces" around it)."""

    __slots__ = ()

    def english(self) -> str:
        return plural(self.msgid)

    @staticmethod
    def finish(said: str, code: str) -> str:
        """What ``Language.say`` said of it: the name, made plural in English."""
        return plural(said) if code == "en" else said


def pieces_name(name: str) -> Text:
    return _Plural(name, None, None)


def zone_name(zone: str) -> Text:
    """A zone of the board as a reason names it (the data's only one is a castle)."""
    return T("castle") if zone == "castle" else known(zone)


def joined(parts: list[Text]) -> Text:
    """Reasons said one after the other, "; " between them."""
    out = parts[0]
    for part in parts[1:]:
        out = T("{first}; {then}", first=out, then=part)
    return out


def side_of(pos: PositionView, color: int) -> Text:
    return pos.game.side_text(color)


def _who(pos: PositionView, sq: int) -> Text:
    """A piece on the board as a reason names it: "your Pawn on f2", "Black's Knight on f3"."""
    k = pos.board[sq]
    assert k is not None, "a blocker is a piece"
    square = pos.game.geometry.names[sq]
    if k.color == pos.side:
        return T("your {piece} on {square}", piece=known(k.name), square=square)
    return T("{side}'s {piece} on {square}", side=side_of(pos, k.color), piece=known(k.name), square=square)


def royal_name(pos: PositionView) -> Text:
    royal = pos.royal[pos.side]
    k = pos.board[royal] if royal is not None else None
    return known(k.name) if k is not None else T("royal piece")


def _in_check_reason(pos: PositionView, k: PieceKind, subject: Text, dest: str) -> Text:
    """A pseudo-legal move the royal's safety forbids: in check, pinned, or the royal's own."""
    royal = royal_name(pos)
    facing = pos.game.facing_royals
    if k.royal:
        if facing:
            return T("it would leave your {royal} in check on {dest} or facing the other royal", royal=royal, dest=dest)
        return T("it would leave your {royal} in check on {dest}", royal=royal, dest=dest)
    if pos.in_check():
        return T("{subject} going to {dest} does not help: your {royal} is in check and stays so",
                 subject=subject, dest=dest, royal=royal)
    if facing:
        return T("{subject} is pinned: moving it would leave your {royal} in check or facing "
                 "the other royal", subject=subject, royal=royal)
    return T("{subject} is pinned: moving it would leave your {royal} in check",
             subject=subject, royal=royal)


def _pattern(pos: PositionView, sq: int, k: PieceKind, to: int, subject: Text) -> Text | None:
    """Why the piece's own rays from sq do not bring it to ``to`` on this board; None when
    they do not reach ``to`` at all (not its move) or do (then the move is not the trouble)."""
    board, names = pos.board, pos.game.geometry.names
    dest = names[to]
    target = board[to]
    tables = k.moves_at(sq)
    found: list[Text] = []
    for prefix, ray, can_move, can_take, epok in tables.entries:
        if to not in ray:
            continue
        path = prefix + ray[:ray.index(to)]
        block = next((s for s in path if board[s] is not None), None)
        if block is not None:
            found.append(T("{subject} is blocked by {blocker}", subject=subject,
                           blocker=_who(pos, block)))
        elif target is None and not can_move and not (epok and pos.ep == to):
            found.append(T("{subject} goes to {dest} only to take, and {dest} is empty",
                           subject=subject, dest=dest))
        elif target is not None and target.color != k.color and not can_take:
            found.append(T("{subject} goes to {dest} only when it is empty: {a_piece} does "
                           "not take that way", subject=subject, dest=dest, a_piece=a_piece(k.name)))
        else:
            return None
    for ray, can_move, can_take in tables.hops:
        if to not in ray[1:]:
            continue
        screens = [s for s in ray[:ray.index(to)] if board[s] is not None]
        if len(screens) != 1:
            found.append(_hop_count(subject, dest, len(screens), can_move, can_take))
        elif target is None and not can_move:
            found.append(T("{subject} jumps to {dest} only to take, and {dest} is empty",
                           subject=subject, dest=dest))
        elif target is not None and not can_take:
            found.append(T("{subject} does not take by jumping", subject=subject))
        else:
            return None
    unique = list(dict.fromkeys(found))
    return joined(unique) if unique else None


def _hop_count(subject: Text, dest: str, n: int, can_move: bool, can_take: bool) -> Text:
    """A cannon-like jump with no screen or more than one."""
    if n == 0:
        if can_take and not can_move:
            return T("{subject} jumps over exactly one piece to take to {dest}, and no pieces "
                     "stand between", subject=subject, dest=dest)
        if can_move and not can_take:
            return T("{subject} jumps over exactly one piece to move to {dest}, and no pieces "
                     "stand between", subject=subject, dest=dest)
        return T("{subject} jumps over exactly one piece to go to {dest}, and no pieces "
                 "stand between", subject=subject, dest=dest)
    if can_take and not can_move:
        return T("{subject} jumps over exactly one piece to take to {dest}, and {n} pieces "
                 "stand between", subject=subject, dest=dest, n=n)
    if can_move and not can_take:
        return T("{subject} jumps over exactly one piece to move to {dest}, and {n} pieces "
                 "stand between", subject=subject, dest=dest, n=n)
    return T("{subject} jumps over exactly one piece to go to {dest}, and {n} pieces "
             "stand between", subject=subject, dest=dest, n=n)


def a_piece(name: str) -> Text:
    """"a Knight", "an Elephant": the piece as a kind."""
    if name[:1] in "AEIOU":
        return T("an {piece}", piece=known(name))
    return T("a {piece}", piece=known(name))


def _first_move_only(pos: PositionView, sq: int, k: PieceKind, to: int) -> bool:
    """Whether the piece would reach ``to`` from its first squares' moves (a Pawn's double
    step) that it no longer has on sq."""
    game = pos.game
    if not any(c.initial for c in k._components) or sq in game.initial_squares(k.type, k.color):
        return False
    allowed = game.zone(k.type.confined, k.color) if k.type.confined else None
    first = compile_square(k._components, game.geometry, k.color, sq, True, allowed)
    return any(to in ray for _p, ray, *_ in first.entries)


def not_its_way(subject: Text) -> Text:
    return T("{subject} does not move that way", subject=subject)


def subject_of(pos: PositionView, sq: int, it: int | None = None) -> Text:
    """The piece a reason is about: "the Knight on g1", or "it" where the sentence before
    named it."""
    if sq == it:
        return T("it")
    k = pos.board[sq]
    assert k is not None
    return T("the {piece} on {square}", piece=known(k.name), square=pos.game.geometry.names[sq])


def piece_reason(pos: PositionView, sq: int, to: int, it: int | None = None) -> Text:
    """Why the mover's piece on sq cannot go to ``to`` now, in words naming it (or "it":
    the piece on ``it``, that the sentence before named)."""
    game, board = pos.game, pos.board
    names = game.geometry.names
    k = board[sq]
    assert k is not None and k.color == pos.side, "a reason is asked of the mover's piece"
    dest, subject = names[to], subject_of(pos, sq, it)
    tries = [m for m in pos.pseudo_moves() if m.frm == sq and (m.to == to or any(s == to for s, _ in m.put))]
    if tries and not any(pos.is_legal(m) for m in tries):
        return _in_check_reason(pos, k, subject, dest)
    if k.type.confined and to not in game.zone(k.type.confined, k.color):
        return T("{a_piece} never leaves its {zone}", a_piece=a_piece(k.name), zone=zone_name(k.type.confined))
    why = _pattern(pos, sq, k, to, subject)
    if why is not None:
        return why
    if _first_move_only(pos, sq, k, to):
        return T("{subject} is no longer on its first squares, where it may go further",
                 subject=subject)
    if k.hook is not None:  # a special mover's moves are its own (a Wall, a Cyclops, an Archer)
        dests = sorted({names[m.to] for m in pos.legal_moves() if m.frm == sq})
        if dests:
            return T("{subject} cannot reach {dest} now (it can go to {squares})",
                     subject=subject, dest=dest, squares=", ".join(dests))
        return T("{subject} cannot reach {dest} now (it has no legal move now)",
                 subject=subject, dest=dest)
    return not_its_way(subject)


def pieces_reason(pos: PositionView, squares: list[int], to: int, it: int | None = None) -> Text:
    """Why none of these pieces of the mover's (one letter's) can go to ``to``: the
    square's own piece if it is theirs, else each piece's reason, those that are simply
    not its move said together."""
    board, names = pos.board, pos.game.geometry.names
    dest = names[to]
    target = board[to]
    if target is not None and target.color == pos.side:
        return T("your own {piece} stands on {square}", piece=known(target.name), square=dest)
    reasons: list[Text] = []
    far: list[int] = []
    for sq in sorted(squares):
        why = piece_reason(pos, sq, to, it)
        if why.msgid == not_its_way(T("it")).msgid:
            far.append(sq)
        else:
            reasons.append(why)
    if far:
        k = board[far[0]]
        assert k is not None
        if len(far) == 1:
            reasons.append(not_its_way(subject_of(pos, far[0], it)))
        elif len(far) <= 4:
            reasons.append(T("the {pieces} on {squares} and {last} do not move that way",
                             pieces=pieces_name(k.name), squares=", ".join(names[s] for s in far[:-1]),
                             last=names[far[-1]]))
        elif reasons:
            reasons.append(T("none of your other {pieces} moves that way", pieces=pieces_name(k.name)))
        else:
            reasons.append(T("none of your {pieces} moves that way", pieces=pieces_name(k.name)))
    return joined(reasons)


def written_as(pos: PositionView, letter: str) -> list[tuple[str, str]]:
    """The mover's pieces (on the board or in hand) whose name begins with ``letter`` but
    whose letter is another: (name, letter), as King and Queen's Amazon is written P."""
    game = pos.game
    kinds = {k for sq in pos.occ[pos.side] if (k := pos.board[sq]) is not None}
    kinds |= {game.kind(key, pos.side) for key, _n in pos.hands[pos.side]}
    up = letter.upper()
    return sorted({(k.name, k.key) for k in kinds if k.name[:1] == up and k.key.lstrip("+") != up})


def letter_note(pos: PositionView, letter: str, square: str = "", drop: bool = False) -> list[Text]:
    """"your Amazon is written P (P@d2)": the letters of the pieces a wrong letter may mean,
    to follow a refusal after "; "."""
    said = []
    for name, key in written_as(pos, letter):
        example = (f"{key}@{square}" if drop else f"{key}{square}") if square else ""
        if example:
            said.append(T("your {piece} is written {letter} ({example})", piece=known(name), letter=key,
                          example=example))
        else:
            said.append(T("your {piece} is written {letter}", piece=known(name), letter=key))
    return said


def drop_reason(pos: PositionView, code: str, to: int) -> Text | None:
    """Why the mover's piece in hand with this letter cannot be dropped on ``to``, naming
    it; None when they hold no such piece (the caller says what they hold)."""
    game = pos.game
    key = code.lstrip("+")
    if game.drop_zone is None or key not in dict(pos.hands[pos.side]):
        return None
    kind = game.kind(key, pos.side)
    dest = game.geometry.names[to]
    piece = known(kind.name)
    if code.startswith("+"):
        unpromoted = key + "@" + dest
        return T("your {piece} ({letter}) cannot be dropped on {square}: a piece is always dropped "
                 "unpromoted; write {move}", piece=piece, letter=key, square=dest, move=unpromoted)
    if pos.dropped[pos.side]:
        return T("your {piece} ({letter}) cannot be dropped on {square}: you dropped last turn, and you "
                 "cannot drop twice running", piece=piece, letter=key, square=dest)
    zone = game.zone(game.drop_zone, pos.side)
    if to not in zone:
        return T("your {piece} ({letter}) cannot be dropped on {square}: drop only onto an empty square of "
                 "your own {zone}", piece=piece, letter=key, square=dest, zone=zone_name(game.drop_zone))
    if pos.board[to] is not None:
        return T("your {piece} ({letter}) cannot be dropped on {square}: {blocker} stands there; drop only "
                 "onto an empty square", piece=piece, letter=key, square=dest, blocker=_who(pos, to))
    if not pos.in_check() and pos.setup is None:
        return T("your {piece} ({letter}) cannot be dropped on {square}: it would leave your {royal} in "
                 "check", piece=piece, letter=key, square=dest, royal=royal_name(pos))
    return T("your {piece} ({letter}) cannot be dropped on {square}: your {royal} is in check and this "
             "does not answer it", piece=piece, letter=key, square=dest, royal=royal_name(pos))
