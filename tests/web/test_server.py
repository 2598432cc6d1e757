import asyncio
import io
import json

import pytest
from PIL import Image

from bot.identity import page_tokens as tokens

from ..bot.backends import BACKENDS
from .conftest import SECRET, new_game, path


async def test_page_shows_the_game_escaped(svc, client):
    view = await new_game(svc, "chess", ["e4", "e5", "Nf3"])
    r = await client.get(path(view.id))
    assert r.status == 200
    html = await r.text()
    assert "Alice &lt;b&gt;&amp;" in html and "Alice <b>" not in html
    for san in ("e4", "e5", "Nf3"):
        assert f">{san}</li>" in html
    assert '<li data-ply="3" data-n="2">Nf3</li>' in html
    assert "Black to move (Bob)" in html
    assert '<script src="/static/game.js?v=' in html
    data = json.loads(html.split('type="application/json">')[1].split("</script>")[0])
    assert data["state"]["ply"] == 3 and data["state"]["white"] == "Alice <b>&"


async def test_forged_or_altered_token_shows_nothing(svc, client):
    view = await new_game(svc, "chess", ["e4"])
    good = tokens.sign(SECRET, view.id)
    bad = [f"/g/{view.id}/{good[:-2]}xx", f"/g/{view.id}/{tokens.sign(b'guess', view.id)}",
           f"/g/{view.id + 1}/{good}", f"/g/{view.id}", f"/g/{view.id}/{good}x/state.json",
           f"/g/99/{tokens.sign(SECRET, 99)}", f"/g/\u00b2/{good}", "/g/1%00/x"]
    for url in bad:
        r = await client.get(url)
        assert r.status == 404, url
        assert "Alice" not in await r.text()


async def test_state_board_and_layout(svc, client):
    view = await new_game(svc, "chess", ["e4", "e5"])
    st = await (await client.get(path(view.id, "/state.json"))).json()
    assert [m["san"] for m in st["moves"]] == ["e4", "e5"] and st["turn"] == "w"
    r = await client.get(path(view.id, "/board.png?ply=1&flip=1"))
    assert r.status == 200 and r.content_type == "image/png"
    img = Image.open(io.BytesIO(await r.read()))
    lay = await (await client.get(path(view.id, "/position.json?ply=1&flip=1"))).json()
    assert img.size == (lay["width"], lay["height"]) and img.width > 400
    assert len(lay["squares"]) == 64
    x0, y0, x1, y1 = lay["squares"]["a1"]
    assert x0 > lay["squares"]["h1"][0] and y0 < lay["squares"]["a8"][1]   # flipped
    assert len(img.convert("RGB").getcolors(1 << 20)) > 20
    assert lay["pieces"]["g1"] == "White Knight" and "e4" in lay["pieces"]
    for bad in ("?ply=9", "?ply=x", "?line=e2e5"):
        r = await client.get(path(view.id, "/board.png" + bad))
        assert r.status == 400, bad
        assert (await r.text())


async def test_square_moves_and_side_line(svc, client):
    view = await new_game(svc, "chess", ["e4", "e5"])
    got = await (await client.get(path(view.id, "/moves.json?ply=2&line=g1f3+b8c6&square=f1"))).json()
    line = await (await client.get(path(view.id, "/position.json?ply=2&line=g1f3+b8c6"))).json()
    assert line["line"] == ["Nf3", "Nc6"]
    assert got["targets"]["b5"] == [{"lan": "f1b5", "san": "Bb5"}]
    assert "a6" in got["targets"] and "f1" not in got["targets"]
    # the game itself is untouched
    assert (await svc.game(view.id)).ply == 2
    for what in ("moves.json?square=g1&line=g1f4", "position.json?line=g1f4"):
        r = await client.get(path(view.id, "/" + what))
        assert r.status == 400 and "g1f4" in await r.text()
    r = await client.get(path(view.id, "/moves.json?square=z9"))
    assert r.status == 400 and "z9" in await r.text()


