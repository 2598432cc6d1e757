"""With FAIRYPOST_WEB_URL set, every board mailed carries the player's own game page link,
that lets them play there (the web's own tokens, bot/identity/page_tokens.py, over the one signing
helper bot/identity/signing.py)."""

from __future__ import annotations

import re

import pytest

from bot.identity import page_tokens as web_tokens

from .conftest import Bot
from .servers import text_of
from .test_game_by_mail import start_game


@pytest.fixture
async def linked_bot(settings, clock):
    b = await Bot(settings.with_(web_url="https://chess.example.org", web_secret="pages"), clock).open()
    yield b
    await b.close()


async def test_boards_carry_the_games_page(linked_bot, servers):
    game_id, side = await start_game(linked_bot, servers)
    text = text_of(servers.last_to(side["w"]))
    m = re.search(r"Game page: https://chess\.example\.org/g/(\d+)/(\S+)", text)
    assert m and int(m.group(1)) == game_id
    assert web_tokens.role(b"pages", game_id, m.group(2)) == "w"   # White's own: plays White


async def test_no_link_without_the_pages_url(bot, servers):
    _game_id, side = await start_game(bot, servers)
    assert "Game page:" not in text_of(servers.last_to(side["w"]))
