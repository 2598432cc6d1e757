"""The language machinery itself: choosing a language from what a front end knows, saying a
sentence in it (named values, plural forms, a broken translation), Babel's dates and units,
and the catalogs' upkeep (python -m language)."""

from __future__ import annotations

import io
import subprocess
import sys
from datetime import UTC, datetime

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.support import Translations

from language import (
    ENGLISH,
    LANGUAGES,
    Language,
    T,
    Tn,
    from_accept_language,
    from_content_language,
    from_discord_locale,
    from_environment,
    language,
    language_names,
    supported,
)
from language.checks import placeholders
from tests.language.leaks import english_left


def made_language(code: str, entries: dict) -> Language:
    """A Language whose catalog is ``entries`` (msgid or (singular, plural) -> msgstr)."""
    catalog = Catalog(locale=code, domain="fairypost")
    for msgid, msgstr in entries.items():
        catalog.add(msgid, msgstr)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return Language(code, Translations(buffer, "fairypost"))


def test_the_languages_are_english_and_a_folder_each():
    assert LANGUAGES[0] == "en" and {"fr", "de", "es"} <= set(LANGUAGES)
    assert language_names()["fr"] == "Français" and language_names()["de"] == "Deutsch"


@pytest.mark.parametrize("given, code", [
    ("fr", "fr"), ("fr-FR", "fr"), ("fr_CA.UTF-8", "fr"), ("es-ES", "es"), ("de", "de"), ("en-US", "en"),
    ("pt-BR", None), ("", None), (None, None), ("x" * 10_000, None), ("fr;DROP TABLE", None), ("../../etc", None),
])
def test_supported_reads_a_tag_and_nothing_else(given, code):
    assert supported(given) == code


def test_discord_locales():
    assert from_discord_locale("es-ES") == "es" and from_discord_locale("en-GB") == "en"
    assert from_discord_locale("ja") is None


@pytest.mark.parametrize("header, code", [
    ("de-CH, de;q=0.9, en;q=0.8", "de"), ("en;q=0.5, fr;q=0.9", "fr"), ("ja, es;q=0.1", "es"),
    ("fr;q=0", None), ("*", None), ("", None), ("ja, zh", None), ("fr;q=abc, de", "fr"),
    ("," * 100_000 + "fr", None),  # the 32 entries read are all empty
])
def test_accept_language(header, code):
    assert from_accept_language(header) == code


def test_content_language_and_the_environment():
    assert from_content_language("fr-FR") == "fr" and from_content_language("ja, de") == "de"
    assert from_content_language(None) is None
    assert from_environment({"LANG": "fr_FR.UTF-8"}) == "fr"
    assert from_environment({"LANGUAGE": "ja:de", "LANG": "fr_FR.UTF-8"}) == "de"
    assert from_environment({"LC_ALL": "es_ES.UTF-8", "LANG": "de_DE.UTF-8"}) == "es"
    assert from_environment({"LANG": "C.UTF-8"}) is None and from_environment({}) is None


def test_a_sentence_with_named_values_and_plural_forms():
    fr = made_language("fr", {"{who} resigned": "{who} abandonne",
                              ("{n} day", "{n} days"): ("{n} jour", "{n} jours", "{n} jours")})
    assert fr.tr("{who} resigned", who="Ana") == "Ana abandonne"
    assert fr.trn("{n} day", "{n} days", 0) == "0 jour"  # French: 0 is singular
    assert fr.trn("{n} day", "{n} days", 2) == "2 jours"
    assert ENGLISH.trn("{n} day", "{n} days", 0) == "0 days"
    assert fr.tr("not in the catalog {x}", x=1) == "not in the catalog 1"  # English when untranslated


def test_a_translation_naming_a_value_it_is_not_given_reads_in_english():
    broken = made_language("fr", {"{who} resigned": "{qui} abandonne", "Braces {": "Accolade {"})
    assert broken.tr("{who} resigned", who="Ana") == "Ana resigned"
    assert broken.tr("Braces {") == "Braces {"


def test_a_text_is_english_until_said_and_its_values_are_escaped_when_said():
    fr = made_language("fr", {"{piece} on {square} is pinned": "{piece} en {square} est cloué", "Knight": "Cavalier"})
    from language import known
    text = T("{piece} on {square} is pinned", piece=known("Knight"), square="<e4>")
    assert str(text) == "Knight on <e4> is pinned"
    assert fr.say(text) == "Cavalier en <e4> est cloué"
    assert fr.say(text, escape=lambda s: s.replace("<", "&lt;")) == "Cavalier en &lt;e4> est cloué"
    assert str(Tn("{n} day", "{n} days", 1)) == "1 day"


def test_dates_and_units_by_babel():
    moment = datetime(2026, 11, 28, 14, 5, tzinfo=UTC)
    assert "nov." in language("fr").moment(moment) and "14:05" in language("fr").moment(moment)
    assert language("de").unit(2, "day") == "2 Tage" and language("es").unit(1, "hour") == "1 hora"
    assert ENGLISH.unit(3, "minute") == "3 minutes"


def test_placeholders_are_named():
    assert placeholders("{who} plays {side} in {game}") == {"who", "side", "game"}
    assert placeholders("no value, {{literal}}") == set()


def test_english_left_finds_english_and_leaves_names_moves_and_dates():
    fr = "Les noirs gagnent. Ana joue e4 le 28 novembre"
    found = english_left(fr + ". Your move, Ana.", "fr", own=["Ana"])
    assert any("Your" in f for f in found) and any("move" in f for f in found)


def test_the_tool_checks_and_refuses_an_unknown_language(tmp_path):
    r = subprocess.run([sys.executable, "-m", "language", "new", "zz-bad"], capture_output=True, text=True)
    assert r.returncode != 0
    r = subprocess.run([sys.executable, "-m", "language", "fill", "fr", str(tmp_path / "none.po")],
                       capture_output=True, text=True)
    assert r.returncode != 0


def test_a_data_text_made_of_two_catalog_texts_is_said_in_two_parts():
    fr = made_language("fr", {"Runs up to 3 squares.": "Court jusqu'à 3 cases.",
                              "A facing is seen from its owner.": "Une orientation se lit depuis son camp."})
    assert fr.data("Runs up to 3 squares. A facing is seen from its owner.") == \
        "Court jusqu'à 3 cases. Une orientation se lit depuis son camp."
    assert fr.data("Runs up to 3 squares. Not in the catalog.") == "Runs up to 3 squares. Not in the catalog."
