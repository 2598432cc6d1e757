"""The game page in a real browser: Debian's Chromium driven by Playwright against the
server on 127.0.0.1. Skipped only where /usr/bin/chromium is absent and CI is not set.
The page's Content-Security-Policy forbids eval, so every wait is a function."""

from __future__ import annotations

import io
import os
import time

import pytest
from PIL import Image

from bot.identity import page_tokens as tokens

from .conftest import SECRET, new_game, path

CHROMIUM = "/usr/bin/chromium"
pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM) and not os.environ.get("CI"),
                                reason="no /usr/bin/chromium (CI installs it)")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture
async def browser(client):
    from playwright.async_api import async_playwright
    async with async_playwright() as pw:
        b = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        await b.close()


async def new_page(browser, width=1300, height=1000):
    ctx = await browser.new_context(viewport={"width": width, "height": height})
    pg = await ctx.new_page()
    # how long a wait may take before it fails: a page that comes at all comes in 2-3 s on
    # a quiet machine, but 15 s ran out for Chromium's first paint with the suite's two
    # workers beside other programs using every core (the checks of speed set their own)
    pg.set_default_timeout(60_000)
    pg.on("dialog", lambda d: d.accept())   # "Resign this game?"
    return pg


@pytest.fixture
async def page(browser):
    return await new_page(browser)


def url(client, game_id: int, side: str | None = None) -> str:
    if side is None:
        return str(client.make_url(path(game_id)))
    return str(client.make_url(f"/g/{game_id}/{tokens.sign_side(SECRET, game_id, side)}"))


async def until(pg, body: str, arg=None) -> None:
    await pg.wait_for_function(f"(arg) => {body}", arg=arg)


async def click_square(pg, square: str) -> None:
    await pg.locator(f'#squares button[data-square="{square}"]').click()


async def pick(pg, frm: str, to: str) -> None:
    """A piece, then (once its moves are marked) its target."""
    await click_square(pg, frm)
    await until(pg, "document.querySelectorAll('#squares button.target').length > 0")
    await click_square(pg, to)


async def board_shot(pg) -> Image.Image:
    """The board as the page shows it: the empty board with the figures and marks over it."""
    await until(pg, "document.getElementById('board').complete && "
                    "document.querySelectorAll('#figures image').length > 0")
    return Image.open(io.BytesIO(await pg.locator("#board-box").screenshot())).convert("RGB")


def not_blank(img: Image.Image) -> bool:
    colours = img.getcolors(1 << 20) or []
    return img.width > 300 and len(colours) > 50


async def line_texts(pg) -> list[str]:
    return await pg.locator("#line li").all_inner_texts()


async def ready(pg, ply: int) -> None:
    """The page shows the game at ``ply`` with its squares' buttons."""
    await until(pg, "document.querySelector(`#moves li.current[data-ply='${arg}']`) !== null || "
                    "(arg === 0 && document.querySelectorAll('#moves li.current').length === 0)", ply)
    await pg.wait_for_selector("#squares button")


