"""``fairypost ratings [GAME] [--player NAME]``: ratings on the command line."""

from __future__ import annotations

import os
import sys

from language import from_environment

from ..words.grammar import problem_of, resolve_game
from ..words.rating_text import ratings_text
from ..words.text import PLAIN
from .console import shown


async def show_ratings(settings, game: str | None, names: list[str]) -> int:
    """The exit status: 0, 1 (a player not found), 2 (no such game)."""
    from .play import open_service
    m = PLAIN.in_language(from_environment(os.environ))  # no player reads it: the terminal's language
    if game is not None:
        try:
            game = resolve_game(game)
        except ValueError as e:
            print(f"fairypost ratings: {m.say(problem_of(e))}", file=sys.stderr)
            return 2
    service = await open_service(settings)
    try:
        players = []
        for name in names:
            found = await service.players_named(name)
            if not found:
                print("fairypost ratings: " + m.tr("no player is called {name}", name=shown(name)), file=sys.stderr)
                return 1
            players += found
        print(await ratings_text(service, game, players, m))
        return 0
    finally:
        await service.close()
