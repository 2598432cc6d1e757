"""The terminal's commands: the shared grammar (bot/words/grammar.py) with the terminal's own
words, and the registry of their handlers (``handles``), which session.py and
conditional.py fill."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from language import T

from ..words.grammar import GRAMMAR

# The shared grammar (bot/words/grammar.py) with the terminal's own words: both players sit at
# one keyboard, so a draw offer or a takeback is answered at once, and challenges,
# accepting and vacations have no meaning here (nor the open challenges, which none here can
# accept, nor joining a tournament, whose games are the bot's: fairypost tournament directs them).
TERMINAL = GRAMMAR.extended()
for _name in ("challenge", "accept", "decline", "vacation", "block", "unblock", "challenges", "tournament"):
    TERMINAL.remove(_name)
TERMINAL.add("takeback", T("take back the last move (both players agree: one keyboard)"), aliases=("undo",))
TERMINAL.add("draw", T("offer a draw; the other player answers at once"))
TERMINAL.add("resign", T("resign the game for the side to move (asks first)"))
TERMINAL.add("board [SQUARE]", T("show the board again and write its image (with a square: that "
             "piece's moves)"), aliases=("show",))
TERMINAL.add("piece CODE|NAME", T("what a piece does (and its card image)"), names={"CODE|NAME": "piece"})
TERMINAL.add("games", T("the games played in this terminal, and how to resume them"))
TERMINAL.add("ratings [GAME]", T("a game's leaderboard (default: this game's) and the players' ratings"))
TERMINAL.add("legend", T("the letters on the board and the pieces they stand for"), aliases=("key",))
TERMINAL.add("flip", T("turn the board round (and again)"))
TERMINAL.add("fen", T("the position as a VFEN string, on one line"), aliases=("vfen",))
TERMINAL.add("premove [cancel|LINES]", T("the waiting side's answers left in advance, like premove "
             "e5 Nf3; c5 Nc3 (their move, the answer, ...); alone: show them; cancel: drop them. "
             "Not against the computer: it answers at once"), names={"cancel|LINES": "lines"})
TERMINAL.add("confirm on|off [default]", T("ask \"Play Nf3? [y/n]\" before each typed move of this "
             "game (or not); with default: in every game, new ones too"), names={"default": "default"},
             needs_game=False)
TERMINAL.add("quit", T("leave (the game is saved; fairypost play --resume goes on)"), aliases=("exit", "q"))

Handler = Callable[..., Awaitable[bool]]  # (session, command); False: leave the session
HANDLERS: dict[str, Handler] = {}


def handles(name: str):
    """The terminal's way of running the grammar's command ``name``."""
    def register(fn: Handler) -> Handler:
        assert TERMINAL.find(name) is not None, name
        HANDLERS[name] = fn
        return fn
    return register
