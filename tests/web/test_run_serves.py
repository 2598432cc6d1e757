"""`fairypost run` serves the pages too when FAIRYPOST_WEB_PORT is set (the Discord client's
setup, with the command sync faked as tests/discord_bot does; no Discord connection)."""

import socket

import aiohttp

from bot.config import Settings
from bot.discord_bot.runner import FairyClient
from bot.identity import page_tokens as tokens
from tests.ports import free_port

from .conftest import new_game


async def test_run_serves_the_pages_only_with_a_port(tmp_path, monkeypatch):
    for port in (None, free_port()):
        settings = Settings(db_path=str(tmp_path / f"{port}.db"), web_port=port, web_secret="k")
        client = FairyClient(settings)

        async def fake_sync(*, guild=None):
            return []
        monkeypatch.setattr(client.tree, "sync", fake_sync)
        await client.setup_hook()
        try:
            if port is None:
                assert client.web is None
                continue
            game = await new_game(client.fairy.service, "chess", ["e4"])
            url = f"http://127.0.0.1:{port}/g/{game.id}/{tokens.sign(b'k', game.id)}/state.json"
            async with aiohttp.ClientSession() as http, http.get(url) as r:
                assert r.status == 200 and (await r.json())["moves"][0]["san"] == "e4"
        finally:
            await client.close()
        with socket.socket() as s:   # closed with the bot
            assert s.connect_ex(("127.0.0.1", port)) != 0


async def test_the_pages_alone_leave_the_opponents_notice_to_its_platform(tmp_path):
    """``fairypost web`` alone delivers nothing: a move played on a page leaves the
    opponent's "your move" for the process that serves their platform (Discord here)."""
    from bot.operations.service import GameService
    from bot.web.server import _LeaveNotices
    svc = await GameService.open(Settings(db_path=str(tmp_path / "g.db"), command_rate_per_minute=0),
                                 notifier=_LeaveNotices())
    try:
        alice = await svc.player("discord", "1", "Alice")
        bob = await svc.player("discord", "2", "Bob")
        ch = await svc.challenge(alice.id, "chess", opponent_id=bob.id, days=3, colour="white")
        game = await svc.accept_challenge(ch.id, bob.id)
        await svc.move(game.id, alice.id, "e4")
        async with svc.store.read() as tx:
            assert await tx.undelivered_events("your_move", bob.id)
    finally:
        await svc.close()
