"""Discord in the player's language (#44): the commands as Discord shows them in French,
German and Spanish (the translator's payload), the replies in the asker's language (their
choice, else their Discord's locale), /settings language, and each notice in its
recipient's language."""

from __future__ import annotations

import discord
import pytest
from discord import Locale, app_commands

from bot.config import Settings
from bot.discord_bot import commands
from bot.discord_bot.runner import FairyClient
from bot.discord_bot.translator import FairypostTranslator
from bot.words import text as words
from language import language, language_names
from tests.language.leaks import english_left

from .conftest import run, start_game
from .helpers import last_answer

#: Discord's locales of our languages
LOCALES = {"fr": Locale.french, "de": Locale.german, "es": Locale.spain_spanish}


def _embed_text(embed: discord.Embed) -> str:
    parts = [embed.title or "", embed.description or "", embed.footer.text or ""]
    for f in embed.fields:
        parts += [f.name, f.value]
    return "\n".join(parts)


# --- the translator: what Discord is given ---------------------------------------------------

@pytest.fixture
def client(tmp_path):
    return FairyClient(Settings(db_path=str(tmp_path / "t.db")))


async def _payloads(client) -> list[dict]:
    tree = client.tree
    await tree.set_translator(FairypostTranslator())
    return [await c.get_translated_payload(tree, tree.translator) for c in commands.COMMANDS]


async def test_every_command_option_and_choice_is_localised_from_the_catalogs(client):
    """Before: no translator, no localisations at all."""
    own_names = set(language_names().values())
    games = {commands.format.game_name(g) for g in commands.rules.variants()}
    checked = 0
    for payload in await _payloads(client):
        for code, locale in LOCALES.items():
            lang = language(code)
            assert payload["description_localizations"][locale.value] == lang.tr(payload["description"])
            assert payload["name_localizations"] == {}  # command names are typed: English
            for option in payload.get("options", []):
                where = f"/{payload['name']} {option['name']} ({code})"
                said = option["description_localizations"].get(locale.value)
                assert said and said != option["description"] and len(said) <= 100, where
                assert said == lang.tr(option["description"]), where
                for choice in option.get("choices", []):
                    if choice["name"] in own_names:  # a language's own name: the same everywhere
                        continue
                    named = choice["name_localizations"].get(locale.value)
                    assert named and len(named) <= 100, (where, choice["name"])
                    if choice["name"] not in games:  # a game's name is a title: may stay as it is
                        assert named != choice["name"], (where, choice["name"])
                    checked += 1
    assert checked > 3 * 40


async def test_french_localisations_read_french(client):
    payloads = {p["name"]: p for p in await _payloads(client)}
    fr = Locale.french.value
    challenge = payloads["challenge"]
    assert challenge["description_localizations"][fr] == \
        "Défier quelqu'un (ou n'importe qui, ou l'ordinateur) à une partie"
    days = next(o for o in challenge["options"] if o["name"] == "days")
    assert [c["name_localizations"][fr] for c in days["choices"]][:2] == ["1 jour par coup", "2 jours par coup"]
    assert days["choices"][0]["name_localizations"]["de"] == "1 Tag pro Zug"
    assert days["choices"][1]["name_localizations"]["es-ES"] == "2 días por jugada"
    game = next(o for o in challenge["options"] if o["name"] == "game")
    assert {c["name"] for c in game["choices"]} >= {"Grand Ducal Chess"}
    text = "\n".join(p["description_localizations"][fr] for p in payloads.values())
    assert english_left(text, "fr") == []
    # a locale we do not have gets none (Discord shows the English)
    assert "ja" not in challenge["description_localizations"]
    assert "en-US" not in challenge["description_localizations"]


async def test_the_client_installs_the_translator(client):
    await client.tree.set_translator(None)
    client.hosted = True  # no own service to open
    client.add_dynamic_items = lambda *a: None
    client.shards = None
    client.sync_commands = _nothing
    await client.setup_hook()
    assert isinstance(client.tree.translator, FairypostTranslator)


async def _nothing():
    return None


# --- replies -----------------------------------------------------------------------------

def _french(w, user):
    i = w.interaction(user)
    i.locale = Locale.french
    return i


async def test_a_french_discord_gets_french_replies_and_is_remembered(world):
    """Before: every reply was English whatever the locale."""
    w = world
    i = _french(w, w.alice)
    await run(commands.settings, i)
    e = last_answer(i)["embed"]
    assert e.title == "Vos réglages"
    fields = {f.name: f.value for f in e.fields}
    assert fields["Notifications"] == "par message privé"
    assert fields["Langue"] == "Français (celle de votre Discord)"
    assert english_left(_embed_text(e), "fr", own=["UTC"]) == []
    me = await w.fairy.service.get_player((await w.fairy.player(w.alice)).id)
    assert me.settings.seen_language == "fr" and me.settings.language is None
    j = _french(w, w.alice)
    await run(commands.games, j)
    e = last_answer(j)["embed"]
    assert e.title == "Vos parties" and e.description.startswith("Aucune partie pour l'instant")
    assert english_left(_embed_text(e), "fr") == []


