"""A game's rules and a piece's card in words, once for every adapter: the terminal's
``rules``/``piece``, Discord's ``/rules``/``/piece`` embeds and the typed (thread, email)
``rules``/``piece`` commands. The words are the game's data file's (data/variants/*.toml):
the operator's text, so Discord shows its markdown as written; HTML escapes it.
``width``: wrap to a terminal's columns (plain text only)."""

from __future__ import annotations

import textwrap

import rules
from language import ENGLISH, Language, T, Text, known

from ..domain.errors import ServiceError
from .grammar import shown
from .text import PLAIN, Markup

#: headings, in English (callers of before); said in the reader's language by the functions
SPECIAL_RULES = "Special rules"
GAME_END = "How the game ends"
PIECES = "Pieces"


def pieces_heading(m: Markup = PLAIN) -> str:
    """'Pieces', in the reader's language (not escaped)."""
    return m.tr("Pieces")


def _data(text: str, m: Markup) -> str:
    """A text of the game's data file in the reader's language (escaped for HTML only: the
    operator's markdown stays Discord's)."""
    text = m.data(text)
    return m.escape(text) if m.name == "html" else text


def _wrap(text: str, width: int | None, first: str = "", rest: str = "") -> list[str]:
    if width is None:
        return [first + text]
    return textwrap.wrap(text, width, initial_indent=first, subsequent_indent=rest)


def piece_label(ptype, m: Markup = PLAIN) -> str:
    """A piece's name; both sides' names where they differ ('Jester / Fool')."""
    return " / ".join(map(m.data, ptype.side_names)) if ptype.side_names else m.data(ptype.name)


def _label_text(ptype) -> Text:
    """``piece_label`` as a Text, for a sentence said later."""
    if not ptype.side_names:
        return known(ptype.name)
    return T("{first} / {then}", first=known(ptype.side_names[0]), then=known(ptype.side_names[1]))


def board_line(g, m: Markup = PLAIN) -> str:
    geo = g.geometry
    return m.tr("{game} ({id}): {width} x {height} board, files {files}, ranks 1-{height}.", game=m.data(g.name),
                id=g.id, width=geo.width, height=geo.height, files=" ".join(geo.files))


def rules_body(g, m: Markup, width: int | None = None) -> list[str]:
    """The summary, the special rules and how the game ends: lines, a blank one between."""
    out = _wrap(_data(g.summary, m), width)
    if g.special_rules:
        heading = m.tr("Special rules")
        out += ["", m.tr("{heading}:", heading=m.bold(heading))]
        for rule in g.special_rules:
            out += _wrap(_data(rule, m), width, m.bullet, " " * len(m.bullet))
    if g.game_end:
        heading = m.tr("How the game ends")
        out += ["", m.tr("{heading}:", heading=m.bold(heading))] + _wrap(_data(g.game_end, m), width)
    return out


def piece_line(key: str, ptype, m: Markup, width: int | None = None) -> list[str]:
    """'K  King: moves one square ...' (a column of codes in plain text, the code in bold
    elsewhere)."""
    desc = f": {_data(ptype.description, m)}" if ptype.description else ""
    if m.name == "plain":
        return _wrap(f"{key:<3}{piece_label(ptype, m)}{desc}", width, "", "     ")
    return [f"{m.bold(key)} {m.escape(piece_label(ptype, m))}{desc}"]


def rules_text(game_id: str, m: Markup, width: int | None = None) -> str:
    """A game's board, rules and pieces."""
    g = rules.game(game_id)
    out = [board_line(g, m), "", *rules_body(g, m, width), "",
           m.tr("{pieces} (type {command} for one of them):", pieces=m.bold(pieces_heading(m)),
                command=m.code("piece CODE"))]
    for key, ptype in g.types.items():
        out += piece_line(key, ptype, m, width)
    return m.lines(out)


def find_piece(g, text: str, lang: Language = ENGLISH):
    """The piece type a text names (its code, + code, or name in English or in ``lang``, any
    case, or the start of one name); else ``ServiceError`` naming the game's pieces."""
    t = text.strip()
    for key in (t, t.upper()):
        if key in g.types:
            return g.types[key]
    low = t.lower()
    def names(p):
        english = [p.name, *(p.side_names or ())]
        return english + [lang.data(n) for n in english if lang is not ENGLISH]
    for ptype in g.types.values():
        if low in (n.lower() for n in names(ptype)):
            return ptype
    starts = [p for p in g.types.values() if low and any(n.lower().startswith(low) for n in names(p))]
    if len(starts) == 1:
        return starts[0]
    codes = None
    for k, p in g.types.items():  # a Text, said in the reader's language; str() English
        item = T("{letter} {piece}", letter=k, piece=_label_text(p))
        codes = item if codes is None else T("{first}, {then}", first=codes, then=item)
    raise ServiceError(T("{game} has no piece {piece}. Its pieces: {pieces}.", game=known(g.name), piece=shown(t),
                         pieces=codes))


def piece_text(g, ptype, m: Markup, width: int | None = None) -> str:
    """One piece's card in words: its move, Betza notation, states and promotions."""
    out = [f"{m.bold(ptype.key)} {m.escape(piece_label(ptype, m))} ({m.escape(m.data(g.name))})"]
    if ptype.description:
        out += _wrap(_data(ptype.description, m), width)
    if ptype.betza:
        out.append(m.tr("Betza: {notation}", notation=m.code(ptype.betza)))
    if ptype.states:
        out.append(m.tr("Its state, in brackets after its letter: {states}.", states=m.escape(", ".join(ptype.states))))
    if ptype.promotion and ptype.promotion.to:
        out.append(m.tr("Promotes to: {pieces}", pieces=m.escape(", ".join(
            f"{k} {piece_label(g.types[k], m)}" for k in ptype.promotion.to))))
    return m.lines(out)
