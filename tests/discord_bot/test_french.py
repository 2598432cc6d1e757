"""A French game on Discord (#44): a player whose Discord is in French (no setting)
challenges one whose Discord is in German; they play chess's fool's mate (f3 e5 g4 Qh4#) with a
refused illegal move and a declined draw offer on the way, and the French player chooses
French with /settings. Everything each of them reads — answers, notices, embeds, button
labels, the board picture's banner, the thread's posts — is in their language
(``english_left`` finds no English word). Also: the command tree's payload as Discord receives
it has fr, de and es-ES for every description and choice, and /help fits in every language."""

from __future__ import annotations

import re

import discord
import pytest
from discord import Locale

import render
from bot.config import Settings
from bot.discord_bot import commands, format
from bot.discord_bot.runner import FairyClient
from bot.discord_bot.translator import FairypostTranslator
from bot.discord_bot.views import AcceptChallenge, Answer
from language import LANGUAGES, language, language_names
from tests.language.leaks import english_left

from .conftest import press, run, start_game
from .helpers import answers, custom_ids

LOCALE = {"fr": Locale.french, "de": Locale.german, "es": Locale.spain_spanish}


def _embed_text(embed: discord.Embed) -> str:
    parts = [embed.title or "", embed.description or "", embed.footer.text or "",
             embed.author.name or ""]
    for f in embed.fields:
        parts += [f.name, f.value]
    return "\n".join(parts)


def _view_text(view) -> str:
    """The labels (and placeholders) of a view's items, as Discord shows them."""
    if view is None:
        return ""
    out = []
    for child in view.children:
        item = getattr(child, "item", child)
        out += [getattr(item, "label", None) or "", getattr(item, "placeholder", None) or ""]
    return "\n".join(out)


def read(kwargs: dict) -> str:
    """Everything a message (or an answer) shows in words."""
    parts = [kwargs.get("content") or ""]
    if kwargs.get("embed") is not None:
        parts.append(_embed_text(kwargs["embed"]))
    parts += [_embed_text(e) for e in kwargs.get("embeds") or []]
    parts.append(_view_text(kwargs.get("view")))
    modal = kwargs.get("modal")
    if modal is not None:
        parts.append(modal.title)
        parts += [getattr(c, "label", "") or "" for c in modal.children]
        parts += [getattr(c, "placeholder", "") or "" for c in modal.children]
    return "\n".join(p for p in parts if p)


class Reader:
    """One member's Discord in one language: their interactions carry its locale, and what
    they read is kept to be checked."""

    def __init__(self, w, member, code: str):
        self.w, self.member, self.code = w, member, code
        self.interactions: list = []

    def interaction(self, **kw):
        i = self.w.interaction(self.member, **kw)
        i.locale = LOCALE[self.code]
        self.interactions.append(i)
        return i

    def texts(self) -> list[str]:
        said = [read(a) for i in self.interactions for a in answers(i)]
        said += [read(kw) for kw in self.w.dms(self.member)]
        return [s for s in said if s]

    def last(self) -> str:
        return read(answers(self.interactions[-1])[-1])


@pytest.fixture
def banners(monkeypatch):
    """The banner and the language of every board picture drawn (the real drawing still runs)."""
    drawn: list[tuple[str | None, str]] = []
    real = render.board_png

    def spy(pos, **kw):
        drawn.append((kw.get("result"), kw.get("lang", language("en")).code))
        return real(pos, **kw)
    monkeypatch.setattr(render, "board_png", spy)
    return drawn


#: the slash commands' and their options' names: typed, never translated
TYPED_NAMES = ["/" + c.name for c in commands.COMMANDS] + sorted(
    {p.name for c in commands.COMMANDS for p in getattr(c, "parameters", [])})
OWN = ["Alice", "Bob", "f3", "e5", "g4", "Qh4", *TYPED_NAMES]


