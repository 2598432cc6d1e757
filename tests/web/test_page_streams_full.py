"""A page refused its live stream (the server's cap on open streams, FAIRYPOST_WEB_MAX_STREAMS)
keeps working: it reads the game itself 20-40 s later and asks for the stream again (the
browser's clock is Playwright's: no waiting)."""

from __future__ import annotations

import asyncio

from bot.web.server import STREAMS

from .conftest import new_game
from .test_browser import browser, new_page, pytestmark, ready, url  # noqa: F401


async def _until(condition) -> None:
    while not condition():
        await asyncio.sleep(0.01)


async def test_a_page_refused_its_stream_reads_the_game_and_tries_again_later(svc, client, browser):  # noqa: F811
    slots = client.server.app[STREAMS]
    slots.total = 1
    view = await new_game(svc, "chess", ["e4"])
    first = await new_page(browser)
    await first.goto(url(client, view.id))
    await ready(first, 1)
    await asyncio.wait_for(_until(lambda: slots.open == 1), 10)
    second = await new_page(browser)
    await second.clock.install()
    streams: list[int] = []
    # the stream's address carries the page's language (?lang=): its path is what says it is one
    second.on("response", lambda r: streams.append(r.status) if r.url.split("?")[0].endswith("/events") else None)
    await second.goto(url(client, view.id))
    await ready(second, 1)
    await asyncio.wait_for(_until(lambda: streams == [503]), 10)
    await svc.move(view.id, (await svc.player("test", "b")).id, "e5")
    await first.wait_for_selector('#moves li.current[data-ply="2"]')  # the first page is live
    assert await second.locator('#moves li[data-ply="2"]').count() == 0
    await second.clock.fast_forward(41_000)
    await second.wait_for_selector('#moves li.current[data-ply="2"]')  # read by itself
    await asyncio.wait_for(_until(lambda: len(streams) == 2), 10)
    assert streams == [503, 503]  # asked again: still full
    await first.close()  # its page closed: its slot is free at once
    await asyncio.wait_for(_until(lambda: slots.open == 0), 10)
    await second.clock.fast_forward(41_000)
    await asyncio.wait_for(_until(lambda: streams[-1:] == [200]), 10)
    await asyncio.wait_for(_until(lambda: slots.open == 1), 10)
    await svc.move(view.id, (await svc.player("test", "a")).id, "Nf3")
    await second.wait_for_selector('#moves li.current[data-ply="3"]')  # live again
