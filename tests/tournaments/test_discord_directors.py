"""The directors' slash commands on the Discord test double: a result decided by the maker
is posted in the event's news thread with their name and reason; another member may not
until named a director; a player withdraws; ``/tournament list`` on another server does not
show the event; a member's text is escaped."""

from __future__ import annotations

import pytest

from bot.discord_bot import tournament_commands as tc
from bot.timekeeping.clock import ManualClock
from tests.bot.conftest import T0
from tests.discord_bot.conftest import run
from tests.discord_bot.conftest import world as world  # noqa: F401 - the fixture, used by name
from tests.discord_bot.helpers import last_answer, make_guild


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(T0)


async def test_directors_on_discord(world):  # noqa: F811 - the imported fixture
    w = world
    carol, dan = w.member("Carol"), w.member("Dan")
    for m in (w.alice, w.bob, carol, dan):
        m.guild_permissions.manage_guild = False
    await run(tc.create, w.interaction(w.alice), game="chess", name="Club cup", format="round-robin")
    for m in (w.alice, w.bob, carol):
        await run(tc.join, w.interaction(m), id=1)
    await run(tc.start, w.interaction(w.alice), id=1)
    t = await w.fairy.service.tournament(1)
    game = next(p.game_id for p in t.pairings if p.black is not None)

    i = w.interaction(w.bob)
    await run(tc.result, i, id=1, game=game, result="1-0", reason="I say so")
    assert "Only the organiser of Club cup (#1)" in last_answer(i)["content"]
    i = w.interaction(w.alice)
    await run(tc.director, i, id=1, action="add", player=w.bob)
    assert "The directors of #1" in last_answer(i)["content"] and "**Bob**" in last_answer(i)["content"]
    i = w.interaction(w.bob)
    await run(tc.result, i, id=1, game=game, result="-/+", reason="no *show* @everyone")
    assert f"Game #{game}" in last_answer(i)["content"]
    await w.fairy.service.outbox.dispatch(w.fairy.service._now())
    posted = [kw.get("content") or "" for where, kw in w.sent]
    assert any(f"game #{game}: -/+ · decided by Bob: no \\*show\\* @\u200beveryone" in s for s in posted), posted

    i = w.interaction(carol)
    await run(tc.withdraw, i, id=1)
    assert "You withdrew from #1" in last_answer(i)["content"]
    t = await w.fairy.service.tournament(1)
    assert carol.display_name not in {s.player.name for s in t.standings}  # none finished: cancelled

    elsewhere = w.text_channel("lobby", guild=make_guild())
    i = w.interaction(dan, channel=elsewhere)
    await run(tc.list_, i)
    assert "Club cup" not in last_answer(i)["content"]
    i = w.interaction(dan)
    await run(tc.list_, i)
    assert "Club cup" in last_answer(i)["content"]


async def test_create_on_discord_takes_a_rounds_deadline_and_adjudication(world):  # noqa: F811
    w = world
    i = w.interaction(w.alice)
    await run(tc.create, i, game="chess", name="Judged", format="round-robin", adjudicate=True)
    assert "Adjudication at a round's deadline is for a Swiss" in last_answer(i)["content"]
    i = w.interaction(w.alice)
    await run(tc.create, i, game="chess", name="Judged", format="swiss", rounds=3, adjudicate=True)
    assert "round\\_days on Discord" in last_answer(i)["content"]  # escaped for Markdown
    assert await w.fairy.service.list_tournaments() == []  # nothing made by either
    i = w.interaction(w.alice)
    await run(tc.create, i, game="chess", name="Judged", format="swiss", rounds=3, round_days=5, adjudicate=True)
    (t,) = await w.fairy.service.list_tournaments()
    assert t.adjudicate and t.format == "swiss"
    async with w.fairy.service.store.read() as tx:
        row = await tx.fetch_one("SELECT round_days, adjudicate FROM tournaments WHERE id = ?", (t.id,))
    assert tuple(row) == (5, 1)
