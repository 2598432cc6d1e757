"""The one HMAC-SHA256 signing helper: game page links (bot/identity/page_tokens.py) and mail reply
addresses (bot/email/tokens.py) both sign short texts with it."""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
from pathlib import Path

from ..config import data_dir
from ..store import database_file


def mac(secret: bytes, message: str, chars: int, *, hex: bool = False) -> str:
    """The first ``chars`` characters of the HMAC-SHA256 of ``message``: URL-safe base64,
    or lower-case hex (``hex=True``: for places that may change letters' case, such as the
    local part of a mail address)."""
    digest = hmac.new(secret, message.encode("utf-8"), hashlib.sha256).digest()
    text = digest.hex() if hex else base64.urlsafe_b64encode(digest).decode("ascii")
    return text[:chars]


def verify(secret: bytes, message: str, token: str, chars: int, *, hex: bool = False) -> bool:
    """Whether ``token`` is ``message``'s MAC (compared in constant time)."""
    if hex:
        token = token.lower()
    return hmac.compare_digest(mac(secret, message, chars, hex=hex).encode("ascii"),
                               token.encode("utf-8", "replace"))


def secret_file(db_path: str, kind: str) -> Path:
    """``<database>.<kind>-secret``, beside the database; for a database on a server (a
    URL), ``server-database.<kind>-secret`` in the user's data folder (processes on several
    machines must then be given the secret alike)."""
    file = database_file(db_path)
    if file is None:
        return data_dir() / f"server-database.{kind}-secret"
    return file.resolve().with_name(f"{file.name}.{kind}-secret")


def load_secret(configured: str | None, db_path: str, kind: str, variable: str) -> bytes:
    """The configured secret, else the one kept beside the database (made on first use,
    mode 600), so that what was signed stays valid across restarts."""
    if configured:
        return configured.encode("utf-8")
    path = secret_file(db_path, kind)
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        try:  # O_EXCL: two programs starting together keep one secret, the first
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        else:
            with os.fdopen(fd, "w", encoding="ascii") as f:
                f.write(secrets.token_urlsafe(32) + "\n")
    text = path.read_text(encoding="ascii").strip()
    if not text:
        raise ValueError(f"the secret file {path} is empty: delete it (a new one is made; "
                         f"what was signed so far stops working) or set {variable}")
    return text.encode("ascii")


#: The secrets made once beside a database: (kind, settings key, the variable that sets it).
#: What they signed (game links; reply addresses of mails) is out in the world, so a copy
#: of the database must take them along (``fairypost db copy``; issue #45).
KEPT_SECRETS = (("web", "web_secret", "FAIRYPOST_WEB_SECRET"),
                ("email", "email_secret", "FAIRYPOST_EMAIL_SECRET"))


class SecretsDiffer(ValueError):
    """The target database already has a secret of its own, other than the source's."""


def _read_kept(path: Path) -> str | None:
    try:
        return path.read_text(encoding="ascii").strip() or None
    except FileNotFoundError:
        return None


def plan_secret_copy(configured: dict[str, str | None], source: str, target: str
                     ) -> list[tuple[Path, str, str]]:
    """What copying the database ``source`` to ``target`` must write so that its links and
    replies keep working: (the target's secret file, its text, a line to say) per secret kept
    beside the source; the secrets set in ``configured`` (settings key -> value) are the
    operator's to set alike and are not written. Raises ``SecretsDiffer`` (saying how to
    settle it) when the target already keeps another secret: nothing is written then, and
    the caller must not copy."""
    plan = []
    for kind, key, variable in KEPT_SECRETS:
        if configured.get(key):
            continue
        source_file, target_file = secret_file(source, kind), secret_file(target, kind)
        text = _read_kept(source_file)
        if text is None:  # never made: nothing was signed with it
            continue
        there = _read_kept(target_file)
        if there == text:
            continue
        if there is not None:
            raise SecretsDiffer(
                f"the target already has a {kind} secret ({target_file}) other than the source's "
                f"({source_file}): with it, every {_SIGNED[kind]} given out before the copy "
                f"would stop working. Delete {target_file} (the source's is copied there), or "
                f"set {variable} to the text of {source_file} for the copy and for every "
                f"process on the target")
        plan.append((target_file, text, f"{kind} secret: {source_file} copied to {target_file}"
                                        + _SERVER_NOTE.format(variable=variable)
                                        * (database_file(target) is None)))
    return plan


_SIGNED = {"web": "game link", "email": "reply to a mail"}
_SERVER_NOTE = (" (processes on other machines must be given it alike: set {variable} to its "
                "text there)")


def write_secret_copy(plan: list[tuple[Path, str, str]]) -> list[str]:
    """Write what ``plan_secret_copy`` planned (each file new, mode 600); the lines to say.
    Raises ``SecretsDiffer`` if another secret was made there since."""
    lines = []
    for path, text, line in plan:
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            if _read_kept(path) != text:
                raise SecretsDiffer(f"a secret was made at {path} during the copy: delete it and "
                                    f"copy the source's there") from None
        else:
            with os.fdopen(fd, "w", encoding="ascii") as f:
                f.write(text + "\n")
        lines.append(line)
    return lines
