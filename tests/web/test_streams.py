"""Live pages' event streams: a closed page gives its slot back at once, the server caps the
streams open in all, and refusals leave nothing for a full garbage collection (issue 33,
item 4; the flood itself is bench/webflood.py)."""

from __future__ import annotations

import asyncio
import gc
import socket

import aiohttp
import pytest

from bot.config import ConfigError, Settings
from bot.identity import page_tokens as tokens
from bot.web.server import HUB, STREAMS, start
from tests.ports import free_port

from .conftest import SECRET, new_game, path


async def _until(condition) -> None:
    while not condition():
        await asyncio.sleep(0.001)


async def test_a_closed_page_gives_its_stream_slot_back_at_once(svc, client):
    """The page's connection closes: its handler ends then (aiohttp's handler cancellation),
    not at the hub's next keep-alive ping (an hour away here), and its slot and its client's
    count are free."""
    app = client.server.app
    app[HUB].keep_alive = 3600.0
    slots = app[STREAMS]
    view = await new_game(svc, "chess", ["e4"])
    pages = [await client.get(path(view.id, "/events")) for _ in range(2)]
    for r in pages:
        assert r.status == 200 and await r.content.readline() == b": live\n"
    assert slots.open == 2 and slots.of("127.0.0.1") == 2
    pages[0].close()  # the page closed: its connection goes
    await asyncio.wait_for(_until(lambda: slots.open == 1), 5)
    assert slots.of("127.0.0.1") == 1
    # the other page still follows the game
    await svc.move(view.id, (await svc.player("test", "b")).id, "e5")
    assert await asyncio.wait_for(pages[1].content.readline(), 5) == b"\n"
    assert await asyncio.wait_for(pages[1].content.readline(), 5) == b"event: update\n"
    pages[1].close()
    await asyncio.wait_for(_until(lambda: slots.open == 0), 5)
    assert slots.of("127.0.0.1") == 0


async def test_beyond_the_servers_cap_a_stream_is_refused_with_503_and_a_time_to_retry(svc, tmp_path):
    """FAIRYPOST_WEB_MAX_STREAMS: the streams open in all, whoever opens them; beyond it a
    new one is refused (503, Retry-After), the page itself still answers; a page closed
    makes room at once."""
    port = free_port()
    settings = Settings.load(env={"FAIRYPOST_DB": str(tmp_path / "games.db"), "FAIRYPOST_WEB_SECRET": "k",
                                  "FAIRYPOST_WEB_MAX_STREAMS": "2"})
    assert settings.web_max_streams == 2
    view = await new_game(svc, "chess", ["e4"])
    runner = await start(svc, settings, port=port)
    page = f"http://127.0.0.1:{port}/g/{view.id}/{tokens.sign(b'k', view.id)}"
    # two clients (two addresses): the server's cap, not one client's
    firsts = [aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(f"127.0.4.{i}", 0)))
              for i in (1, 2)]
    late = aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=("127.0.4.3", 0)))
    try:
        open_ = [await s.get(page + "/events") for s in firsts]
        for r in open_:
            assert r.status == 200 and await r.content.readline() == b": live\n"
        async with late.get(page + "/events") as r:
            assert r.status == 503 and r.headers["Retry-After"] == "30"
            assert "too many pages are open" in await r.text()
        async with late.get(page + "/state.json") as r:  # what the refused page reads instead
            assert r.status == 200 and (await r.json())["ply"] == 1
        open_[0].close()
        slots = runner.app[STREAMS]
        await asyncio.wait_for(_until(lambda: slots.open == 1), 5)
        r = await late.get(page + "/events")
        assert r.status == 200 and await r.content.readline() == b": live\n"
        r.close()
        open_[1].close()
    finally:
        for s in (*firsts, late):
            await s.close()
        await runner.cleanup()


async def test_one_client_is_refused_beyond_its_own_share_with_429(svc, client):
    app = client.server.app
    app[STREAMS].per_client = 1
    view = await new_game(svc, "chess")
    first = await client.get(path(view.id, "/events"))
    assert first.status == 200
    second = await client.get(path(view.id, "/events"))
    assert second.status == 429 and "from here" in await second.text()
    first.close()


@pytest.mark.parametrize("value", ["0", "-5", "many"])
def test_the_cap_on_open_streams_must_be_a_positive_number(value, tmp_path):
    with pytest.raises(ConfigError, match="(?i)max_streams"):
        Settings.load(env={"FAIRYPOST_DB": str(tmp_path / "g.db"), "FAIRYPOST_WEB_MAX_STREAMS": value})
    assert Settings(db_path=str(tmp_path / "g.db")).web_max_streams == 2000


async def test_refusals_leave_no_garbage_for_a_full_collection(svc, client):
    """A refused request (409: an old picture's version; 404: a forged link; 400) is freed
    as soon as it is answered, not kept in a cycle of its frames until a full garbage
    collection (a flood's hundreds of them made those collections 2-3 times as long)."""
    view = await new_game(svc, "chess", ["e4"])
    asks = [path(view.id, "/board.png?v=999"), f"/g/{view.id}/forged/state.json",
            path(view.id, "/moves.json?ply=x")]
    for ask in asks:  # warm: the first request of a kind makes what stays (caches, routes)
        async with client.get(ask) as r:
            await r.read()
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for ask, status in zip(asks * 3, [409, 404, 400] * 3, strict=True):
            async with client.get(ask) as r:
                assert r.status == status
                await r.read()
        gc.collect()
        left = {type(o).__name__ for o in gc.garbage}
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert not left & {"Request", "HTTPConflict", "HTTPNotFound", "HTTPBadRequest", "traceback", "frame"}, left


async def test_a_closed_connection_is_freed_at_once_not_left_in_a_cycle(svc):
    """asyncio's transport keeps a cycle of its own once closed: cut when the connection is
    lost, a connection that lived long (frozen, collector.py) does not wait for the thaw."""
    from aiohttp import web

    from bot.web.server import make_app, serving_runner
    view = await new_game(svc, "chess", ["e4"])
    runner = await serving_runner(make_app(svc, SECRET))
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]
    loop = asyncio.get_running_loop()
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for _ in range(3):  # a plain socket: the client makes no transport of its own
            with socket.socket() as s:
                s.setblocking(False)
                await loop.sock_connect(s, ("127.0.0.1", port))
                await loop.sock_sendall(s, f"GET {path(view.id, '/state.json')} HTTP/1.1\r\n"
                                           "Host: x\r\nConnection: close\r\n\r\n".encode())
                answer = b""
                while chunk := await loop.sock_recv(s, 65536):
                    answer += chunk
                assert answer.startswith(b"HTTP/1.1 200")
        await asyncio.wait_for(_until(lambda: not runner.server.connections), 5)
        for _ in range(3):
            await asyncio.sleep(0)  # asyncio's clean-up, then the cut
        gc.collect()
        left = [type(o).__name__ for o in gc.garbage]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        await runner.cleanup()
    assert "_SelectorSocketTransport" not in left, left
