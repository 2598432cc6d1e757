"""English left in what a player reads in another language: every test of a front end in
French (German, Spanish) passes what it read to ``english_left`` and asserts it is empty.

A word counts as read in the language when the language's catalog uses it (any of its
translations), when Babel writes it for the locale (month and day names, units), or when the
test says it is the players' own (their names, what they typed). Anything else of three
letters or more is English that never went through a catalog (or a translation that keeps
an English word its catalog never uses): it is reported with its context. Moves, squares,
numbers, links and code spans are not words: they read the same in every language.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Mapping
from functools import cache

from babel import Locale

from language.checks import read_catalog

_WORD = re.compile(r"[^\W\d_]{3,}", re.UNICODE)
_NOT_WORDS = re.compile(
    r"https?://\S+|<t:\d+:\w>|`[^`]*`|\b[\w.+-]+@[\w.-]+\b"  # links, Discord timestamps, code, addresses
    r"|\b\w*\d\w*\b"  # anything with a digit: moves, squares, ids, times
    r"|(?<!\{)\{\w+\}(?!\})"  # a template's placeholder, for a page's script to fill
)
_TAGS = re.compile(r"<[^>]*>")
_CODE = re.compile(r"`[^`]*`")
_HTML_CODE = re.compile(r"<code>.*?</code>", re.DOTALL)  # what is typed, in HTML (as `...` elsewhere)
_PLACEHOLDER = re.compile(r"(?<!\{)\{[^{}]*\}(?!\})")
#: English words that are no other language's: a sentence with one of them is English
#: whatever the catalogs say (a translation may keep one as a typed keyword, "omettez rated":
#: that does not make it the language's word; see ``_native_words``)
ENGLISH_ONLY = frozenset({"the", "your", "you", "with", "this", "that", "has", "have", "been", "will",
                          "would", "which", "there", "their", "please", "move", "moves", "game", "games",
                          "wins", "draw", "offer", "accept", "decline", "resign", "turn", "who", "what",
                          "when", "where", "played", "plays", "white", "black", "not", "and", "for", "from",
                          "day", "days", "hour", "hours", "rated", "casual", "left", "player", "players",
                          "challenge", "challenges", "vacation", "takeback", "yet", "over"})


@cache
def vocabulary(code: str) -> frozenset[str]:
    """The words of ``code``'s translations and of Babel's data for it, lower-cased."""
    words: set[str] = set()
    for message in read_catalog(code):
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for s in strings:
            # a placeholder's name ({game}, {days}) is no word of the language, nor what a
            # translation quotes as typed (`days 3`): those stay English
            words.update(w.lower() for w in _WORD.findall(_PLACEHOLDER.sub(" ", _CODE.sub(" ", s or ""))))
    locale = Locale.parse(code)
    units = {k: v for k, v in locale._data["unit_patterns"].items() if k.startswith("duration-")}
    for pattern in _flatten([locale.months, locale.days, locale.eras, locale.periods, units, locale.list_patterns]):
        words.update(w.lower() for w in _WORD.findall(pattern))
    words.update(w.lower() for w in _WORD.findall(locale.get_display_name(locale) or ""))
    return frozenset(words)


def _flatten(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, Mapping):
        return [s for v in value.values() for s in _flatten(v)]
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in _flatten(v)]
    return []


def readable(text: str) -> str:
    """What a reader sees of ``text``: HTML's tags gone and its entities read."""
    return html.unescape(_TAGS.sub(" ", text))


def english_left(text: str, code: str, own: Iterable[str] = ()) -> list[str]:
    """The words of ``text`` not in ``code``'s vocabulary (with 30 characters of context
    each); ``own``: the players' names and what they typed, which stay as they wrote them."""
    known = vocabulary(code)
    own_words = {w.lower() for o in own for w in _WORD.findall(o)}
    seen = _NOT_WORDS.sub(" ", readable(_HTML_CODE.sub(" ", text)))
    found = []
    for m in _WORD.finditer(seen):
        word = m.group(0).lower()
        if word in own_words:
            continue
        if word not in known or (word in ENGLISH_ONLY and word not in _native_words(code)):
            found.append(f"{m.group(0)!r} in …{seen[max(0, m.start() - 30):m.end() + 30]!r}…")
    return found


@cache
def _native_words(code: str) -> frozenset[str]:
    """ENGLISH_ONLY words a language's own translations use (Spanish "has", German "will"):
    those a translation has where its English has not (a word the English has too is one
    kept as it is typed, such as the option ``game`` or the keyword ``rated``)."""
    native: set[str] = set()
    for message in read_catalog(code):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        english = {w.lower() for i in ids for w in _WORD.findall(_PLACEHOLDER.sub(" ", i))}
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for s in strings:
            words = {w.lower() for w in _WORD.findall(_PLACEHOLDER.sub(" ", s or ""))}
            if s in ids:  # a name kept as it is ("King and Queen"): its words are the language's too
                native.update(words & ENGLISH_ONLY)
            else:
                native.update(w for w in words if w in ENGLISH_ONLY and w not in english)
    return frozenset(native)
