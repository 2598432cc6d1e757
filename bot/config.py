"""Settings of the game service, from a TOML file and the environment.

Order of precedence (later wins): the defaults below, the file named by
``FAIRYPOST_CONFIG`` (or passed explicitly), then the ``FAIRYPOST_*`` variables.

File form (either at top level or under a ``[fairypost]`` table)::

    db = "/var/lib/fairypost/games.db"
    vacation_days_per_year = 30
    default_days = 3
    safety_sweep_minutes = 10
    notify_max_attempts = 5
    notify_retry_seconds = 60

Environment: ``FAIRYPOST_DB``, ``FAIRYPOST_VACATION_DAYS``, ``FAIRYPOST_DEFAULT_DAYS``
(a number or ``none``), ``FAIRYPOST_SAFETY_SWEEP_MINUTES``,
``FAIRYPOST_NOTIFY_MAX_ATTEMPTS``, ``FAIRYPOST_NOTIFY_RETRY_SECONDS``.

Growth (file key ``retention_days``, environment ``FAIRYPOST_RETENTION_DAYS``): delivered
notices and spent reminders older than this many days are deleted by the sweep (games,
moves and players are kept for ever); 0 keeps everything.

Own variants (file key ``variants_dir``, environment ``FAIRYPOST_VARIANTS_DIR``): a folder
of extra variant files loaded beside the built-in games (docs/variants.md).

A settings file that holds the Discord token and that other users may read is used, with
a warning in the log.

Flood control (file keys ``command_rate_per_minute``, ``command_burst``, ``max_input_chars``;
environment ``FAIRYPOST_COMMAND_RATE``, ``FAIRYPOST_COMMAND_BURST``, ``FAIRYPOST_MAX_INPUT``):
each player may send ``command_burst`` commands at once and then ``command_rate_per_minute``
a minute (0 turns the limit off); a move text longer than ``max_input_chars`` is refused
before it is read.

The Discord adapter (``bot.discord_bot``): ``DISCORD_TOKEN`` (file: ``discord_token``),
``FAIRYPOST_DISCORD_GUILD`` (``discord_guild_id``: register the commands in that one
server only, which is instant; else globally), ``FAIRYPOST_DISCORD_MESSAGE_CONTENT``
(``discord_message_content``: ``1``/``true`` to read moves typed in game threads, which
needs the privileged Message Content intent).

Game pages (``bot.web``): ``FAIRYPOST_WEB_HOST`` / ``FAIRYPOST_WEB_PORT`` (``web_host``,
``web_port``: where ``fairypost web`` listens, default 127.0.0.1:8080; ``fairypost run``
serves the pages too only when a port is set), ``FAIRYPOST_WEB_URL`` (``web_url``: the
public base URL that links are made with, behind a proxy), ``FAIRYPOST_WEB_SECRET``
(``web_secret``: the key that signs game links; unset: one kept beside the database),
``FAIRYPOST_WEB_MAX_STREAMS`` (``web_max_streams``: the pages' live streams open at once in
all, default 2000; beyond, a page reads the game now and then instead),
``FAIRYPOST_WEB_TRUSTED_PROXIES`` (``web_trusted_proxies``: comma-separated addresses or CIDR
networks of the reverse proxies in front of the pages; only a request from one of them has
its client read from ``X-Forwarded-For``; default none).

Play by email (``bot.email``): ``FAIRYPOST_EMAIL_ADDRESS`` (``email_address``: the bot's
address), ``FAIRYPOST_IMAP_URL`` (``imap_url``: ``imap[s]://user:password@host:port/MAILBOX``),
``FAIRYPOST_SMTP_URL`` (``smtp_url``: ``smtp[s]://user:password@host:port``),
``FAIRYPOST_EMAIL_SECRET`` (``email_secret``: the key of reply tokens). All three of the
first set: ``fairypost run`` starts the email adapter. Link codes (``/settings email
ADDRESS``): an address gets one code per ``email_code_resend_minutes`` (default 60, at least
60; ``FAIRYPOST_EMAIL_CODE_RESEND_MINUTES``), and one player may have codes mailed to at most
``email_codes_per_hour`` addresses an hour (default 20, settable lower;
``FAIRYPOST_EMAIL_CODES_PER_HOUR``); an address whose mail stopped is mailed no code
(bot/identity/account_links.py).

Challenges (``challenge_days``, ``max_open_challenges``, ``max_challenges_per_opponent``;
environment ``FAIRYPOST_CHALLENGE_DAYS``, ``FAIRYPOST_MAX_OPEN_CHALLENGES``,
``FAIRYPOST_MAX_CHALLENGES_PER_OPPONENT``): an unanswered challenge expires after this many
days (default 7), and a player may have this many open at once (default 10), and this
many to one opponent (default 3). Against one opponent a challenge counts while it is
open, for ``challenge_withdrawn_hours`` (default 24; environment
``FAIRYPOST_CHALLENGE_WITHDRAWN_HOURS``) after it is withdrawn, and for
``challenge_declined_days`` (default 7; ``FAIRYPOST_CHALLENGE_DECLINED_DAYS``) after it is
declined: however often a challenger withdraws, the opponent gets at most
``max_challenges_per_opponent`` challenges a day (bot/operations/challenges.py).

Tournaments (``tournaments_per_hour``, ``tournaments_total_per_hour``; environment
``FAIRYPOST_TOURNAMENTS_PER_HOUR``, ``FAIRYPOST_TOURNAMENTS_TOTAL_PER_HOUR``): the events one
player may make in an hour (default and most 20; the owner may set it lower) and everyone
together (default 100); the owner's command line has no budget (docs/directors.md).
A round robin's size (``round_robin_max_players``; environment ``FAIRYPOST_ROUND_ROBIN_MAX_PLAYERS``):
a round robin takes at most this many players (default 60, from 2 to 200: 60 players make
1,770 games, made in short transactions of their own; docs/tournaments.md).

The computer's turns (``computer_retry_seconds``, ``computer_tell_after``; environment
``FAIRYPOST_COMPUTER_RETRY_SECONDS``, ``FAIRYPOST_COMPUTER_TELL_AFTER``): a turn that fails
is tried again after this many seconds (default 30), the pause doubling each time up to an
hour; after this many failures of one turn (default 3) its opponent is told (bot/computer/player.py).
``computer_cores`` (``FAIRYPOST_COMPUTER_CORES``): processes that search together for a hint
or a review (default: every core but one, at most 4, at least 1; 1: in the worker alone); the
computer's own moves think on one (bot/computer/player.py, ai/parallel.py).

Fair play (``allow_engine_in_casual``, ``FAIRYPOST_ALLOW_ENGINE_IN_CASUAL``, default off): the
computer's evaluation and scored lines are never given in a game between people while it is
played (bot/operations/fair_play.py); on, they are in casual games (unrated and not a
tournament's). Hints are for games against the computer only, either way. docs/permissions.md.
"""

