"""The game page in a real browser: Debian's Chromium driven by Playwright against the
server on 127.0.0.1. Skipped only where /usr/bin/chromium is absent and CI is not set."""

from __future__ import annotations

import io
import os

import pytest
from PIL import Image

from .conftest import new_game, path

CHROMIUM = "/usr/bin/chromium"
pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM) and not os.environ.get("CI"),
                                reason="no /usr/bin/chromium (CI installs it)")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture
async def page(client):
    from playwright.async_api import async_playwright
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        pg = await browser.new_page(viewport={"width": 1300, "height": 1000})
        pg.set_default_timeout(15000)
        yield pg
        await browser.close()


def url(client, game_id: int) -> str:
    return str(client.make_url(path(game_id)))


async def click_square(pg, square: str) -> None:
    """Click the middle of a square, found from the layout the page itself uses."""
    box = await pg.evaluate("""async (sq) => {
        const img = document.getElementById('board');
        const src = new URL(img.src);
        const lay = await (await fetch(src.pathname.replace('board.png', 'layout.json') + src.search)).json();
        const r = img.getBoundingClientRect(); const [x0, y0, x1, y1] = lay.squares[sq];
        return {x: r.left + (x0 + x1) / 2 * r.width / lay.width,
                y: r.top + (y0 + y1) / 2 * r.height / lay.height};
    }""", square)
    await pg.mouse.click(box["x"], box["y"])


async def board_shot(pg) -> Image.Image:
    await pg.wait_for_function("document.getElementById('board').complete")
    return Image.open(io.BytesIO(await pg.locator("#board").screenshot())).convert("RGB")


def not_blank(img: Image.Image) -> bool:
    colours = img.getcolors(1 << 20) or []
    return img.width > 300 and len(colours) > 50


async def line_texts(pg) -> list[str]:
    return await pg.locator("#line li").all_inner_texts()


async def test_step_through_the_game_and_see_move_marks(svc, client, page):
    view = await new_game(svc, "chess", ["e4", "e5", "Nf3"])
    await page.goto(url(client, view.id))
    await page.wait_for_selector("#moves li.current")
    assert await page.locator("#moves li").all_inner_texts() == ["e4", "e5", "Nf3"]
    await page.keyboard.press("ArrowLeft")
    await page.wait_for_selector('#moves li.current[data-ply="2"]')
    assert "ply=2" in await page.locator("#board").get_attribute("src")
    await page.locator('#moves li[data-ply="1"]').click()
    await page.wait_for_selector('#moves li.current[data-ply="1"]')
    before = await board_shot(page)
    await click_square(page, "g8")
    await page.wait_for_function("document.getElementById('board').src.includes('sel=g8')")
    marked = await board_shot(page)
    assert not_blank(before) and not_blank(marked)
    assert before.tobytes() != marked.tobytes()   # the Knight's moves are marked
    # a new move appears without a reload
    await page.keyboard.press("End")
    bob = await svc.player("test", "b", "Bob")
    await svc.move(view.id, bob.id, "Nc6")
    await page.wait_for_selector('#moves li.current[data-ply="4"]')
    assert (await page.locator("#moves li").all_inner_texts())[-1] == "Nc6"
    # the computer's evaluation and best line of the shown position
    from bot.web.server import EVALUATOR
    client.server.app[EVALUATOR].seconds = 0.2
    await page.locator("#evaluate").click()
    await page.wait_for_function("document.getElementById('eval').textContent.includes('depth')")
    assert "(for White)" in await page.locator("#eval").inner_text()


async def test_super_chess_cyclops_move_with_a_facing(svc, client, page):
    view = await new_game(svc, "superchess")
    await page.goto(url(client, view.id))
    await page.wait_for_selector("#board")
    await click_square(page, "d1")
    await page.wait_for_function("document.getElementById('board').src.includes('sel=d1')")
    await click_square(page, "d3")
    await page.wait_for_selector("#choices button")
    assert await page.locator("#choices button").count() == 8   # one per facing
    await page.locator('#choices button[data-lan="d1d3(NE)"]').click()
    await page.wait_for_function("document.querySelectorAll('#line li').length === 1")
    assert await line_texts(page) == ["Cd3(NE)"]
    await page.locator("#takeback").click()
    await page.wait_for_function("document.querySelectorAll('#line li').length === 0")
    assert (await svc.game(view.id)).ply == 0   # the real game is untouched
    assert not_blank(await board_shot(page))


async def test_ganymede_wall_move_clicked_on_its_other_square(svc, client, page):
    view = await new_game(svc, "ganymede")
    target = "c2"   # the Wall a2-b2 steps to b2-c2 (LAN a2b2-b2c2)
    await page.goto(url(client, view.id))
    await page.wait_for_selector("#board")
    await click_square(page, "b2")       # the Wall's other square
    await page.wait_for_function("document.getElementById('board').src.includes('sel=b2')")
    await click_square(page, target)
    await page.wait_for_function("document.querySelectorAll('#line li').length === 1")
    pos = await svc.position(view.id)
    assert await line_texts(page) == [pos.san(pos.parse("a2b2-b2c2"))]
    assert not_blank(await board_shot(page))


async def test_king_and_queen_drop_from_the_hand(svc, client, page):
    # a capture puts a piece in Black's hand (a seeded line found with the engine)
    view = await new_game(svc, "kingqueen", ["e2f3", "f7f1=+C", "d1f1=+C"])
    await page.goto(url(client, view.id))
    await page.wait_for_selector('#drops button[data-piece="N"]')
    await page.locator('#drops button[data-piece="N"]').click()
    await click_square(page, "d6")
    await page.wait_for_function("document.querySelectorAll('#line li').length === 1")
    pos = await svc.position(view.id)
    assert await line_texts(page) == [pos.san(pos.parse("N@d6"))]
    await page.wait_for_function("document.getElementById('board').src.includes('N%40d6')")
    assert not_blank(await board_shot(page))
    assert (await svc.game(view.id)).ply == 3