async def test_step_through_the_game_and_see_move_marks(svc, client, page):
    view = await new_game(svc, "chess", ["e4", "e5", "Nf3"])
    await page.goto(url(client, view.id))
    await ready(page, 3)
    assert await page.locator("#moves li").all_inner_texts() == ["e4", "2.\xa0Nf3"] or \
        [t.split()[-1] for t in await page.locator("#moves li").all_inner_texts()] == ["e4", "e5", "Nf3"]
    await page.keyboard.press("ArrowLeft")
    await page.wait_for_selector('#moves li.current[data-ply="2"]')
    await page.wait_for_selector('#squares button[aria-label="e5 Black Pawn"]')
    await page.locator('#moves li[data-ply="1"]').click()
    await page.wait_for_selector('#moves li.current[data-ply="1"]')
    # every square is a button named by its square first
    assert await page.locator("#squares button").count() == 64
    assert await page.get_by_role("button", name="g8 Black Knight").count() == 1
    await click_square(page, "g8")
    await until(page, "document.querySelectorAll('#squares button.target').length === 2")
    assert sorted(await page.locator("#squares button.target").evaluate_all(
        "bs => bs.map(b => b.dataset.square)")) == ["f6", "h6"]
    # drawn over the board: the chosen square washed, a dot on each target a third of a
    # square across and more (render/README "Marks"), the last move's two squares framed
    dots = await page.locator("#figures circle").evaluate_all("cs => cs.map(c => +c.getAttribute('r'))")
    assert len(dots) == 2 and all(2 * r >= 56 / 3 for r in dots)
    frames = await page.locator("#figures rect[stroke]").count()
    assert frames == 2
    assert not_blank(await board_shot(page))
    # browser shortcuts with a modifier are left to the browser
    await page.keyboard.press("Alt+ArrowLeft")
    await page.keyboard.press("Control+f")
    assert await page.locator('#moves li.current[data-ply="1"]').count() == 1
    # a new move appears without a reload
    await page.keyboard.press("End")
    bob = await svc.player("test", "b", "Bob")
    await svc.move(view.id, bob.id, "Nc6")
    await page.wait_for_selector('#moves li.current[data-ply="4"]')
    assert (await page.locator("#moves li").all_inner_texts())[-1] == "Nc6"
    # the computer's evaluation and best line of the shown position
    from bot.web.server import EVALUATOR
    client.server.app[EVALUATOR].seconds = 0.2
    await page.locator("#evaluate").click()   # not while a game between people is on: it says why
    await until(page, "document.getElementById('eval').textContent.includes('between people')")
    await svc.resign(view.id, bob.id)
    await until(page, "document.getElementById('status').textContent.includes('resign')")
    await page.locator("#evaluate").click()
    await until(page, "document.getElementById('eval').textContent.includes('depth')")
    assert "(for White)" in await page.locator("#eval").inner_text()


async def test_super_chess_cyclops_move_with_a_facing(svc, client, page):
    view = await new_game(svc, "superchess")
    await page.goto(url(client, view.id))
    await ready(page, 0)
    await click_square(page, "d1")
    await until(page, "document.querySelectorAll('#squares button.target').length > 0")
    await click_square(page, "d3")
    await page.wait_for_selector("#choices button")
    assert await page.locator("#choices button").count() == 8   # one per facing
    await page.locator('#choices button[data-lan="d1d3(NE)"]').click()
    await until(page, "document.querySelectorAll('#line li').length === 1")
    assert await line_texts(page) == ["1.\xa0Cd3(NE)"] or (await line_texts(page))[0].endswith("Cd3(NE)")
    await page.locator("#takeback").click()
    await until(page, "document.querySelectorAll('#line li').length === 0")
    assert (await svc.game(view.id)).ply == 0   # the real game is untouched
    assert not_blank(await board_shot(page))


async def test_ganymede_wall_move_clicked_on_its_other_square(svc, client, page):
    view = await new_game(svc, "ganymede")
    await page.goto(url(client, view.id))
    await ready(page, 0)
    await click_square(page, "b2")       # the Wall's other square
    await until(page, "document.querySelectorAll('#squares button.target').length > 0")
    await click_square(page, "c2")       # the Wall a2-b2 steps to b2-c2 (LAN a2b2-b2c2)
    await until(page, "document.querySelectorAll('#line li').length === 1")
    pos = await svc.position(view.id)
    assert (await line_texts(page))[0].endswith(pos.san(pos.parse("a2b2-b2c2")))


async def test_king_and_queen_drop_targets_marked(svc, client, page):
    # a capture puts a piece in Black's hand (a seeded line found with the engine)
    view = await new_game(svc, "kingqueen", ["e2f3", "f7f1=+C", "d1f1=+C"])
    await page.goto(url(client, view.id))
    await page.wait_for_selector('#drops button[data-piece="N"]')
    await page.locator('#drops button[data-piece="N"]').click()
    pos = await svc.position(view.id)
    drops = sorted(pos.game.geometry.names[m.to] for m in pos.legal_moves() if m.lan.startswith("N@"))
    await until(page, "document.querySelectorAll('#squares button.place').length > 0")
    assert sorted(await page.locator("#squares button.place").evaluate_all(
        "bs => bs.map(b => b.dataset.square)")) == drops
    await click_square(page, "d6")
    await until(page, "document.querySelectorAll('#line li').length === 1")
    assert (await line_texts(page))[0].endswith(pos.san(pos.parse("N@d6")))
    assert (await svc.game(view.id)).ply == 3