def test_wall_cyclops_and_drop_moves():
    import rules
    from bot.web.analysis import placements, square_moves
    # Ganymede's Wall (a2-b2 at the start): the same moves clicked on either square
    pos = rules.start("ganymede")
    a, b = square_moves(pos, "a2"), square_moves(pos, "b2")
    assert a["piece"] == ["a2", "b2"] and b["piece"] == ["b2", "a2"]
    assert a["targets"] == b["targets"] and any("-" in m["lan"] for ms in a["targets"].values()
                                                for m in ms)
    # Super Chess's Cyclops: one move per facing on a square; turns on its own square
    cy = square_moves(rules.start("superchess"), "d1")
    assert {m["lan"] for m in cy["targets"]["d3"]} >= {"d1d3(N)", "d1d3(SW)"}
    assert len(cy["targets"]["d3"]) == 8 and "d1(E)" in {m["lan"] for m in cy["targets"]["d1"]}
    # King and Queen: a piece in hand is dropped
    kq = rules.from_fen("kingqueen", "***nkc***/***1b1***/p1p1p1p1p/9/P1P1P1P1P/***1B1***/"
                                     "***CK1*** w - - 0 1 hand=N;dropped=-")
    drops = placements(kq)
    assert {d["squares"][0] for d in drops} == {"f1", "d2", "f2"} and drops[0]["lan"] == "N@f1"
    assert all(d["drop"] and d["piece"] == "N" for d in drops)
    # Super Chess's set-up: each action places two Super Pawns, picked by a click on each
    setup = placements(rules.from_fen("superchess", rules.game("superchess").setup_start_fen))
    assert {"lan": "S@a2,S@b2", "squares": ["a2", "b2"]}.items() <= setup[0].items()
    assert not any(d["drop"] for d in setup)


async def test_live_events_follow_the_game(svc, client):
    view = await new_game(svc, "chess", ["e4"])
    r = await client.get(path(view.id, "/events"))
    assert r.status == 200 and r.headers["Content-Type"].startswith("text/event-stream")
    assert await r.content.readline() == b": live\n"
    await r.content.readline()
    bob = await svc.player("test", "b", "Bob")
    await svc.move(view.id, bob.id, "e5")
    lines = []
    while not lines or not lines[-1].startswith(b"data:"):
        lines.append(await asyncio.wait_for(r.content.readline(), 5))
    assert lines[-2] == b"event: update\n"
    state = json.loads(lines[-1][5:])
    assert state["ply"] == 2 and state["moves"][-1]["san"] == "e5"
    r.close()


async def test_static_script_served(client):
    r = await client.get("/static/game.js")
    assert r.status == 200 and "EventSource" in await r.text()


def test_the_computers_line_is_legal_san():
    import rules
    from bot.web.evaluation import evaluate_in_worker
    start = rules.start("chess").fen()
    got = evaluate_in_worker("chess", start, ("e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6"), 0.3)
    assert got["pv"][0] == "Qxf7#" and got["text"].startswith("mate in 1")
    assert got["score"] > 0   # White's view: White mates
    over = evaluate_in_worker("chess", start, ("f2f3", "e7e5", "g2g4", "d8h4"), 0.1)
    assert over["over"] is True and over["pv"] == []


async def test_eval_endpoint_searches_in_a_worker(svc, client):
    from bot.web.server import EVALUATOR
    client.server.app[EVALUATOR].seconds = 0.2
    view = await new_game(svc, "chess", ["e4", "e5"])
    await svc.resign(view.id, view.black.id)   # no engine help while a game between people is on
    r = await client.get(path(view.id, "/eval.json?ply=2&line=d1h5+b8c6+f1c4+g8f6"))
    got = await r.json()
    assert r.status == 200 and got["pv"][0] == "Qxf7#"
    r = await client.get(path(view.id, "/eval.json?ply=7"))
    assert r.status == 400


