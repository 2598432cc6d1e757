"""Looking back (issue #42 item 4): a player's page (name, ratings per game, finished games
with results) and a finished game's page with its record as PGN, read back by python-chess."""

from __future__ import annotations

import io

import chess.pgn
import pytest

from .sitekit import Smtp
from .test_lobby import person
from .test_signin import site  # noqa: F401 - the fixture


@pytest.fixture
async def smtp():
    s = await Smtp().start()
    yield s
    await s.close()


async def finished_game(svc, white, black):
    c = await svc.challenge(white.id, "chess", opponent_id=black.id, days=3, colour="white", rated=True)
    view = await svc.accept_challenge(c.id, black.id)
    for i, san in enumerate(["f3", "e5", "g4", "Qh4#"]):
        view = (await svc.move(view.id, (white if i % 2 == 0 else black).id, san)).game
    return view


async def test_a_players_page_and_a_finished_games_pgn(svc, site, smtp):  # noqa: F811
    ann, bob = await person(site, smtp, "ann@example.org"), await person(site, smtp, "bob@example.org")
    view = await finished_game(svc, ann, bob)
    assert view.result == "0-1"
    others = await finished_game(svc, await svc.player("test", "x", "Xena"), await svc.player("test", "y", "Yann"))
    page = await (await ann.get(f"/player/{bob.id}")).text()
    assert "<h1>bob</h1>" in page and "Ratings" in page and "<td>Chess</td>" in page
    assert f'href="/play/{view.id}"' in page and ("Black wins" in page or "0-1" in page)
    me = await ann.get("/me")
    assert me.status == 303 and me.headers["Location"] == f"/player/{ann.id}"
    # someone else's private game is listed without a way in
    xena = await (await ann.get(f"/player/{others.white.id}")).text()
    assert "Xena" in xena and f"/play/{others.id}" not in xena and f"/g/{others.id}" not in xena
    for bad in ("999999", "abc", "9" * 40):
        assert (await ann.get(f"/player/{bad}")).status == 404
    # the game's page replays it and offers the record
    game_page = await (await ann.get(f"/play/{view.id}")).text()
    assert "Download PGN" in game_page
    pgn_path = game_page.split('id="pgn" href="')[1].split('"')[0]
    r = await ann.get(pgn_path)
    assert r.status == 200 and r.headers["Content-Type"].startswith("application/x-chess-pgn")
    assert "attachment" in r.headers["Content-Disposition"]
    game = chess.pgn.read_game(io.StringIO(await r.text()))
    assert [m.uci() for m in game.mainline_moves()] == ["f2f3", "e7e5", "g2g4", "d8h4"]
    assert game.headers["Result"] == "0-1"


async def test_a_players_page_lists_their_tournaments_with_their_standing(svc, site, smtp):  # noqa: F811
    from bot.identity.page_tokens import sign_tournament

    from .conftest import SECRET
    ann, bob = await person(site, smtp, "ann@example.org"), await person(site, smtp, "bob@example.org")
    carl = await person(site, smtp, "carl@example.org")
    t = await svc.create_tournament("chess", name="Cup <i>", format="round-robin", days=3)
    for p in (ann, bob):
        await svc.join_tournament(t.id, p.id)
    await svc.start_tournament(t.id)
    page = await (await ann.get(f"/player/{bob.id}")).text()
    assert "Tournaments" in page and "Cup &lt;i&gt;" in page and "place" in page and "points" in page
    assert f'href="/t/{t.id}/{sign_tournament(SECRET, t.id)}"' in page   # a fellow entrant
    other = await (await carl.get(f"/player/{bob.id}")).text()
    assert "Cup &lt;i&gt;" in other and f"/t/{t.id}/" not in other      # not an entrant: no link
    own = await (await carl.get(f"/player/{carl.id}")).text()
    assert '<h2 id="tournaments">Tournaments</h2><p>None.</p>' in own
