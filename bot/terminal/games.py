"""The games played in the terminal, as a list (``fairypost games`` and the ``games``
command)."""

from __future__ import annotations

from ..operations.service import COMPUTER, GameService
from ..words import text
from ..words.text import PLAIN, Markup

PLATFORM = "terminal"


async def terminal_games(service: GameService, *, active_only: bool = False):
    """Summaries of the games between terminal players, and of terminal players against
    the computer, newest first (each once, as White's player or the human sees it)."""
    found = {}
    for p in await service.players_on(PLATFORM):
        for s in await service.list_games(p.id, include_finished=not active_only):
            if {s.white.platform, s.black.platform} <= {PLATFORM, COMPUTER} \
                    and (s.my_side == "w" or s.opponent.platform == COMPUTER):
                found[s.id] = s
    return [found[i] for i in sorted(found, reverse=True)]


async def games_text(service: GameService, *, m: Markup = PLAIN) -> str:
    """The list, for the reader of ``m`` (the command lines in it are typed: as they are)."""
    games = await terminal_games(service)
    if not games:
        return m.tr("No games yet. Start one with: {command}", command="fairypost play GAME")
    lines = [text.both_sides_line(s, m) for s in games]
    if any(s.status == "active" for s in games):
        lines.append(m.tr("Resume one with: {command} (without {id}: the newest)",
                          command="fairypost play --resume ID", id="ID"))
    return "\n".join(lines)