async def test_a_public_game_opens_by_its_plain_url(svc, client):
    view = await new_game(svc, "chess", ["e4"])
    r = await client.get(f"/g/{view.id}", allow_redirects=False)
    assert r.status == 404 and "Alice" not in await r.text()
    assert (await client.get(f"/g/{view.id}/public/state.json")).status == 404
    await svc.set_public(view.id, True)
    r = await client.get(f"/g/{view.id}")
    assert r.status == 200 and str(r.url).endswith(f"/g/{view.id}/public")
    assert ">e4</li>" in await r.text()
    assert (await client.get(f"/g/{view.id}/public/board.png")).status == 200
    await svc.set_public(view.id, False)   # private again
    assert (await client.get(f"/g/{view.id}/public")).status == 404
    assert (await client.get(path(view.id))).status == 200       # the signed link still works


def test_a_promotion_offers_every_piece_on_one_square():
    import rules
    from bot.web.analysis import square_moves
    pos = rules.from_fen("chess", "8/4P3/8/8/8/8/k7/6K1 w - - 0 1")
    got = square_moves(pos, "e7")
    assert sorted(m["san"] for m in got["targets"]["e8"]) == ["e8=B", "e8=N", "e8=Q", "e8=R"]


async def test_pictures_keyed_by_the_games_version(svc, client):
    """An address names one state of the game for good; a takeback or a result moves the
    version on, so an old address is refused (409) and the page asks again."""
    from bot.web.server import PICTURES
    view = await new_game(svc, "chess", ["e4", "e5"])
    alice, bob = await svc.player("test", "a"), await svc.player("test", "b")
    first = path(view.id, f"/board.png?v={view.version}&ply=2")
    r = await client.get(first)
    assert r.status == 200 and "immutable" in r.headers["Cache-Control"]
    await svc.ask_takeback(view.id, bob.id)
    await svc.accept_takeback(view.id, alice.id)
    now = await svc.game(view.id)
    assert now.version != view.version
    assert (await client.get(first)).status == 409
    st = await (await client.get(path(view.id, "/state.json"))).json()
    assert st["version"] == now.version and st["ply"] == 1
    await svc.resign(view.id, bob.id)
    st = await (await client.get(path(view.id, "/state.json"))).json()
    assert st["banner"] and "resigned" in st["banner"] and st["version"] > now.version
    # 300 requests for one board: one rendering
    app = client.server.app
    before = app[PICTURES].renders
    address = path(view.id, f"/board.png?v={st['version']}&ply=1")
    got = await asyncio.gather(*(client.get(address) for _ in range(300)))
    assert {r.status for r in got} <= {200, 429} and sum(r.status == 200 for r in got) >= 4
    assert app[PICTURES].renders - before == 1


async def test_every_response_has_the_safety_headers(svc, client):
    """Every kind of answer: the page, static files, the picture, JSON, the event stream,
    a redirect and the errors (400, 403, 404, 409, 429)."""
    from bot.web.server import WORKERS
    view = await new_game(svc, "chess", ["e4"])
    html = await (await client.get(path(view.id))).text()
    script = html.split('<script src="')[1].split('"')[0]
    watcher_move = ("post", path(view.id, "/move"), {"text": "e5"})
    kinds = {
        "page": (path(view.id), 200), "static": (script, 200),
        "picture": (path(view.id, f"/board.png?v={view.version}"), 200),
        "json": (path(view.id, "/state.json"), 200), "stream": (path(view.id, "/events"), 200),
        "redirect": ("/favicon.ico", 301),
        "bad request": (path(view.id, "/moves.json?ply=9"), 400),
        "forbidden": (watcher_move, 403), "forged": ("/g/1/forged", 404), "nowhere": ("/nothing", 404),
        "old picture": (path(view.id, f"/board.png?v={view.version - 1}"), 409),
        "over the share": (path(view.id, "/position.json"), 429),
    }
    seen = set()
    for kind, (address, status) in kinds.items():
        workers = client.server.app[WORKERS]
        workers.per_client = 0 if kind == "over the share" else 4
        if isinstance(address, tuple):
            r = await client.post(address[1], json=address[2])
        else:
            r = await client.get(address, allow_redirects=False)
        h = r.headers
        assert r.status == status, kind
        seen.add(r.content_type)
        assert h["X-Content-Type-Options"] == "nosniff", kind
        csp = h["Content-Security-Policy"]
        assert "frame-ancestors 'none'" in csp and "default-src 'none'" in csp, kind
        assert "script-src 'self'" in csp and "'unsafe-inline'" not in csp, kind
        assert h["X-Frame-Options"] == "DENY", kind
        assert h["Server"] == "fairypost", kind   # no version of anything
        if kind == "static":
            assert "?v=" in script and h["Cache-Control"] == "public, max-age=31536000, immutable"
        elif kind != "picture":
            assert h["Cache-Control"] == "no-store", kind
        if kind == "over the share":
            assert h["Retry-After"]
        r.close()
    assert {"text/html", "application/javascript", "image/png", "application/json",
            "text/event-stream", "text/plain"} <= seen
    r = await client.get("/favicon.ico")
    assert r.status == 200 and r.content_type == "image/svg+xml"


