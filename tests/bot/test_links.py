"""Game links are a neutral helper (bot/identity/links.py): no adapter reaches into another
adapter for them, and ``bot.web.cli`` still offers them to those that imported them there."""

from __future__ import annotations

from types import SimpleNamespace

from bot.identity import links
from bot.identity import page_tokens as tokens
from bot.web import cli as web_cli

from .test_import_graph import import_graph

ADAPTERS = ("bot.discord_bot", "bot.terminal", "bot.web", "bot.email")
# wiring, not words: Discord's runner starts the game pages' server beside the bot
STARTS_ANOTHER = {("bot.discord_bot.runner", "bot.web.server")}


def settings(tmp_path, web_url):
    return SimpleNamespace(web_url=web_url, web_host="127.0.0.1", web_port=8099,
                           web_secret="s3cret", db_path=str(tmp_path / "f.db"))


def test_link_is_signed_on_the_base_url(tmp_path):
    s = settings(tmp_path, "https://chess.example/")
    url = links.game_link(s, 12)
    assert url == f"https://chess.example/g/12/{tokens.sign(b's3cret', 12)}"
    assert links.link_suffix(s, 12) == f"\nGame page: <{url}>"


def test_a_players_own_link_plays_their_side(tmp_path):
    s = settings(tmp_path, "https://chess.example/")
    for side, letter in (("white", "w"), ("b", "b")):
        url = links.player_link(s, 12, side)
        token = url.rsplit("/", 1)[1]
        assert url.startswith("https://chess.example/g/12/")
        assert tokens.role(b"s3cret", 12, token) == letter and tokens.role(b"s3cret", 13, token) is None
        assert url in links.link_suffix(s, 12, letter)
    assert tokens.role(b"s3cret", 12, tokens.sign(b"s3cret", 12)) == ""   # the watching link


def test_no_suffix_without_a_web_url_but_a_link_on_the_served_address(tmp_path):
    s = settings(tmp_path, None)
    assert links.link_suffix(s, 3) == ""
    assert links.game_link(s, 3).startswith("http://127.0.0.1:8099/g/3/")


def test_web_cli_re_exports_the_same_helpers():
    assert web_cli.link_suffix is links.link_suffix
    assert web_cli.game_link is links.game_link
    assert web_cli.base_url is links.base_url


def test_no_adapter_imports_another_adapter():
    graph = import_graph(())
    def adapter(module: str) -> str | None:
        return next((a for a in ADAPTERS if module == a or module.startswith(a + ".")), None)
    crossing = sorted((m, t) for m, targets in graph.items() for t in targets
                      if adapter(m) and adapter(t) and adapter(m) != adapter(t)
                      and (m, t) not in STARTS_ANOTHER)
    assert crossing == []
