"""People's spellings of a move, read as the move they write (issue #41 item 2).

Before a move text is read (rules.notation ``parse_move``, the one reader every front end
uses) what people add around a move is taken off: full-width and other compatibility
characters (NFKC: ``ｅ４``, ``…``), quotes and bold or italic marks around it (``*e5*``,
``_e5_``, ``**Nf3**``), a move number (``1. e4``, ``12...Nf6``, ``12… Nf6``), punctuation at
its end (``b5.``, ``Nf3!``, ``e4?!``); en and em dashes and the minus sign are hyphens, with
the spaces around them dropped (``e2–e4``, Outlook's ``e2 – e4``), and ``×`` takes like ``x``
(``B×c6``). Nothing here adds to a move or changes one letter into another: only what no
move is written with is taken away.

``several_moves`` says when a line holds more than one move (``e4 e5``, ``1. e4 e5``): each
word a move of its own shape; the reader then refuses it as two moves rather than join them.

The texts are short (the reader refuses one over rules.notation.MAX_MOVE_TEXT characters
before this is called); what is stripped is stripped, not matched, and no pattern
backtracks over more than a few characters.
"""
from __future__ import annotations

import re
import unicodedata

# quotes, backticks and Markdown's bold, italic and strike marks around a move
_WRAPPING = "*_~`'\"\u2018\u2019\u201c\u201d\u00ab\u00bb"
# a move number: "1.", "12...", "12 ...", "3. ..." (NFKC makes "…" three dots), where a word
# starts; Black's dots alone at the start ("...Nf6")
_NUMBER = re.compile(r"(?<!\S)\d{1,4}(?:\s*\.)+\s*|^\.+\s*")
# punctuation and marks after a move (the check and quality marks the reader drops too)
_TAIL = " \t\r\n\f\v.,;:!?+#"
# hyphens of every kind between squares, with the spaces Outlook's AutoCorrect puts round them
_DASH = re.compile(r"\s*[-\u2010-\u2015\u2212\ufe58\ufe63]\s*")
_TIMES = "\u00d7"  # the multiplication sign: B×c6
# a capture written with a colon, as the x of its SAN (m:n4 is mxn4, the m-pawn's, as written)
_COLON = re.compile(r"(?<=[A-Za-z0-9)])\s*:\s*(?=[A-Za-z]\d)")
# one word shaped like a move of its own: a square in it, only a move's characters
_LONGEST_WORD = 24  # no move is written longer (W(a12b12)xc12d12 is 17); longer words are not tried
_MOVE_WORD = re.compile(r"[A-Za-z0-9+=@()x:^-]*[a-zA-Z]\d{1,2}[A-Za-z0-9+=@()x:^-]*|[O0o](?:-[O0o]){1,2}")


def tidy(text: str) -> str:
    """A move text without what people add around it (see the module's doc)."""
    t = unicodedata.normalize("NFKC", text).strip()
    t = t.strip(_WRAPPING).strip()
    t = _NUMBER.sub("", t)
    t = t.rstrip(_TAIL) or t  # a text of marks alone stays (the reader says it is no move)
    t = t.strip(_WRAPPING).strip()
    t = _COLON.sub("x", _DASH.sub("-", t).replace(_TIMES, "x"))
    return t if t else text.strip()


def several_moves(text: str) -> list[str]:
    """The words of a (tidied) line that holds two moves or more, each shaped like a move
    (``e4 e5``); [] for anything else, one move written with a space among them."""
    words = [w.rstrip(",;") for w in text.split()]  # "e4, e5"
    if len(words) < 2 or not all(len(w) <= _LONGEST_WORD and _MOVE_WORD.fullmatch(w) for w in words):
        return []
    return words


def said_as_list(words: list[str]) -> str:
    """``e4 and e5``, ``e4, e5 and Nf3``."""
    return ", ".join(words[:-1]) + f" and {words[-1]}"