async def test_french_refusals_and_answers(world):
    w = world
    i = _french(w, w.alice)
    await run(commands.share, i)  # no web pages on this bot
    said = last_answer(i)["content"]
    assert said == "Ce bot n'a pas de pages web (son propriétaire n'a pas réglé FAIRYPOST_WEB_URL)"
    assert english_left(said, "fr", own=["FAIRYPOST_WEB_URL"]) == []
    j = _french(w, w.alice)
    await run(commands.challenge, j, game="chess", opponent=w.bob, computer=True)
    said = last_answer(j)["content"]
    assert said.startswith("Une partie se joue contre une personne ou contre l'ordinateur, pas les deux")
    assert english_left(said, "fr") == []
    k = _french(w, w.alice)
    await run(commands.piece, k, piece="K")  # no game named, none here
    assert last_answer(k)["content"] == "Quel jeu ? Choisissez-le avec l'option game"


async def test_a_french_game_draw_offer_and_takeback_answers(world):
    w = world
    gv, thread = await start_game(w)
    i = _french(w, w.alice)
    i.channel, i.channel_id = thread, thread.id
    await run(commands.draw, i)
    said = last_answer(i)["content"]
    assert said == f"Vous avez proposé la nulle dans la partie #{gv.id} ; votre adversaire a été prévenu."
    assert english_left(said, "fr") == []


async def test_the_chosen_language_wins_over_discords(world):
    w = world
    i = _french(w, w.alice)
    await run(commands.settings, i, language="de")
    a = last_answer(i)
    assert a["content"] == "Erledigt: du liest hier auf **Deutsch**."
    assert {f.name: f.value for f in a["embed"].fields}["Sprache"] == "Deutsch"
    me = await w.fairy.service.get_player((await w.fairy.player(w.alice)).id)
    assert me.settings.language == "de"
    j = _french(w, w.alice)  # her Discord is still French: she chose German
    await run(commands.games, j)
    assert last_answer(j)["embed"].title == "Deine Partien"
    k = _french(w, w.alice)
    await run(commands.settings, k, language=commands.DEFAULT_LANGUAGE)  # back to her Discord's
    assert last_answer(k)["content"] == "C'est fait : vous lisez ici en **Français**."
    me = await w.fairy.service.get_player(me.id)
    assert me.settings.language is None


@pytest.mark.parametrize("bad, why", [("xx", "xx"), ("fr; DROP TABLE", "DROP TABLE"), ("../../etc", "etc"),
                                      ("e" * 300, "100")])
async def test_settings_language_refuses_a_bad_code_and_changes_nothing(world, bad, why):
    w = world
    i = _french(w, w.alice)
    await run(commands.settings, i, language="es")
    j = _french(w, w.alice)
    await run(commands.settings, j, language=bad, quiet_hours="22:00-07:00")
    a = last_answer(j)
    assert "embed" not in a and a["ephemeral"] is True  # a refusal, privately
    assert why in a["content"], a["content"]  # says what was wrong
    if len(bad) < 100:
        assert "de, es, fr" in a["content"]  # and what may be chosen
    # (the service's refusal is the "ops" helper's text: its Spanish comes with its catalog entries)
    me = await w.fairy.service.get_player((await w.fairy.player(w.alice)).id)
    assert me.settings.language == "es" and me.settings.quiet_start is None  # nothing changed


def test_settings_language_choices_are_the_languages_own_names():
    settings = {p.name: p for p in commands.settings.parameters}
    names = {c.value: c.name for c in settings["language"].choices}
    assert names == {**language_names(), commands.DEFAULT_LANGUAGE: "your Discord's language"}
    assert names["fr"] == "Français" and names["de"] == "Deutsch" and names["es"] == "Español"


async def test_an_error_before_the_player_is_known_is_in_discords_language(world):
    from bot.discord_bot.replies import report
    i = _french(world, world.alice)
    await report(i, app_commands.NoPrivateMessage())
    assert last_answer(i)["content"] == "Cela ne fonctionne que dans un salon de serveur."


# --- notices -----------------------------------------------------------------------------

