"""Languages: what a player reads, in their own language (issue #44).

    text       ``Text``: a sentence to be read later, in a reader's language (``T``, ``Tn``,
               ``known``); ``str()`` of one is English. Pure Python: ``rules`` makes its
               reasons with it.
    folders    where the catalogs are; ``LANGUAGES``, the codes of the folders under ``locales/``
    catalogs   ``Language`` (``tr``, ``trn``, ``say``, dates and durations by Babel) and
               ``language(code)``
    choosing   a supported code from what a front end knows: Discord's locale, a browser's
               ``Accept-Language``, a mail's ``Content-Language``, the terminal's ``LANG``
    extract    Babel's extractor for the games' data files (names, rules, piece texts)
    tool       ``python -m language extract|update|compile|check``: the catalogs' upkeep

A language is one folder: ``locales/<code>/LC_MESSAGES/fairypost.po`` (docs/languages.md).
Message ids are English; placeholders are named (``{game}``); plural forms are gettext's.

May import: the standard library and Babel (``text`` imports nothing at all).
"""

from .catalogs import ENGLISH, Language, language, language_names
from .choosing import from_accept_language, from_content_language, from_discord_locale, from_environment, supported
from .folders import LANGUAGES
from .text import T, Text, Tn, known

__all__ = ["ENGLISH", "LANGUAGES", "Language", "T", "Text", "Tn", "from_accept_language",
           "from_content_language", "from_discord_locale", "from_environment", "known", "language",
           "language_names", "supported"]
