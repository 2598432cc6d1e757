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
