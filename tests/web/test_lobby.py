"""The "New game" form and the Lobby (issue #42 item 3), over HTTP: a challenge made on
the web, seen and accepted by another signed-in player (and open to mail players through
the same service), the computer played, and the abuse cases (forms from elsewhere, bad
and 100 KB fields, someone else's challenge)."""

from __future__ import annotations

import re

import pytest

from bot.web.site import COOKIE, SIGNINS

from .sitekit import Smtp
from .test_signin import origin, sign_in, site  # noqa: F401 - the fixtures


@pytest.fixture
async def smtp():
    s = await Smtp().start()
    yield s
    await s.close()


class Person:
    """A signed-in browser: its cookie, sent by hand (the client's jar is shared)."""

    def __init__(self, client, cookie: str, player_id: int):
        self.client, self.cookie, self.id = client, cookie, player_id

    def headers(self) -> dict:
        return {"Cookie": f"{COOKIE}={self.cookie}", **origin(self.client)}

    async def get(self, path: str):
        return await self.client.get(path, headers=self.headers(), allow_redirects=False)

    async def csrf(self) -> str:
        return re.search(r'name="csrf" value="([^"]+)"', await (await self.get("/lobby")).text()).group(1)

    async def post(self, path: str, data: dict, *, csrf: bool = True):
        if csrf:
            data = {"csrf": await self.csrf(), **data}
        return await self.client.post(path, data=data, headers=self.headers(), allow_redirects=False)


async def person(client, smtp, address: str) -> Person:
    cookie = await sign_in(client, smtp, address)
    client.session.cookie_jar.clear()
    return Person(client, cookie, (await client.app[SIGNINS].session(cookie)).player_id)


async def test_an_open_challenge_made_here_is_accepted_from_the_lobby(svc, site, smtp):  # noqa: F811
    ann, bob = await person(site, smtp, "ann@example.org"), await person(site, smtp, "bob@example.org")
    form = await (await ann.get("/new")).text()
    for label in ("Game", "Days per move", "Opponent", "Colour", "Level"):
        assert f">{label}</label>" in form, label
    assert "Rated" in form and "Play the computer" in form and "<button>Create</button>" in form
    r = await ann.post("/new", {"game": "grandducal", "days": "5", "opponent": "", "colour": "white",
                                "rated": "on"})
    assert r.status == 303 and r.headers["Location"] == "/lobby"
    [c] = await svc.list_challenges(ann.id)
    assert (c.game, c.days, c.colour, c.rated, c.opponent) == ("grandducal", 5, "white", True, None)
    # a mail player sees it too (their "games" lists the open challenges: the same call)
    mail = await svc.player("email", "carl@example.org", "carl")
    assert [x.id for x in await svc.list_challenges(mail.id)] == [c.id]
    lobby = await (await bob.get("/lobby")).text()
    assert "Grand Ducal Chess" in lobby and f'action="/lobby/{c.id}/accept"' in lobby
    assert f'action="/lobby/{c.id}/accept"' not in await (await ann.get("/lobby")).text()
    # from elsewhere (no CSRF token): refused, nothing accepted
    r = await bob.post(f"/lobby/{c.id}/accept", {}, csrf=False)
    assert r.status == 403 and (await svc.get_challenge(c.id)).game_id is None
    r = await bob.post(f"/lobby/{c.id}/accept", {})
    assert r.status == 303
    game_id = (await svc.get_challenge(c.id)).game_id
    assert r.headers["Location"] == f"/play/{game_id}"
    view = await svc.game(game_id)
    assert (view.white.id, view.black.id) == (ann.id, bob.id)
    for p in (ann, bob):
        assert f'href="/play/{game_id}"' in await (await p.get("/")).text()
    # accepted once: a second accept is refused with the service's words, on the page
    r = await bob.post(f"/lobby/{c.id}/accept", {})
    assert r.status == 409 and "challenge" in await r.text()


async def test_a_challenge_to_a_named_player_and_its_answers(svc, site, smtp):  # noqa: F811
    ann, bob = await person(site, smtp, "ann@example.org"), await person(site, smtp, "bob@example.org")
    r = await ann.post("/new", {"game": "chess", "days": "3", "opponent": "nobody-here", "colour": "random"})
    assert r.status == 400 and "nobody here is called nobody-here" in await r.text()
    r = await ann.post("/new", {"game": "chess", "days": "3", "opponent": "bob", "colour": "random"})
    assert r.status == 303
    [c] = await svc.list_challenges(bob.id)
    assert c.opponent.id == bob.id and not c.rated   # "Rated" left unticked: casual
    lobby = await (await bob.get("/lobby")).text()
    assert f'action="/lobby/{c.id}/decline"' in lobby
    r = await bob.post(f"/lobby/{c.id}/decline", {})
    assert r.status == 303 and (await svc.get_challenge(c.id)).status == "declined"


async def test_the_computer_is_played_at_once(svc, site, smtp):  # noqa: F811
    ann = await person(site, smtp, "ann@example.org")
    r = await ann.post("/new", {"game": "chess", "days": "3", "colour": "white", "computer": "on",
                                "level": "1"})
    assert r.status == 303 and r.headers["Location"].startswith("/play/")
    view = await svc.game(int(r.headers["Location"].rsplit("/", 1)[1]))
    assert view.white.id == ann.id and view.black.platform == "computer"


async def test_bad_fields_and_strangers_change_nothing(svc, site, smtp):  # noqa: F811
    ann = await person(site, smtp, "ann@example.org")
    good = {"game": "chess", "days": "3", "opponent": "", "colour": "random"}
    for bad in ({"game": "checkers"}, {"days": "4"}, {"days": "x" * 30}, {"colour": "green"},
                {"opponent": "<b>x</b>" * 20}, {"computer": "on", "level": "99"}):
        r = await ann.post("/new", {**good, **bad})
        assert r.status == 400, bad
        assert "<b>x</b>" not in await r.text()
    r = await ann.post("/new", {**good, "opponent": "x" * 100_000})
    assert r.status in (400, 413)
    assert await svc.list_challenges(ann.id) == []
    r = await ann.post("/new", good, csrf=False)
    assert r.status == 403 and await svc.list_challenges(ann.id) == []
    # signed out: to the sign-in page, nothing made
    for path in ("/new", "/lobby"):
        r = await site.get(path, allow_redirects=False)
        assert r.status == 303 and r.headers["Location"] == "/signin"
    r = await site.post("/new", data=good, headers=origin(site), allow_redirects=False)
    assert r.status == 303 and await svc.list_challenges(ann.id) == []
    # someone else's challenge cannot be cancelled; a made-up one is 404
    bob = await person(site, smtp, "bob@example.org")
    await ann.post("/new", good)
    [c] = await svc.list_challenges(ann.id)
    r = await bob.post(f"/lobby/{c.id}/cancel", {})
    assert r.status == 409 and (await svc.get_challenge(c.id)).status == "open"
    for path in ("/lobby/abc/accept", f"/lobby/{c.id}/steal", "/lobby/" + "9" * 30 + "/accept"):
        assert (await bob.post(path, {})).status == 404, path
