"""``fairypost web`` and ``fairypost link GAME_ID [--side white|black]``."""

from __future__ import annotations

import sys

# the game-link helpers live in bot/identity/links.py (any adapter may import them); kept here too
from ..identity.links import base_url, game_link, link_suffix, player_link  # noqa: F401


async def link(settings, game_id: int, public: bool | None = None, side: str | None = None) -> int:
    """Print the game's URL; 1 (and why) if there is no such game. ``public`` True/False
    makes the game's plain URL work / stop working first (then that URL is printed).
    ``side`` ("white"/"black"): that player's own link instead, that plays their side."""
    from bot.domain.errors import NotFound
    from bot.operations.service import GameService
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
    if side:
        print(player_link(settings, game_id, side))
    elif public:
        print(f"{base_url(settings).rstrip('/')}/g/{game_id}")
    else:
        print(game_link(settings, game_id))
    return 0


async def serve(settings) -> int:
    from .server import serve as serve_pages
    return await serve_pages(settings)
