"""Ratings as text: ``fairypost ratings [GAME]`` and the session's ``ratings`` command."""

from __future__ import annotations

import sys

import rules

from ..rating_service import PROVISIONAL_NOTE, leaderboard_lines, own_lines
from ..service import GameService
from .console import escaped, shown


def _name(game: str) -> str:
    return rules.game(game).name


async def ratings_text(service: GameService, game: str | None, players=()) -> str:
    """A game's leaderboard (no game: every game's that has one), then each of
    ``players``' own ratings (in ``game`` only, if given)."""
    lines = []
    for g in [game] if game else rules.variants():
        board = await service.leaderboard(g)
        if board or game:
            lines.append(f"Ratings, {_name(g)}:")
            lines += ["  " + line for line in leaderboard_lines(board, escaped)] or ["  no rated game yet"]
    if not lines:
        lines.append("No rated game has been played yet.")
    for p in players:
        mine = [r for r in await service.player_ratings(p.id) if game is None or r.game == game]
        lines.append(f"{escaped(p.name)}: " + ("; ".join(own_lines(mine, _name)) or "no rating yet"))
    lines.append(PROVISIONAL_NOTE)
    return "\n".join(lines)


async def show_ratings(settings, game: str | None, names: list[str]) -> int:
    """``fairypost ratings [GAME] [--player NAME]``: the exit status."""
    from .play import open_service
    from .session import resolve_game
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
