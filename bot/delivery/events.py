"""Notifications that leave the service, and the Notifier interface adapters implement.

The service never calls a chat platform. It writes each notification to the
``events`` table (the outbox) in the same transaction as the change that caused
it, and :mod:`bot.delivery.outbox` hands it to the adapter's :class:`Notifier` after the
commit. Every event names its ``recipient`` (None: a public notice, such as an
open challenge, for the adapter's lobby) and carries ``event_id``, the outbox
row's id, stable across restarts, so an adapter may drop a repeat if it wants.
"""

from __future__ import annotations

import functools
import json
import types
import typing
from dataclasses import dataclass, fields, is_dataclass
from datetime import datetime
from typing import Any, Protocol, Union, get_args, get_origin, get_type_hints


@dataclass(frozen=True)
class PlayerRef:
    id: int
    platform: str
    user_id: str
    name: str


def ref(row: typing.Any) -> PlayerRef:
    """A stored player (``PlayerRow``, or anything with its four fields) as notices name it."""
    return PlayerRef(row.id, row.platform, row.user_id, row.name)


@dataclass(frozen=True, kw_only=True)
class Event:
    recipient: PlayerRef | None = None
    event_id: int | None = None

    kind: typing.ClassVar[str] = "event"


@dataclass(frozen=True, kw_only=True)
class YourMove(Event):
    """Once per turn: it is the recipient's move (quiet hours respected)."""

    kind: typing.ClassVar[str] = "your_move"
    game_id: int
    game: str
    opponent: PlayerRef
    ply: int
    last_move: str | None  # SAN of the opponent's move, None at the start
    deadline: datetime | None


@dataclass(frozen=True, kw_only=True)
class TimeWarning(Event):
    """Half, 80% of the time used, or 24 h / 1 h before the deadline."""

    kind: typing.ClassVar[str] = "time_warning"
    game_id: int
    game: str
    opponent: PlayerRef
    level: str  # '50%', '80%', '24h', '1h'
    deadline: datetime
    seconds_left: int


@dataclass(frozen=True, kw_only=True)
class GameStarted(Event):
    kind: typing.ClassVar[str] = "game_started"
    game_id: int
    game: str
    white: PlayerRef
    black: PlayerRef
    days: int | None
    challenge_id: int | None
    rated: bool = False  # (a notice stored before this field: casual)
    # for the player to move: it is their move (no "your move" notice follows), and until when
    your_move: bool = False
    deadline: datetime | None = None
    # a tournament's game (bot/tournaments/): the event and its round
    tournament_id: int | None = None
    tournament_name: str | None = None
    tournament_round: int | None = None
    tournament_deadline: datetime | None = None  # a Swiss round's deadline (``--round-days``)


@dataclass(frozen=True, kw_only=True)
class GameOver(Event):
    kind: typing.ClassVar[str] = "game_over"
    game_id: int
    game: str
    white: PlayerRef
    black: PlayerRef
    result: str  # '1-0', '0-1', '1/2-1/2', '*' (aborted)
    reason: str
    last_move: str | None


@dataclass(frozen=True, kw_only=True)
class ChallengeReceived(Event):
    """To the challenged player, or (recipient None) an open challenge for the lobby."""

    kind: typing.ClassVar[str] = "challenge_received"
    challenge_id: int
    challenger: PlayerRef
    game: str
    days: int | None
    colour: str  # the challenger's: 'white', 'black', 'random'
    setup: str  # 'default' or 'players'
    open: bool
    rated: bool = False  # (absent from notices stored before ratings: those were casual)


@dataclass(frozen=True, kw_only=True)
class ChallengeClosed(Event):
    """To the challenger (declined, expired) or the challenged player (cancelled)."""

    kind: typing.ClassVar[str] = "challenge_closed"
    challenge_id: int
    how: str  # 'declined', 'cancelled' or 'expired' (``by``: the challenger, whose it was)
    by: PlayerRef


