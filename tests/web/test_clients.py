"""The per-client limits behind a reverse proxy (issue 40, item 3): the client read from
X-Forwarded-For only when the request comes from a trusted proxy, IPv6 clients grouped by
/64, the HTML pages under the same per-client limits as the JSON."""

from __future__ import annotations

import asyncio
import ipaddress

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.config import ConfigError, Settings
from bot.identity import page_tokens as tokens
from bot.web.clients import Clients
from bot.web.server import RUNNER_OPTIONS, STREAMS, WORKERS, make_app
from bot.web.work import Workers

from .conftest import SECRET, new_game, path

PER_CLIENT = 32  # the streams one client may hold (server.MAX_STREAMS_PER_CLIENT)


def test_the_client_is_the_right_most_address_no_trusted_proxy_added():
    behind = Clients(["127.0.0.1", "10.0.0.0/8", "::1", "fd00::/8"])
    cases = [  # (the socket's address, X-Forwarded-For headers, the client)
        ("127.0.0.1", ["203.0.113.5"], "203.0.113.5"),
        ("127.0.0.1", ["198.51.100.1, 203.0.113.5"], "203.0.113.5"),  # the left: the client's own say
        ("127.0.0.1", ["203.0.113.5, 10.1.2.3"], "203.0.113.5"),        # through two proxies
        ("127.0.0.1", ["203.0.113.5", "10.1.2.3"], "203.0.113.5"),      # as two headers
        ("10.9.9.9", [" 203.0.113.5 ,10.0.0.1 "], "203.0.113.5"),
        ("127.0.0.1", ["garbage, 203.0.113.5"], "203.0.113.5"),
        ("127.0.0.1", ["203.0.113.5, garbage"], "127.0.0.1"),   # the proxy's own entry unreadable
        ("127.0.0.1", ["10.0.0.7"], "10.0.0.7"),                # only proxies: the left-most
        ("127.0.0.1", [], "127.0.0.1"),
        ("127.0.0.1", ["::ffff:203.0.113.5"], "203.0.113.5"),  # IPv4-mapped: the IPv4 client
        ("::ffff:127.0.0.1", ["203.0.113.5"], "203.0.113.5"),  # the proxy by its mapped address
        ("::1", ["2001:db8:1:2:3:4:5:6"], "2001:db8:1:2::/64"),
        ("fd12::1", ["[2001:db8:1:2::9]:443"], "2001:db8:1:2::/64"),
        # not from a proxy: its X-Forwarded-For is anyone's to write, and ignored
        ("203.0.113.9", ["198.51.100.1"], "203.0.113.9"),
        ("192.0.2.1", ["127.0.0.1"], "192.0.2.1"),
        ("2001:db8:aa:bb:1::1", ["198.51.100.1"], "2001:db8:aa:bb::/64"),
    ]
    for peer, forwarded, client in cases:
        assert behind.client(peer, forwarded) == client, (peer, forwarded)
    nobody = Clients()
    assert nobody.client("127.0.0.1", ["203.0.113.5"]) == "127.0.0.1"
    assert nobody.client("2001:db8::1", []) == nobody.client("2001:db8::ffff:1", []) == "2001:db8::/64"
    assert nobody.client(None, []) == "?"
    many = ", ".join(f"198.51.100.{i}" for i in range(200)) + ", 203.0.113.5"
    assert behind.client("127.0.0.1", [many]) == "203.0.113.5"


def test_trusted_proxies_from_the_environment_and_the_file(tmp_path):
    s = Settings.load(env={"FAIRYPOST_WEB_TRUSTED_PROXIES": "127.0.0.1, ::1,10.0.0.0/8"})
    assert s.web_trusted_proxies == ("127.0.0.1", "::1", "10.0.0.0/8")
    assert Settings().web_trusted_proxies == ()
    assert Settings.load(env={"FAIRYPOST_WEB_TRUSTED_PROXIES": ""}).web_trusted_proxies == ()
    conf = tmp_path / "f.toml"
    conf.write_text('web_trusted_proxies = ["192.0.2.1", "fd00::/8"]\n')
    assert Settings.load(conf, env={}).web_trusted_proxies == ("192.0.2.1", "fd00::/8")
    conf.write_text('web_trusted_proxies = "192.0.2.1, 192.0.2.2"\n')
    assert Settings.load(conf, env={}).web_trusted_proxies == ("192.0.2.1", "192.0.2.2")
    conf.write_text('web_trusted_proxies = 5\n')
    with pytest.raises(ConfigError, match="web_trusted_proxies"):
        Settings.load(conf, env={})
    for bad in ("localhost", "127.0.0.1, proxy.example", "10.0.0.0/33", "1.2.3"):
        with pytest.raises(ConfigError) as e:
            Settings.load(env={"FAIRYPOST_WEB_TRUSTED_PROXIES": bad})
        assert "web_trusted_proxies" in str(e.value)


@pytest.fixture
async def behind_proxy(svc):
    """The server as behind the README's proxy on 127.0.0.1, which the tests' requests come from."""
    app = make_app(svc, SECRET, trusted_proxies=("127.0.0.1", "::1"))
    app[WORKERS] = Workers(processes=1)
    c = TestClient(TestServer(app, **RUNNER_OPTIONS))
    await c.start_server()
    yield c
    await c.close()


