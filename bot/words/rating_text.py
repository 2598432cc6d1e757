"""Ratings as text, in any adapter's markup: a game's leaderboard (or every game's that has
one) and some players' own ratings. The terminal, ``fairypost ratings`` and typed
``ratings`` commands say it so; Discord's /ratings puts the same lines in an embed."""

from __future__ import annotations

import rules

from ..operations.ratings import leaderboard_lines, own_lines
from .text import PLAIN, Markup, game_name


async def ratings_text(service, game: str | None, players=(), m: Markup = PLAIN) -> str:
    """``game``'s leaderboard (None: every game's that has one), then each of ``players``'
    own ratings (in ``game`` only, if given)."""
    lines = []
    for g in [game] if game else rules.variants():
        board = await service.leaderboard(g)
        if board or game:
            lines.append(m.tr("Ratings, {game}:", game=game_name(g, m)))
            ranked = leaderboard_lines(board, m.escape, lang=m.lang)
            lines += ["  " + line for line in ranked] or ["  " + m.tr("no rated game yet")]
    if not lines:
        lines.append(m.tr("No rated game has been played yet."))
    for p in players:
        mine = [r for r in await service.player_ratings(p.id) if game is None or r.game == game]
        ratings = "; ".join(own_lines(mine, lambda g: game_name(g, m), lang=m.lang)) or m.tr("no rating yet")
        lines.append(f"{m.escape(p.name)}: {ratings}")
    # the English of bot/operations/ratings.py's PROVISIONAL_NOTE, in the reader's language
    lines.append(m.tr("A ? marks a provisional rating (too few recent rated games to be sure of it)."))
    return m.lines(lines)