async def test_side_lines_numbered_by_real_move_numbers(svc, client, page):
    view = await new_game(svc, "chess", ["e4", "e5", "Nf3"])
    await page.goto(url(client, view.id))
    await ready(page, 3)
    await pick(page, "b8", "c6")
    await until(page, "document.querySelectorAll('#line li').length === 1")
    await pick(page, "f1", "b5")
    await until(page, "document.querySelectorAll('#line li').length === 2")
    numbers = await page.locator("#line li").evaluate_all("ls => ls.map(l => l.dataset.n || '')")
    assert numbers == ["2…", "3."]


async def test_a_takeback_under_an_open_side_line_is_recovered_from(svc, client, page):
    view = await new_game(svc, "chess", ["e4", "e5", "Nf3", "Nc6"])
    alice = await svc.player("test", "a")
    bob = await svc.player("test", "b")
    await page.goto(url(client, view.id))
    await ready(page, 4)
    await pick(page, "f1", "b5")
    await until(page, "document.querySelectorAll('#line li').length === 1")
    await svc.ask_takeback(view.id, bob.id)
    await svc.accept_takeback(view.id, alice.id)
    await svc.move(view.id, bob.id, "a6")
    # the page follows by itself: the game's moves, the line gone, clicks working again
    await until(page, "[...document.querySelectorAll('#moves li')].at(-1)?.textContent === 'a6'")
    await until(page, "document.querySelectorAll('#line li').length === 0")
    await click_square(page, "f1")
    await until(page, "document.querySelectorAll('#squares button.target').length === 5")
    from bot.web.server import EVALUATOR
    client.server.app[EVALUATOR].seconds = 0.1
    await page.locator("#evaluate").click()
    await until(page, "!document.getElementById('eval').textContent.includes('thinking')")


async def test_a_closed_public_link_stops_the_open_page(svc, client, page):
    view = await new_game(svc, "chess", ["e4"])
    await svc.set_public(view.id, True)
    await page.goto(str(client.make_url(f"/g/{view.id}/public")))
    await ready(page, 1)
    await svc.set_public(view.id, False)
    await until(page, "document.getElementById('status').textContent.includes('no longer')")
    assert await page.locator("#squares button").count() == 0


async def test_a_move_by_another_process_shows_within_a_second(svc, client, page, tmp_path):
    """Another service on the same database file (its own connection, as another process
    has) makes the move: the page hears it through SQLite's data version."""
    import random
    from datetime import UTC, datetime

    from bot.config import Settings
    from bot.operations.service import GameService
    from bot.timekeeping.clock import ManualClock
    view = await new_game(svc, "chess", ["e4"])
    await page.goto(url(client, view.id))
    await ready(page, 1)
    other = await GameService.open(Settings(db_path=str(tmp_path / "games.db"), command_rate_per_minute=0),
                                   clock=ManualClock(datetime(2026, 1, 5, 13, tzinfo=UTC)),
                                   rng=random.Random(2))
    try:
        bob = await other.player("test", "b")
        began = time.monotonic()
        await other.move(view.id, bob.id, "c5")
        await page.wait_for_selector('#moves li.current[data-ply="2"]', timeout=3000)
        assert time.monotonic() - began < 1.0
    finally:
        await other.close()


