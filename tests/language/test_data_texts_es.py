"""The games' data in Spanish (#44): every text a player reads that comes from
data/variants/*.toml (a game's name, summary, special rules and how it ends; each piece's
name, side names and description; the sides' names) is said in Spanish through
``language("es").data`` — read from the real catalog, as every front end reads it.

A translation must differ from the English, except the names the glossary
(docs/languages.md, "Rules for translators") keeps as their inventors wrote them, and it must keep every fact
a player types or looks up: squares (e4, d1-f2), file letters, piece and setting letters
(K, V, R, L, N, E), castling (O-O, O-O-O), leaps such as (2,1) and every number.
"""
from __future__ import annotations

import re

import pytest

import rules
from language import language
from language.checks import placeholders, problems
from rules.hooks.superchess import FACING_NOTE_TEXT
from tests.language.leaks import english_left

CODE = "es"

#: the glossary's names that stay as written: the five games' titles and the names the
#: inventors coined for their own games ("Roc" is also the Spanish word for the bird)
KEPT = frozenset({
    "Ganymede Chess", "Gigachess II", "Grand Ducal Chess", "Super Chess", "King and Queen",
    "Wall", "Fort", "Frog", "Flying Dragon", "Moonrider", "Spearman", "Pikeman", "Mini-rose",
    "Machine", "Crocodile", "Sorceress", "Rhinoceros", "Missionary", "Admiral", "Buffalo",
    "Cyclops", "Archer", "Super Pawn", "Grand Duke", "Sage", "Mann", "Roc",
})
#: their plurals as the English texts write them (kept the same way in Spanish sentences)
KEPT_PLURALS = ("Mini-roses", "Spearmen", "Walls", "Super Pawns", "Cyclopes")

_SQUARE_RANGE = re.compile(r"\b[a-n](?:1[0-4]|[1-9])(?:-[a-n](?:1[0-4]|[1-9]))?\b")
_FILE_RANGE = re.compile(r"\b[a-n]-[a-n]\b")
_NUMBER = re.compile(r"\d+")
_LEAP = re.compile(r"\(\d,\d\)")
_CASTLING = re.compile(r"\bO-O(?:-O)?\b")
_CAPITAL = re.compile(r"(?<![\w-])[A-Z](?![\w-])")
_SMALL = re.compile(r"(?<![\w'’-])[a-z](?![\w-])")
ENGLISH_ARTICLES = {"A", "I", "a"}  # English words of one letter, not letters of the game


def _fields(gid: str) -> list[tuple[str, str]]:
    """(what it is, the English) for every player-read text of one game, from the engine's
    own view of the data file."""
    game = rules.game(gid)
    found = [("game name", game.name), ("summary", game.summary), ("game end", game.game_end)]
    found += [("special rule", r) for r in game.special_rules]
    found += [("side name", s) for s in game.side_names]
    for key, t in game.types.items():
        found.append((f"piece {key} name", t.name))
        found += [(f"piece {key} side name", s) for s in (t.side_names or ())]
        found.append((f"piece {key} description", t.description))
    return [(what, text) for what, text in found if text]


def _facts(text: str) -> dict[str, set[str]]:
    return {
        "squares": set(_SQUARE_RANGE.findall(text)),
        "file ranges": set(_FILE_RANGE.findall(text)),
        "numbers": set(_NUMBER.findall(text)),
        "leaps": set(_LEAP.findall(text)),
        "castling": set(_CASTLING.findall(text)),
        "letters": set(_CAPITAL.findall(text)) - ENGLISH_ARTICLES,
        "files": set(_SMALL.findall(text)) - ENGLISH_ARTICLES,
    }


GAMES = rules.variants()


def test_every_game_is_checked():
    assert set(GAMES) >= {"chess", "ganymede", "gigachess2", "grandducal", "kingqueen", "superchess"}


def test_the_spanish_catalog_is_complete_and_consistent():
    """Nothing missing or untranslated, no placeholder or markup problem: the same check
    as `python -m language check` for Spanish."""
    assert problems(CODE) == []


