"""``fairypost web`` and ``fairypost link GAME_ID``."""

from __future__ import annotations

import sys

from . import tokens


def base_url(settings) -> str:
    """FAIRYPOST_WEB_URL, else the address the pages are served on."""
    return settings.web_url or f"http://{settings.web_host}:{settings.web_port or 8080}"


def game_link(settings, game_id: int) -> str:
    secret = tokens.load_secret(settings.web_secret, settings.db_path)
    return tokens.game_url(base_url(settings), secret, game_id)


async def link(settings, game_id: int, public: bool | None = None) -> int:
    """Print the game's URL; 1 (and why) if there is no such game. ``public`` True/False
    makes the game's plain URL work / stop working first (then that URL is printed)."""
    from bot.errors import NotFound
    from bot.service import GameService
    from bot.store import database_file
    file = database_file(settings.db_path)
    if file is not None and not file.exists():
        print(f"fairypost link: there is no database {settings.db_path}", file=sys.stderr)
        return 1
    service = await GameService.open(settings)
    try:
        await service.game(game_id)
        if public is not None:
            await service.set_public(game_id, public)
    except NotFound:
        print(f"fairypost link: there is no game #{game_id}", file=sys.stderr)
        return 1
    finally:
        await service.close()
    if public:
        print(f"{base_url(settings).rstrip('/')}/g/{game_id}")
    else:
        print(game_link(settings, game_id))
    return 0


async def serve(settings) -> int:
    from .server import serve as serve_pages
    return await serve_pages(settings)


def link_suffix(settings, game_id: int) -> str:
    """A new line with the game's page, for chat messages; "" unless FAIRYPOST_WEB_URL is set."""
    return f"\nGame page: <{game_link(settings, game_id)}>" if settings.web_url else ""
