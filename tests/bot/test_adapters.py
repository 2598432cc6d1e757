"""``fairypost run`` starts every configured adapter (bot/adapters.py): which ones are
configured, the message when none is, the game pages as an adapter of their own, and an
adapter that cannot start stopping the run with its reason."""

from __future__ import annotations

import socket

import aiohttp

from bot import adapters, cli
from bot.config import Settings
from bot.identity import page_tokens as tokens
from tests.ports import free_port


def test_the_configured_adapters_are_those_whose_settings_are_set():
    assert adapters.configured(Settings()) == []
    assert adapters.configured(Settings(discord_token="t")) == [adapters.DISCORD]
    assert adapters.configured(Settings(web_port=8080)) == [adapters.WEB]
    assert adapters.configured(Settings(discord_token="t", web_port=8080)) == [adapters.DISCORD, adapters.WEB]


def test_run_with_nothing_configured_says_what_to_set_and_starts_nothing(tmp_path, monkeypatch, capsys):
    for name in ("DISCORD_TOKEN", "FAIRYPOST_WEB_PORT", "FAIRYPOST_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("FAIRYPOST_DB", str(tmp_path / "games.db"))
    assert cli.main(["run"]) == 2
    err = capsys.readouterr().err
    assert "none is." in err and "DISCORD_TOKEN=" in err and "FAIRYPOST_WEB_PORT=" in err
    assert "discord.com/developers" in err and "fairypost play" in err
    assert not (tmp_path / "games.db").exists()


async def test_the_pages_alone_are_an_adapter_on_the_shared_service(tmp_path):
    port = free_port()
    settings = Settings(db_path=str(tmp_path / "g.db"), web_port=port, web_secret="k")
    host = await adapters.Host.open(settings, [adapters.WEB.make(settings)], reminders=False)
    try:
        assert [a.name for a in host.adapters] == ["web"]
        a = await host.service.player("terminal", "a", "A")
        b = await host.service.player("terminal", "b", "B")
        c = await host.service.challenge(a.id, "chess", opponent_id=b.id, colour="white")
        game = await host.service.accept_challenge(c.id, b.id)
        url = f"http://127.0.0.1:{port}/g/{game.id}/{tokens.sign(b'k', game.id)}/state.json"
        async with aiohttp.ClientSession() as http, http.get(url) as r:
            assert r.status == 200 and (await r.json())["id"] == game.id
    finally:
        await host.close()
    with socket.socket() as s:
        assert s.connect_ex(("127.0.0.1", port)) != 0  # stopped with the run


def test_an_adapter_that_cannot_start_stops_the_run_with_its_reason(tmp_path, capsys):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        settings = Settings(db_path=str(tmp_path / "g.db"), web_port=port, web_secret="k")
        assert adapters.main(settings) == 1
    assert f"cannot serve the game pages on 127.0.0.1:{port}" in capsys.readouterr().err


class _Recorder:
    """An adapter that records what the host lends it."""
    name, notifier = "recorder", None

    def __init__(self):
        self.computer = None

    async def start(self, service):
        self.service = service

    async def wait(self):
        pass

    async def stop(self):
        pass

    def use_computer(self, computer):
        self.computer = computer


async def test_the_host_lends_its_computer_to_the_adapters_for_hints_and_reviews(tmp_path):
    from bot.computer.player import Computer
    from bot.discord_bot.runner import DiscordAdapter
    settings = Settings(db_path=str(tmp_path / "g.db"), discord_token="t")
    recorder, computer = _Recorder(), Computer()
    host = await adapters.Host.open(settings, [recorder], computer=computer, reminders=False)
    try:
        assert recorder.computer is computer and recorder.service is host.service
        # the Discord adapter passes it to the commands' side (/hint, /review, typed hint)
        discord_adapter = DiscordAdapter(settings)
        fairy = discord_adapter.attach(host.service)
        assert fairy.computer is None
        discord_adapter.use_computer(computer)
        assert fairy.computer is computer
    finally:
        await host.close()