@dataclass(frozen=True, kw_only=True)
class OfferSettled(Event):
    """Nothing to say, something to tidy: a challenge, draw offer or takeback request
    whose notice carried buttons is settled (accepted, declined, withdrawn, expired, or
    made moot by a move or the game's end), so an adapter disables those buttons. To the
    player whose notice it was; ``ref_id`` is the challenge's id, or the game's."""

    kind: typing.ClassVar[str] = "offer_settled"
    what: str  # 'challenge', 'draw' or 'takeback'
    ref_id: int


@dataclass(frozen=True, kw_only=True)
class DrawOffered(Event):
    kind: typing.ClassVar[str] = "draw_offered"
    game_id: int
    game: str
    by: PlayerRef


@dataclass(frozen=True, kw_only=True)
class DrawDeclined(Event):
    kind: typing.ClassVar[str] = "draw_declined"
    game_id: int
    game: str
    by: PlayerRef


@dataclass(frozen=True, kw_only=True)
class TakebackAsked(Event):
    kind: typing.ClassVar[str] = "takeback_asked"
    game_id: int
    game: str
    by: PlayerRef
    move: str  # SAN of the move to take back


@dataclass(frozen=True, kw_only=True)
class TakebackAnswered(Event):
    kind: typing.ClassVar[str] = "takeback_answered"
    game_id: int
    game: str
    by: PlayerRef
    accepted: bool


@dataclass(frozen=True)
class DigestEntry:
    game_id: int
    game: str
    opponent: str
    deadline: datetime | None
    seconds_left: int | None


@dataclass(frozen=True, kw_only=True)
class Digest(Event):
    """Daily: the games where it is the recipient's move, least time left first."""

    kind: typing.ClassVar[str] = "digest"
    day: str  # the recipient's local date, YYYY-MM-DD
    games: tuple[DigestEntry, ...]


@dataclass(frozen=True, kw_only=True)
class PremovePlayed(Event):
    """The opponent's move matched one of the recipient's conditional lines: its answer
    was played (the opponent gets their "your move" as after any move)."""

    kind: typing.ClassVar[str] = "premove_played"
    game_id: int
    game: str
    opponent: PlayerRef
    their_move: str  # SAN
    answer: str  # SAN of the recipient's answer, played
    lines_left: int  # of the recipient's lines, those still waiting


@dataclass(frozen=True, kw_only=True)
class PremovesDropped(Event):
    """The recipient's conditional lines were dropped: ``why`` is 'move' (the opponent
    played ``move``, which no line expected), 'takeback' or 'illegal' (the answer could
    not be played, ``move`` being it)."""

    kind: typing.ClassVar[str] = "premoves_dropped"
    game_id: int
    game: str
    opponent: PlayerRef
    why: str
    move: str | None
    lines: int


@dataclass(frozen=True, kw_only=True)
class TournamentOver(Event):
    """A tournament (bot/tournaments/) is over: the recipient's place, out of ``players``,
    and the winner. To every player in it."""

    kind: typing.ClassVar[str] = "tournament_over"
    tournament_id: int
    name: str
    game: str
    place: int
    players: int
    points: float
    winner: PlayerRef | None


@dataclass(frozen=True, kw_only=True)
class TournamentBye(Event):
    """A Swiss's round began without a game for the recipient: a bye, worth ``points``."""

    kind: typing.ClassVar[str] = "tournament_bye"
    tournament_id: int
    name: str
    round: int
    points: float


@dataclass(frozen=True, kw_only=True)
class TournamentDeadline(Event):
    """A Swiss round's deadline came with ``games`` still going, told to the event's
    director: adjudicated by the engine's evaluation (``adjudicated``: the event was made
    so), or left to the director's decision (the next round waits for it)."""

    kind: typing.ClassVar[str] = "tournament_deadline"
    tournament_id: int
    name: str
    round: int
    games: tuple[int, ...]
    adjudicated: bool


@dataclass(frozen=True, kw_only=True)
class TournamentNews(Event):
    """A step of a tournament's life, for the place where the adapter it was made on posts
    its news (Discord's thread under its announcement), not a notice to a player: addressed
    to its maker only so that their platform's adapter gets it, in whichever process runs
    it (none for the owner's command line's: a public notice). ``what`` is 'started' (the
    ``round`` rounds of a round robin begun at once), 'round' (a Swiss's round ``round`` begun),
    'result' (game ``game_id`` of round ``round`` ended) or 'over'."""

    kind: typing.ClassVar[str] = "tournament_news"
    tournament_id: int
    name: str
    scope: str | None
    what: str
    round: int
    game_id: int | None = None


