"""The one definition of what an event counts for each of its games, read by the standings,
the tie-breaks, the crosstable, the page and the Swiss pairing alike.

A game's *counted result* is:

* a decided one (``tournament_decisions``): a director's result by hand, or a rule's (a
  withdrawal's forfeits and cancellations): '1-0', '0-1', '1/2-1/2' (an adjudication: a
  played game), '+/-', '-/+' (a forfeit), 'cancelled' (counts for no one);
* else, a game lost on time before both sides moved (it never began): a forfeit by the side
  that did not move ('+/-' or '-/+');
* else the game's own result once it is over ('*', an aborted game, counts for no one);
* None while it goes on (or its game is still to be made).

A forfeit scores its points but is no game played: the tie-breaks count it as an unplayed
round (FIDE C.07, article 16) and the pairing gives it no colour.
"""

from __future__ import annotations

from ..domain.kinds import GameStatus
from ..store import Tx
from .director_tables import CANCELLED, DECIDED_WHITE_POINTS, FORFEITS, DecisionRow, DirectorTables
from .tables import PairingRow

#: a game's own result's points for White
WHITE_POINTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
#: a counted result's points for White (None, or absent: it counts for no one)
COUNTED_WHITE_POINTS = DECIDED_WHITE_POINTS

__all__ = ["CANCELLED", "COUNTED_WHITE_POINTS", "FORFEITS", "WHITE_POINTS", "counted_result",
           "counted_results", "is_forfeit", "white_points"]


def counted_result(p: PairingRow, decisions: dict[int, DecisionRow]) -> str | None:
    """The result the event counts for a pairing's game (see the module's doc)."""
    if p.game_id is None:
        return None
    decision = decisions.get(p.game_id)
    if decision is not None:
        return decision.result
    if p.status != GameStatus.FINISHED or p.result not in WHITE_POINTS:
        return None if p.status in (GameStatus.ACTIVE, None) else p.result
    if p.reason == "time" and p.ply is not None and p.ply < 2:
        return "+/-" if p.result == "1-0" else "-/+"
    return p.result


async def counted_results(tx: Tx, tournament_id: int, rows: list[PairingRow]) -> dict[int, str | None]:
    """Each game's ``counted_result`` (by game id), its event's decisions read in ``tx``."""
    decisions = await DirectorTables(tx).decisions(tournament_id)
    return {p.game_id: counted_result(p, decisions) for p in rows if p.game_id is not None}


def white_points(result: str | None) -> float | None:
    """A counted result's points for White; None if it counts for no one (yet)."""
    return COUNTED_WHITE_POINTS.get(result or "")


def is_forfeit(result: str | None) -> bool:
    """Whether a counted result was a forfeit (scored, but no game played)."""
    return result in FORFEITS
