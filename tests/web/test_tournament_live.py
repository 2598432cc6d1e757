"""A tournament's page in a real browser (Debian's Chromium driven by Playwright, as
test_browser.py does): the page loads under its Content-Security-Policy with no error,
its picture shows, and a game ending in the service reaches the open page by itself."""

from __future__ import annotations

import pytest

from bot.web import tournament_page

from .test_browser import CHROMIUM, browser, new_page, until  # noqa: F401 (the fixture)
from .test_tournament_page import started, tpath

pytestmark = pytest.mark.skipif(not __import__("os").path.exists(CHROMIUM) and
                                not __import__("os").environ.get("CI"), reason="no /usr/bin/chromium")


async def test_the_page_follows_the_event_by_itself(svc, client, browser, monkeypatch):  # noqa: F811
    monkeypatch.setattr(tournament_page, "POLL_SECONDS", 1)
    _, t = await started(svc)
    pg = await new_page(browser, 420, 900)  # a phone's width
    errors = []
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    await pg.goto(str(client.make_url(tpath(t.id))))
    await until(pg, "document.querySelector('figure img').complete && "
                    "document.querySelector('figure img').naturalWidth > 0")
    assert await pg.locator("#crosstable tbody tr").count() == 3
    assert await pg.locator('a[aria-label^="playing"]').count() == 6
    game = next(p for p in t.pairings if p.game_id is not None)
    await svc.resign(game.game_id, game.black.id)
    await until(pg, "document.querySelectorAll('a[aria-label^=\"won\"]').length === 1")
    assert await pg.locator('a[aria-label^="playing"]').count() == 4

    assert errors == []