async def test_two_players_play_a_game_to_its_end_by_clicking(svc, client, browser):
    view = await new_game(svc, "chess")
    white, black = await new_page(browser), await new_page(browser, 400, 800)   # a desk, a phone
    await white.goto(url(client, view.id, "w"))
    await black.goto(url(client, view.id, "b"))
    for pg in (white, black):
        await ready(pg, 0)
    assert await white.locator("#play h2").inner_text() == "You play White"

    async def move(pg, frm, to, ply):
        await pick(pg, frm, to)
        for p in (white, black):
            await until(p, "document.querySelectorAll('#moves li').length === arg", ply)

    await move(white, "f2", "f3", 1)
    # a draw offered and declined, a takeback asked and granted
    await white.get_by_role("button", name="offer a draw").click()
    await black.wait_for_selector('#offers button[data-action="decline_draw"]')
    await black.locator('#offers button[data-action="decline_draw"]').click()
    await until(white, "document.getElementById('offers').textContent === ''")
    await white.get_by_role("button", name="ask to take back").click()
    await black.locator('#offers button[data-action="accept_takeback"]').click()
    for p in (white, black):
        await until(p, "document.querySelectorAll('#moves li').length === 0")
    assert (await svc.game(view.id)).ply == 0
    await move(white, "f2", "f3", 1)
    await move(black, "e7", "e5", 2)
    # a typed move: the text box labelled Move, sent with Enter
    await white.get_by_role("textbox", name="Move", exact=True).fill("g4")
    await white.get_by_role("textbox", name="Move", exact=True).press("Enter")
    for p in (white, black):
        await until(p, "document.querySelectorAll('#moves li').length === 3")
    # a move out of turn is refused, with the reason shown
    await black.get_by_role("textbox", name="Move", exact=True).fill("Qh4#")
    await white.get_by_role("textbox", name="Move", exact=True).fill("a3")
    await white.get_by_role("textbox", name="Move", exact=True).press("Enter")
    await until(white, "document.getElementById('play-error').textContent.length > 0")
    await move(black, "d8", "h4", 4)
    for p in (white, black):
        await until(p, "document.getElementById('banner').textContent.includes('Black wins')")
        assert not await p.locator("#banner").is_hidden()
    done = await svc.game(view.id)
    assert done.status != "active" and done.result == "0-1"
    # the board's buttons still match the picture (no banner shifts it)
    box = await black.locator("#board").bounding_box()
    sq = await black.locator('#squares button[data-square="a1"]').bounding_box()
    assert box["x"] <= sq["x"] < box["x"] + box["width"] and box["y"] <= sq["y"] < box["y"] + box["height"]


async def test_a_player_resigns_and_a_watcher_cannot_play(svc, client, browser):
    view = await new_game(svc, "chess", ["e4"])
    black, watcher = await new_page(browser), await new_page(browser)
    await black.goto(url(client, view.id, "b"))
    await watcher.goto(url(client, view.id))
    await ready(black, 1)
    await ready(watcher, 1)
    assert await watcher.locator("#play").count() == 0
    r = await watcher.request.post(url(client, view.id) + "/move", data={"text": "e5", "ply": 1})
    assert r.status == 403
    await black.get_by_role("button", name="resign").click()
    await until(watcher, "document.getElementById('banner').textContent.includes('resigned')")
    assert (await svc.game(view.id)).result == "1-0"


SPECIALS = [
    # game, moves before, the side to click, clicks, the choice's LAN (None: one move), LAN played
    ("chess", ["a4", "b5", "axb5", "a6", "bxa6", "Bb7", "axb7", "Nc6"], "w", ["b7", "a8"],
     "b7a8=N", "b7a8=N"),
    ("ganymede", [], "w", ["b2", "c2"], None, "a2b2-b2c2"),
    ("ganymede", [], "w", ["f3", "f2"], "f3f2(L)", "f3f2(L)"),
    ("superchess", [], "w", ["d1", "d3"], "d1d3(NE)", "d1d3(NE)"),
    ("superchess", ["j2j3", "d10d8(SW)", "g1f3", "j9j7", "f3h4", "c9c8", "j1h3", "d8c7(W)",
                    "h4j6", "c7(NW)"], "w", ["j6", "j10"], None, "j6^j10"),
    ("kingqueen", ["e2f3", "f7f1=+C", "d1f1=+C"], "b", ["drop:N", "d6"], None, "N@d6"),
    # the Gigachess II King's one jump of two squares (a (2,1) jump)
    ("gigachess2", ["n3n4", "c12c11", "i4i6", "h12g10"], "w", ["h2", "i4"], None, "h2i4"),
    # a Grand Ducal Pawn's promotion, to a Mann only (no choice to make)
    ("grandducal", ["c2c4", "j8i6", "c4c5", "i6i5", "c5c6", "c8b6", "b2b4", "i5i6", "a2a4", "b6d6",
                    "b4b5", "d6b5", "c6d7", "b5d6"], "w", ["d7", "e8"], None, "d7e8=M"),
]


@pytest.mark.parametrize("game,before,side,clicks,choice,lan", SPECIALS,
                         ids=[f"{s[0]}-{s[5]}" for s in SPECIALS])
