"""/tournament standings gives the event's web page when the bot has a public address
(FAIRYPOST_WEB_URL), and no link without one (tests/discord_bot/test_tournaments.py)."""

from __future__ import annotations

import pytest

from bot.config import Settings
from bot.discord_bot import tournament_commands as tc
from bot.identity import page_tokens as tokens

from .conftest import run
from .helpers import last_answer


@pytest.fixture
def settings(tmp_path) -> Settings:
    return Settings(db_path=str(tmp_path / "games.db"), web_url="https://chess.example", web_secret="s3cret")


async def test_the_standings_link_the_tournament_page(world):
    w = world
    await run(tc.create, w.interaction(w.alice), game="chess", name="Cup", format="round-robin", days=3)
    await run(tc.join, w.interaction(w.bob), id=1)
    j = w.interaction(w.bob)
    await run(tc.standings, j, id=1)
    text = last_answer(j)["content"]
    assert text.endswith(f"Tournament page: <https://chess.example/t/1/{tokens.sign_tournament(b's3cret', 1)}>")
    assert "file" not in last_answer(j)  # not begun: no crosstable to draw yet
