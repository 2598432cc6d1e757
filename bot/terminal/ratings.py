"""``fairypost ratings [GAME] [--player NAME]``: ratings on the command line."""

from __future__ import annotations

import sys

from ..words.grammar import resolve_game
from ..words.rating_text import ratings_text
from .console import shown


async def show_ratings(settings, game: str | None, names: list[str]) -> int:
    """The exit status: 0, 1 (a player not found), 2 (no such game)."""
    from .play import open_service
    if game is not None:
        try:
            game = resolve_game(game)
        except ValueError as e:
            print(f"fairypost ratings: {e}", file=sys.stderr)
            return 2
    service = await open_service(settings)
    try:
        players = []
        for name in names:
            found = await service.players_named(name)
            if not found:
                print(f"fairypost ratings: no player is called {shown(name)}", file=sys.stderr)
                return 1
            players += found
        print(await ratings_text(service, game, players))
        return 0
    finally:
        await service.close()
