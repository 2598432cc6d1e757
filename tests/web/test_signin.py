"""Signing in on the web (issue #42 item 1): the home page, a mailed single-use link (read
from a real SMTP server on 127.0.0.1), the session cookie, signing out, and the abuse
cases: floods of sign-in mails, forms posted from elsewhere, a used or expired link, a
session fixed beforehand, someone else's game, 100 KB fields."""

from __future__ import annotations

from datetime import timedelta

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.web import signin
from bot.web.server import RUNNER_OPTIONS, WORKERS, make_app
from bot.web.site import COOKIE
from bot.web.work import Workers
from tests.bot.backends import BACKENDS, fresh_database

from .conftest import SECRET, new_game
from .sitekit import Smtp

ANN = "ann@example.org"


@pytest.fixture
async def smtp():
    s = await Smtp().start()
    yield s
    await s.close()


async def site_client(svc, smtp, web_url=None):
    app = make_app(svc, SECRET, mailer=smtp.mailer(), web_url=web_url)
    app[WORKERS] = Workers(processes=1)
    c = TestClient(TestServer(app, **RUNNER_OPTIONS))
    await c.start_server()
    return c


@pytest.fixture
async def site(svc, smtp):
    c = await site_client(svc, smtp)
    yield c
    await c.close()


def origin(c) -> dict:
    return {"Origin": str(c.make_url("/").origin())}


async def ask_link(c, address=ANN, headers=None):
    return await c.post("/signin", data={"address": address},
                        headers=origin(c) if headers is None else headers, allow_redirects=False)


async def sign_in(c, smtp, address=ANN) -> str:
    """Ask for a link, open it, press "Sign in": the session cookie's value."""
    r = await ask_link(c, address)
    assert r.status == 200, await r.text()
    token = smtp.link(address)
    r = await c.get(f"/signin/{token}")
    assert r.status == 200 and "Sign in" in await r.text()
    r = await c.post(f"/signin/{token}", data={}, headers=origin(c), allow_redirects=False)
    assert r.status == 303, await r.text()
    return r.cookies[COOKIE].value


async def test_the_home_page_offers_sign_in_and_the_form_mails_a_link(svc, site, smtp):
    r = await site.get("/")
    assert r.status == 200
    text = await r.text()
    assert '<a href="/signin">Sign in</a>' in text
    form = await (await site.get("/signin")).text()
    assert '<label for="address">Email address</label>' in form and "<button>Send me a link</button>" in form
    r = await ask_link(site)
    assert r.status == 200 and "on its way" in await r.text()
    mail = smtp.to(ANN)[-1]
    assert mail["Subject"] == "Your fairypost sign-in link"
    assert "15 minutes" in mail.get_content()


async def test_a_link_signs_in_the_player_of_the_mail_play_once(svc, site, smtp):
    from bot.email.accounts import Accounts
    ann = await Accounts(svc, svc.clock).player_for(ANN, "Ann")   # Ann plays by mail already
    game = await svc.challenge(ann.id, "chess", days=3)
    r = await ask_link(site, "Ann@Example.org")                   # the address in any case
    token = smtp.link("ann@example.org")
    r = await site.post(f"/signin/{token}", data={}, headers=origin(site), allow_redirects=False)
    assert r.status == 303 and r.headers["Location"] == "/"
    cookie = r.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Path=/" in cookie
    assert "Secure" not in cookie   # plain http on 127.0.0.1
    home = await (await site.get("/")).text()
    assert "Signed in as <strong>Ann</strong>" in home and "Your games" in home
    assert (await site.app[signin_key()].session(r.cookies[COOKIE].value)).player_id == ann.id
    # the link again: refused, and nothing signed in by it
    site.session.cookie_jar.clear()
    r = await site.get(f"/signin/{token}")
    assert r.status == 410 and "used already" in await r.text()
    r = await site.post(f"/signin/{token}", data={}, headers=origin(site), allow_redirects=False)
    assert r.status == 410 and COOKIE not in r.cookies
    assert game.challenger.id == ann.id


def signin_key():
    from bot.web.site import SIGNINS
    return SIGNINS


