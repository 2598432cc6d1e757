"""The game service's errors. Each carries a message fit to show a player: ``e.text``, a
``language.Text`` said in the reader's language by the front end (``str(e)`` is English)."""

from __future__ import annotations

from language.text import T, Text


class ServiceError(Exception):
    """Base of every refusal the service gives. ``str(e)`` is user-readable."""

    default_message: Text | str = T("that cannot be done")

    def __init__(self, message: Text | str | None = None):
        self.text: Text | str = message or self.default_message
        super().__init__(str(self.text))

    @property
    def message(self) -> str:
        return str(self)


class NotFound(ServiceError):
    default_message = T("no such thing")


class NotAPlayer(ServiceError):
    default_message = T("you are not a player in this game")


class NotYourTurn(ServiceError):
    default_message = T("it is not your turn")


class GameChanged(ServiceError):
    """The game changed between what the command was based on and its write."""

    default_message = T("the game changed, look again")


class GameOver(ServiceError):
    default_message = T("the game is over")


class IllegalMove(ServiceError):
    """The rules engine refused the move; the message is the engine's reason."""

    default_message = T("that move is not legal")


class ChallengeError(ServiceError):
    default_message = T("that challenge cannot be made or answered")


class DrawError(ServiceError):
    default_message = T("no draw offer can be made or answered now")


class TakebackError(ServiceError):
    default_message = T("no takeback can be asked or answered now")


class AbortError(ServiceError):
    default_message = T("the game can no longer be aborted")


class VacationError(ServiceError):
    default_message = T("vacation cannot be changed now")


class SettingsError(ServiceError):
    default_message = T("that setting is not valid")


class StorageError(ServiceError):
    """The database is not what this program expects (newer schema, corrupt game)."""

    default_message = T("the game store is not usable")


class DatabaseError(StorageError):
    """The database refused or failed a statement (whichever database it is)."""

    default_message = T("the game database failed")


class IntegrityError(DatabaseError):
    """A write the database's constraints refuse (a missing row, a duplicate, a check)."""

    default_message = T("the game database refused an inconsistent change")


class RateLimited(ServiceError):
    """The player sent commands faster than the configured rate; nothing was done."""

    default_message = T("you're sending commands too fast; try again in a moment")

    def __init__(self, message: Text | str | None = None, retry_after: int = 0):
        super().__init__(message)
        self.retry_after = retry_after  # whole seconds until a command is accepted again


class InputTooLong(ServiceError):
    """A text argument longer than the configured limit, refused before it is read."""

    default_message = T("that is too long")


class UnstorableText(ServiceError):
    """Text that is not valid Unicode (a lone surrogate, from a mis-decoded name or
    argument): SQLite stores UTF-8, so it is refused before the database sees it."""

    default_message = T("that text contains characters that cannot be stored")


class ClockOutOfRange(ServiceError):
    """The clock reads a date the service cannot keep time from (its deadlines,
    vacations and digests must stay within the dates Python represents)."""

    default_message = T("the clock is outside the dates fairypost can keep time for")


class PremoveError(ServiceError):
    """Conditional moves that cannot be set (a bad move in a line, two answers to one move)."""

    default_message = T("those conditional moves cannot be set")


class DatabaseUnavailable(Exception):
    """The database cannot be reached just now (a restart, a failover, the network): nothing
    was done, and the same command tried again in a moment will be. Not a refusal (not a
    ``ServiceError``): nothing was decided, so a front end does not answer it as one but asks
    for the command again later: the web with 503 and ``Retry-After``, mail by handling the
    mail again later, Discord with a private "busy, try again". The store logs the outage
    once and reconnects by itself (bot/store/postgres.py)."""

    default_message = T("the game server is busy, try again in a moment")

    def __init__(self, message: Text | str | None = None, retry_after: int = 5):
        self.text: Text | str = message or self.default_message
        super().__init__(str(self.text))
        self.retry_after = retry_after  # whole seconds after which to try again


def text_of(e: BaseException) -> Text | str:
    """What an exception from below says to a player, to pass on in a refusal: the rules'
    exceptions' ``.text``, a ``ValueError(T(...))``'s Text, else its English."""
    text = getattr(e, "text", None)
    if isinstance(text, (Text, str)):
        return text
    if e.args and isinstance(e.args[0], Text):
        return e.args[0]
    return str(e)
