"""The mail servers' URLs: ``imap://user:password@host:port/MAILBOX`` (``imaps://`` for TLS)
and ``smtp://user:password@host:port`` (``smtps://`` for TLS). Plain ``imap://`` and
``smtp://`` upgrade with STARTTLS, and refuse to go on (no login, no mail) when the server
does not offer it, so a password never crosses the network in clear; only ``?tls=off``, for
a test server on this machine (127.0.0.1, ::1, localhost), talks in clear. User and password
are percent-encoded in the URL (``%40`` for an ``@`` in a user name)."""

from __future__ import annotations

from dataclasses import dataclass, field
from email.utils import parseaddr
from urllib.parse import parse_qs, unquote, urlsplit

DEFAULT_PORTS = {"imap": 143, "imaps": 993, "smtp": 25, "smtps": 465}
LOOPBACK = ("127.0.0.1", "::1", "localhost")


class MailSettingError(ValueError):
    """A mail setting that cannot be used (bot/config.py says it as a ConfigError)."""


@dataclass(frozen=True)
class MailServer:
    scheme: str
    host: str
    port: int
    user: str | None = None
    password: str | None = field(default=None, repr=False)
    mailbox: str = "INBOX"  # IMAP only
    clear: bool = False  # ?tls=off: no STARTTLS (a test server on this machine only)

    @property
    def tls(self) -> bool:
        """Whether the connection is TLS from the start (imaps, smtps)."""
        return self.scheme.endswith("s")

    @property
    def starttls(self) -> bool:
        """Whether the connection must be upgraded with STARTTLS before anything is sent."""
        return not self.tls and not self.clear


def parse_server_url(url: str, kinds: tuple[str, str], variable: str) -> MailServer:
    """A MailServer from its URL; ValueError naming the setting and what is wrong."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError as e:
        raise MailSettingError(f"{variable}: {e}") from None
    if parts.scheme not in kinds:
        raise MailSettingError(f"{variable} must start with {kinds[0]}:// or {kinds[1]}://, "
                          f"not {url.split(':', 1)[0]!r}")
    if not parts.hostname:
        raise MailSettingError(f"{variable} names no server: write {kinds[0]}://user:password@host:port")
    mailbox = unquote(parts.path.strip("/")) or "INBOX"
    query = parse_qs(parts.query, keep_blank_values=True)
    unknown = sorted(set(query) - {"tls"})
    if unknown or any(v != ["off"] for v in query.values()):
        raise MailSettingError(f"{variable}: the only option is ?tls=off (for a test server on "
                               f"this machine), not ?{parts.query}")
    clear = "tls" in query
    if clear and parts.scheme.endswith("s"):
        raise MailSettingError(f"{variable}: {parts.scheme}:// is TLS; ?tls=off goes with "
                               f"{parts.scheme[:-1]}:// only")
    if clear and parts.hostname.lower() not in LOOPBACK:
        raise MailSettingError(f"{variable}: ?tls=off would send the password in clear to "
                               f"{parts.hostname}; it is only for a test server on this machine "
                               "(127.0.0.1): use STARTTLS (leave ?tls=off out) or "
                               f"{parts.scheme}s://")
    return MailServer(parts.scheme, parts.hostname, port or DEFAULT_PORTS[parts.scheme],
                      unquote(parts.username) if parts.username else None,
                      unquote(parts.password) if parts.password else None, mailbox, clear)


def imap_server(url: str) -> MailServer:
    return parse_server_url(url, ("imap", "imaps"), "FAIRYPOST_IMAP_URL")


def smtp_server(url: str) -> MailServer:
    return parse_server_url(url, ("smtp", "smtps"), "FAIRYPOST_SMTP_URL")


def check_address(address: str, variable: str = "FAIRYPOST_EMAIL_ADDRESS") -> str:
    """The address alone (lower-case domain); MailSettingError if it is not one."""
    _name, addr = parseaddr(address)
    if not addr or addr.count("@") != 1 or not all(addr.split("@")) or addr != address.strip():
        raise MailSettingError(f"{variable} must be a mail address such as bot@example.org, not {address!r}")
    local, domain = addr.split("@")
    return f"{local}@{domain.lower()}"


def check_settings(settings) -> None:
    """All three of the bot's address and both URLs, or none; each well formed."""
    given = {"FAIRYPOST_EMAIL_ADDRESS": settings.email_address,
             "FAIRYPOST_IMAP_URL": settings.imap_url, "FAIRYPOST_SMTP_URL": settings.smtp_url}
    missing = [k for k, v in given.items() if not v]
    if missing:
        raise MailSettingError(f"play by email needs {', '.join(given)}; {', '.join(missing)} "
                          f"{'is' if len(missing) == 1 else 'are'} not set")
    check_address(settings.email_address)
    imap_server(settings.imap_url)
    smtp_server(settings.smtp_url)
    if "+" in settings.email_address.split("@")[0]:
        raise MailSettingError("FAIRYPOST_EMAIL_ADDRESS must have no '+': the bot adds its reply "
                          "tokens after one (bot+g42-p7-...@)")