@dataclass(frozen=True, kw_only=True)
class ComputerStalled(Event):
    """The computer (``computer``) has failed ``failures`` times to make its move: it keeps
    trying, and no clock runs meanwhile (bot/computer/player.py). To its opponent."""

    kind: typing.ClassVar[str] = "computer_stalled"
    game_id: int
    game: str
    computer: PlayerRef
    failures: int


@dataclass(frozen=True, kw_only=True)
class MailStopped(Event):
    """The bot mails an address of the recipient's no more: it bounced (bot/email/sending.py).
    Told by another route (Discord), as mail no longer reaches them."""
    kind: typing.ClassVar[str] = "mail_stopped"
    address: str
    bounces: int


EVENT_TYPES: dict[str, type[Event]] = {
    cls.kind: cls for cls in (YourMove, TimeWarning, GameStarted, GameOver, ChallengeReceived,
                              ChallengeClosed, DrawOffered, DrawDeclined, TakebackAsked,
                              TakebackAnswered, Digest, PremovePlayed, PremovesDropped, OfferSettled,
                              ComputerStalled, MailStopped, TournamentOver,
                              TournamentBye, TournamentNews, TournamentDeadline)
}


class Notifier(Protocol):
    """What an adapter implements. An exception means "not delivered, try later".

    An adapter may set ``platforms`` (a set of platform names): its outbox then takes
    only the events of players on those platforms, leaving the rest for the adapter
    that serves them (the bot and the terminal can share one database)."""

    async def notify(self, event: Event) -> None: ...


class NullNotifier:
    async def notify(self, event: Event) -> None:
        return None


class MemoryNotifier:
    """Keeps every event it is given, in order (the terminal adapter, tests)."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    async def notify(self, event: Event) -> None:
        self.events.append(event)

    def of(self, cls: type[Event], recipient_id: int | None = ...) -> list[Event]:  # type: ignore[assignment]
        out = [e for e in self.events if isinstance(e, cls)]
        if recipient_id is not ...:
            out = [e for e in out if (e.recipient.id if e.recipient else None) == recipient_id]
        return out

    def clear(self) -> None:
        self.events.clear()


# --- (de)serialisation for the outbox -------------------------------------------

_SKIP = {"recipient", "event_id"}


def encode(event: Event) -> str:
    """The event's own fields (not recipient / event_id) as JSON."""
    data = {f.name: _enc(getattr(event, f.name)) for f in fields(event) if f.name not in _SKIP}
    return json.dumps(data, sort_keys=True)


def decode(kind: str, payload: str, *, recipient: PlayerRef | None, event_id: int) -> Event:
    cls = EVENT_TYPES[kind]
    data = json.loads(payload)
    hints = _hints(cls)
    kwargs = {f.name: _dec(hints[f.name], data[f.name]) for f in fields(cls)
              if f.name not in _SKIP and f.name in data}  # a field added since: its default
    return cls(recipient=recipient, event_id=event_id, **kwargs)


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    """A dataclass's field types, resolved once (resolving them compiles the annotations:
    most of a notice's decoding time)."""
    return get_type_hints(cls)


def _enc(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if is_dataclass(value):
        return {f.name: _enc(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, (list, tuple)):
        return [_enc(v) for v in value]
    return value


def _dec(tp: Any, value: Any) -> Any:
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        if value is None:
            return None
        (inner,) = [a for a in get_args(tp) if a is not type(None)]
        return _dec(inner, value)
    if tp is datetime:
        return datetime.fromisoformat(value)
    if origin is tuple:
        inner = get_args(tp)[0]
        return tuple(_dec(inner, v) for v in value)
    if isinstance(tp, type) and is_dataclass(tp):
        hints = _hints(tp)
        return tp(**{f.name: _dec(hints[f.name], value[f.name]) for f in fields(tp)})
    return value
