"""Links to a game's web page, for any adapter's messages (Discord, email, the terminal):
the signed address (bot/web/tokens.py) on the configured base URL."""

from __future__ import annotations

from .web import tokens


def base_url(settings) -> str:
    """FAIRYPOST_WEB_URL, else the address the pages are served on."""
    return settings.web_url or f"http://{settings.web_host}:{settings.web_port or 8080}"


def game_link(settings, game_id: int) -> str:
    secret = tokens.load_secret(settings.web_secret, settings.db_path)
    return tokens.game_url(base_url(settings), secret, game_id)


def link_suffix(settings, game_id: int) -> str:
    """A new line with the game's page, for chat messages; "" unless FAIRYPOST_WEB_URL is set."""
    return f"\nGame page: <{game_link(settings, game_id)}>" if settings.web_url else ""
