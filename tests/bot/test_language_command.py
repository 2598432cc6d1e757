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


@pytest.mark.contract  # the choice is stored: on every database back end
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


@pytest.mark.contract  # the choice is stored: on every database back end
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


async def test_typed_commands_answer_in_the_readers_language(service):
    # the replies of bot/commands/run.py (mail and Discord's threads run them) for a French and
    # a German reader of one game; refusals carry their Text, said in the reader's language
    from bot.domain.errors import ServiceError

    ann = await service.player("email", "ann@example.org", "Ann")
    bob = await service.player("email", "bob@example.org", "Bob")
    await service.update_settings(ann.id, language="fr")
    await service.update_settings(bob.id, language="de")

    async def by_address(who):
        return {p.user_id: p for p in (ann, bob)}.get(who.lower())

    async def run(player, line, game_id=None):
        player = await service.get_player(player.id)
        m = PLAIN.in_language(player.reads())
        ctx = Context(service, player, m, game_id, find_player=by_address)
        return await execute(parse(line, in_game=game_id is not None), ctx)

    with pytest.raises(ServiceError) as e:
        await run(bob, "accept")
    assert PLAIN.in_language("de").say(e.value.text) == "keine Herausforderung ist an dich offen"
    with pytest.raises(ServiceError) as e:
        await run(ann, "challenge chess carol@example.org")
    assert PLAIN.in_language("fr").say(e.value.text) == "il n'y a pas de joueur 'carol@example.org' ici"
    await run(ann, "challenge chess bob@example.org")
    game = (await run(bob, "accept")).game
    white, black = (ann, bob) if game.white.id == ann.id else (bob, ann)
    said = {ann.id: {}, bob.id: {}}
    said[white.id]["move"] = (await run(white, "e4", game.id)).text.splitlines()[0]
    said[black.id]["draw"] = (await run(black, "draw", game.id)).text.splitlines()[0]
    said[white.id]["decline"] = (await run(white, "draw decline", game.id)).text.splitlines()[0]
    said[black.id]["premove"] = (await run(black, "premove", game.id)).text
    said[white.id]["none"] = (await run(white, "premove", game.id)).text
    said[ann.id]["vacation"] = (await run(ann, "vacation")).text
    said[bob.id]["tournaments"] = (await run(bob, "tournaments")).text
    said[ann.id]["block"] = (await run(ann, "block bob@example.org")).text
    said[ann.id]["unblock"] = (await run(ann, "unblock bob@example.org")).text
    said[bob.id]["confirm"] = (await run(bob, "confirm on")).text
    fr, de = said[ann.id], said[bob.id]
    g = game.id
    if white.id == ann.id:
        assert fr["move"] == f"Vous avez joué e4 dans la partie #{g}."
        assert de["draw"] == f"Partie #{g}: Du bietest Remis an."
        assert fr["decline"] == f"Partie #{g} : vous refusez la nulle."
        assert de["premove"].startswith(f"Du hast keine bedingten Züge in der Partie #{g}. Hinterlege welche mit: ")
    else:
        assert de["move"] == f"Du hast e4 in der Partie #{g} gespielt."
        assert fr["draw"] == f"Partie #{g} : vous proposez la nulle."
        assert de["decline"] == f"Partie #{g}: Du lehnst das Remis ab."
        assert fr["premove"].startswith(f"Vous n'avez aucun coup conditionnel dans la partie #{g}.")
    assert fr["vacation"].startswith("Vous n'êtes pas en congés ; il vous reste ")
    assert de["tournaments"] == "Noch keine Turniere."
    assert fr["block"] == "Vous avez bloqué Bob. Bloqués : Bob."
    assert fr["unblock"] == "Vous avez débloqué Bob. Bloqués : personne."
    assert de["confirm"] == "Bei getippten Zügen wird nachgefragt („Nf3 spielen?“), bevor sie gespielt werden."
    own = ["Ann", "Bob", "e4", "premove", "e5", "Nf3", "c5", "Nc3"]
    for code, texts in (("fr", fr), ("de", de)):
        for key, line in texts.items():
            # the time left is the "words" helper's timetext (English until it takes a language)
            line = line.split(" ; il vous reste ")[0]
            assert english_left(line, code, own=own) == [], (code, key, line)
