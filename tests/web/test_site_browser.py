"""The site end to end in Chromium (issue #42 item 6), at a desk's size and a phone's: two new
people sign in through the links mailed to them (read from a real SMTP server on 127.0.0.1),
one makes an open challenge, the other accepts it from the Lobby, they play to mate by click
and by keyboard, both find the game in "Your games" and then among the finished ones, the
downloaded PGN is read back by python-chess; and axe-core (npm, installed by .ci/run into
tests/web/node_modules: no network here) finds no serious or critical violation on the
home, lobby, game and player pages."""

from __future__ import annotations

import io
import os
from pathlib import Path

import chess.pgn
import pytest

from .sitekit import Smtp
from .test_browser import ARGS, CHROMIUM, until

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM) and not os.environ.get("CI"),
                                reason="no /usr/bin/chromium (CI installs it)")
AXE = Path(__file__).parent / "node_modules" / "axe-core" / "axe.min.js"
DESK, PHONE = {"width": 1300, "height": 1000}, {"width": 390, "height": 844}


@pytest.fixture
async def smtp():
    s = await Smtp().start()
    yield s
    await s.close()


@pytest.fixture
async def site(svc, smtp):
    from .test_signin import site_client
    c = await site_client(svc, smtp)
    yield c
    await c.close()


@pytest.fixture
async def chromium(site):
    from playwright.async_api import async_playwright
    async with async_playwright() as pw:
        b = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        await b.close()


async def person_page(chromium, size, *, axe: bool = False):
    # axe-core is put into the page as a script of its own: the page's CSP (script-src
    # 'self') would refuse it, so only the checking contexts leave the CSP out
    ctx = await chromium.new_context(viewport=size, bypass_csp=axe, accept_downloads=True)
    pg = await ctx.new_page()
    pg.set_default_timeout(60_000)
    return pg


async def sign_in_by_mail(pg, site, smtp, address: str) -> None:
    await pg.goto(str(site.make_url("/")))
    await pg.get_by_role("link", name="Sign in").first.click()
    await pg.get_by_label("Email address").fill(address)
    await pg.get_by_role("button", name="Send me a link").click()
    await pg.get_by_text("is on its way").wait_for()
    token = smtp.link(address)
    await pg.goto(str(site.make_url(f"/signin/{token}")))
    await pg.get_by_role("button", name="Sign in").click()
    await pg.get_by_role("heading", name="Your games").wait_for()


async def click_move(pg, frm: str, to: str) -> None:
    await pg.locator(f'#squares button[data-square="{frm}"]').click()
    await until(pg, "document.querySelectorAll('#squares button.target').length > 0")
    await pg.locator(f'#squares button[data-square="{to}"]').click()


async def keyboard_move(pg, frm: str, to: str) -> None:
    """Focus ``frm`` by the keyboard, Enter, arrow keys to ``to`` (by where the squares are
    on the screen: a flipped board too), Space."""
    await pg.locator('#squares button[tabindex="0"]').focus()
    for target, key in ((frm, "Enter"), (to, " ")):
        for _ in range(30):
            here = await pg.evaluate("() => document.activeElement.dataset.square")
            if here == target:
                break
            a = await pg.locator(f'#squares button[data-square="{here}"]').bounding_box()
            b = await pg.locator(f'#squares button[data-square="{target}"]').bounding_box()
            if abs(a["x"] - b["x"]) > a["width"] / 2:
                await pg.keyboard.press("ArrowRight" if b["x"] > a["x"] else "ArrowLeft")
            else:
                await pg.keyboard.press("ArrowDown" if b["y"] > a["y"] else "ArrowUp")
        assert await pg.evaluate("() => document.activeElement.dataset.square") == target
        await pg.keyboard.press(key)
        if key == "Enter":
            await until(pg, "document.querySelectorAll('#squares button.target').length > 0")


async def serious_violations(pg) -> list[str]:
    await pg.add_script_tag(path=str(AXE))
    return await pg.evaluate("""async () => (await axe.run(document)).violations
        .filter(v => v.impact === 'serious' || v.impact === 'critical')
        .map(v => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', ')}`)""")


async def test_two_new_people_meet_in_the_lobby_play_to_mate_and_look_back(svc, site, smtp, chromium):
    assert AXE.exists(), "axe-core: npm install --prefix tests/web axe-core@4 (.ci/run does)"
    ann = await person_page(chromium, DESK, axe=True)
    bob = await person_page(chromium, PHONE, axe=True)
    await ann.goto(str(site.make_url("/")))
    checked = {"home, signed out": await serious_violations(ann)}
    await sign_in_by_mail(ann, site, smtp, "ann@example.org")
    await sign_in_by_mail(bob, site, smtp, "bob@example.org")
    checked["home, signed in"] = await serious_violations(ann)

    # Ann makes an open challenge (White, chess); Bob accepts it from the Lobby
    await ann.get_by_role("link", name="New game").first.click()
    await ann.get_by_label("Game").select_option("chess")
    await ann.get_by_label("Colour").select_option("white")
    await ann.get_by_role("button", name="Create").click()
    await ann.get_by_role("heading", name="Lobby").wait_for()
    await bob.get_by_role("link", name="Lobby").first.click()
    checked["lobby"] = await serious_violations(bob)
    await bob.get_by_role("button", name="Accept").click()
    await bob.wait_for_selector("#squares button")
    game_id = int(bob.url.rsplit("/", 1)[1])
    assert await bob.locator("#play h2").inner_text() == "You play Black"
    await ann.goto(str(site.make_url("/")))
    await ann.locator(f'a[href="/play/{game_id}"]').first.click()
    await ann.wait_for_selector("#squares button")
    assert await ann.locator("#play h2").inner_text() == "You play White"
    await until(ann, "document.querySelectorAll('#figures image').length > 0")
    checked["game"] = await serious_violations(ann)

    # to mate: White by clicks (a desk), Black by the keyboard (a phone)
    async def both_see(n: int) -> None:
        for pg in (ann, bob):
            await until(pg, "document.querySelectorAll('#moves li').length === arg", n)
    await click_move(ann, "f2", "f3")
    await both_see(1)
    await keyboard_move(bob, "e7", "e5")
    await both_see(2)
    await click_move(ann, "g2", "g4")
    await both_see(3)
    await keyboard_move(bob, "d8", "h4")
    await both_see(4)
    for pg in (ann, bob):
        await until(pg, "document.getElementById('banner').textContent.includes('Black wins')")
    assert (await svc.game(game_id)).result == "0-1"

    # both find it among the finished games; the PGN downloaded reads back
    for pg in (ann, bob):
        await pg.goto(str(site.make_url("/")))
        finished = pg.locator('section[aria-labelledby="finished"]')
        assert await finished.locator(f'a[href="/play/{game_id}"]').count() == 1
    await ann.goto(str(site.make_url(f"/play/{game_id}")))
    async with ann.expect_download() as got:
        await ann.get_by_role("link", name="Download PGN").click()
    download = await got.value
    pgn = chess.pgn.read_game(io.StringIO(Path(await download.path()).read_text()))
    assert [m.uci() for m in pgn.mainline_moves()] == ["f2f3", "e7e5", "g2g4", "d8h4"]
    assert pgn.headers["Result"] == "0-1"
    await bob.get_by_role("link", name="Your page").click()
    await bob.get_by_role("heading", name="Finished games").wait_for()
    assert await bob.locator(f'a[href="/play/{game_id}"]').count() == 1
    checked["player"] = await serious_violations(bob)
    assert all(not v for v in checked.values()), checked