from __future__ import annotations

import ipaddress
import logging
import os
import stat
import sys
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

log = logging.getLogger(__name__)

#: The time controls a game may have: days per move, or None for no clock.
ALLOWED_DAYS: tuple[int | None, ...] = (1, 2, 3, 5, 7, 10, 14, None)


class ConfigError(ValueError):
    """A setting that cannot be used."""


@dataclass(frozen=True)
class Settings:
    db_path: str = "fairypost.db"
    vacation_days_per_year: int = 30
    default_days: int | None = 3
    safety_sweep_minutes: int = 10
    notify_max_attempts: int = 5
    notify_retry_seconds: int = 60
    discord_token: str | None = field(default=None, repr=False)
    discord_guild_id: int | None = None
    discord_message_content: bool = False
    command_rate_per_minute: int = 30
    command_burst: int = 20
    max_input_chars: int = 100
    retention_days: int = 30
    variants_dir: str | None = None   # a folder of the server owner's own variants (docs/variants.md)
    web_host: str = "127.0.0.1"
    web_port: int | None = None       # None: `fairypost web` uses 8080, `fairypost run` serves no pages
    web_url: str | None = None        # the public base URL of the pages (behind a proxy)
    web_secret: str | None = field(default=None, repr=False)
    web_max_streams: int = 2000       # the pages' live streams open at once, in all
    web_trusted_proxies: tuple[str, ...] = ()  # reverse proxies whose X-Forwarded-For is believed
    email_address: str | None = None  # the bot's own address (bot/email/)
    imap_url: str | None = field(default=None, repr=False)  # imap[s]://user:password@host:port/MAILBOX
    smtp_url: str | None = field(default=None, repr=False)  # smtp[s]://user:password@host:port
    email_secret: str | None = field(default=None, repr=False)  # the key of reply tokens
    challenge_days: int = 7           # an unanswered challenge expires after this many days
    max_open_challenges: int = 10     # open challenges a player may have at once
    max_challenges_per_opponent: int = 3  # of them, to one opponent (withdrawn and declined ones count a while)
    challenge_withdrawn_hours: int = 24   # a withdrawn challenge counts against the one above this long
    challenge_declined_days: int = 7      # a declined one, this long
    round_robin_max_players: int = 60     # a round robin's size cap (60 players: 1,770 games)
    computer_retry_seconds: int = 30      # the pause after the computer's turn fails (doubling, at most an hour)
    computer_tell_after: int = 3          # failures of one turn before its opponent is told
    computer_cores: int | None = None     # processes for a hint or review (None: every core but one, at most 4)
    email_code_resend_minutes: int = 60    # an address gets one link code per this long (one pending code)
    email_codes_per_hour: int = 20         # addresses one player may have codes mailed to in an hour
    allow_engine_in_casual: bool = False  # engine help in unrated, non-tournament games between people
    tournaments_per_hour: int = 20        # tournaments one player may make an hour (20 at most)
    tournaments_total_per_hour: int = 100  # tournaments everyone together may make an hour

    def __post_init__(self) -> None:
        if self.default_days not in ALLOWED_DAYS:
            raise ConfigError(f"default_days must be one of {_days_text()}, not {self.default_days!r}")
        for name in ("vacation_days_per_year", "safety_sweep_minutes", "notify_retry_seconds",
                     "retention_days"):
            if getattr(self, name) < 0:
                raise ConfigError(f"{name} must not be negative")
        if self.vacation_days_per_year > 366:
            raise ConfigError("vacation_days_per_year is at most 366 (the days of a year)")
        if self.notify_max_attempts < 1:
            raise ConfigError("notify_max_attempts must be at least 1")
        if self.command_rate_per_minute < 0 or self.command_burst < 0:
            raise ConfigError("command_rate_per_minute and command_burst must not be negative")
        if self.command_rate_per_minute and self.command_burst < 1:
            raise ConfigError("command_burst must be at least 1 when commands are rate limited")
        if not 1 <= self.challenge_days <= 365:
            raise ConfigError(f"challenge_days must be from 1 to 365, not {self.challenge_days}")
        if self.max_open_challenges < 1 or self.max_challenges_per_opponent < 1:
            raise ConfigError("max_open_challenges and max_challenges_per_opponent must be at least 1")
        if not 0 <= self.challenge_withdrawn_hours <= 24 * 365:
            raise ConfigError("challenge_withdrawn_hours must be from 0 to 8760 (a year), "
                              f"not {self.challenge_withdrawn_hours}")
        if not 0 <= self.challenge_declined_days <= 365:
            raise ConfigError(f"challenge_declined_days must be from 0 to 365, not {self.challenge_declined_days}")
        if not 2 <= self.round_robin_max_players <= 200:
            raise ConfigError("round_robin_max_players must be from 2 to 200, "
                              f"not {self.round_robin_max_players}")
        if self.computer_retry_seconds < 1 or self.computer_tell_after < 1:
            raise ConfigError("computer_retry_seconds and computer_tell_after must be at least 1")
        if self.computer_cores is not None and not 1 <= self.computer_cores <= 256:
            raise ConfigError(f"computer_cores must be from 1 to 256, not {self.computer_cores}")
        if not 60 <= self.email_code_resend_minutes <= 24 * 60:
            raise ConfigError("email_code_resend_minutes must be from 60 (re-sent at most hourly) to 1440, "
                              f"not {self.email_code_resend_minutes}")
        if not 1 <= self.email_codes_per_hour <= 20:
            raise ConfigError(f"email_codes_per_hour must be from 1 to 20, not {self.email_codes_per_hour}")
        if not isinstance(self.allow_engine_in_casual, bool):
            raise ConfigError(f"allow_engine_in_casual must be true or false, not {self.allow_engine_in_casual!r}")
        if not 1 <= self.tournaments_per_hour <= 20:
            raise ConfigError(f"tournaments_per_hour must be from 1 to 20, not {self.tournaments_per_hour}")
        if not 1 <= self.tournaments_total_per_hour <= 100_000:
            raise ConfigError("tournaments_total_per_hour must be from 1 to 100000, "
                              f"not {self.tournaments_total_per_hour}")
        if self.max_input_chars < 1:
            raise ConfigError("max_input_chars must be at least 1")
        if self.web_port is not None and not 0 < self.web_port < 65536:
            raise ConfigError(f"web_port must be a port number from 1 to 65535, not {self.web_port}")
        if not 1 <= self.web_max_streams <= 1_000_000:
            raise ConfigError(f"web_max_streams must be from 1 to 1000000, not {self.web_max_streams}")
        proxies = self.web_trusted_proxies  # the file's "a, b" or list, as the environment's
        if not isinstance(proxies, (str, list, tuple)):
            raise ConfigError("web_trusted_proxies must be addresses or networks: \"127.0.0.1, ::1\" "
                              f"or a list of them, not {proxies!r}")
        object.__setattr__(self, "web_trusted_proxies", _split_list(proxies) if isinstance(proxies, str)
                           else tuple(str(p).strip() for p in proxies))
        for proxy in self.web_trusted_proxies:
            try:
                ipaddress.ip_network(str(proxy).strip(), strict=False)
            except ValueError:
                raise ConfigError(f"web_trusted_proxies: {proxy!r} is not an address or a network "
                                  "(as 127.0.0.1, ::1 or 10.0.0.0/8)") from None
        if self.web_url is not None and not self.web_url.startswith(("http://", "https://")):
            raise ConfigError(f"web_url must start with http:// or https://, not {self.web_url!r}")
        if self.email_address or self.imap_url or self.smtp_url:
            from bot.email.urls import check_settings  # the adapter's own checks
            try:
                check_settings(self)
            except ValueError as e:
                raise ConfigError(str(e)) from None

    @property
    def email_enabled(self) -> bool:
        """Whether the email adapter is configured (``fairypost run`` starts it)."""
        return bool(self.email_address and self.imap_url and self.smtp_url)

    @classmethod
    def load(cls, file: str | os.PathLike | None = None,
             env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        values: dict[str, object] = {}
        path = file if file is not None else env.get("FAIRYPOST_CONFIG")
        if path:
            values.update(_read_file(Path(path)))
            secret = next((k for k in _SECRET_KEYS if values.get(k)), None)
            if secret:
                _warn_if_readable(Path(path), secret)
        values.update(_read_env(env))
        try:
            return cls(**values)  # type: ignore[arg-type]
        except TypeError as e:
            raise ConfigError(str(e)) from None

    def with_(self, **changes) -> Settings:
        return replace(self, **changes)


_FILE_KEYS = {"db": "db_path", "db_path": "db_path"} | {
    f.name: f.name for f in fields(Settings) if f.name != "db_path"}

_ENV_KEYS = {
    "FAIRYPOST_DB": ("db_path", str),
    "FAIRYPOST_VACATION_DAYS": ("vacation_days_per_year", int),
    "FAIRYPOST_DEFAULT_DAYS": ("default_days", "days"),
    "FAIRYPOST_SAFETY_SWEEP_MINUTES": ("safety_sweep_minutes", int),
    "FAIRYPOST_NOTIFY_MAX_ATTEMPTS": ("notify_max_attempts", int),
    "FAIRYPOST_NOTIFY_RETRY_SECONDS": ("notify_retry_seconds", int),
    "DISCORD_TOKEN": ("discord_token", str),
    "FAIRYPOST_DISCORD_GUILD": ("discord_guild_id", int),
    "FAIRYPOST_DISCORD_MESSAGE_CONTENT": ("discord_message_content", bool),
    "FAIRYPOST_COMMAND_RATE": ("command_rate_per_minute", int),
    "FAIRYPOST_COMMAND_BURST": ("command_burst", int),
    "FAIRYPOST_MAX_INPUT": ("max_input_chars", int),
    "FAIRYPOST_RETENTION_DAYS": ("retention_days", int),
    "FAIRYPOST_VARIANTS_DIR": ("variants_dir", str),
    "FAIRYPOST_WEB_HOST": ("web_host", str),
    "FAIRYPOST_WEB_PORT": ("web_port", int),
    "FAIRYPOST_WEB_URL": ("web_url", str),
    "FAIRYPOST_WEB_SECRET": ("web_secret", str),
    "FAIRYPOST_WEB_MAX_STREAMS": ("web_max_streams", int),
    "FAIRYPOST_WEB_TRUSTED_PROXIES": ("web_trusted_proxies", "list"),
    "FAIRYPOST_EMAIL_ADDRESS": ("email_address", str),
    "FAIRYPOST_IMAP_URL": ("imap_url", str),
    "FAIRYPOST_SMTP_URL": ("smtp_url", str),
    "FAIRYPOST_EMAIL_SECRET": ("email_secret", str),
    "FAIRYPOST_CHALLENGE_DAYS": ("challenge_days", int),
    "FAIRYPOST_MAX_OPEN_CHALLENGES": ("max_open_challenges", int),
    "FAIRYPOST_MAX_CHALLENGES_PER_OPPONENT": ("max_challenges_per_opponent", int),
    "FAIRYPOST_CHALLENGE_WITHDRAWN_HOURS": ("challenge_withdrawn_hours", int),
    "FAIRYPOST_CHALLENGE_DECLINED_DAYS": ("challenge_declined_days", int),
    "FAIRYPOST_ROUND_ROBIN_MAX_PLAYERS": ("round_robin_max_players", int),
    "FAIRYPOST_COMPUTER_RETRY_SECONDS": ("computer_retry_seconds", int),
    "FAIRYPOST_COMPUTER_TELL_AFTER": ("computer_tell_after", int),
    "FAIRYPOST_COMPUTER_CORES": ("computer_cores", int),
    "FAIRYPOST_ALLOW_ENGINE_IN_CASUAL": ("allow_engine_in_casual", bool),
    "FAIRYPOST_EMAIL_CODE_RESEND_MINUTES": ("email_code_resend_minutes", int),
    "FAIRYPOST_EMAIL_CODES_PER_HOUR": ("email_codes_per_hour", int),
    "FAIRYPOST_TOURNAMENTS_PER_HOUR": ("tournaments_per_hour", int),
    "FAIRYPOST_TOURNAMENTS_TOTAL_PER_HOUR": ("tournaments_total_per_hour", int),
}


def _days_text() -> str:
    return ", ".join("none" if d is None else str(d) for d in ALLOWED_DAYS)


def parse_days(text: str | int | None) -> int | None:
    """'3' -> 3, 'none'/'' -> None; anything not in ALLOWED_DAYS is refused."""
    if isinstance(text, bool) or not isinstance(text, (str, int, type(None))):
        raise ConfigError(f"days per move must be one of {_days_text()}, not {text!r}")
    if text is None or isinstance(text, int):
        value = text
    else:
        t = text.strip().lower()
        if t in ("", "none", "no", "-", "unlimited"):
            value = None
        else:
            try:
                value = int(t)
            except ValueError:
                raise ConfigError(f"days per move must be one of {_days_text()}, not {text!r}") from None
    if value not in ALLOWED_DAYS:
        raise ConfigError(f"days per move must be one of {_days_text()}, not {text!r}")
    return value


def _split_list(text: str) -> tuple[str, ...]:
    """'a, b,,c' -> ('a', 'b', 'c')."""
    return tuple(part.strip() for part in text.split(",") if part.strip())


def _read_file(path: Path) -> dict[str, object]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise ConfigError(f"cannot read the configuration file {path}: {e.strerror}") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"bad configuration file {path}: {e}") from None
    if isinstance(data.get("fairypost"), dict):
        data = data["fairypost"]
    out: dict[str, object] = {}
    for key, value in data.items():
        if key not in _FILE_KEYS:
            raise ConfigError(f"unknown setting {key!r} in {path}")
        name = _FILE_KEYS[key]
        if name == "default_days" and isinstance(value, str):
            value = parse_days(value)
        if name in ("db_path", "variants_dir"):
            value = str(value)
        out[name] = value
    return out


