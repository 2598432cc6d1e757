"""The event's page is cached by the event's version (bot/web/tournament_page.py): every act
of a director that changes what the page shows moves the version on, so the page shows it at
its next look — a result decided on a game already over, a player replaced, a withdrawal."""

from __future__ import annotations

import contextlib

from aiohttp.test_utils import TestClient, TestServer

from bot.identity import page_tokens
from bot.tournaments.tables import TournamentTables
from bot.web.server import RUNNER_OPTIONS, WORKERS, make_app
from bot.web.work import Workers

from .conftest import entered, people

SECRET = b"follows"


@contextlib.asynccontextmanager
async def page_of(svc, tid: int):
    """A function that reads the event's page (one web app for every look: its cache kept)."""
    app = make_app(svc, SECRET)
    app[WORKERS] = Workers(processes=1)
    client = TestClient(TestServer(app, **RUNNER_OPTIONS))
    await client.start_server()
    url = f"/t/{tid}/{page_tokens.sign_tournament(SECRET, tid)}"

    async def look() -> str:
        response = await client.get(url)
        assert response.status == 200
        return await response.text()
    try:
        yield look
    finally:
        await client.close()


async def test_a_directors_result_on_a_game_over_shows_at_once(svc):
    a, b, c = await people(svc, 3)
    t = await svc.start_tournament((await entered(svc, [a, b, c])).id)  # the event goes on after it
    p = next(p for p in t.pairings if p.black is not None)
    await svc.resign(p.game_id, p.black.id)  # reported 1-0; the director finds it was the other way
    async with page_of(svc, t.id) as look:
        before = await look()
        assert "1-0 (resignation)" in before
        await svc.set_tournament_result(t.id, p.game_id, "0-1", "White's <resignation> was a mistake", None)
        after = await look()
    assert "0-1 (decided by the server owner: White&#x27;s &lt;resignation&gt; was a mistake)" in after
    assert "1-0 (resignation)" not in after and "<resignation>" not in after


async def test_a_replaced_player_shows_at_once(svc):
    a, b = await people(svc, 2)
    c = await svc.player("test", "sub9", "Substitute Carla")
    t = await svc.start_tournament((await entered(svc, [a, b])).id)
    (p,) = t.pairings
    async with page_of(svc, t.id) as look:
        assert "Substitute Carla" not in await look()
        await svc.replace_in_tournament(t.id, p.white.id, c.id, a.id)
        assert "Substitute Carla" in await look()


async def test_a_withdrawal_and_a_directors_list_show_at_once(svc):
    a, b, c = await people(svc, 3)
    t = await svc.start_tournament((await entered(svc, [a, b, c], format="swiss", rounds=2)).id)
    async with page_of(svc, t.id) as look:
        first = await look()
        await svc.withdraw_from_tournament(t.id, c.id)
        second = await look()
        assert second != first  # c's games lost, c marked withdrawn
        await svc.add_tournament_director(t.id, b.id, a.id)
        async with svc.store.read() as tx:
            version = await TournamentTables(tx).version(t.id)
        assert f'data-version="{version}-' in await look()
