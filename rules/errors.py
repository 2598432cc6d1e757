"""The rules engine's own error types.

Every failure a user can cause raises one of these, with a message that says
what was wrong. They are ValueErrors so that callers who only care about
"bad input" can catch one thing.
"""
from __future__ import annotations

from collections.abc import Iterable

from language.text import Text


class RulesError(ValueError):
    """Base of every error the rules engine raises on bad input.

    Its message is a ``Text`` where a player reads it (issue #44): ``e.text`` is that Text
    (a front end says it in its reader's language), ``str(e)`` its English as before. A
    message given as a plain str (the position strings' and variant files' errors, for
    server owners) is ``e.text`` as it is."""

    def __init__(self, message: Text | str = "", *args: object):
        super().__init__(str(message), *args)
        self.text: Text | str = message


class UnknownGameError(RulesError):
    """No game with that id."""


class GameDefinitionError(RulesError):
    """A game's data file is malformed (a bug in data/, not user input)."""


class VariantError(GameDefinitionError):
    """A variant file that breaks the schema (rules/schema.py): an unknown key, a bad value,
    a missing parent. The message names the file, the table and the key."""


class FenError(RulesError):
    """A position string (VFEN) that cannot be read, or an impossible position."""


class MoveError(RulesError):
    """A move text that names no legal move."""


class InvalidMoveError(MoveError):
    """The text is not a move in any notation the game accepts."""


class IllegalMoveError(MoveError):
    """The text is a move, but not a legal one here."""


class NoPieceError(IllegalMoveError):
    """There is no piece on the square the move starts from."""


class NotYourPieceError(IllegalMoveError):
    """The piece belongs to the other side."""


class NoSuchMoveError(IllegalMoveError):
    """The piece cannot make that move."""


class LeavesRoyalInCheckError(IllegalMoveError):
    """The move would leave (or put) the mover's royal piece in check, or break
    another legality condition (castling path, facing royals)."""


class GameOverError(IllegalMoveError):
    """The game has ended; no move can be made."""


class AmbiguousMoveError(MoveError):
    """The text fits more than one legal move."""

    def __init__(self, message: Text | str, candidates: Iterable[str] = ()):
        super().__init__(message)
        self.candidates = list(candidates)
