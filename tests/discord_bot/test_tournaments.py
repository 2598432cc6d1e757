"""/tournament create|join|leave|start|standings on the Discord double: an event made on a
server, joined and left, started only by its organiser or a server manager, its games begun
with their notices, its standings shown (names escaped); where no thread can be opened its
news go to the channel; another server's members cannot join it. (A whole event:
test_tournament_event.py.)"""

from __future__ import annotations

from unittest import mock

import discord

from bot.discord_bot import tournament_commands as tc
from bot.discord_bot.tournament_join import JoinTournament

from .conftest import press, run
from .helpers import last_answer, make_guild


async def test_a_tournament_on_a_server(world):
    w = world
    carol = w.member("*Carol* @everyone")
    i = w.interaction(w.alice)
    await run(tc.create, i, game="chess", name="Club *cup*", format="round-robin", days=3)
    made = last_answer(i)["content"]
    assert made.startswith("🏆 #1 **Club \\*cup\\***") and "/tournament join 1" in made
    for m in (w.alice, w.bob, carol):
        j = w.interaction(m)
        await run(tc.join, j, id=1)
        assert "You are in #1" in last_answer(j)["content"]
    j = w.interaction(w.bob)
    await run(tc.join, j, id=1)
    assert "already" in last_answer(j)["content"]
    j = w.interaction(carol)
    await run(tc.leave, j, id=1)
    assert "You left #1" in last_answer(j)["content"] and "2 players" in last_answer(j)["content"]
    await run(tc.join, w.interaction(carol), id=1)

    j = w.interaction(w.bob)  # not the organiser, and no manager
    j.user.guild_permissions.manage_guild = False
    await run(tc.start, j, id=1)
    assert "Only the organiser" in last_answer(j)["content"]
    j = w.interaction(w.alice)
    await run(tc.start, j, id=1)
    assert "Started #1" in last_answer(j)["content"] and "3 games begun" in last_answer(j)["content"]
    t = await w.fairy.service.tournament(1)
    assert t.status == "running" and t.scope is not None
    await w.fairy.service.outbox.dispatch(w.fairy.service._now())
    assert any("has begun" in (d.get("content") or "") for d in w.dms(w.bob))  # the games' notices

    j = w.interaction(w.bob)
    await run(tc.standings, j, id=1)
    text = last_answer(j)["content"]
    assert "Standings (points · SB):" in text and "\\*Carol\\* @\u200beveryone" in text
    assert text.count("playing") == 3
    picture = last_answer(j)["file"]  # begun: the crosstable comes with it
    assert picture.filename == "crosstable.png" and picture.fp.read(8) == b"\x89PNG\r\n\x1a\n"


async def test_a_manager_may_start_it(world):
    w = world
    i = w.interaction(w.alice)
    await run(tc.create, i, game="chess", name="Swiss", format="swiss", rounds=2)
    for m in (w.alice, w.bob):
        await run(tc.join, w.interaction(m), id=1)
    j = w.interaction(w.bob)
    j.user.guild_permissions.manage_guild = True
    await run(tc.start, j, id=1)
    assert "Started #1" in last_answer(j)["content"]


async def test_news_without_a_thread_go_to_the_channel_and_other_servers_cannot_join(world):
    w = world
    i = w.interaction(w.alice)
    refused = discord.Forbidden(mock.MagicMock(status=403, reason="Forbidden"), "Missing Permissions")
    i.original_response.return_value.create_thread.side_effect = refused
    await run(tc.create, i, game="chess", name="Quick", format="round-robin")
    place = await w.fairy.links.tournament_place(1)
    assert int(place.news_id) == w.channel.id and not w.threads
    for m in (w.alice, w.bob):
        await run(tc.join, w.interaction(m), id=1)
    await run(tc.start, w.interaction(w.alice), id=1)
    await w.fairy.service.outbox.dispatch(w.fairy.service._now())
    said = [kw.get("content") or "" for kw in w.sent_to(w.channel)]
    assert any(s.startswith("🏁 The tournament has begun: every game at once.") for s in said)
    assert len(w.threads) == 1  # the one game's thread, in the channel

    elsewhere = w.text_channel("lobby", guild=make_guild())
    j = w.interaction(w.member("Eve"), channel=elsewhere)
    await press(JoinTournament, "fp:tjoin:1", j)
    assert "There is no tournament #1 on this server" in last_answer(j)["content"]
