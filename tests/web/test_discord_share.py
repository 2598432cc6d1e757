"""Discord's /share: a game's players make its page public (the plain URL then works for
anyone) or private again, and game threads carry the page's signed link."""

from bot.discord_bot import commands
from bot.identity import page_tokens as tokens

from ..discord_bot.conftest import clock, open_world, run, settings, start_game  # noqa: F401 - fixtures
from ..discord_bot.helpers import last_answer

URL = "https://chess.example.org"


async def test_players_make_a_game_public_and_private(settings, clock):  # noqa: F811
    w = await open_world(settings.with_(web_url=URL, web_secret="k"), clock)
    try:
        w.alice, w.bob = w.member("Alice"), w.member("Bob")
        gv, thread = await start_game(w)
        pages = w.fairy.service
        # the thread's board carries the signed link
        assert f"<{URL}/g/{gv.id}/{tokens.sign(b'k', gv.id)}>" in w.sent_to(thread)[-1]["content"]
        i = w.interaction(w.alice, channel=thread)
        await run(commands.share, i)
        assert f"<{URL}/g/{gv.id}/{tokens.sign(b'k', gv.id)}>" in last_answer(i)["content"]
        assert not await pages.is_public(gv.id)
        i = w.interaction(w.bob, channel=thread)
        await run(commands.share, i, public=True)
        assert last_answer(i)["content"] == f"Game #{gv.id} is public: anyone may follow it at <{URL}/g/{gv.id}>"
        assert await pages.is_public(gv.id)
        carol = w.member("Carol")
        i = w.interaction(carol, channel=thread)
        await run(commands.share, i, public=False, game=gv.id)
        assert "only the players" in last_answer(i)["content"].lower() and await pages.is_public(gv.id)
        i = w.interaction(w.alice, channel=thread)
        await run(commands.share, i, public=False)
        assert not await pages.is_public(gv.id) and "signed link" in last_answer(i)["content"]
    finally:
        await w.fairy.service.close()


async def test_no_pages_no_share(settings, clock):  # noqa: F811
    w = await open_world(settings, clock)
    try:
        w.alice, w.bob = w.member("Alice"), w.member("Bob")
        gv, thread = await start_game(w)
        assert "/g/" not in w.sent_to(thread)[-1]["content"]
        i = w.interaction(w.alice, channel=thread)
        await run(commands.share, i, public=True)
        assert "no web pages" in last_answer(i)["content"].lower()
        assert not await w.fairy.service.is_public(gv.id)
    finally:
        await w.fairy.service.close()