async def test_a_new_address_becomes_a_mail_player_with_it(svc, site, smtp):
    value = await sign_in(site, smtp, "new@example.org")
    session = await site.app[signin_key()].session(value)
    player = await svc.get_player(session.player_id)
    assert (player.platform, player.user_id, player.name) == ("email", "new@example.org", "new")
    # the next sign-in is the same player
    site.session.cookie_jar.clear()
    again = await site.app[signin_key()].session(await sign_in(site, smtp, "new@example.org"))
    assert again.player_id == player.id


async def test_an_expired_link_is_refused(svc, site, smtp):
    await ask_link(site)
    token = smtp.link(ANN)
    svc.clock.advance(timedelta(minutes=15, seconds=1))
    r = await site.get(f"/signin/{token}")
    assert r.status == 410 and "expired" in await r.text()
    r = await site.post(f"/signin/{token}", data={}, headers=origin(site), allow_redirects=False)
    assert r.status == 410 and COOKIE not in r.cookies


async def test_a_forged_link_is_refused(site):
    for token in ("x" * 43, "x" * 5000, "%00"):
        r = await site.get(f"/signin/{token}")
        assert r.status in (410, 404), token


async def test_sign_in_mails_are_budgeted_per_address_and_per_client(svc, site, smtp):
    for _ in range(signin.MAILS_PER_ADDRESS):
        assert (await ask_link(site)).status == 200
    r = await ask_link(site)
    assert r.status == 429 and "try again in" in await r.text()
    assert len(smtp.to(ANN)) == signin.MAILS_PER_ADDRESS
    # an hour later, one more
    svc.clock.advance(timedelta(hours=1, seconds=1))
    assert (await ask_link(site)).status == 200
    # one client asking for many addresses
    for i in range(signin.MAILS_PER_CLIENT - 1):
        assert (await ask_link(site, f"p{i}@example.org")).status == 200
    r = await ask_link(site, "one-more@example.org")
    assert r.status == 429 and smtp.to("one-more@example.org") == []


async def test_forms_posted_from_elsewhere_are_refused(svc, site, smtp):
    for headers in ({"Origin": "http://evil.example"}, {}, {"Origin": "null"},
                    {"Sec-Fetch-Site": "cross-site", **origin(site)}):
        r = await ask_link(site, headers=headers)
        assert r.status == 403, headers
    assert smtp.to(ANN) == []
    value = await sign_in(site, smtp)
    # sign out without the page's CSRF token (a page elsewhere cannot read it): refused
    r = await site.post("/signout", data={}, headers=origin(site), allow_redirects=False)
    assert r.status == 403
    r = await site.post("/signout", data={"csrf": "x" * 32}, headers=origin(site), allow_redirects=False)
    assert r.status == 403
    assert await site.app[signin_key()].session(value) is not None
    # with it (as the page's own form has it): signed out, the cookie gone and dead
    home = await (await site.get("/")).text()
    csrf = home.split('name="csrf" value="')[1].split('"')[0]
    r = await site.post("/signout", data={"csrf": csrf}, headers=origin(site), allow_redirects=False)
    assert r.status == 303
    assert await site.app[signin_key()].session(value) is None
    assert "Sign in" in await (await site.get("/")).text()


async def test_a_session_fixed_beforehand_is_not_carried_on(svc, site, smtp):
    # an attacker's session in the victim's browser: signing in gives a new one, ends the old
    attacker = await sign_in(site, smtp, "mallory@example.org")
    site.session.cookie_jar.update_cookies({COOKIE: attacker})
    victim = await sign_in(site, smtp, ANN)
    assert victim != attacker
    assert await site.app[signin_key()].session(attacker) is None
    # a made-up cookie signs nobody in
    site.session.cookie_jar.clear()
    site.session.cookie_jar.update_cookies({COOKIE: "made-up"})
    assert "Sign in" in await (await site.get("/")).text()