async def test_special_moves_made_by_clicking(svc, client, page, game, before, side, clicks,
                                              choice, lan):
    view = await new_game(svc, game, before)
    await page.goto(url(client, view.id, side))
    await ready(page, len(before))
    if clicks[0].startswith("drop:"):
        await page.locator(f'#drops button[data-piece="{clicks[0][5:]}"]').click()
        await until(page, "document.querySelectorAll('#squares button.place').length > 0")
        await click_square(page, clicks[1])
    else:
        await pick(page, *clicks)
    if choice:
        await page.locator(f'#choices button[data-lan="{choice}"]').click()
    await until(page, "document.querySelectorAll('#moves li').length === arg", len(before) + 1)
    assert (await svc.game(view.id)).moves[-1].lan == lan


async def test_the_set_up_phase_by_clicking(svc, client, page):
    alice = await svc.player("test", "a", "Alice")
    bob = await svc.player("test", "b", "Bob")
    ch = await svc.challenge(alice.id, "superchess", opponent_id=bob.id, days=3, colour="white",
                             setup="players")
    view = await svc.accept_challenge(ch.id, bob.id)
    assert view.in_setup
    await page.goto(url(client, view.id, "w"))
    await ready(page, 0)
    await click_square(page, "c2")
    await until(page, "document.querySelectorAll('#squares button.place').length > 0")
    await click_square(page, "h2")
    await until(page, "document.querySelectorAll('#moves li').length === 1")
    assert (await svc.game(view.id)).moves[-1].lan in ("S@c2,S@h2", "S@h2,S@c2")


class Network:
    """What the page fetched over the network, as Chromium counts it (CDP): each request's
    address and the bytes it took (headers and body as received); a response served from
    the browser's cache counts 0."""

    def __init__(self):
        self.urls: dict[str, str] = {}
        self.bytes: dict[str, int] = {}
        self.cached: set[str] = set()

    @classmethod
    async def watch(cls, pg) -> Network:
        net = cls()
        cdp = await pg.context.new_cdp_session(pg)
        await cdp.send("Network.enable")
        cdp.on("Network.requestWillBeSent", lambda e: net.urls.__setitem__(e["requestId"], e["request"]["url"]))
        cdp.on("Network.requestServedFromCache", lambda e: net.cached.add(e["requestId"]))
        cdp.on("Network.loadingFinished",
               lambda e: net.bytes.__setitem__(e["requestId"], int(e["encodedDataLength"])))
        return net

    def clear(self) -> None:
        self.urls.clear(), self.bytes.clear(), self.cached.clear()

    def fetched(self, part: str) -> list[int]:
        """The bytes of each finished request whose address has ``part``, from the cache: 0."""
        return [0 if rid in self.cached else n for rid, n in self.bytes.items()
                if part in self.urls.get(rid, "")]

    def total(self) -> int:
        return sum(0 if rid in self.cached else n for rid, n in self.bytes.items()
                   if "/events" not in self.urls.get(rid, ""))


async def test_one_board_download_per_view_then_a_few_kilobytes_a_step(svc, client, browser, capsys):
    """Gigachess II (14 x 14, the largest board): the page downloads the empty board and the
    game's figures once; a replay step and a move then cost a few KB of JSON each, never
    a board picture; a second view takes both pictures from the browser's cache."""
    view = await new_game(svc, "gigachess2", ["n3n4", "c12c11", "i4i6", "h12g10"])
    pg = await new_page(browser)
    net = await Network.watch(pg)
    await pg.goto(url(client, view.id, "w"))
    await ready(pg, 4)
    await board_shot(pg)
    faces, sheets = net.fetched("/face.png"), net.fetched("/pieces.webp")
    assert len(faces) == 1 and len(sheets) == 1 and net.fetched("board.png") == []
    first = net.total()

    async def drawn(ply: int, square: str, side: str) -> None:
        await until(pg, "document.querySelector(`#moves li.current[data-ply='${arg}']`) !== null || "
                        "(arg === 0 && !document.querySelector('#moves li.current'))", ply)
        await pg.wait_for_selector(f'#squares button[aria-label^="{square} {side} "]')
        await until(pg, "document.querySelectorAll('#figures image').length > 0")

    net.clear()   # a replay step: the position's JSON only
    await pg.keyboard.press("ArrowLeft")
    await drawn(3, "h12", "Black")
    step = net.fetched("board.json")
    assert len(step) == 1 and net.fetched(".png") == [] and net.fetched(".webp") == []
    assert step[0] < 8_000 and net.total() == step[0]
    await pg.keyboard.press("End")
    await drawn(4, "g10", "Black")
    net.clear()   # a move played by clicking: the piece's moves, the move, the new position
    await pick(pg, "a3", "a4")
    await until(pg, "document.querySelectorAll('#moves li').length === 5")
    await drawn(5, "a4", "White")
    assert net.fetched(".png") == [] and net.fetched(".webp") == [] and net.total() < 8_000
    moved = net.total()
    net.clear()   # the page again (F5): both pictures from the cache
    await pg.reload()
    await ready(pg, 5)
    await board_shot(pg)
    assert sum(net.fetched("/face.png")) == 0 and sum(net.fetched("/pieces.webp")) == 0
    with capsys.disabled():
        print(f"\nGigachess II page: first view {first} B (empty board {faces[0]} B, figures "
              f"{sheets[0]} B); a replay step {step[0]} B; a move {moved} B; "
              f"the view again {net.total()} B")