#: File keys that hold a password or a key: a file with one should be its owner's alone.
_SECRET_KEYS = ("discord_token", "imap_url", "smtp_url", "email_secret", "web_secret")


def _warn_if_readable(path: Path, key: str = "discord_token") -> None:
    """One log line if a file holding the token may be read by other users (POSIX modes;
    Windows has ACLs instead, and its modes always show group and others bits)."""
    if os.name == "nt":
        return
    try:
        mode = path.stat().st_mode
    except OSError:
        return
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        what = "the Discord token" if key == "discord_token" else f"a secret ({key})"
        log.warning("the settings file %s holds %s and other users may read it "
                    "(mode %03o): chmod 600 %s", path, what, stat.S_IMODE(mode), path)


def _read_env(env: Mapping[str, str]) -> dict[str, object]:
    out: dict[str, object] = {}
    for var, (name, kind) in _ENV_KEYS.items():
        if var not in env:
            continue
        raw = env[var]
        if kind == "days":
            out[name] = parse_days(raw)
        elif kind == "list":
            out[name] = _split_list(raw)
        elif kind is bool:
            if raw.strip().lower() not in ("1", "true", "yes", "on", "0", "false", "no", "off", ""):
                raise ConfigError(f"{var} must be true or false, not {raw!r}")
            out[name] = raw.strip().lower() in ("1", "true", "yes", "on")
        elif kind is int:
            try:
                out[name] = int(raw)
            except ValueError:
                raise ConfigError(f"{var} must be a whole number, not {raw!r}") from None
        else:
            out[name] = raw
    return out


def data_dir(env: Mapping[str, str] | None = None) -> Path:
    """The user's data directory for fairypost: ``$XDG_DATA_HOME/fairypost`` or
    ``~/.local/share/fairypost`` (Linux and others), ``~/Library/Application
    Support/fairypost`` (macOS), ``%LOCALAPPDATA%\\fairypost`` (Windows)."""
    env = os.environ if env is None else env
    if sys.platform == "win32":
        base = env.get("LOCALAPPDATA") or env.get("APPDATA") or str(Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = str(Path.home() / "Library" / "Application Support")
    else:
        base = env.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "fairypost"
