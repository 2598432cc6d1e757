"""The typed tournament acts beyond join, leave and show, for every front end that reads
typed text (mail, a Discord message, the terminal; bot/commands/run.py calls ``run_act``):

    tournament withdraw ID                         the player leaves a running event
    tournament start|pause|resume|close ID         a director's
    tournament remove ID PLAYER                    a director's: PLAYER withdrawn by the rule
    tournament result ID GAME RESULT REASON        a director's: RESULT is 1-0, 0-1, 1/2-1/2,
                                                   +/- or -/+ (a forfeit)
    tournament replace ID OLD NEW                  a director's, before OLD has moved
    tournament extend ID GAME DAYS                 a director's
    tournament director ID add|remove PLAYER       the event's maker's (and the owner's)

A PLAYER is named as the front end names players (a mail address, a Discord mention). The
service checks who may act (directors.py); a typed line never counts as a server manager's.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from language.text import T, Text

from ..words.grammar import GrammarError, shown
from ..words.text import Markup
from ..words.tournament_text import tournament_line, tournament_text
from .results import RESULTS

USAGES = {
    "withdraw": "tournament withdraw ID",
    "start": "tournament start ID",
    "pause": "tournament pause ID",
    "resume": "tournament resume ID",
    "close": "tournament close ID",
    "remove": "tournament remove ID PLAYER",
    "result": "tournament result ID GAME 1-0|0-1|1/2-1/2|+/-|-/+ REASON",
    "replace": "tournament replace ID OLD NEW",
    "extend": "tournament extend ID GAME DAYS",
    "director": "tournament director ID add|remove PLAYER",
}
ACTS = tuple(USAGES)
#: the reply to an act done, its event's line as {event}
_DONE = {"start": lambda m, event: m.tr("Started {event}.", event=event),
         "pause": lambda m, event: m.tr("Paused {event}.", event=event),
         "resume": lambda m, event: m.tr("Resumed {event}.", event=event),
         "close": lambda m, event: m.tr("Closed {event}.", event=event)}


def _number(word: str, what: Text, usage: str, most: int = 10**12) -> int:
    digits = word.removeprefix("#")
    if not digits.isascii() or not digits.isdigit() or not 1 <= int(digits) <= most:
        raise GrammarError(T("{word} is not {what}", word=shown(word), what=what), usage)
    return int(digits)


def _words(details: str | None, count: int, act: str, *, rest: bool = False) -> list[str]:
    """The act's ``count`` words after its ID (the last one taking the rest of the line,
    if ``rest``); GrammarError saying what is missing or too much."""
    usage = USAGES[act]
    words = (details or "").split()
    if len(words) < count:
        raise GrammarError(T("tournament {act} needs more: {usage}", act=act, usage=usage), usage)
    if rest:
        return [*words[:count - 1], " ".join(words[count - 1:])]
    if len(words) > count:
        raise GrammarError(T("tournament {act}: unexpected {words}", act=act, words=shown(" ".join(words[count:]))),
                           usage)
    return words


async def run_act(service, player_id: int, act: str, tournament_id: int, details: str | None, m: Markup,
                  find_player: Callable[[str], Awaitable[object]] | None) -> str:
    """Do ``act`` on the event for the player; the reply's text. GrammarError or
    ServiceError say what was wrong (nothing changed)."""
    usage = USAGES[act]

    async def player(word: str) -> int:
        found = await find_player(word) if find_player is not None else None
        if found is None:
            raise GrammarError(T("there is no player {word} here", word=shown(word)), usage)
        return found.id

    if act == "withdraw":
        _words(details, 0, act)
        t = await service.withdraw_from_tournament(tournament_id, player_id)
        return m.tr("You withdrew from {event}.", event=tournament_line(t, m))
    if act in _DONE:
        _words(details, 0, act)
        t = await getattr(service, f"{act}_tournament")(tournament_id, player_id)
        return _DONE[act](m, tournament_line(t, m))
    if act == "remove":
        (who,) = _words(details, 1, act)
        t = await service.remove_from_tournament(tournament_id, await player(who), player_id)
        return m.tr("Took {player} out of {event}.", player=m.escape(who), event=tournament_line(t, m))
    if act == "result":
        game, result, reason = _words(details, 3, act, rest=True)
        if result not in RESULTS:
            raise GrammarError(T("{word} is not a result (1-0, 0-1, 1/2-1/2, +/-, -/+)", word=shown(result)), usage)
        t = await service.set_tournament_result(tournament_id, _number(game, T("a game's number"), usage),
                                                result, reason, player_id)
        said = m.tr("Game #{game} of {name}: {result}, recorded with your name and reason.",
                    game=int(game.removeprefix("#")), name=m.escape(t.name), result=result)
        return f"{said}\n\n{tournament_text(t, m)}"
    if act == "replace":
        old, new = _words(details, 2, act)
        t = await service.replace_in_tournament(tournament_id, await player(old), await player(new), player_id)
        return m.tr("{new} takes {old}'s place in {event}.", new=m.escape(new), old=m.escape(old),
                    event=tournament_line(t, m))
    if act == "extend":
        game, days = _words(details, 2, act)
        number = _number(game, T("a game's number"), usage)
        t = await service.extend_tournament_game(tournament_id, number, _number(days, T("a number of days"), usage, 60),
                                                 player_id)
        return m.trn("Game #{game} of {name} has {n} more day.", "Game #{game} of {name} has {n} more days.", int(days),
                     game=number, name=m.escape(t.name))
    # director
    what, who = _words(details, 2, act)
    if what.lower() not in ("add", "remove"):
        raise GrammarError(T("{word}: say add or remove", word=shown(what)), usage)
    change = service.add_tournament_director if what.lower() == "add" else service.remove_tournament_director
    t = await change(tournament_id, await player(who), player_id)
    names = ", ".join(m.escape(d.name) for d in t.directors) or m.tr("none but the server owner")
    return m.tr("The directors of {event}: {names}.", event=tournament_line(t, m), names=names)