async def test_a_french_and_a_german_player_play_to_mate_each_in_their_language(world, banners):
    w = world
    fr, de = Reader(w, w.alice, "fr"), Reader(w, w.bob, "de")

    # Bob has used the bot before (his Discord's language is known: a DM has no locale)
    await run(commands.games, de.interaction())
    # the challenge, in French; its Accept button, for Bob, in German
    i = fr.interaction()
    await run(commands.challenge, i, game="chess", opponent=w.bob, days=2, colour="white")
    view = i.response.send_message.call_args.kwargs["view"]
    j = de.interaction(message=i.original_response.return_value)
    await press(AcceptChallenge, custom_ids(view)[0], j)
    thread = w.threads[-1]
    assert " contre Bob" in thread.name, thread.name  # named in White's language
    gid = (await w.fairy.service.list_games((await w.fairy.player(w.alice)).id))[0].id
    assert de.last().startswith(f"Partie #{gid}") or "Partie" in de.last()

    async def move(reader, san):
        k = reader.interaction(channel=thread)
        await run(commands.move, k, move=san)
        return reader.last()

    said = await move(fr, "f3")
    assert said.startswith("Vous avez joué **f3**"), said
    # out of turn: refused in French, nothing changes
    said = await move(fr, "e4")
    assert said == "Ce n'est pas à vous de jouer : Bob a le trait", said
    assert (await w.fairy.service.game(gid)).ply == 1
    said = await move(de, "e5")
    said = await move(fr, "Ke2")  # an illegal move (e2 is taken)
    assert "e2" in said and english_left(said, "fr", own=OWN + ["Ke2"]) == [], said
    assert (await w.fairy.service.game(gid)).ply == 2

    # a draw offer, declined (Bob answers with the buttons of his notice, in German)
    k = fr.interaction(channel=thread)
    await run(commands.draw, k)
    assert fr.last() == f"Vous avez proposé la nulle dans la partie #{gid} ; votre adversaire a été prévenu."
    offer = next(kw for kw in reversed(w.dms(w.bob)) if kw.get("view") is not None)
    labels = _view_text(offer["view"])
    assert "Annehmen" in labels and "Ablehnen" in labels, labels
    decline = next(c for c in custom_ids(offer["view"]) if "decline" in c)
    k = de.interaction(dm=True, message=w.message(None, content=offer["content"], view=offer["view"]))
    await press(Answer, decline, k)
    assert "abgelehnt" in de.last(), de.last()
    # the notice's buttons, disabled once settled, keep Bob's German (before: back to English)
    edits = [kw["view"] for where, kw in w.sent if isinstance(where, tuple) and kw.get("view") is not None]
    assert edits and all(b.item.disabled for b in edits[-1].children), edits
    assert "Annehmen" in _view_text(edits[-1]) and "Ablehnen" in _view_text(edits[-1])

    said = await move(fr, "g4")
    said = await move(de, "Qh4#")
    game = await w.fairy.service.game(gid)
    assert game.status != "active" and game.reason == "checkmate"

    # the board, asked for after the mate: its banner in French
    k = fr.interaction(channel=thread)
    await run(commands.board, k, game=gid)
    assert banners[-1][1] == "fr" and banners[-1][0] and english_left(banners[-1][0], "fr") == [], banners[-1]

    # /settings language: chosen, then a bad code refused with nothing changed
    k = fr.interaction()
    await run(commands.settings, k, language="fr")
    assert fr.last().startswith("C'est fait : vous lisez ici en **Français**."), fr.last()
    k = fr.interaction()
    await run(commands.settings, k, language="xx")
    assert english_left(fr.last(), "fr", own=["xx"]) == [], fr.last()
    me = await w.fairy.service.get_player((await w.fairy.player(w.alice)).id)
    assert me.settings.language == "fr"

    # what each read, in their language
    for reader in (fr, de):
        texts = reader.texts()
        assert len(texts) > 8
        for t in texts:
            assert english_left(t, reader.code, own=OWN) == [], (reader.code, t)
    # the thread, read by both: each of its posts says everything in French and in German
    posts = [read(post) for post in w.sent_to(thread)]
    assert len(posts) == 5 and posts[0].startswith("**Partie #"), posts[0]
    for t in posts:
        german = [word for word in re.findall(r"\w+", t) if english_left(word, "de") == []]
        assert english_left(t, "fr", own=OWN + german) == [], t
        french = [word for word in re.findall(r"\w+", t) if english_left(word, "fr") == []]
        assert english_left(t, "de", own=OWN + french) == [], t
    assert "Coup / Zug" in posts[0] and "Proposer la nulle / Remis anbieten" in posts[0], posts[0]
    assert "échec et mat" in posts[-1] and "Schachmatt" in posts[-1], posts[-1]
    assert any("échec et mat" in t for t in fr.texts()), fr.texts()
    assert any("Schachmatt" in t for t in de.texts()), de.texts()