async def test_players_act_through_the_service_and_watchers_cannot(svc, client):
    view = await new_game(svc, "chess", ["e4"])
    black = f"/g/{view.id}/{tokens.sign_side(SECRET, view.id, 'b')}"
    white = f"/g/{view.id}/{tokens.sign_side(SECRET, view.id, 'w')}"
    r = await client.post(path(view.id, "/move"), json={"text": "e5"})
    assert r.status == 403
    r = await client.post(white + "/move", json={"text": "d4", "ply": 1})
    assert r.status == 409 and "turn" in (await r.json())["error"]
    r = await client.post(black + "/move", json={"text": "e5", "ply": 0})   # stale: expected_ply
    assert r.status == 409
    r = await client.post(black + "/move", json={"text": "<b>", "ply": 1})
    assert r.status == 409 and (await r.json())["error"]
    r = await client.post(black + "/move", json={"text": "e5", "ply": 1})
    assert r.status == 200 and (await r.json())["state"]["ply"] == 2
    for bad in ({"action": "explode"}, {"action": "resign", "ply": "x"}, ["resign"]):
        assert (await client.post(black + "/action", json=bad)).status == 400
    r = await client.post(black + "/action", json={"action": "offer_draw", "ply": 2})
    assert (await r.json())["state"]["drawOffer"] == "b"
    r = await client.post(white + "/action", json={"action": "accept_draw", "ply": 2})
    assert (await r.json())["state"]["result"] == "1/2-1/2"


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_move_by_another_process_reaches_an_open_stream(backend, tmp_path):
    """A second service on the same database (its own connections, as another process
    has) makes the move: the open stream hears it well within a second, through SQLite's
    data version or PostgreSQL's NOTIFY."""
    import random
    import time
    from contextlib import AsyncExitStack, nullcontext
    from datetime import UTC, datetime

    from aiohttp.test_utils import TestClient, TestServer

    from bot.config import Settings
    from bot.operations.service import GameService
    from bot.timekeeping.clock import ManualClock
    from bot.web.server import make_app

    from ..bot.backends import fresh_postgres
    async with AsyncExitStack() as stack:
        db = await stack.enter_async_context(
            fresh_postgres() if backend == "postgres" else nullcontext(str(tmp_path / "g.db")))

        async def service(hour):
            svc = await GameService.open(Settings(db_path=db, command_rate_per_minute=0),
                                         clock=ManualClock(datetime(2026, 1, 5, hour, tzinfo=UTC)),
                                         rng=random.Random(hour))
            stack.push_async_callback(svc.close)
            return svc
        pages, other = await service(12), await service(13)
        view = await new_game(pages, "chess", ["e4"])
        client = TestClient(TestServer(make_app(pages, SECRET)))
        await client.start_server()
        stack.push_async_callback(client.close)
        r = await client.get(path(view.id, "/events"))
        assert await r.content.readline() == b": live\n"
        await r.content.readline()
        began = time.monotonic()
        await other.move(view.id, (await other.player("test", "b")).id, "e5")
        while (await asyncio.wait_for(r.content.readline(), 3)) != b"event: update\n":
            pass
        assert time.monotonic() - began < 1.0
        assert json.loads((await r.content.readline())[5:])["ply"] == 2
        r.close()