async def test_without_its_script_the_page_shows_the_servers_picture(svc, client, browser):
    view = await new_game(svc, "superchess", ["d1d3(NE)"])
    ctx = await browser.new_context(java_script_enabled=False)
    pg = await ctx.new_page()
    got = []
    pg.on("response", lambda r: got.append((r.url, r.status)) if "board.png" in r.url else None)
    await pg.goto(url(client, view.id))
    img = pg.locator('img[alt="the board"]')
    await img.wait_for()
    assert await img.evaluate("i => i.complete && i.naturalWidth") == 600
    assert [s for _, s in got] == [200] and f"v={view.version}&ply=1" in got[0][0]
    await ctx.close()


ELSEWHERE = """<!doctype html><title>elsewhere</title>
<form id="form" method="POST" action="{move}" enctype="text/plain">
<input name='{{"text": "e5", "ply": 1, "x": "' value='"}}'></form>
<script>
const move = "{move}", body = JSON.stringify({{text: "e5", ply: 1}});
Promise.allSettled([
  fetch(move, {{method: "POST", mode: "no-cors", body}}),
  fetch(move, {{method: "POST", mode: "no-cors", body, headers: {{"Content-Type": "application/json"}}}}),
  fetch(move, {{method: "POST", body, headers: {{"Content-Type": "application/json"}}}}),
]).then(() => {{ document.title = "sent"; }});
</script>"""


async def test_a_page_on_another_site_cannot_play_a_players_move(svc, client, browser):
    """Black has the game open; a page elsewhere, in the same browser, posts Black's move by
    a text/plain form, no-cors fetches and a CORS fetch: each is refused, none is played."""
    from aiohttp import web

    from tests.ports import free_port
    view = await new_game(svc, "chess", ["e4"])
    move = url(client, view.id, "b") + "/move"
    async def elsewhere_page(request):
        return web.Response(text=ELSEWHERE.format(move=move), content_type="text/html")
    app = web.Application()
    app.router.add_get("/", elsewhere_page)
    runner = web.AppRunner(app)
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    try:
        black = await new_page(browser)
        await black.goto(url(client, view.id, "b"))
        await ready(black, 1)
        # another site (localhost), and another origin of the same site (another port)
        for elsewhere in (f"http://localhost:{port}/", f"http://127.0.0.1:{port}/"):
            pg = await new_page(browser)
            answers = []
            pg.on("response", lambda r, answers=answers: answers.append(r.status) if r.url == move else None)
            await pg.goto(elsewhere)
            await until(pg, "document.title === 'sent'")
            async with pg.expect_navigation():
                await pg.evaluate("() => document.getElementById('form').submit()")
            assert "another site" in await pg.locator("body").inner_text()
            assert len(answers) == 3 and set(answers) <= {403, 415}, answers   # the CORS one: no POST
            assert (await svc.game(view.id)).ply == 1, elsewhere
        # Black's own page still plays
        await black.locator("#move-text").fill("e5")
        await black.locator("#move-text").press("Enter")
        await ready(black, 2)
    finally:
        await runner.cleanup()
    assert (await svc.game(view.id)).ply == 2
