"""Fair play: when the computer may help a player of a game (an evaluation, a best line with
its score), one rule for every front end that offers it (the web's ``eval.json``; the
terminal, mail and Discord offer only hints, which bot/computer/player.py keeps to games
against the computer, and reviews, once a game is over).

No engine help in a game between people while it is being played: only once it is over, in
a game against the computer, or — where the server owner allows it
(``allow_engine_in_casual``, ``FAIRYPOST_ALLOW_ENGINE_IN_CASUAL``) — in a casual game
(unrated and not a tournament's). It is refused to watchers too: a watcher may be a
player's friend with a second window."""

from __future__ import annotations

from language.text import T, Text

from ..config import Settings
from ..domain.errors import ServiceError
from ..domain.kinds import GameStatus
from ..identity.players import COMPUTER
from ..store import Store
from ..tournaments.service import TournamentTables
from .results import GameView


class EngineHelpRefused(ServiceError):
    default_message = T("the computer does not help in a game between people while it is being "
                        "played: ask again when it is over")


def engine_help_refusal(view: GameView, *, casual_allowed: bool, in_tournament: bool) -> Text | str | None:
    """Why the computer may not help in ``view`` now, or None if it may."""
    if view.status != GameStatus.ACTIVE:
        return None
    if COMPUTER in (view.white.platform, view.black.platform):
        return None
    if casual_allowed and not view.rated and not in_tournament:
        return None
    if casual_allowed:
        return T("the computer does not help in a rated or tournament game between people "
                 "while it is being played: ask again when it is over")
    return EngineHelpRefused.default_message


class FairPlay:
    """The fair-play check of ``GameService`` (which provides ``store`` and ``settings``)."""

    store: Store
    settings: Settings

    async def check_engine_help(self, view: GameView) -> None:
        """Refuse (``EngineHelpRefused``) an evaluation or a scored line in ``view`` now."""
        if engine_help_refusal(view, casual_allowed=False, in_tournament=False) is None:
            return  # over, or against the computer: no need to read anything more
        in_tournament = False
        casual_allowed = self.settings.allow_engine_in_casual
        if casual_allowed and not view.rated:
            async with self.store.read() as tx:
                in_tournament = await TournamentTables(tx).of_game(view.id) is not None
        why = engine_help_refusal(view, casual_allowed=casual_allowed, in_tournament=in_tournament)
        if why is not None:
            raise EngineHelpRefused(why)