async def test_a_notice_for_a_french_and_a_german_player_of_one_game(world, monkeypatch):
    """Each recipient's notice is said with their own language's markup (the words'
    event_text is called, as it is, with it): before, both got DISCORD's English."""
    w = world
    for user, code in ((w.alice, "fr"), (w.bob, "de")):
        p = await w.fairy.player(user)
        await w.fairy.service.update_settings(p.id, language=code)
    said = []
    real = words.event_text

    def recording(e, m, where=None):
        out = real(e, m, where)
        said.append((e.recipient.name, type(e).__name__, m.lang.code, out))
        return out
    monkeypatch.setattr(words, "event_text", recording)
    gv, thread = await start_game(w)
    i = w.interaction(w.alice, channel=thread)
    await run(commands.draw, i)  # Bob is told, in German
    assert ("Bob", "DrawOffered", "de") in {(n, k, c) for n, k, c, _ in said}
    assert {(n, c) for n, _, c, _ in said} <= {("Alice", "fr"), ("Bob", "de")}
    assert {n for n, *_ in said} == {"Alice", "Bob"}  # the challenge told Bob, its acceptance Alice


# --- buttons and the game's thread ---------------------------------------------------------

def _labels(view) -> list[str]:
    return [c.item.label for c in view.children]


async def test_a_french_move_its_buttons_and_the_threads_board(world):
    """Two French players: the answer to a move, its Next game button, and the board posted
    in their thread with its buttons, in French. Before: all English."""
    w = world
    for user in (w.alice, w.bob):
        await w.fairy.service.update_settings((await w.fairy.player(user)).id, language="fr")
    gv, thread = await start_game(w)
    i = _french(w, w.alice)
    i.channel, i.channel_id = thread, thread.id
    await run(commands.move, i, move="e4")
    a = last_answer(i)
    assert a["content"] == f"Vous avez joué **e4** dans la partie #{gv.id}."
    assert _labels(a["view"]) == ["Partie suivante"]
    post = w.sent_to(thread)[-1]
    assert _labels(post["view"]) == ["Coup", "Mes coups", "Retourner", "Proposer la nulle", "Abandonner"]
    k = _french(w, w.bob)
    k.channel, k.channel_id = thread, thread.id
    await run(commands.resign, k)
    said = last_answer(k)
    assert said["content"] == (f"Abandonner la partie #{gv.id} contre Alice ? C'est définitif. "
                               "(Fermez ce message pour continuer à jouer.)")
    assert _labels(said["view"]) == ["Oui, abandonner"]
    assert english_left(said["content"], "fr", own=["Alice"]) == []


async def test_a_thread_of_players_of_two_languages_speaks_both(world):
    """Before (phase A): such a thread was in English, which neither reads."""
    w = world
    await w.fairy.service.update_settings((await w.fairy.player(w.alice)).id, language="fr")
    await w.fairy.service.update_settings((await w.fairy.player(w.bob)).id, language="de")
    gv, thread = await start_game(w)
    post = w.sent_to(thread)[-1]
    assert _labels(post["view"])[0] == "Coup / Zug"
    french, german = post["content"].split("\n\n")[:2]
    assert "Les parties commencent" in french or "commence" in french, french
    assert english_left(french, "fr", own=["Alice", "Bob"]) == []
    assert english_left(german, "de", own=["Alice", "Bob"]) == []
    i = _french(w, w.alice)  # but each one's own answers are theirs
    i.channel, i.channel_id = thread, thread.id
    await run(commands.move, i, move="e4")
    assert last_answer(i)["content"] == f"Vous avez joué **e4** dans la partie #{gv.id}."
    j = w.interaction(w.alice, channel=thread)
    await run(commands.draw, j)
    k = w.interaction(w.bob, channel=thread)
    await run(commands.draw, k, answer="decline")
    assert last_answer(k)["content"] == f"Du hast das Remisangebot in Partie #{gv.id} abgelehnt."


def test_suggestions_are_labelled_in_the_askers_language():
    import rules
    from bot.discord_bot import suggest
    pos = rules.from_fen("chess", rules.game("chess").start_fen)
    fr, de = language("fr"), language("de")
    assert suggest.suggest_pieces(pos, "g1", lang=fr) == [(f"g1 · {fr.data('Knight')}, 2 coups", "g1")]
    assert suggest.suggest_pieces(pos, "g1", lang=de) == [(f"g1 · {de.data('Knight')}, 2 Züge", "g1")]
    assert suggest.suggest_pieces(pos, "g1") == [("g1 · Knight, 2 moves", "g1")]  # English as before
    from bot.domain.errors import ServiceError
    with pytest.raises(ServiceError) as refused:
        suggest.find_piece(pos, "z9")
    assert fr.say(refused.value.text) == \
        "aucune des pièces qui peuvent jouer maintenant ne s'appelle 'z9' : donnez sa case"
