"""The typed ``language`` command (issue #44), as every adapter runs it (bot/commands/run.py),
and the grammar's errors and help in the reader's language."""

from __future__ import annotations

import random

import pytest

from bot.commands.run import Context, execute
from bot.operations.service import GameService
from bot.words.grammar import GRAMMAR, GrammarError, parse
from bot.words.text import PLAIN
from tests.language.leaks import english_left


@pytest.fixture
async def service(settings, clock, notifier):
    s = await GameService.open(settings, clock=clock, notifier=notifier, rng=random.Random(1))
    yield s
    await s.close()


async def test_the_language_command_shows_chooses_and_goes_back(service):
    ann = await service.player("email", "ann@example.org", "Ann")

    async def run(line, here=None):
        player = await service.get_player(ann.id)
        m = PLAIN.in_language(player.reads(here))
        return await execute(parse(line, in_game=False), Context(service, player, m, here=here))

    r = await run("language", here="de")
    assert r.text.splitlines()[0] == "Du liest Deutsch, die Sprache des Ortes, an dem du schreibst."
    assert "English (en), Deutsch (de), Español (es), Français (fr)" in r.text
    r = await run("language fr", here="de")
    assert r.text == "Désormais, vous lisez en Français." and r.changed
    assert (await service.get_player(ann.id)).settings.language == "fr"
    r = await run("language", here="de")
    assert r.text.splitlines()[0] == "Vous lisez en Français, comme vous l'avez choisi."
    assert english_left(r.text, "fr", own=["English", "Deutsch", "Español", "language", "default"]) == []
    r = await run("language default", here="es")
    assert r.text == "Ningún idioma elegido: lees en Español, el del lugar donde escribes."
    assert (await service.get_player(ann.id)).settings.language is None
    r = await run("language DE-de")
    assert r.text == "Ab jetzt liest du Deutsch."


async def test_a_bad_language_code_is_refused_clearly_and_changes_nothing(service):
    ann = await service.player("email", "ann@example.org", "Ann")
    await service.update_settings(ann.id, language="fr")
    for bad in ("xx", "../../etc", "fr;drop", "klingon", "e\x1b[31m"):
        with pytest.raises(GrammarError) as e:
            await execute(parse(f"language {bad}", in_game=False), Context(service, ann, PLAIN))
        assert "is not a language here; the languages are: en, de, es, fr, or default" in str(e.value)
        assert "\x1b" not in str(e.value)
        said = e.value.said(PLAIN.in_language("fr"))
        assert said.startswith("'") and "n'est pas une langue ici" in said
        assert "(usage : language [LANG])" in said
    assert (await service.get_player(ann.id)).settings.language == "fr"


def test_the_grammar_errors_and_help_strings_are_said_in_french():
    fr = PLAIN.in_language("fr")
    for line in ("moves 9z", "challenge chess", "vacation 900", "accept abc", "m", "frobnicate x"):
        with pytest.raises(GrammarError) as e:
            GRAMMAR.parse(line, in_game=line != "frobnicate x")
        said = e.value.said(fr)
        assert said != str(e.value), line
        commands = [s.name for s in GRAMMAR] + [w for s in GRAMMAR for w in s.words]
        assert english_left(said, "fr", own=commands + ["9z", "abc", "frobnicate", "m", "Nf3", "e4", "j10",
                                                         "LINES", "cancel", "GAME", "OPPONENT", "N",
                                                         "ID", "days", "casual", "SQUARE", "MOVE", "end"]) == [], line
    with pytest.raises(GrammarError) as e:
        GRAMMAR.parse("vacation 900", in_game=False)
    assert e.value.said(fr) == ("'900' n'est pas un nombre de jours ou end "
                                "(usage : vacation [N|end])")
