"""The games' data texts in French (#44): every game's name, summary, special rules
and end, every piece's name (and King and Queen's side names) and description, as a French
player reads them through ``Language.data``.

A translation of a rule must keep its facts: every square (e4), every piece or facing letter
(K, V, N), every number, every castling notation (O-O) and every placeholder of the English is
in the French. Each text differs from the English, except the names the glossary keeps
(docs/languages.md: the five games' titles and the names inventors coined) and the
names French writes as English does.
"""
from __future__ import annotations

import re
import tomllib
from collections import Counter

import pytest

import rules
from bot.words.game_texts import piece_text, rules_text
from bot.words.text import DISCORD, HTML, PLAIN
from language import language
from language.checks import MARKUP_CHARS, placeholders, problems, read_catalog, template
from language.extract import texts
from rules.game import definitions_dir
from tests.language.leaks import english_left

FR = language("fr")

#: the glossary's titles and inventors' names, kept as written
KEPT = {"Ganymede Chess", "Gigachess II", "Grand Ducal Chess", "Super Chess", "King and Queen",
        "Wall", "Fort", "Frog", "Flying Dragon", "Moonrider", "Spearman", "Pikeman", "Mini-rose",
        "Machine", "Crocodile", "Sorceress", "Rhinoceros", "Missionary", "Admiral", "Buffalo",
        "Cyclops", "Archer", "Super Pawn", "Grand Duke", "Sage", "Mann"}
#: the glossary's French that is spelled as the English (and King and Queen's Saint)
SAME_IN_FRENCH = {"Cardinal", "Dragon", "Lion", "Griffon", "Roc", "Prince", "Saint"}

_SQUARE = re.compile(r"\b[a-n](?:1[0-4]|[1-9])\b")
_LETTER = re.compile(r"\b(?!A\b)[A-Z]\b")  # a piece or facing letter ("A" is the article)
_NUMBER = re.compile(r"\d+")
_CASTLING = re.compile(r"\bO-O(?:-O)?\b")


def _data_files() -> dict[str, dict]:
    return {p.stem: tomllib.loads(p.read_text(encoding="utf-8"))
            for p in sorted(definitions_dir().glob("*.toml"))}


def _game_texts(gid: str) -> list[str]:
    """What a player of ``gid`` reads from its data, as the loaded game has it (the rules may
    add to a text: Super Chess's Cyclops description ends with the note on facings)."""
    game = rules.game(gid)
    said = [game.name, game.summary, *game.special_rules, game.game_end, *game.side_names]
    for t in game.types.values():
        said += [t.name, *(t.side_names or ()), t.description]
    return [s for s in said if s and s.strip()]


GAMES = rules.variants()


def test_every_game_of_the_data_is_tested():
    assert set(_data_files()) <= set(GAMES)
    assert {"chess", "ganymede", "gigachess2", "grandducal", "kingqueen", "superchess"} <= set(GAMES)


def _kept(english: str) -> bool:
    return english in KEPT or english in SAME_IN_FRENCH


@pytest.mark.parametrize("gid", GAMES)
def test_each_text_of_a_game_reads_in_french(gid):
    for english in _game_texts(gid):
        said = FR.data(english)
        if _kept(english):
            assert said == english, f"{english!r} is a name the glossary keeps: {said!r}"
            continue
        assert said != english, f"{gid}: not in French: {english!r}"
        assert english_left(said, "fr", own=KEPT | SAME_IN_FRENCH) == [], (gid, said)


@pytest.mark.parametrize("gid", GAMES)
def test_each_french_rule_keeps_squares_letters_numbers_and_placeholders(gid):
    for english in _game_texts(gid):
        said = FR.data(english)
        for pattern in (_SQUARE, _LETTER, _NUMBER, _CASTLING):
            wanted, got = Counter(pattern.findall(english)), Counter(pattern.findall(said))
            assert not wanted - got, f"{gid}: {sorted((wanted - got).elements())} lost in {said!r}"
        assert placeholders(said) == placeholders(english)
        assert not (set(said) & MARKUP_CHARS) - set(english), f"markup brought into {said!r}"


def test_the_pieces_and_games_have_the_glossarys_french_names():
    chess = rules.game("chess")
    names = {t.name: FR.data(t.name) for t in chess.types.values()}
    assert names == {"King": "Roi", "Queen": "Dame", "Rook": "Tour", "Bishop": "Fou",
                     "Knight": "Cavalier", "Pawn": "Pion"}
    assert FR.data(chess.name) == "Échecs"
    fairy = {"Empress": "Impératrice", "Amazon": "Amazone", "Camel": "Chameau", "Giraffe": "Girafe",
             "Gnu": "Gnou", "Nightrider": "Noctambule", "Cannon": "Canon", "Elephant": "Éléphant",
             "Eagle": "Aigle", "Marshall": "Maréchal", "Centaur": "Centaure", "Duchess": "Duchesse",
             "Promoted Knight": "Cavalier promu", "Promoted Pawn": "Pion promu"}
    assert {e: FR.data(e) for e in fairy} == fairy
    assert [FR.data(s) for s in rules.game("kingqueen").side_names] == ["Bleus", "Rouges"]
    for gid in ("ganymede", "gigachess2", "grandducal", "superchess", "kingqueen"):
        game = rules.game(gid)
        assert FR.data(game.name) == game.name  # a title, as the glossary says


def test_a_few_rules_read_exactly_so():
    chess = rules.game("chess")
    assert FR.data(chess.game_end) == (
        "L'échec et mat gagne. Le pat donne la nulle. La troisième fois que la même position revient, "
        "la partie est aussitôt nulle, de même au 100e demi-coup de suite sans prise ni coup de Pion.")
    assert FR.data(chess.types["N"].description) == "Le saut (2,1), par-dessus tout."
    assert FR.data("Castles: Blue's royal never leaves d1-f2, Red's never leaves d6-f7.") == \
        "Châteaux : la pièce royale des Bleus ne quitte jamais d1-f2, celle des Rouges ne quitte jamais d6-f7."


def test_the_cyclops_description_and_its_facing_note_both_read_in_french():
    cyclops = next(t for t in rules.game("superchess").types.values() if t.name == "Cyclops")
    said = FR.data(cyclops.description)
    assert said.startswith("Regarde dans l'une des 8 directions.")
    assert "Cyclops's" not in said and english_left(said, "fr", own=KEPT) == []


@pytest.mark.parametrize("gid", GAMES)
def test_the_rules_and_piece_cards_read_in_french_on_every_markup(gid):
    """`rules GAME` and `piece CODE` as the terminal, Discord and the web show them: no English
    left but the kept names, the game's id and the pieces' Betza notation (typed, not words)."""
    g = rules.game(gid)
    own = KEPT | SAME_IN_FRENCH | {gid, "piece CODE"} | {b for t in g.types.values()
                                           for b in (t.betza, *t.state_betza.values())}
    for markup in (PLAIN, DISCORD, HTML):
        reader = markup.in_language("fr")
        for said in [rules_text(gid, reader), *(piece_text(g, t, reader) for t in g.types.values())]:
            assert english_left(said, "fr", own=own) == [], said
    assert "Règles particulières" in rules_text(gid, PLAIN.in_language("fr")) or not g.special_rules


def test_no_data_message_of_the_french_catalog_is_missing_or_wrong():
    """``python -m language check`` for fr, limited to the ids the data files give."""
    ids = {text for data in _data_files().values() for text in texts(data)}
    assert ids, "the data extractor found no text"
    found = [p for p in problems("fr", template(), read_catalog("fr")) if any(repr(i) in p for i in ids)]
    assert found == []
