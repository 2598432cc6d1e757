"""A tournament's page (bot/web/tournament_page.py) through aiohttp's test client: the
standings and crosstable as an accessible table with every user text escaped, the picture,
the rounds with links to the games' pages, signed links only, the safety headers, and a
version that moves when a game ends (what the page's script follows)."""

import io

from PIL import Image

from bot.config import Settings
from bot.identity import links
from bot.identity import page_tokens as tokens
from bot.web.tournament_page import TVIEWS

from .conftest import SECRET


def tpath(tid: int, rest: str = "") -> str:
    return f"/t/{tid}/{tokens.sign_tournament(SECRET, tid)}{rest}"


async def started(svc, n=3, fmt="round-robin", **kw):
    people = [await svc.player("test", f"p{i}", name) for i, name in
              enumerate(["Alice <b>&", "Борис", "Carol", "Dan"][:n])]
    t = await svc.create_tournament("chess", name="Cup <i>", format=fmt, days=3, **kw)
    for p in people:
        await svc.join_tournament(t.id, p.id)
    return people, await svc.start_tournament(t.id)


async def test_the_page_shows_standings_crosstable_and_rounds_escaped_with_game_links(svc, client):
    people, t = await started(svc)
    game = next(p for p in t.pairings if p.game_id is not None)
    await svc.resign(game.game_id, game.black.id)
    r = await client.get(tpath(t.id))
    assert r.status == 200 and r.content_type == "text/html"
    html = await r.text()
    assert "<h1>Cup &lt;i&gt;</h1>" in html and "Alice &lt;b&gt;&amp;" in html and "<b>&" not in html
    assert "Борис" in html and "round robin" in html
    assert '<table id="crosstable"><caption>' in html and '<th scope="row">' in html
    # every game is linked from the rounds, with its signed link to watch
    for p in t.pairings:
        if p.game_id is not None:
            assert f'href="{tokens.game_url("", SECRET, p.game_id)}">game #{p.game_id}</a>' in html
    # the won game's cell links to it and says the result in words
    assert f'aria-label="won, game {game.game_id}">1</a>' in html
    assert f'aria-label="lost, game {game.game_id}">0</a>' in html
    assert 'aria-label="playing, game ' in html
    assert f'src="{tpath(t.id)}/crosstable.png?v=' in html and '<script src="/static/tournament.js?v=' in html


async def test_a_public_game_is_linked_by_its_public_address(svc, client):
    _, t = await started(svc, 2)
    gid = t.pairings[0].game_id
    before = (await (await client.get(tpath(t.id, "/version.json"))).json())["version"]
    assert f'href="/g/{gid}/public">' not in await (await client.get(tpath(t.id))).text()
    await svc.set_public(gid, True)
    html = await (await client.get(tpath(t.id))).text()
    assert f'href="/g/{gid}/public">game #{gid}</a>' in html
    assert (await (await client.get(tpath(t.id, "/version.json"))).json())["version"] != before


async def test_a_swiss_shows_each_rounds_colour_opponent_and_result(svc, client):
    people, t = await started(svc, 3, fmt="swiss", rounds=2)
    html = await (await client.get(tpath(t.id))).text()
    assert "R1</abbr>" in html and "R2</abbr>" in html and "bye 1" in html
    assert '<span class="side white" aria-hidden="true"></span><span class="vh">white against number </span>' in html
    assert "Buchholz" in html


async def test_forged_tokens_and_missing_events_show_nothing(svc, client):
    _, t = await started(svc, 2)
    good = tokens.sign_tournament(SECRET, t.id)
    for url in (f"/t/{t.id}/{good[:-2]}xx", f"/t/{t.id}/{tokens.sign(SECRET, t.id)}",
                f"/t/{t.id + 1}/{good}", f"/t/99/{tokens.sign_tournament(SECRET, 99)}",
                f"/t/\u00b2/{good}", f"/t/{t.id}/{good}x/version.json",
                f"/t/{t.id}/{tokens.sign_tournament(b'guess', t.id)}/crosstable.png"):
        r = await client.get(url)
        assert r.status == 404, url
        assert "Alice" not in await r.text()


async def test_the_version_moves_when_a_game_ends_and_the_picture_follows_it(svc, client):
    _, t = await started(svc)
    before = (await (await client.get(tpath(t.id, "/version.json"))).json())["version"]
    assert (await (await client.get(tpath(t.id, "/version.json"))).json())["version"] == before
    await client.get(tpath(t.id))
    assert client.server.app[TVIEWS].reads == 1  # read once for every look until something changes
    r = await client.get(tpath(t.id, f"/crosstable.png?v={before}"))
    assert r.status == 200 and r.content_type == "image/png"
    assert "immutable" in r.headers["Cache-Control"]
    first = await r.read()
    img = Image.open(io.BytesIO(first))
    html = await (await client.get(tpath(t.id))).text()
    assert f'width="{img.width}" height="{img.height}"' in html
    game = next(p for p in t.pairings if p.game_id is not None)
    await svc.resign(game.game_id, game.white.id)
    after = (await (await client.get(tpath(t.id, "/version.json"))).json())["version"]
    assert after != before
    assert (await client.get(tpath(t.id, f"/crosstable.png?v={before}"))).status == 409
    now = await client.get(tpath(t.id, f"/crosstable.png?v={after}"))
    assert now.status == 200 and await now.read() != first
    plain = await client.get(tpath(t.id, "/crosstable.png"))
    assert plain.headers["Cache-Control"] == "no-store"


async def test_the_tournament_pages_have_the_game_pages_safety_headers(svc, client):
    _, t = await started(svc, 2)
    for address in (tpath(t.id), tpath(t.id, "/version.json"), tpath(t.id, "/crosstable.png"),
                    f"/t/{t.id}/nope"):
        h = (await client.get(address)).headers
        assert h["X-Content-Type-Options"] == "nosniff" and h["X-Frame-Options"] == "DENY", address
        assert "script-src 'self'" in h["Content-Security-Policy"] and h["Referrer-Policy"] == "no-referrer"


def test_the_link_line_needs_the_web_url(tmp_path):
    settings = Settings(db_path=str(tmp_path / "g.db"), web_secret="s3cret")
    assert links.tournament_link_line(settings, 7) == ""
    settings = Settings(db_path=str(tmp_path / "g.db"), web_secret="s3cret", web_url="https://chess.example/")
    line = links.tournament_link_line(settings, 7)
    token = tokens.sign_tournament(tokens.load_secret("s3cret", settings.db_path), 7)
    assert line == f"Tournament page: <https://chess.example/t/7/{token}>"