# --- what Discord is given: the command tree's payload ---------------------------------------

def _walk(payload: dict, where: str = ""):
    """Every command, subcommand and option of a payload, with its path."""
    yield where or "/" + payload["name"], payload
    for option in payload.get("options", []):
        yield from _walk(option, f"{where or '/' + payload['name']} {option['name']}")


async def test_the_payload_has_french_german_and_spanish_for_every_description_and_choice(tmp_path):
    client = FairyClient(Settings(db_path=str(tmp_path / "t.db")))
    tree = client.tree
    await tree.set_translator(FairypostTranslator())
    own_names = set(language_names().values())
    checked = 0
    for c in commands.COMMANDS:
        payload = await c.get_translated_payload(tree, tree.translator)
        for where, p in _walk(payload):
            for code, locale in LOCALE.items():
                said = p.get("description_localizations", {}).get(locale.value)
                assert said and said == language(code).tr(p["description"]), (where, code)
                assert len(said) <= 100, (where, code)
                checked += 1
                for choice in p.get("choices", []):
                    if choice["name"] in own_names:
                        continue
                    named = choice["name_localizations"].get(locale.value)
                    assert named and len(named) <= 100, (where, choice["name"], code)
                    assert english_left(named, code, own=[*_games(), *TYPED_NAMES]) == [], (where, named)
        assert english_left(payload["description_localizations"][Locale.french.value], "fr") == []
    assert checked > 3 * 60


def _games() -> list[str]:
    return [w for g in commands.rules.variants() for w in format.game_name(g).split()]


@pytest.mark.parametrize("code", LANGUAGES)
async def test_help_fits_in_an_embed_in_every_language(world, code):
    i = world.interaction(world.alice)
    i.locale = LOCALE.get(code, Locale.american_english)
    await run(commands.help_, i)
    said = answers(i)[-1]
    text = read(said)
    assert 200 < len(said["embed"].description if said.get("embed") else said["content"]) <= 4096
    if code != "en":
        assert english_left(text, code, own=["fairypost", *TYPED_NAMES]) == [], text


async def test_the_autocompletes_name_pieces_and_games_in_the_askers_language(world):
    """Before: a piece's and a game's name were English in every Discord."""
    fr = language("fr")
    i = world.interaction(world.alice, namespace={"game": "chess"})
    i.locale = Locale.french
    choices = await commands.piece_name_autocomplete(i, "")
    assert f"{fr.data('Knight')} (N)" in [c.name for c in choices]
    assert [c.value for c in await commands.piece_name_autocomplete(i, "kni")] == ["N"]  # English still found
    j = world.interaction(world.alice)
    j.locale = Locale.french
    named = {c.value: c.name for c in await commands.variant_autocomplete(j, "")}
    assert named["chess"] == fr.data(format.game_name("chess"))
    assert commands.suggest.piece_key("chess", fr.data("Knight")) == "N"


async def test_which_game_refusals_are_french(world):
    """Before: these refusals of the adapter's own were English strings."""
    w = world
    i = w.interaction(w.alice)
    i.locale = Locale.french
    await run(commands.move, i, move="e4")
    said = answers(i)[-1]["content"]
    assert said == "Vous n'avez aucune partie en cours : commencez-en une avec /challenge", said
    carol = w.member("Carol")
    gv, thread = await start_game(w, white=w.bob, black=carol)
    j = w.interaction(w.alice, channel=thread)
    j.locale = Locale.french
    await run(commands.draw, j)
    said = answers(j)[-1]["content"]
    assert said.startswith(f"La partie #{gv.id} ici n'est pas la vôtre"), said
    assert english_left(said, "fr", own=TYPED_NAMES) == [], said
