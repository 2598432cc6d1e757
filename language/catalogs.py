"""The catalogs: one ``Language`` per folder under ``locales/``, English when none fits.

A ``.po`` file is compiled to ``.mo`` when the package is built (setup.py), so an installed
fairypost reads the compiled file; a source checkout without one reads the ``.po`` itself
(and so does one whose ``.po`` is newer than its ``.mo``). An untranslated or fuzzy entry
reads in English.
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Callable
from datetime import datetime, tzinfo
from functools import cache
from typing import Any

from babel import Locale
from babel.dates import format_date, format_time, get_timezone
from babel.support import Translations
from babel.units import format_unit

from .choosing import supported
from .folders import DOMAIN, LANGUAGES, catalog_path
from .text import Text

_UNITS = {"day": "duration-day", "hour": "duration-hour", "minute": "duration-minute",
          "second": "duration-second", "week": "duration-week"}


class Language:
    """A reader's language: sentences from the catalog with named values filled in, and
    dates, times and durations as Babel writes them for the locale."""

    def __init__(self, code: str, translations: gettext.NullTranslations | None = None):
        self.code = code
        self.locale = Locale.parse(code.replace("-", "_"))
        self.translations = translations or gettext.NullTranslations()

    def __repr__(self) -> str:
        return f"<Language {self.code}>"

    @property
    def name(self) -> str:
        """The language's own name for itself: "français", "Deutsch"."""
        name = self.locale.get_display_name(self.locale) or self.code
        return name[:1].upper() + name[1:]

    # --- sentences ----------------------------------------------------------------------

    def tr(self, msgid: str, /, **params: Any) -> str:
        """The sentence ``msgid`` in this language, its ``{names}`` filled with ``params``
        (str as given: a front end passes text it has already escaped or marked up)."""
        return self._fill(self.translations.gettext(msgid), msgid, params)

    def trn(self, singular: str, plural: str, n: int, /, **params: Any) -> str:
        """The form of the sentence for the count ``n`` (``{n}`` unless given)."""
        params.setdefault("n", n)
        template = self.translations.ngettext(singular, plural, n)
        return self._fill(template, singular if n == 1 else plural, params)

    def data(self, text: str) -> str:
        """A text from a game's data file (a game's, a piece's or a side's name, a rule) in
        this language: the data extractor put it in the catalogs; a server's own game's
        texts, which are in no catalog, read as their file has them."""
        if not text:
            return text
        said = self.translations.gettext(text)
        if said != text or self.code == "en":
            return said
        # a text the rules made of two data texts (Super Chess: a Cyclops' description and
        # the note on facings): each part from the catalog
        for i in range(len(text) - 1):
            if text[i] == "." and text[i + 1] == " ":
                head, tail = text[:i + 1], text[i + 2:]
                head_said, tail_said = self.translations.gettext(head), self.translations.gettext(tail)
                if head_said != head and tail_said != tail:
                    return f"{head_said} {tail_said}"
        return said

    def say(self, text: Text | str, escape: Callable[[str], str] | None = None) -> str:
        """A ``Text`` in this language (its values through ``escape`` if given, and Texts
        among them said in this language too); a plain str as it is."""
        if not isinstance(text, Text):
            return str(text) if escape is None else escape(str(text))
        values = {k: self.say(v, escape) if isinstance(v, Text) else (v if escape is None else escape(str(v)))
                  for k, v in text.params.items()}
        if text.plural is None:
            said = self.tr(text.msgid, **values)
        else:
            said = self.trn(text.msgid, text.plural, text.n if text.n is not None else 1, **values)
        # a kind of Text that finishes its words itself (rules: a reason begun with a capital,
        # a piece's name for several of them in English)
        finish = getattr(text, "finish", None)
        return finish(said, self.code) if finish is not None else said

    def _fill(self, template: str, original: str, params: dict[str, Any]) -> str:
        for candidate in (template, original):  # a translation naming a value it is not given: English
            try:
                return candidate.format(**params)
            except (KeyError, IndexError, ValueError):
                continue
        return original

    # --- dates, times, durations -------------------------------------------------------

    def unit(self, n: int, unit: str) -> str:
        """``n`` of a unit of time ("day", "hour", "minute", "second", "week"): "2 jours"."""
        return format_unit(n, _UNITS[unit], length="long", locale=self.locale)

    def moment(self, moment: datetime, zone: tzinfo | str | None = None) -> str:
        """A date and time to the minute, as this locale writes it ("28 nov. 2026, 14:05"), in
        ``zone`` (a tzinfo or an IANA name; else the moment's own)."""
        zone = get_timezone(zone) if isinstance(zone, str) else zone or moment.tzinfo
        pattern = str(self.locale.datetime_formats["medium"])  # "{1}, {0}": the date, then the time
        day = format_date(moment.astimezone(zone) if zone else moment, "medium", locale=self.locale)
        time = format_time(moment, "short", tzinfo=zone, locale=self.locale)
        return pattern.replace("{1}", day).replace("{0}", time)

    def day(self, moment: datetime, zone: tzinfo | str | None = None) -> str:
        zone = get_timezone(zone) if isinstance(zone, str) else zone
        return format_date(moment.astimezone(zone) if zone else moment, "medium", locale=self.locale)


def _translations(code: str) -> gettext.NullTranslations:
    po, mo = catalog_path(code), catalog_path(code, ".mo")
    if mo.is_file() and (not po.is_file() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as f:
            return Translations(f, DOMAIN)
    if not po.is_file():
        return gettext.NullTranslations()
    # not compiled (a source checkout): compile in memory
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    with po.open("rb") as f:
        catalog = read_po(f, locale=code, domain=DOMAIN)
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return Translations(buffer, DOMAIN)


@cache
def _language(code: str) -> Language:
    return Language(code, None if code == "en" else _translations(code))


ENGLISH = _language("en")


def language(code: str | None) -> Language:
    """The language of ``code`` ("fr", "fr-FR", "fr_FR.UTF-8"), English if it is not one
    of ``LANGUAGES``."""
    chosen = supported(code) if code else None
    return _language(chosen) if chosen else ENGLISH


def language_names() -> dict[str, str]:
    """Each language's code and its own name, for a choice: {"en": "English", "fr": "Français"}."""
    return {code: _language(code).name for code in LANGUAGES}
