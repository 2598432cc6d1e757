"""What autocomplete offers: legal moves in SAN, pieces that can move, a game's pieces.

Pure functions on a rules ``Position``; each returns (name shown, value sent) pairs, best
match first, at most ``LIMIT`` (Discord's cap on autocomplete choices).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import rules
from bot.domain.errors import ServiceError
from language import ENGLISH, LANGUAGES, Language, T, known, language
from rules import MoveKind

LIMIT = 25
_MARKS = re.compile(r"[+#!?\s:\-]|x(?=[a-z]\d|$)")


def norm(text: str) -> str:
    """Lower case, without check marks, annotations, separators and capture 'x'."""
    return _MARKS.sub("", text.strip().lower())


@dataclass(frozen=True)
class MoveEntry:
    san: str
    lan: str
    piece: str  # the moving piece's name
    frm: str | None
    to: str | None
    label: str
    interest: int  # lower: more interesting (mate, check, capture, promotion)


def move_entries(pos, lang: Language = ENGLISH) -> list[MoveEntry]:
    """Every legal move, its label in ``lang`` (``piece`` stays the data's English name: typed
    names are matched against it)."""
    names = pos.game.geometry.names
    out = []
    for m in pos.legal_moves():
        san = pos.san(m)
        piece = (m.new if m.kind == MoveKind.DROP else m.piece).name if (m.piece or m.new) else ""
        frm = names[m.frm] if m.frm is not None else None
        to = names[m.to] if m.to is not None else None
        said = lang.data(piece)
        if m.kind == MoveKind.DROP:
            label = lang.tr("drop {piece} on {square}", piece=said, square=to)
        elif m.kind in (MoveKind.NORMAL, MoveKind.CASTLE) and frm and to:
            label = (lang.tr("{piece} {origin}→{target} takes", piece=said, origin=frm, target=to) if m.captures
                     else f"{said} {frm}→{to}")
            if m.promotion is not None:
                label += lang.tr(", becomes {piece}", piece=lang.data(m.promotion.name))
        else:
            label = said
        interest = (0 if san.endswith("#") else 1 if san.endswith("+") else
                    2 if m.captures else 3 if m.promotion is not None else 4)
        out.append(MoveEntry(san, m.lan, piece, frm, to, label, interest))
    return out


def _tier(e: MoveEntry, typed: str, t: str) -> int | None:
    if typed in (e.san, e.lan):
        return 0
    if e.san.startswith(typed):
        return 1
    ns = norm(e.san)
    if ns.startswith(t) or e.lan.lower().startswith(t):
        return 2
    if (e.to and e.to.startswith(t)) or (e.frm and e.frm.startswith(t)):
        return 3
    if e.piece.lower().startswith(typed.lower()):
        return 4
    if t in ns or t in e.lan.lower() or (len(t) > 1 and typed.lower() in e.piece.lower()):
        return 5
    return None


def suggest_moves(pos, typed: str, limit: int = LIMIT, *, lang: Language = ENGLISH) -> list[tuple[str, str]]:
    """The legal moves matching what has been typed, best first: (name, SAN)."""
    typed = (typed or "").strip()
    t = norm(typed)
    ranked = []
    for e in move_entries(pos, lang):
        tier = _tier(e, typed, t) if typed else 0
        if tier is not None:
            ranked.append((tier, e.interest, len(e.san), e.san, e))
    ranked.sort(key=lambda r: r[:4])
    return [(f"{e.san} · {e.label}"[:100] if e.label else e.san, e.san[:100])
            for *_, e in ranked[:limit]]


def movable_pieces(pos) -> dict[str, tuple[str, int]]:
    """Square -> (piece name, number of legal moves) for the side to move's pieces that can move."""
    names = pos.game.geometry.names
    out: dict[str, tuple[str, int]] = {}
    for m in pos.legal_moves():
        if m.frm is None:
            continue
        sq = names[m.frm]
        name, n = out.get(sq, (m.piece.name, 0))
        out[sq] = (name, n + 1)
    return out


def suggest_pieces(pos, typed: str, limit: int = LIMIT, *, lang: Language = ENGLISH) -> list[tuple[str, str]]:
    """Pieces of the side to move that have legal moves: ('e2 · Pawn, 2 moves', 'e2')."""
    t = (typed or "").strip().lower()
    ranked = []
    for sq, (name, n) in movable_pieces(pos).items():
        if not t or sq.startswith(t):
            tier = 0
        elif name.lower().startswith(t):
            tier = 1
        elif t in name.lower():
            tier = 2
        else:
            continue
        ranked.append((tier, name, sq, n))
    ranked.sort(key=lambda r: (r[0], r[1], len(r[2]), r[2]))
    return [(f"{sq} · " + lang.trn("{piece}, {n} move", "{piece}, {n} moves", n, piece=lang.data(name)), sq)
            for _, name, sq, n in ranked[:limit]]


def find_piece(pos, text: str) -> str:
    """The square of the piece named by ``text``: a square, or a piece name that only one
    of the side to move's pieces with legal moves has."""
    t = (text or "").strip().lower()
    if not t:
        raise ServiceError(T("name a piece: its square (like e2) or its name"))
    geo = pos.game.geometry
    if geo.square_or_none(t) is not None:
        if pos.piece_at(t) is None:
            raise ServiceError(T("there is no piece on {square}", square=t))
        return t
    matches = [sq for sq, (name, _) in movable_pieces(pos).items() if name.lower() == t] or \
              [sq for sq, (name, _) in movable_pieces(pos).items() if name.lower().startswith(t)]
    if not matches:
        raise ServiceError(T("none of the pieces that can move now is called {name}: give its square",
                             name=repr(text)))
    if len(matches) > 1:
        raise ServiceError(T("several pieces are called that ({squares}): give its square",
                             squares=", ".join(sorted(matches))))
    return matches[0]


def game_pieces(game: str, lang: Language = ENGLISH) -> list[tuple[str, str, str]]:
    """(name in ``lang``, key, English name) of every piece of a game, in its definition order."""
    g = rules.game(game)
    return [(f"{lang.data(t.name)} ({key})", key, t.name) for key, t in g.types.items()]


def suggest_game_pieces(game: str, typed: str, limit: int = LIMIT, *,
                        lang: Language = ENGLISH) -> list[tuple[str, str]]:
    """The pieces whose name (in ``lang``, or the English one) or letter fits what is typed."""
    t = (typed or "").strip().lower()
    out = []
    for name, key, english in game_pieces(game, lang):
        names = (name.lower(), english.lower())
        if not t or any(n.startswith(t) for n in names) or key.lower() == t:
            out.append((0, name, key))
        elif any(t in n for n in names):
            out.append((1, name, key))
    out.sort(key=lambda r: r[0])
    return [(name, key) for _, name, key in out[:limit]]


def piece_key(game: str, text: str) -> str:
    """A piece's key from its key or its name."""
    g = rules.game(game)
    t = (text or "").strip()
    if t in g.types:
        return t
    for key, ptype in g.types.items():  # a name in any of our languages ("Cavalier", "Springer")
        names = {language(code).data(ptype.name).lower() for code in LANGUAGES}
        if t.lower() in names or key.lower() == t.lower():
            return key
    raise ServiceError(T("{game} has no piece {name}", game=known(g.name), name=repr(text)))
