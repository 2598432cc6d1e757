"""A supported language from what a front end knows of its reader.

Each function returns a code of ``LANGUAGES`` or None (nothing fits: the caller falls back,
in the end to English). Headers come from strangers: each is read only so far (4 KB, 32
entries), and nothing in them is trusted but a tag that names a language we have.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from .folders import LANGUAGES

_MAX_HEADER = 4096
_MAX_ENTRIES = 32
_TAG = re.compile(r"^[A-Za-z]{1,8}(?:[-_][A-Za-z0-9]{1,8})*$")


def supported(code: str | None) -> str | None:
    """"fr", "fr-FR", "fr_CA.UTF-8", "es-ES" -> "fr" or "es" if we have it (the exact
    region first, should a folder be one, then the language)."""
    if not code:
        return None
    tag = str(code)[:64].split(".")[0].split("@")[0].strip()
    if not _TAG.match(tag):
        return None
    tag = tag.replace("-", "_")
    lang, _, region = tag.partition("_")
    exact = f"{lang.lower()}_{region.upper()}" if region else lang.lower()
    for candidate in (exact, lang.lower()):
        if candidate in LANGUAGES:
            return candidate
    return None


def from_discord_locale(locale: object) -> str | None:
    """Discord's ``interaction.locale`` ("fr", "es-ES", "en-US"; a ``discord.Locale``)."""
    return supported(str(getattr(locale, "value", locale) or ""))


def from_accept_language(header: str | None) -> str | None:
    """The most wanted of ours in a browser's ``Accept-Language`` ("de-CH, de;q=0.9, en;q=0.8")."""
    if not header:
        return None
    wanted: list[tuple[float, int, str]] = []
    for i, entry in enumerate(header[:_MAX_HEADER].split(",")[:_MAX_ENTRIES]):
        tag, _, rest = entry.strip().partition(";")
        q = 1.0
        match = re.match(r"\s*q\s*=\s*([0-9.]{1,5})\s*$", rest)
        if rest and match:
            try:
                q = float(match.group(1))
            except ValueError:
                q = 0.0
        if q <= 0:
            continue
        code = supported(tag)
        if code:
            wanted.append((-q, i, code))
    return min(wanted)[2] if wanted else None


def from_content_language(header: str | None) -> str | None:
    """The first of ours a mail's ``Content-Language`` names ("fr-FR", "de, en")."""
    if not header:
        return None
    for tag in str(header)[:_MAX_HEADER].split(",")[:_MAX_ENTRIES]:
        code = supported(tag.strip())
        if code:
            return code
    return None


def from_environment(environ: Mapping[str, str]) -> str | None:
    """The terminal's language, as gettext reads it: ``LANGUAGE`` (a list), ``LC_ALL``,
    ``LC_MESSAGES``, then ``LANG``; "C" and "POSIX" name none."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        for tag in value.split(":") if name == "LANGUAGE" else (value,):
            if tag and tag not in ("C", "POSIX") and not tag.startswith("C."):
                code = supported(tag)
                if code:
                    return code
        if value and name != "LANGUAGE":
            return None  # the first one set decides, as in gettext
    return None
