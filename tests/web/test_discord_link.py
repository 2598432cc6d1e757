"""Discord's /board carries the game's page when FAIRYPOST_WEB_URL is set (a Discord double):
to a player (the reply only they see) their own link, that plays their side."""

from bot.discord_bot import commands
from bot.identity import page_tokens as tokens

from ..discord_bot.conftest import clock, open_world, run, settings, start_game  # noqa: F401 - fixtures
from ..discord_bot.helpers import last_answer


async def test_board_links_the_game_page_only_with_a_web_url(settings, clock):  # noqa: F811
    for url in (None, "https://chess.example.org"):
        w = await open_world(settings.with_(web_url=url, web_secret="k"), clock)
        try:
            w.alice, w.bob = w.member("Alice"), w.member("Bob")
            gv, thread = await start_game(w)
            game_id = gv.id
            i = w.interaction(w.bob, channel=thread)
            await run(commands.board, i)
            content = last_answer(i)["content"]
            if url is None:
                assert "Game page" not in content and "/g/" not in content
            else:
                assert f"<{url}/g/{game_id}/{tokens.sign_side(b'k', game_id, 'b')}>" in content
                assert last_answer(i)["ephemeral"] is True   # Bob's eyes only
        finally:
            await w.fairy.service.close()
