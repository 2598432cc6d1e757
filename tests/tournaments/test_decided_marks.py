"""#43 item 3: a result a director decided is shown on the crosstable with a mark, and a
forfeit as FIDE's crosstables show one (+ and −): in the picture's cells and the page's."""

from __future__ import annotations

from bot.tournaments.crosstable import crosstable_of
from render.crosstable import Crosstable, Game, Player, cells, crosstable_png

from .conftest import entered, people


def test_forfeits_and_decisions_have_their_marks():
    t = Crosstable("Cup", "round-robin", [Player("A", 2), Player("B", 1), Player("C", 0)],
                   [Game(1, 0, 1, "+/-", decided=True), Game(2, 1, 2, "1-0"), Game(3, 2, 0, "1/2-1/2", decided=True)])
    got = cells(t)
    assert got[(0, 1)] == ("+*",) and got[(1, 0)] == ("\u2212*",)
    assert got[(1, 2)] == ("1",) and got[(0, 2)] == ("½*",)
    assert crosstable_png(t)[:8] == b"\x89PNG\r\n\x1a\n"


async def test_the_events_crosstable_marks_a_decided_result(svc):
    a, b = await people(svc, 2)
    t = await svc.start_tournament((await entered(svc, [a, b])).id)
    (p,) = t.pairings
    t = await svc.set_tournament_result(t.id, p.game_id, "-/+", "White never came", a.id)
    table = crosstable_of(t)
    assert [g.decided for g in table.games] == [True]
    tokens = set(cells(table).values())
    assert tokens == {("+*",), ("\u2212*",)}


async def test_the_events_page_shows_the_marks(svc):
    from aiohttp.test_utils import TestClient, TestServer

    from bot.identity import page_tokens
    from bot.web.server import RUNNER_OPTIONS, WORKERS, make_app
    from bot.web.work import Workers
    a, b = await people(svc, 2)
    t = await svc.start_tournament((await entered(svc, [a, b])).id)
    (p,) = t.pairings
    await svc.set_tournament_result(t.id, p.game_id, "+/-", "Black <never> came", a.id)
    secret = b"marks"
    app = make_app(svc, secret)
    app[WORKERS] = Workers(processes=1)
    client = TestClient(TestServer(app, **RUNNER_OPTIONS))
    await client.start_server()
    try:
        page = await (await client.get(f"/t/{t.id}/{page_tokens.sign_tournament(secret, t.id)}")).text()
    finally:
        await client.close()
    assert "+*" in page and "\u2212*" in page
    assert "<never>" not in page