async def test_evaluations_take_turns_by_game_and_are_capped():
    from bot.web.evaluation import Evaluator
    from bot.web.work import Busy
    ev = Evaluator(seconds=0.05, per_game=2, per_client=2, total=4)
    import rules
    start = rules.start("chess").fen()
    flood = [("e2e4",), ("d2d4",)]
    try:
        tasks = [asyncio.create_task(ev.evaluate("chess", start, lans, queue=1, client=f"c{i}"))
                 for i, lans in enumerate(flood)]
        await asyncio.sleep(0)
        with pytest.raises(Busy):   # a third for game 1: refused
            await ev.evaluate("chess", start, ("c2c4",), queue=1, client="c9")
        mine = asyncio.create_task(ev.evaluate("chess", start, ("b2b3",), queue=3, client="me"))
        other = asyncio.create_task(ev.evaluate("chess", start, ("g1f3",), queue=2, client="me"))
        await asyncio.sleep(0)
        with pytest.raises(Busy):   # a client's two asked already: its third, for any game, refused
            await ev.evaluate("chess", start, ("g2g3",), queue=4, client="me")
        order = []
        for name, t in zip(("1a", "1b", "3", "2"), tasks + [mine, other], strict=True):
            t.add_done_callback(lambda _t, name=name: order.append(name))
        await asyncio.gather(*tasks, mine, other)
        # games 3 and 2, one request each, ran before game 1's second: the games take turns
        assert order == ["1a", "3", "2", "1b"] and ev.searches == 4
        waiting = [asyncio.create_task(ev.evaluate("chess", start, (m,), queue=i, client=str(i)))
                   for i, m in enumerate(("a2a3", "h2h3", "a2a4", "h2h4"))]
        await asyncio.sleep(0)
        with pytest.raises(Busy):   # "me" has none waiting now, but four positions are the total
            await ev.evaluate("chess", start, ("f2f3",), queue=9, client="me")
        for t in waiting:
            t.cancel()
    finally:
        ev.close()


async def test_the_evaluation_is_said_in_the_pages_language(svc, client):
    from bot.web.server import EVALUATOR
    from language import language
    from tests.language.leaks import english_left
    client.server.app[EVALUATOR].seconds = 0.2
    view = await new_game(svc, "chess", ["e4", "e5"])
    # while a game between people is on: refused, in the reader's language
    r = await client.get(path(view.id, "/eval.json?lang=fr"))
    assert r.status == 403 and english_left(await r.text(), "fr") == [], await r.text()
    await svc.resign(view.id, view.black.id)
    line = "/eval.json?ply=2&line=d1h5+b8c6+f1c4+g8f6"
    english = await (await client.get(path(view.id, line))).json()
    french = await (await client.get(path(view.id, line + "&lang=fr"))).json()
    assert english["text"] == "mate in 1 (for White)"      # as the page always said it
    assert french["pv"] == english["pv"] and french["text"] == language("fr").trn(
        "mate in {n} (for {side})", "mate in {n} (for {side})", 1, side=language("fr").data("White"))
    assert english_left(french["text"], "fr") == [], french
    over = await (await client.get(path(view.id, line + "+h5f7&lang=de"))).json()
    assert over["text"] == language("de").tr("the game is over here") and over["text"] != "the game is over here"


async def test_a_bad_ply_line_or_square_is_refused_in_the_pages_language(svc, client):
    from language import language
    from tests.language.leaks import english_left
    view = await new_game(svc, "chess", ["e4", "e5"])
    for asked, code in (("/position.json?ply=abc", "fr"), ("/position.json?ply=9", "de"),
                        ("/moves.json?square=z99", "es"), ("/board.json?line=e2e5", "fr")):
        english = await client.get(path(view.id, asked))
        r = await client.get(path(view.id, f"{asked}&lang={code}"))
        text = await r.text()
        assert r.status == english.status == 400, (asked, text)
        assert text != await english.text() and english_left(text, code, own=["abc", "z99"]) == [], text
        assert (await svc.game(view.id)).ply == 2                  # nothing changed
    r = await client.get(path(view.id, "/position.json?ply=abc&lang=fr"))
    assert await r.text() == language("fr").tr("ply must be a whole number, not {text}", text="'abc'")
