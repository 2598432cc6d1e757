"""A tournament's crosstable picture (render/crosstable.py) from the service's view of it,
its headings and subtitle in the reader's language (``m``'s; PLAIN: English)."""

from __future__ import annotations

from language import Language
from render.crosstable import Crosstable, Game, Player, crosstable_png

from ..words.text import PLAIN, Markup, days_text, game_name
from ..words.tournament_text import format_name
from .service import TournamentView


def crosstable_of(t: TournamentView, m: Markup = PLAIN) -> Crosstable:
    """The standings in order, and every game and bye by the players' places; the subtitle
    ("Chess · Swiss · round 2 of 3 · 3 days per move") in ``m``'s language."""
    place = {s.player.id: i for i, s in enumerate(t.standings)}
    players = [Player(s.player.name, s.points, s.tiebreaks, s.rating, s.withdrawn) for s in t.standings]
    games = [Game(p.round, place[p.white.id], None if p.black is None else place[p.black.id], p.result,
                  p.bye_points, p.decided is not None)
             for p in t.pairings if p.white.id in place and (p.black is None or p.black.id in place)]
    parts = [game_name(t.game, m), format_name(t, m)]
    if t.format == "swiss" and t.round:
        parts.append(m.tr("round {round} of {rounds}", round=t.round, rounds=t.rounds))
    parts.append(days_text(t.days, m))
    return Crosstable(t.name, t.format, players, games, rounds=t.rounds, tiebreak_names=t.tiebreak_names,
                      subtitle=" · ".join(parts), double=t.double)


def crosstable_picture(t: TournamentView, lang: Language | None = None) -> bytes:
    """The PNG, for a reader of ``lang`` (None: English)."""
    m = PLAIN.in_language(lang)
    return crosstable_png(crosstable_of(t, m), m.lang)
