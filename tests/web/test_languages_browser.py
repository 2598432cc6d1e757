"""The site and a game page in French in Chromium (issue #44, web): a French browser
(Playwright's locale: its Accept-Language) reads the home page, changes the language in the
footer, and plays a move on its game page, whose script's words (turn notes, squares' labels)
are French too: ``english_left`` on ``document.body.innerText`` after each."""

from __future__ import annotations

import os

import pytest

from bot.identity import page_tokens as tokens
from tests.language.leaks import english_left

from .conftest import SECRET, new_game
from .test_browser import CHROMIUM, until
from .test_signin import site  # noqa: F401 - the fixture
from .test_site_browser import chromium, click_move, smtp  # noqa: F401 - the fixtures

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM) and not os.environ.get("CI"),
                                reason="no /usr/bin/chromium (CI installs it)")


async def test_a_french_browser_reads_french_and_may_choose_german(svc, site, chromium):  # noqa: F811
    ctx = await chromium.new_context(locale="fr-FR")
    pg = await ctx.new_page()
    pg.set_default_timeout(60_000)
    await pg.goto(str(site.make_url("/")))
    assert await pg.evaluate("document.documentElement.lang") == "fr"
    text = await pg.evaluate("document.body.innerText")
    names = await pg.evaluate("[...document.querySelectorAll('option[lang]')].map(o => o.textContent)")
    assert "Parties par correspondance" in text
    assert english_left(text, "fr", own=names) == []
    await pg.get_by_label("Langue").select_option("de")
    await pg.get_by_role("button", name="Choisir").click()
    await until(pg, "document.documentElement.lang === 'de'")
    assert "Fernschach" in await pg.evaluate("document.body.innerText")
    await ctx.close()


async def test_the_game_page_and_its_script_speak_french(svc, site, chromium):  # noqa: F811
    view = await new_game(svc, "chess", ["e4"])        # Alice (White) - Bob: Bob, French, to move
    await svc.update_settings(view.black.id, language="fr")
    ctx = await chromium.new_context(locale="en-US")   # his setting wins over the browser's
    pg = await ctx.new_page()
    pg.set_default_timeout(60_000)
    await pg.goto(str(site.make_url(f"/g/{view.id}/{tokens.sign_side(SECRET, view.id, 'b')}")))
    await until(pg, "document.querySelectorAll('#squares button').length === 64")
    # the footer's language names: each in its own, on purpose
    names = await pg.evaluate("[...document.querySelectorAll('option[lang]')].map(o => o.textContent)")
    own = ["Alice", "Bob", "PGN", "fairypost", *names]
    text = await pg.evaluate("document.body.innerText")
    assert "À vous de jouer : cliquez sur une pièce" in text
    assert english_left(text, "fr", own=own) == []
    labels = await pg.evaluate("[...document.querySelectorAll('#squares button')].map(b => b.ariaLabel).join(' ; ')")
    assert "e6 vide" in labels
    await click_move(pg, "e7", "e5")
    await until(pg, "document.getElementById('turn-note').textContent.startsWith('À votre adversaire de jouer')")
    text = await pg.evaluate("document.body.innerText")
    assert english_left(text, "fr", own=own) == []
    await ctx.close()
