"""A tournament's crosstable picture (render/crosstable.py) from the service's view of it."""

from __future__ import annotations

from language import ENGLISH, Language
from render.crosstable import Crosstable, Game, Player, crosstable_png

from ..words.text import days_text, game_name
from ..words.tournament_text import FORMAT_NAMES
from .service import TournamentView


def crosstable_of(t: TournamentView) -> Crosstable:
    """The standings in order, and every game and bye by the players' places."""
    place = {s.player.id: i for i, s in enumerate(t.standings)}
    players = [Player(s.player.name, s.points, s.tiebreaks, s.rating, s.withdrawn) for s in t.standings]
    games = [Game(p.round, place[p.white.id], None if p.black is None else place[p.black.id], p.result,
                  p.bye_points, p.decided is not None)
             for p in t.pairings if p.white.id in place and (p.black is None or p.black.id in place)]
    kind = FORMAT_NAMES[t.format] + (" (double)" if t.double else "")
    progress = f" · round {t.round} of {t.rounds}" if t.format == "swiss" and t.round else ""
    subtitle = f"{game_name(t.game)} · {kind}{progress} · {days_text(t.days)}"
    return Crosstable(t.name, t.format, players, games, rounds=t.rounds, tiebreak_names=t.tiebreak_names,
                      subtitle=subtitle, double=t.double)


def crosstable_picture(t: TournamentView, lang: Language = ENGLISH) -> bytes:
    """The PNG; its headings in ``lang``."""
    return crosstable_png(crosstable_of(t), lang)