@pytest.mark.parametrize("gid", GAMES)
def test_every_text_is_spanish(gid):
    es = language(CODE)
    wrong = []
    for what, english in _fields(gid):
        said = es.data(english)
        if english in KEPT:
            if said != english:
                wrong.append(f"{what}: the glossary keeps {english!r}, got {said!r}")
        elif said == english:
            wrong.append(f"{what} left in English: {english!r}")
    assert wrong == []


@pytest.mark.parametrize("gid", GAMES)
def test_every_fact_is_kept(gid):
    """Squares, letters, castling, leaps and numbers of the English are all in the Spanish."""
    es = language(CODE)
    lost = []
    for what, english in _fields(gid):
        said = es.data(english)
        if placeholders(said) != placeholders(english):
            lost.append(f"{what}: placeholders {placeholders(said)} != {placeholders(english)}")
        have = _facts(said)
        for kind, wanted in _facts(english).items():
            missing = wanted - have[kind]
            if missing:
                lost.append(f"{what}: {kind} {sorted(missing)} lost in {said!r}")
    assert lost == []


@pytest.mark.parametrize("gid", GAMES)
def test_no_english_word_left(gid):
    """What a Spanish player reads of the rules has no English word but the kept names."""
    es = language(CODE)
    own = [*KEPT, *KEPT_PLURALS]
    left = {what: english_left(es.data(english), CODE, own=own) for what, english in _fields(gid)}
    assert {what: words for what, words in left.items() if words} == {}


def test_exact_sentences():
    es = language(CODE)
    assert es.data("Chess") == "Ajedrez"
    assert es.data("Knight") == "Caballo"
    assert es.data("Promoted Knight") == "Caballo promovido"
    assert es.data("Nightrider") == "Jinete nocturno"
    assert es.data("Blue") == "azules"
    assert es.data("Royal. One square in any direction; castles.") == (
        "Pieza real. Una casilla en cualquier dirección; enroca.")
    assert es.data("There is no castling.") == "No hay enroque."
    # the glossary's piece names inside a rule, and its squares as written
    castling = es.data(rules.game("chess").special_rules[0])
    assert castling.startswith("Enroque: O-O (Rey de e1 a g1, Torre de h1 a f1)")


def test_english_stays_english():
    """The data's English is its own translation: nothing changed for English readers."""
    en = language("en")
    for gid in GAMES:
        for _, english in _fields(gid):
            assert en.data(english) == english


def test_the_cyclops_and_its_facing_note_in_spanish():
    """Super Chess's engine adds its facing note to the Cyclops's description: a Spanish
    player reads both sentences in Spanish (the card and `piece C`), not the English."""
    from render.card import description

    game = rules.game("superchess")
    cyclops = game.types["C"]
    said = description(game, cyclops, language(CODE))
    assert said.startswith("Mira hacia una de 8 direcciones.")
    assert language(CODE).say(FACING_NOTE_TEXT) in said
    assert english_left(said, CODE, own=[*KEPT, *KEPT_PLURALS]) == []
    assert description(game, cyclops) == " ".join(cyclops.description.split())  # English as before


@pytest.mark.parametrize("gid", GAMES)
def test_what_a_player_reads_of_the_rules(gid):
    """The `rules` text and every piece's card, as the front ends' words write them."""
    from bot.words.game_texts import piece_text, rules_text
    from bot.words.text import DISCORD, HTML, PLAIN

    game = rules.game(gid)
    # the game's id and the Betza notations are typed and read as written (code in markup)
    own = [*KEPT, *KEPT_PLURALS, gid, "piece CODE", *(t.betza for t in game.types.values() if t.betza)]
    for markup in (PLAIN, DISCORD, HTML):
        m = markup.in_language(CODE)
        read = [rules_text(gid, m)] + [piece_text(game, t, m) for t in game.types.values()]
        left = [words for text in read if (words := english_left(text, CODE, own=own))]
        assert left == [], markup.name
    assert language(CODE).data(game.name) in rules_text(gid, PLAIN.in_language(CODE))
