"""What a page on another site, or a broken client, sends (issue 40, item 6): refused, and
nothing changes; the answers keep their safety headers and name no server version."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
import urllib.request

from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from bot.config import Settings
from bot.identity import page_tokens as tokens
from bot.operations.service import GameService
from bot.web.server import RUNNER_OPTIONS, WORKERS, make_app, serving_runner
from bot.web.work import Workers
from tests.ports import free_port

from .conftest import SECRET, new_game


def black_link(game_id: int) -> str:
    return f"/g/{game_id}/{tokens.sign_side(SECRET, game_id, 'b')}"


async def test_a_post_from_another_sites_page_is_refused_and_changes_nothing(svc, client):
    view = await new_game(svc, "chess", ["e4"])
    move = black_link(view.id) + "/move"
    body = '{"text": "e5", "ply": 1}'
    json_type = {"Content-Type": "application/json"}
    refused = [  # (headers, body, status): what a form or a no-cors fetch elsewhere can send
        ({"Content-Type": "text/plain"}, body, 415),
        ({"Content-Type": "text/plain;charset=UTF-8"}, body, 415),
        ({"Content-Type": "application/x-www-form-urlencoded"}, "text=e5&ply=1", 415),
        ({"Content-Type": "multipart/form-data; boundary=x"}, body, 415),
        ({}, body, 415),
        ({**json_type, "Origin": "http://evil.example"}, body, 403),
        ({**json_type, "Origin": "https://evil.example"}, body, 403),
        ({**json_type, "Origin": "null"}, body, 403),   # a sandboxed frame, a file
        ({"Content-Type": "text/plain", "Origin": "http://evil.example"}, body, 403),
        ({**json_type, "Origin": f"http://{client.host}:{client.port + 1}"}, body, 403),  # another port
        ({**json_type, "Sec-Fetch-Site": "cross-site"}, body, 403),
    ]
    for headers, data, status in refused:
        r = await client.post(move, data=data, headers=headers)
        assert r.status == status, headers
        assert (await r.text()) and r.headers["X-Content-Type-Options"] == "nosniff"
    r = await client.post(black_link(view.id) + "/action", data='{"action": "resign", "ply": 1}',
                          headers={"Content-Type": "text/plain"})
    assert r.status == 415
    after = await svc.game(view.id)
    assert after.ply == 1 and after.result is None   # nothing was played, nobody resigned
    # what no route takes is said as such, whatever it is sent as
    r = await client.post(black_link(view.id) + "/state.json", data=body, headers={"Content-Type": "text/plain"})
    assert r.status == 405
    r = await client.post("/nothing", data=body, headers={"Origin": "http://evil.example"})
    assert r.status == 404
    # the page's own script: JSON, from its own origin
    own = f"http://{client.host}:{client.port}"
    r = await client.post(move, data=body, headers={**json_type, "Origin": own,
                                                    "Sec-Fetch-Site": "same-origin"})
    assert r.status == 200 and (await svc.game(view.id)).ply == 2


async def test_the_public_address_is_its_own_origin(svc):
    """Behind a proxy the request's Host may be the proxy's upstream (nginx's proxy_pass):
    FAIRYPOST_WEB_URL's origin is the pages' own too."""
    view = await new_game(svc, "chess", ["e4"])
    app = make_app(svc, SECRET, web_url="https://Chess.example.org/")
    app[WORKERS] = Workers(processes=1)
    client = TestClient(TestServer(app, **RUNNER_OPTIONS))
    await client.start_server()
    try:
        move = black_link(view.id) + "/move"
        for origin, status in (("https://evil.example.org", 403), ("http://chess.example.org", 403),
                               ("https://chess.example.org", 200)):
            r = await client.post(move, json={"text": "e5", "ply": 1}, headers={"Origin": origin})
            assert r.status == status, origin
    finally:
        await client.close()


async def test_json_nested_too_deep_is_a_clear_400(svc, client):
    view = await new_game(svc, "chess", ["e4"])
    move = black_link(view.id) + "/move"
    for body in ("[" * 30_000, "{\"a\":" * 10_000, "[" * 30_000 + "]" * 30_000,
                 '{"text": ' + "[" * 20 + '"e5"' + "]" * 20 + "}"):
        r = await client.post(move, data=body, headers={"Content-Type": "application/json"})
        assert r.status == 400, body[:20]
        assert "deeper than" in await r.text()
    r = await client.post(move, data=b'{"text": "\xff"}', headers={"Content-Type": "application/json"})
    assert r.status == 400 and "not JSON" in await r.text()
    # brackets in a string are text, not nesting: read, and refused as a move
    r = await client.post(move, json={"text": "[" * 1000, "ply": 1})
    assert r.status == 409
    assert (await svc.game(view.id)).ply == 1


def test_depth_of_counts_only_brackets_outside_strings():
    from bot.web.guard import depth_of
    assert depth_of('{"a": [1, {"b": "[[[{{"}], "c": "\\"["}') == 3
    assert depth_of("[" * 30_000) == 30_000
    assert depth_of('"just a string"') == 0


async def test_static_files_are_kept_for_good_only_at_their_current_address(client):
    from bot.web.server import static_url

    class Asked:
        app = client.server.app
    current = static_url(Asked, "game.js")
    assert "?v=" in current
    r = await client.get(current)
    assert r.status == 200 and r.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    for other in ("/static/game.js?v=1", "/static/game.js?v=" + "A" * 40, "/static/game.js",
                  current + "x", current.replace("?v=", "?v=x")):
        r = await client.get(other)
        assert r.status == 200, other
        assert "immutable" not in r.headers["Cache-Control"] and "max-age=31536000" not in \
            r.headers["Cache-Control"], other
        assert r.headers["X-Content-Type-Options"] == "nosniff"


async def _raw(port: int, data: bytes) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(data)
    await writer.drain()
    got = await asyncio.wait_for(reader.read(), 10)   # the server closes after an error
    writer.close()
    return got


async def test_requests_aiohttp_cannot_read_get_our_headers_and_no_version(svc, caplog):
    """A 20 KB header, a garbage request line: aiohttp answers them itself, before the
    app; still with the safety headers, and no server's name or version anywhere; and
    not logged as errors with a traceback (anyone may send them by the thousand)."""
    caplog.set_level("INFO")
    app = make_app(svc, SECRET)
    runner = await serving_runner(app)
    port = free_port()
    site = web.TCPSite(runner, "127.0.0.1", port)
    await site.start()
    try:
        malformed = {
            "long header": b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 20_000 + b"\r\n\r\n",
            "long line": b"GET /" + b"a" * 20_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
            "garbage line": b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 garbage\r\n\r\n",
            "no version": b"GET\r\n\r\n",
            "bad header": b"GET / HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n",
            "bad length": b"POST /g/1/x/move HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
        }
        for kind, data in malformed.items():
            got = await _raw(port, data)
            head = got.split(b"\r\n\r\n")[0].decode("latin-1")
            lines = head.split("\r\n")
            assert lines[0].startswith("HTTP/1.") and lines[0][9:12] == "400", (kind, lines[0])
            headers = {k.lower(): v.strip() for k, _, v in (h.partition(":") for h in lines[1:])}
            assert headers["server"] == "fairypost", kind
            assert headers["x-content-type-options"] == "nosniff", kind
            assert "frame-ancestors 'none'" in headers["content-security-policy"], kind
            assert headers["x-frame-options"] == "DENY" and headers["cache-control"] == "no-store", kind
            assert b"aiohttp" not in got.lower() and b"python" not in got.lower(), kind
        assert not [r for r in caplog.records if r.levelname in ("ERROR", "WARNING")]
        got = await _raw(port, b"GET /nothing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert got.startswith(b"HTTP/1.1 404") and b"Server: fairypost\r\n" in got
        assert b"aiohttp" not in got.lower() and b"python" not in got.lower()
    finally:
        await runner.cleanup()


# --- `fairypost web` stopped ---------------------------------------------------------

def _children(pid: int) -> set[int]:
    """The live processes whose parent is ``pid`` (from /proc)."""
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                found.add(int(entry))
    return found


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _stopped_server(tmp_path, stop) -> tuple[int, str, str, set[int]]:
    """``fairypost web`` started in a session of its own, its worker processes started by
    a board picture and an evaluation, then ``stop(process)``: (its exit code, its output,
    its error output, the worker processes it had)."""
    db = tmp_path / "g.db"

    async def make():
        svc = await GameService.open(Settings(db_path=str(db)))
        try:
            view = await new_game(svc, "chess", ["e4"])
            await svc.resign(view.id, view.black.id)   # evaluated: no engine help while it is on
            return view.id
        finally:
            await svc.close()
    game_id = asyncio.run(make())
    port = free_port()
    env = {**os.environ, "FAIRYPOST_DB": str(db), "FAIRYPOST_WEB_PORT": str(port),
           "FAIRYPOST_WEB_SECRET": "s"}
    env.pop("FAIRYPOST_WEB_URL", None)
    server = subprocess.Popen([sys.executable, "-m", "bot.cli", "web"], env=env, start_new_session=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert f":{port}/" in server.stdout.readline(), server.stderr.read()
        base = f"http://127.0.0.1:{port}/g/{game_id}/{tokens.sign(b's', game_id)}"
        for what in ("/board.png", "/eval.json"):
            with urllib.request.urlopen(base + what, timeout=60) as r:
                assert r.status == 200
        workers = _children(server.pid)
        assert len(workers) >= 3, workers   # the two for the pages, the computer's one
        stop(server)
        out, err = server.communicate(timeout=30)
        return server.returncode, out, err, workers
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


def _all_gone(pids: set[int]) -> bool:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if not any(_alive(p) for p in pids):
            return True
        time.sleep(0.05)
    return False


def test_sigterm_ends_the_server_and_its_worker_processes(tmp_path):
    code, out, err, workers = _stopped_server(tmp_path, lambda p: p.send_signal(signal.SIGTERM))
    assert code == 0, err
    assert "Traceback" not in err and "stopped" in out
    assert _all_gone(workers), [p for p in workers if _alive(p)]


def test_ctrl_c_stops_it_without_a_traceback(tmp_path):
    # the terminal sends Ctrl-C's SIGINT to the whole process group: the workers get it too
    code, out, err, workers = _stopped_server(tmp_path, lambda p: os.killpg(p.pid, signal.SIGINT))
    assert code == 0, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert _all_gone(workers), [p for p in workers if _alive(p)]
