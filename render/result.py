"""The words of a finished game's result banner: "Checkmate — White wins".

A position knows only the endings the rules decide (checkmate, stalemate, repetition,
the 100-ply rule); the bot knows the others (resignation, time, agreement, abort) and
passes the same (result, reason) pair it stores. The side names are the game's own
(Blue and Red, say), in the reader's language (``lang``, English by default).
"""

from __future__ import annotations

from language import ENGLISH, Language

DASH = "\u2014"


def side_names_of(game) -> tuple[str, str]:
    """(White's name, Black's name) of a rules Game or a game id."""
    if isinstance(game, str):
        import rules
        game = rules.game(game)
    return tuple(game.side_names)


def _draw(reason: str, lang: Language) -> str:
    if reason == "threefold repetition":
        return lang.tr("Draw by repetition")
    if reason == "100-ply rule":
        return lang.tr("Draw by the 100-ply rule")
    if reason == "agreement":
        return lang.tr("Draw by agreement")
    if reason == "stalemate":
        return lang.tr("Stalemate \u2014 draw")
    return lang.tr("Draw ({reason})", reason=reason) if reason else lang.tr("Draw")


def result_text(game, result: str | None, reason: str | None, lang: Language = ENGLISH) -> str | None:
    """The banner of a result ("1-0", "0-1", "1/2-1/2", "*" for an aborted game) and
    its reason, in the game's side names; None while there is no result."""
    if result is None:
        return None
    reason = (reason or "").strip()
    if result == "*" or reason == "aborted":
        return lang.tr("Game aborted")
    if result == "1/2-1/2":
        return _draw(reason, lang)
    white, black = (lang.data(name) for name in side_names_of(game))
    winner, loser = (white, black) if result == "1-0" else (black, white)
    if reason == "checkmate":
        return lang.tr("Checkmate \u2014 {side} wins", side=winner)
    if reason == "stalemate":
        return lang.tr("Stalemate \u2014 {side} wins", side=winner)
    if reason == "resignation":
        return lang.tr("{loser} resigned \u2014 {side} wins", loser=loser, side=winner)
    if reason == "time":
        return lang.tr("{loser} lost on time \u2014 {side} wins", loser=loser, side=winner)
    if reason:
        return lang.tr("{side} wins ({reason})", side=winner, reason=reason)
    return lang.tr("{side} wins", side=winner)


def position_result_text(pos, lang: Language = ENGLISH) -> str | None:
    """The banner of a position the rules say is over, else None."""
    outcome = pos.outcome()
    return None if outcome is None else result_text(pos.game, *outcome, lang=lang)
