"""Discord's tournament commands answer each member in their language: a French Discord
(the interaction's locale) reads French, a member who chose German reads German whatever
their Discord says, and an English member's answers are as they always were."""

from __future__ import annotations

import discord
import pytest

from bot.discord_bot import tournament_commands as tc
from bot.timekeeping.clock import ManualClock
from tests.bot.conftest import T0
from tests.discord_bot.conftest import run
from tests.discord_bot.conftest import world as world  # noqa: F401 - the fixture, used by name
from tests.discord_bot.helpers import last_answer
from tests.language.leaks import english_left

#: names typed (the game's name is data, in the catalogs)
OWN = ["Alice", "Bob", "Carol", "Club cup"]


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(T0)


def _in(w, member, locale):
    i = w.interaction(member)
    i.locale = locale
    return i


async def test_each_member_reads_their_own_language(world):  # noqa: F811 - the imported fixture
    w = world
    carol = w.member("Carol")
    await run(tc.create, w.interaction(w.alice), game="chess", name="Club cup", format="round-robin")
    german = await w.fairy.player(carol)
    await w.fairy.service.update_settings(german.id, language="de")

    i = _in(w, w.bob, discord.Locale.french)
    await run(tc.join, i, id=1)
    french_join = last_answer(i)["content"]
    assert french_join.startswith("Vous participez à #1 **Club cup**") and "toutes rondes" in french_join
    i = _in(w, carol, discord.Locale.french)  # her choice wins over her Discord's language
    await run(tc.join, i, id=1)
    german_join = last_answer(i)["content"]
    assert german_join.startswith("Du spielst mit in #1 **Club cup**") and "Rundenturnier" in german_join
    i = _in(w, w.alice, discord.Locale.american_english)
    await run(tc.join, i, id=1)
    assert last_answer(i)["content"].startswith("You are in #1 **Club cup** · Chess · round robin")

    i = _in(w, w.alice, discord.Locale.french)
    await run(tc.start, i, id=1)
    started = last_answer(i)["content"]
    assert started.startswith("Lancé : #1") and "3 parties commencées." in started

    i = _in(w, w.bob, discord.Locale.french)
    await run(tc.standings, i, id=1)
    standings = last_answer(i)["content"]
    assert "Classement (points · SB) :" in standings and "Parties :" in standings

    i = _in(w, carol, discord.Locale.german)
    await run(tc.list_, i)
    listed = last_answer(i)["content"]
    assert "Rundenturnier" in listed and "läuft" in listed

    for text, code in ((french_join, "fr"), (started, "fr"), (standings, "fr"), (german_join, "de"),
                       (listed, "de")):
        assert english_left(text, code, own=OWN) == [], text


async def test_a_refusal_to_a_french_member_is_french(world):  # noqa: F811
    w = world
    await run(tc.create, w.interaction(w.alice), game="chess", name="Club cup", format="round-robin")
    i = _in(w, w.bob, discord.Locale.french)
    await run(tc.start, i, id=1)
    said = last_answer(i)["content"]
    # the error handler is the discord helper's: until it says e.text in the reader's
    # language (the merge), the refusal is at least the right one, unchanged
    assert "Club cup (#1)" in said
