"""The words of a finished game's result banner: "Checkmate — White wins".

A position knows only the endings the rules decide (checkmate, stalemate, repetition,
the 100-ply rule); the bot knows the others (resignation, time, agreement, abort) and
passes the same (result, reason) pair it stores. The side names are the game's own
(Blue and Red, say).
"""

from __future__ import annotations

DASH = "\u2014"
_DRAWS = {"threefold repetition": "Draw by repetition", "100-ply rule": "Draw by the 100-ply rule",
          "agreement": "Draw by agreement", "stalemate": f"Stalemate {DASH} draw"}


def side_names_of(game) -> tuple[str, str]:
    """(White's name, Black's name) of a rules Game or a game id."""
    if isinstance(game, str):
        import rules
        game = rules.game(game)
    return tuple(game.side_names)


def result_text(game, result: str | None, reason: str | None) -> str | None:
    """The banner of a result ("1-0", "0-1", "1/2-1/2", "*" for an aborted game) and
    its reason, in the game's side names; None while there is no result."""
    if result is None:
        return None
    reason = (reason or "").strip()
    if result == "*" or reason == "aborted":
        return "Game aborted"
    if result == "1/2-1/2":
        return _DRAWS.get(reason, f"Draw ({reason})" if reason else "Draw")
    white, black = side_names_of(game)
    winner, loser = (white, black) if result == "1-0" else (black, white)
    wins = f"{winner} wins"
    if reason == "checkmate":
        return f"Checkmate {DASH} {wins}"
    if reason == "stalemate":
        return f"Stalemate {DASH} {wins}"
    if reason == "resignation":
        return f"{loser} resigned {DASH} {wins}"
    if reason == "time":
        return f"{loser} lost on time {DASH} {wins}"
    return f"{wins} ({reason})" if reason else wins


def position_result_text(pos) -> str | None:
    """The banner of a position the rules say is over, else None."""
    outcome = pos.outcome()
    return None if outcome is None else result_text(pos.game, *outcome)
