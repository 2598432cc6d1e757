"""Discord's ``/settings web`` (issue #42 item 1): a one-time sign-in link in an answer only
its player sees, signing in the same player on the site; refused plainly without a site."""

from bot.discord_bot import commands
from bot.web.server import RUNNER_OPTIONS, make_app
from bot.web.site import COOKIE, SIGNINS

from ..discord_bot.conftest import clock, open_world, run, settings  # noqa: F401 - fixtures
from ..discord_bot.helpers import last_answer


async def test_settings_web_gives_a_one_time_link_only_its_player_sees(settings, clock):  # noqa: F811
    from aiohttp.test_utils import TestClient, TestServer
    w = await open_world(settings.with_(web_url="https://play.example.org", web_secret="k"), clock)
    try:
        alice = w.member("Alice")
        i = w.interaction(alice)
        await run(commands.settings, i, web=True)
        answer = last_answer(i)
        assert answer["ephemeral"] is True
        assert "https://play.example.org/signin/" in answer["content"]
        token = answer["content"].split("/signin/")[1].split(">")[0]
        me = await w.fairy.player(alice)
        client = TestClient(TestServer(make_app(w.fairy.service, b"k"), **RUNNER_OPTIONS))
        await client.start_server()
        try:
            page = await client.get(f"/signin/{token}")
            assert page.status == 200 and "Sign in as Alice?" in await page.text()
            origin = {"Origin": str(client.make_url("/").origin())}
            r = await client.post(f"/signin/{token}", data={}, headers=origin, allow_redirects=False)
            assert r.status == 303
            session = await client.app[SIGNINS].session(r.cookies[COOKIE].value)
            assert session.player_id == me.id
            again = await client.post(f"/signin/{token}", data={}, headers=origin, allow_redirects=False)
            assert again.status == 410
        finally:
            await client.close()
    finally:
        await w.fairy.service.close()


async def test_settings_web_without_a_site_says_so(settings, clock):  # noqa: F811
    w = await open_world(settings, clock)
    try:
        i = w.interaction(w.member("Alice"))
        await run(commands.settings, i, web=True)
        assert "no web site" in last_answer(i)["content"] and last_answer(i)["ephemeral"] is True
    finally:
        await w.fairy.service.close()
