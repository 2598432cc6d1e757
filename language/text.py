"""A sentence to be read later, in its reader's language.

The rules engine and the game service say things before anyone knows who will read them (a
refusal, a reason a move is illegal): they make a ``Text``, a message id and its named
values, and the front end that shows it says it in its reader's language
(``Language.say``). ``str()`` of a Text is English, so logs and old callers read as before.

``T("{piece} on {square} is pinned", piece=..., square="e4")`` is found by the extraction
(``T`` and ``Tn`` are Babel keywords); ``known(name)`` is a message id that is not in the
code but in the catalogs all the same: a game's or a piece's name from its data file.
"""

from __future__ import annotations

from typing import Any


class Text:
    """A message id (English), its plural and count if it has one, and its named values.
    A value may itself be a Text (said in the same language), or anything else (``str()``).
    Values are what users and the engine wrote, unescaped: a front end escapes them."""

    __slots__ = ("msgid", "plural", "n", "params")

    def __init__(self, msgid: str, plural: str | None = None, n: int | None = None, /, **params: Any):
        self.msgid = msgid
        self.plural = plural
        self.n = n
        self.params = params

    def __str__(self) -> str:
        return self.english()

    def english(self) -> str:
        template = self.msgid if self.plural is None or self.n == 1 else self.plural
        return template.format(**{k: (v.english() if isinstance(v, Text) else v) for k, v in self.params.items()})

    def __repr__(self) -> str:
        return f"Text({self.english()!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Text):
            return (self.msgid, self.plural, self.n, self.params) == (other.msgid, other.plural, other.n, other.params)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.msgid, self.plural, self.n))

    def __add__(self, other: object) -> str:  # old callers concatenating a reason: English
        return self.english() + str(other)

    def __radd__(self, other: object) -> str:
        return str(other) + self.english()


def T(msgid: str, /, **params: Any) -> Text:  # noqa: N802 - the extraction's keyword
    """A sentence; its message id is a literal string, so Babel finds it."""
    return Text(msgid, None, None, **params)


def Tn(singular: str, plural: str, n: int, /, **params: Any) -> Text:  # noqa: N802
    """A sentence with a count: ``{n}`` is the count unless given."""
    params.setdefault("n", n)
    return Text(singular, plural, n, **params)


def known(msgid: str) -> Text:
    """A name from a data file (a game, a piece, a side): in the catalogs by the data
    extractor (``language.extract``), so a literal cannot name it here."""
    return Text(msgid, None, None)
