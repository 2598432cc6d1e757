"""A big event's page (bot/web/tournament_page.py) through aiohttp's test client: a
500-player Swiss's and a 60-player round robin's pages stay under 100 KB (the standings in
pages of 50, a round's games in pages of 100, short cells, no picture); each page is built
in a thread, not on the event loop, once per version of the event: a move does not rebuild
it, a game's end does; a page or round out of range is refused with what was wrong."""

from __future__ import annotations

import random
import threading
from datetime import UTC, datetime

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.config import Settings
from bot.identity import page_tokens as tokens
from bot.operations.service import GameService
from bot.timekeeping.clock import ManualClock
from bot.tournaments.tables import TournamentTables
from bot.web import tournament_page
from bot.web.server import RUNNER_OPTIONS, WORKERS, make_app
from bot.web.tournament_page import TVIEWS
from bot.web.work import Workers

SECRET = b"test secret"
LIMIT = 100 * 1024


@pytest.fixture
async def svc(tmp_path):
    settings = Settings(db_path=str(tmp_path / "games.db"), command_rate_per_minute=0)
    service = await GameService.open(settings, clock=ManualClock(datetime(2026, 1, 5, 12, tzinfo=UTC)),
                                     rng=random.Random(1))
    yield service
    await service.close()


@pytest.fixture
async def client(svc):
    app = make_app(svc, SECRET)
    app[WORKERS] = Workers(processes=1)
    c = TestClient(TestServer(app, **RUNNER_OPTIONS))
    await c.start_server()
    yield c
    await c.close()


def tpath(tid: int, rest: str = "") -> str:
    return f"/t/{tid}/{tokens.sign_tournament(SECRET, tid)}{rest}"


async def big(svc, n: int, fmt: str, **kw):
    t = await svc.create_tournament("chess", name="Big <cup>", format=fmt, days=3, **kw)
    people = [await svc.player("test", f"p{i}", f"Player number {i} <x>") for i in range(n)]
    async with svc.store.write() as tx:  # the entrants at once (not what is tested)
        for p in people:
            await TournamentTables(tx).join(t.id, p.id, svc._now())
    return await svc.start_tournament(t.id)


async def sizes(client, tid: int, *queries: str) -> dict[str, int]:
    out = {}
    for q in ("", *queries):
        r = await client.get(tpath(tid) + q)
        assert r.status == 200, (q, await r.text())
        out[q] = len(await r.read())
    return out


async def test_a_500_player_swiss_page_stays_under_100_kb(svc, client):
    t = await big(svc, 500, "swiss", rounds=9, round_days=7)
    games = [p for p in t.pairings if p.black is not None]
    for p in games[:125]:  # half of round 1 over
        await svc.resign(p.game_id, p.black.id)
    got = await sizes(client, t.id, "?page=10", "?round=1&games=3", "?page=5&round=1&games=2")
    assert max(got.values()) < LIMIT, got
    html = await (await client.get(tpath(t.id))).text()
    assert "Big &lt;cup&gt;" in html and "<x>" not in html
    assert 'aria-label="Standings pages"' in html and 'aria-label="Games of round 1"' in html
    assert "crosstable.png" not in html  # no 500-row picture on the page
    assert html.count('</td><th scope="row">') == 50
    # progress: 125 of round 1's 250 games over, its deadline and the days left
    assert '<tr><th scope="row">1</th><td class="num">125 of 250</td>' in html and "7 days left" in html
    last = await (await client.get(tpath(t.id, "?page=10"))).text()
    assert last.count('</td><th scope="row">') == 50 and '<td class="num">500</td>' in last


async def test_a_60_player_round_robin_page_stays_under_100_kb(svc, client):
    t = await big(svc, 60, "round-robin")
    assert sum(p.black is not None for p in t.pairings) == 1770
    got = await sizes(client, t.id, "?page=2", "?round=59", "?round=30&games=1")
    assert max(got.values()) < LIMIT, got


async def test_the_page_is_built_in_a_thread_once_per_version(svc, client, monkeypatch):
    t = await big(svc, 6, "round-robin")
    threads = []
    real = tournament_page.render_page

    def watched(*a, **kw):
        threads.append(threading.current_thread())
        return real(*a, **kw)
    monkeypatch.setattr(tournament_page, "render_page", watched)
    views = client.server.app[TVIEWS]
    for _ in range(3):
        assert (await client.get(tpath(t.id))).status == 200
    assert len(threads) == 1 and threads[0] is not threading.main_thread()  # off the event loop's thread
    assert views.reads == 1
    game = next(p for p in t.pairings if p.black is not None)
    await svc.move(game.game_id, game.white.id, "e4")  # a move: nothing the page shows
    assert (await client.get(tpath(t.id))).status == 200
    assert len(threads) == 1 and views.reads == 1
    await svc.resign(game.game_id, game.black.id)  # a result: a new version, built again
    assert (await client.get(tpath(t.id))).status == 200
    assert len(threads) == 2 and views.reads == 2


async def test_a_page_out_of_range_is_refused_with_what_was_wrong(svc, client):
    t = await big(svc, 6, "round-robin")
    for query, said in (("?page=0", "page must be a whole number from 1 to 1, not '0'"),
                        ("?page=2", "page must be a whole number from 1 to 1, not '2'"),
                        ("?page=abc", "page must be a whole number from 1 to 1"),
                        ("?round=6", "round must be a whole number from 1 to 5, not '6'"),
                        ("?games=%EF%BC%91", "games must be a whole number")):
        r = await client.get(tpath(t.id, query))
        assert r.status == 400 and said in await r.text(), query
