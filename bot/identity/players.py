"""Players' settings (time zone, quiet hours, digest) and their stored JSON form."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from language import LANGUAGES, T

from ..delivery.events import PlayerRef
from ..store import PlayerRow
from ..timekeeping.clock import QuietHours, parse_hhmm, zone

COMPUTER = "computer"  # the computer opponent's platform (bot/computer/player.py)

#: When moves are confirmed before they are played: never, typed ones (a chat message, a
#: terminal line, a form; not a move picked from a list), or every one.
CONFIRM_CHOICES = ("off", "typed", "all")


@dataclass(frozen=True)
class PlayerSettings:
    timezone: str = "UTC"
    quiet_start: str | None = None  # "HH:MM" local; both or neither
    quiet_end: str | None = None
    digest_time: str | None = None  # "HH:MM" local, or None: no digest
    confirm_moves: str = "off"  # ask "play Nf3?" first: "off", "typed" (typed moves), "all"
    language: str | None = None  # the language the player chose (a code of language.LANGUAGES)
    # the language a front end last saw them use (Discord's locale, their first mail's
    # Content-Language, their browser's Accept-Language): what notices use until they choose
    seen_language: str | None = None

    def __post_init__(self) -> None:
        zone(self.timezone)  # ValueError if unknown
        if self.confirm_moves not in CONFIRM_CHOICES:
            raise ValueError(T("move confirmation is one of {choices}, not {value}",
                               choices=", ".join(CONFIRM_CHOICES), value=repr(self.confirm_moves)))
        for code in (self.language, self.seen_language):
            if code is not None and code not in LANGUAGES:
                raise ValueError(T("unknown language {code} (one of {codes})", code=repr(code),
                                   codes=", ".join(LANGUAGES)))
        if (self.quiet_start is None) != (self.quiet_end is None):
            raise ValueError(T("quiet hours need both a start and an end"))
        for t in (self.quiet_start, self.quiet_end, self.digest_time):
            if t is not None:
                parse_hhmm(t)

    def quiet_hours(self) -> QuietHours | None:
        if self.quiet_start is None:
            return None
        return QuietHours(parse_hhmm(self.quiet_start), parse_hhmm(self.quiet_end), self.timezone)

    def to_json(self) -> str:
        data = {k: v for k, v in self.__dict__.items() if v != getattr(_DEFAULT, k)}
        return json.dumps(data, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> PlayerSettings:
        data = json.loads(text or "{}")
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        for key in ("language", "seen_language"):  # a language since removed: as if never set
            if known.get(key) is not None and known[key] not in LANGUAGES:
                known[key] = None
        return cls(**known)


_DEFAULT = PlayerSettings()


@dataclass(frozen=True)
class Player:
    id: int
    platform: str
    user_id: str
    name: str
    settings: PlayerSettings = field(default_factory=PlayerSettings)
    vacation_start: int | None = None
    vacation_until: int | None = None

    @property
    def ref(self) -> PlayerRef:
        return PlayerRef(self.id, self.platform, self.user_id, self.name)

    def confirms(self, typed: bool) -> bool:
        """Whether a move of theirs (``typed``, or picked from a list) is asked about first."""
        return self.settings.confirm_moves == "all" or (typed and self.settings.confirm_moves == "typed")

    def reads(self, here: str | None = None) -> str:
        """The language to write to this player in: the one they chose, else the one the
        front end sees them use now (``here``: Discord's locale of this interaction, the
        browser's), else the one last seen, else English."""
        return self.settings.language or here or self.settings.seen_language or "en"

    @property
    def on_vacation(self) -> bool:
        return self.vacation_start is not None


def player_from_row(row: PlayerRow) -> Player:
    return Player(row.id, row.platform, row.user_id, row.name, PlayerSettings.from_json(row.settings),
                  row.vacation_start, row.vacation_until)

