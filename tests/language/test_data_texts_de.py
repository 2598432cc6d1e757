"""The games' data texts in German (#44): every game's name, summary, special rules
and ending, every piece's name and description and every side's name, as a German player
reads them through ``Language.data``.

A rule is a rule: the translation must keep every fact a player acts on, so every square
(e4, d1-f2), every file range (a-h), every leap like (2,1), every number, every castling
notation (O-O, O-O-O) and every letter a player reads or types (a piece letter, a Cyclops'
facing N/E, a Spearman's setting V/R/L) of the English must be in the German as often as in
the English. Names the glossary (docs/languages.md, "Rules for translators") keeps as their inventors wrote
them stay exactly English; every other text must read differently from the English.
"""
from __future__ import annotations

import re
import tomllib
from collections import Counter
from pathlib import Path

import pytest

import rules
from language import language
from language.checks import read_catalog
from language.extract import texts
from tests.language.leaks import english_left

DATA = Path(__file__).resolve().parents[2] / "data" / "variants"

#: the glossary's names kept in English: the five games' titles and the names the inventors
#: coined for their own games
KEPT = frozenset({
    "Ganymede Chess", "Gigachess II", "Grand Ducal Chess", "Super Chess", "King and Queen",
    "Wall", "Fort", "Frog", "Flying Dragon", "Moonrider", "Spearman", "Pikeman", "Mini-rose",
    "Machine", "Crocodile", "Sorceress", "Rhinoceros", "Missionary", "Admiral", "Buffalo",
    "Cyclops", "Archer", "Super Pawn", "Grand Duke", "Sage", "Mann",
})
#: names whose German word is spelt as the English one (glossary: Giraffe, Gnu; and the
#: German words for King and Queen's Pegasus and Veteran)
SAME_IN_GERMAN = frozenset({"Giraffe", "Gnu", "Pegasus", "Veteran"})

#: what a translation must carry over unchanged, each as often as the English has it
_KEEP = re.compile(
    r"O-O(?:-O)?"                       # castling notation
    r"|\(\d+,\d+\)"                     # a leap: (2,1)
    r"|\b[a-n]\d{1,2}(?:-[a-n]\d{1,2})?\b"  # a square or a block of squares: e1, d1-f2
    r"|\b[a-n]-[a-n]\b"                 # a range of files: a-h
    r"|\d+"                             # a number: 10 x 10, 45 degrees, the 100th ply
    r"|(?<![\w-])[A-Z](?![\w-])"         # a letter: a piece's, a facing (N, E), a setting (V, R, L)
    r"|\{\w*\}"                          # a placeholder, should a data text ever have one
)
#: the English article "A" opening a sentence is a word, not a letter
_ARTICLE = re.compile(r"(?:^|[.:;]\s+|\(\s*)A\s")


def _kept(text: str) -> Counter[str]:
    return Counter(_KEEP.findall(_ARTICLE.sub(" ", text)))


def _game_texts() -> list[tuple[str, str, str]]:
    """(game id, what the text is, the English) for every text a player reads of a game."""
    found = []
    for gid in rules.variants():
        game = rules.game(gid)
        found += [(gid, "game name", game.name), (gid, "summary", game.summary),
                  (gid, "game end", game.game_end)]
        found += [(gid, "special rule", rule) for rule in game.special_rules]
        found += [(gid, "side name", side) for side in game.side_names]
        for letter, kind in sorted(game.types.items()):
            found += [(gid, f"name of {letter}", kind.name), (gid, f"description of {letter}", kind.description)]
            found += [(gid, f"side name of {letter}", side) for side in (kind.side_names or ())]
    return [t for t in found if t[2]]


GAME_TEXTS = _game_texts()
DE = language("de")


def test_every_game_is_covered():
    """The six games, each with its pieces' names and descriptions and its rules."""
    games = {gid for gid, _, _ in GAME_TEXTS}
    assert games == {path.stem for path in DATA.glob("*.toml")} and len(games) == 6
    for gid in games:
        kinds = {what.split(" of ")[0] for g, what, _ in GAME_TEXTS if g == gid}
        assert {"game name", "summary", "game end", "name", "description"} <= kinds, gid


def test_the_catalog_has_every_data_text_translated():
    """Every text the data extractor takes from data/variants/*.toml has a German entry,
    not fuzzy (a text read the same as English is so by choice, not by a gap)."""
    catalog = read_catalog("de")
    missing = []
    for path in sorted(DATA.glob("*.toml")):
        for text in texts(tomllib.loads(path.read_text(encoding="utf-8"))):
            entry = catalog.get(text)
            if entry is None or not entry.string or entry.fuzzy:
                missing.append((path.name, text))
    assert missing == []


@pytest.mark.parametrize(("gid", "what", "english"), GAME_TEXTS,
                         ids=[f"{g}-{w}-{i}" for i, (g, w, _) in enumerate(GAME_TEXTS)])
def test_data_text_reads_in_german_and_keeps_its_facts(gid, what, english):
    german = DE.data(english)
    if english in KEPT or english in SAME_IN_GERMAN:
        assert german == english, f"{what} of {gid}: the glossary keeps {english!r}"
    else:
        assert german != english, f"{what} of {gid} is still English: {english!r}"
    assert _kept(german) == _kept(english), f"{what} of {gid}: {english!r} -> {german!r}"
    assert english_left(german, "de", own=KEPT | SAME_IN_GERMAN | {"Xiangqi"}) == []


def test_names_and_terms_follow_the_glossary():
    """Exact words of the glossary: the chess pieces, the fairy pieces with an established
    German name, the sides, and King and Queen's promoted pieces."""
    expected = {
        "Chess": "Schach", "King": "König", "Queen": "Dame", "Rook": "Turm", "Bishop": "Läufer",
        "Knight": "Springer", "Pawn": "Bauer", "Empress": "Kaiserin", "Cardinal": "Kardinal",
        "Amazon": "Amazone", "Camel": "Kamel", "Giraffe": "Giraffe", "Gnu": "Gnu",
        "Nightrider": "Nachtreiter", "Cannon": "Kanone", "Elephant": "Elefant", "Dragon": "Drache",
        "Lion": "Löwe", "Eagle": "Adler", "Griffon": "Greif", "Roc": "Roch", "Marshall": "Marschall",
        "Centaur": "Zentaur", "Prince": "Prinz", "Duchess": "Herzogin", "White": "Weiß",
        "Black": "Schwarz", "Promoted Knight": "befördeter Springer", "Promoted Pawn": "befördeter Bauer",
    }
    assert {english: DE.data(english) for english in expected} == expected
    # the rules use the glossary's terms
    castling = DE.data(rules.game("chess").special_rules[0])
    assert castling.startswith("Rochade: O-O (König e1 nach g1, Turm h1 nach f1)")
    assert "Schachmatt" in DE.data(rules.game("chess").game_end)
    assert "Patt" in DE.data(rules.game("chess").game_end)


def test_the_facts_check_catches_a_lost_square():
    """The check itself: a translation that drops a square, a letter or a leap is caught."""
    english = "Castling: O-O (King e1 to g1, Rook h1 to f1)."
    assert _kept("Rochade: O-O (König e1 nach g1, Turm h1 nach f1).") == _kept(english)
    assert _kept("Rochade: O-O (König e1 nach g1, Turm nach f1).") != _kept(english)
    assert _kept("Stellt ihn auf V oder R.") != _kept("Sets it to V, R or L.")
    assert _kept("Ein (2,1)-Sprung.") != _kept("A (2,2) leap.")
    assert _kept("Ein Läufer.") == _kept("A Bishop.")  # the article is no letter
