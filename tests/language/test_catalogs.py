"""The catalogs are complete and current in every language, and their translations keep the
originals' placeholders: what `python -m language check` says, as a test (CI fails on any).

The template is extracted from the code and the data as it is now, so a text added to the code
and not translated, a translation whose text left the code, a fuzzy entry, a placeholder named
differently, or markup a translation brings in, each fails here; the second half shows that
the check finds each of these faults in a catalog made to have it."""

from __future__ import annotations

import pytest
from babel.messages.catalog import Catalog

from language import LANGUAGES
from language.checks import languages, problems, read_catalog, template


@pytest.mark.parametrize("code", [c for c in LANGUAGES if c != "en"])
def test_the_catalog_is_complete_and_current(code):
    found = problems(code)
    assert found == [], f"{len(found)} problems, the first 40:\n" + "\n".join(found[:40])


def test_french_german_and_spanish_are_there():
    assert {"fr", "de", "es"} <= set(languages())


def _template(*entries) -> Catalog:
    catalog = Catalog(locale="en", domain="fairypost")
    for msgid in entries:
        catalog.add(msgid, None)
    return catalog


def _catalog(code: str, entries: dict) -> Catalog:
    catalog = Catalog(locale=code, domain="fairypost")
    for msgid, (msgstr, fuzzy) in entries.items():
        catalog.add(msgid, msgstr, flags=["fuzzy"] if fuzzy else [])
    return catalog


def test_the_check_finds_a_missing_a_stale_and_a_fuzzy_entry():
    tmpl = _template("Your move in {game}", "Draw offered", "Resign")
    catalog = _catalog("fr", {"Your move in {game}": ("À vous de jouer dans {game}", False),
                              "Draw offered": ("Nulle proposée", True), "Gone": ("Parti", False)})
    found = "\n".join(problems("fr", tmpl, catalog))
    assert "missing: 'Resign'" in found
    assert "not translated (fuzzy): 'Draw offered'" in found
    assert "stale (no longer in the code): 'Gone'" in found
    assert "Your move" not in found


def test_the_check_finds_placeholders_that_differ_and_markup_brought_in():
    tmpl = _template("{who} resigned", "{who} offers a draw", "Your move")
    catalog = _catalog("de", {"{who} resigned": ("{wer} gibt auf", False),
                              "{who} offers a draw": ("Remis angeboten", False),
                              "Your move": ("**Du** bist am Zug", False)})
    found = problems("de", tmpl, catalog)
    assert any("placeholders ['wer'] differ" in f for f in found)
    assert any("placeholders [] differ" in f for f in found)
    assert any("markup characters '*'" in f for f in found)


def test_the_check_finds_missing_plural_forms():
    tmpl = Catalog(locale="en", domain="fairypost")
    tmpl.add(("{n} day", "{n} days"), None)
    catalog = Catalog(locale="fr", domain="fairypost")
    catalog.add(("{n} day", "{n} days"), ("{n} jour", "{n} jours"))  # French has three forms
    assert any("2 plural forms, the language has 3" in f for f in problems("fr", tmpl, catalog))


def test_every_catalog_reads_and_the_template_has_the_data_texts():
    ids = {m.id for m in template() if m.id}
    assert "Knight" in ids and "Cyclops" in ids  # from data/variants by the data extractor
    for code in languages():
        assert read_catalog(code).num_plurals >= 2


def test_the_check_keeps_a_games_number_as_players_type_it():
    tmpl = _template("Game #{id} is over")
    catalog = _catalog("de", {"Game #{id} is over": ("Partie Nr. {id} ist beendet", False)})
    assert any("#{...}" in f for f in problems("de", tmpl, catalog))