async def _open_streams(client, address: str, n: int, forwarded: list[str]):
    got = await asyncio.gather(*(client.get(address, headers={"X-Forwarded-For": f}) for f in forwarded[:n]))
    assert all(r.status == 200 for r in got), [r.status for r in got]
    return got


async def test_an_outsiders_streams_behind_the_proxy_leave_a_players_page_alone(svc, behind_proxy):
    client = behind_proxy
    view = await new_game(svc, "chess", ["e4"])
    await svc.set_public(view.id, True)
    public = f"/g/{view.id}/public"
    outsider = "203.0.113.5"
    streams = await _open_streams(client, public + "/events", PER_CLIENT, [outsider] * PER_CLIENT)
    try:
        assert client.server.app[STREAMS].of(outsider) == PER_CLIENT
        r = await client.get(public + "/events", headers={"X-Forwarded-For": outsider})
        assert r.status == 429   # the outsider's own 33rd
        # the proxy appends what it saw: a forged left part does not make the outsider another client
        r = await client.get(public + "/events", headers={"X-Forwarded-For": f"198.51.100.9, {outsider}"})
        assert r.status == 429
        black = f"/g/{view.id}/{tokens.sign_side(SECRET, view.id, 'b')}"
        player = {"X-Forwarded-For": "198.51.100.7"}
        page = await client.get(black, headers=player)
        assert page.status == 200 and ">e4</li>" in await page.text()
        live = await client.get(black + "/events", headers=player)
        assert live.status == 200 and await live.content.readline() == b": live\n"
        live.close()
        r = await client.post(black + "/move", json={"text": "e5", "ply": 1}, headers=player)
        assert r.status == 200
    finally:
        for s in streams:
            s.close()


async def test_a_forged_forwarded_for_from_a_non_proxy_is_ignored(svc):
    view = await new_game(svc, "chess", ["e4"])
    for proxies in ((), ("10.0.0.0/8", "::1")):   # none, or not the one the requests come from
        app = make_app(svc, SECRET, trusted_proxies=proxies)
        client = TestClient(TestServer(app, **RUNNER_OPTIONS))
        await client.start_server()
        try:
            forged = [f"198.51.100.{i}" for i in range(PER_CLIENT + 1)]
            streams = await _open_streams(client, path(view.id, "/events"), PER_CLIENT, forged)
            assert app[STREAMS].of("127.0.0.1") == PER_CLIENT
            r = await client.get(path(view.id, "/events"), headers={"X-Forwarded-For": forged[-1]})
            assert r.status == 429, proxies
            for s in streams:
                s.close()
        finally:
            await client.close()


async def test_ipv6_clients_are_counted_by_their_64(svc, behind_proxy):
    client = behind_proxy
    view = await new_game(svc, "chess", ["e4"])
    home = ipaddress.IPv6Network("2001:db8:1:2::/64")
    addresses = [str(home[i * 7919 + 1]) for i in range(PER_CLIENT + 1)]  # all different
    streams = await _open_streams(client, path(view.id, "/events"), PER_CLIENT, addresses)
    try:
        assert client.server.app[STREAMS].of(str(home)) == PER_CLIENT
        r = await client.get(path(view.id, "/events"), headers={"X-Forwarded-For": addresses[-1]})
        assert r.status == 429   # one more address of the same /64
        neighbour = await client.get(path(view.id, "/events"), headers={"X-Forwarded-For": "2001:db8:1:3::1"})
        assert neighbour.status == 200
        neighbour.close()
    finally:
        for s in streams:
            s.close()


async def test_html_pages_are_under_the_clients_share(svc, behind_proxy):
    """A page is under the share its JSON is (work.Workers.per_client): a client with none
    left gets 429 for the page too; another client's page is served."""
    client = behind_proxy
    view = await new_game(svc, "chess", ["e4"])
    workers = client.server.app[WORKERS]
    flooder, other = {"X-Forwarded-For": "203.0.113.5"}, {"X-Forwarded-For": "198.51.100.7"}
    with workers.share("203.0.113.5"), workers.share("203.0.113.5"), \
            workers.share("203.0.113.5"), workers.share("203.0.113.5"):   # its 4 places taken
        for address in (path(view.id), path(view.id, "/position.json")):
            r = await client.get(address, headers=flooder)
            assert r.status == 429 and r.headers["Retry-After"], address
            assert "too many" in await r.text()
        r = await client.get(path(view.id), headers=other)
        assert r.status == 200 and ">e4</li>" in await r.text()
    r = await client.get(path(view.id), headers=flooder)   # its places back
    assert r.status == 200
    # a flood of the page at once from one client: a few served, the rest refused, and
    # another client's page is served beside it
    flood = [client.get(path(view.id), headers=flooder) for _ in range(40)]
    got = await asyncio.gather(*flood, client.get(path(view.id), headers=other))
    statuses = [r.status for r in got[:-1]]
    assert set(statuses) <= {200, 429} and statuses.count(200) >= 1
    assert got[-1].status == 200
    assert workers._by_client == {}   # every place given back