async def test_signed_in_a_player_opens_their_own_games_only(svc, site, smtp):
    value = await sign_in(site, smtp, ANN)
    ann = await svc.get_player((await site.app[signin_key()].session(value)).player_id)
    bob = await svc.player("test", "bob2", "Bob <i>")
    ch = await svc.challenge(ann.id, "chess", opponent_id=bob.id, days=3, colour="black")
    mine = await svc.accept_challenge(ch.id, bob.id)
    others = await new_game(svc, "chess", ["e4"])
    home = await (await site.get("/")).text()
    assert f'href="/play/{mine.id}"' in home and "Bob &lt;i&gt;" in home
    r = await site.get(f"/play/{mine.id}")
    assert r.status == 200 and "You play Black" in await r.text()
    for bad in (others.id, 10**6, "abc", "9" * 40):
        r = await site.get(f"/play/{bad}")
        assert r.status == 404, bad
    site.session.cookie_jar.clear()
    r = await site.get(f"/play/{mine.id}", allow_redirects=False)
    assert r.status == 303 and r.headers["Location"] == "/signin"


async def test_huge_or_bad_fields_change_nothing(svc, site, smtp):
    r = await ask_link(site, "a" * 100_000 + "@example.org")
    assert r.status in (400, 413)
    for bad in ("", "not an address", "a@b", "<script>@x.org", "a" * 250 + "@example.org"):
        r = await ask_link(site, bad)
        assert r.status == 400, bad
        text = await r.text()
        assert "<script>@" not in text
    assert smtp.recorder.mails == []


async def test_the_cookie_is_secure_behind_https(svc, smtp):
    c = await site_client(svc, smtp, web_url="https://play.example.org")
    try:
        await ask_link(c)
        token = smtp.link(ANN)
        assert smtp.to(ANN)[-1].get_content().count("https://play.example.org/signin/") == 1
        r = await c.post(f"/signin/{token}", data={}, headers=origin(c), allow_redirects=False)
        assert "Secure" in r.headers["Set-Cookie"]
    finally:
        await c.close()


async def test_the_sites_pages_are_under_the_clients_share(svc, site, smtp):
    """A client with no place left (work.Workers.per_client, as a game page) gets 429 for the
    site's pages too, and its forms do nothing; its places back, it is served."""
    from bot.web.server import WORKERS as places
    workers = site.app[places]
    me = "127.0.0.1"
    with workers.share(me), workers.share(me), workers.share(me), workers.share(me):
        for path in ("/", "/signin", "/lobby", "/new", "/me", "/play/1", "/player/1", "/signin/x"):
            r = await site.get(path, allow_redirects=False)
            assert r.status == 429, path
        r = await ask_link(site)
        assert r.status == 429 and smtp.recorder.mails == []
    assert (await site.get("/")).status == 200 and workers._by_client == {}


@pytest.mark.parametrize("backend", BACKENDS)
async def test_links_and_sessions_on_each_database(backend, tmp_path):
    """The site's tables and statements on SQLite and on PostgreSQL (FAIRYPOST_TEST_POSTGRES)."""
    import random
    from datetime import UTC, datetime

    from bot.config import Settings
    from bot.operations.service import GameService
    from bot.timekeeping.clock import ManualClock
    async with fresh_database(backend, tmp_path) as db:
        svc = await GameService.open(Settings(db_path=db, command_rate_per_minute=0),
                                     clock=ManualClock(datetime(2026, 1, 5, 12, tzinfo=UTC)),
                                     rng=random.Random(1))
        try:
            links = signin.SignIns(svc)
            tokens = [await links.new_link("198.51.100.7", address=ANN)
                      for _ in range(signin.MAILS_PER_ADDRESS)]
            with pytest.raises(signin.TooMany):
                await links.new_link("198.51.100.7", address=ANN)
            assert await links.link_for(tokens[0]) == (ANN, None)
            cookie, player_id = await links.use_link(tokens[0])
            with pytest.raises(signin.LinkRefused):
                await links.use_link(tokens[0])
            session = await links.session(cookie)
            assert session.player_id == player_id == (await links.use_link(tokens[1]))[1]
            await links.end(session)
            assert await links.session(cookie) is None
        finally:
            await svc.close()
