"""Signed game links: ``/g/<id>/<token>``, the token an HMAC-SHA256 of the game id.

The secret is ``FAIRYPOST_WEB_SECRET`` (settings key ``web_secret``); when unset, one is
made once and kept in a file beside the database (``<db>.web-secret``, mode 600), so links
survive restarts and a new database (a new file) gets new links. A database on a server
(a URL) keeps it in the user's data folder instead: bots on several machines serving pages
for one database need ``FAIRYPOST_WEB_SECRET`` set alike on each.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
from pathlib import Path

from bot.config import data_dir
from bot.store import database_file

TOKEN_CHARS = 22  # 132 bits of the MAC: far beyond guessing, short enough for a chat line


def secret_file(db_path: str) -> Path:
    file = database_file(db_path)
    if file is None:
        return data_dir() / "server-database.web-secret"
    return file.resolve().with_name(file.name + ".web-secret")


def load_secret(web_secret: str | None, db_path: str) -> bytes:
    """The configured secret, else the one kept beside the database (made on first use)."""
    if web_secret:
        return web_secret.encode("utf-8")
    path = secret_file(db_path)
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        try:  # O_EXCL: a bot and `fairypost web` starting together keep one secret, the first
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        else:
            with os.fdopen(fd, "w", encoding="ascii") as f:
                f.write(secrets.token_urlsafe(32) + "\n")
    text = path.read_text(encoding="ascii").strip()
    if not text:
        raise ValueError(f"the web secret file {path} is empty: delete it (a new one is made; "
                         "links given so far stop working) or set FAIRYPOST_WEB_SECRET")
    return text.encode("ascii")


def sign(secret: bytes, game_id: int) -> str:
    mac = hmac.new(secret, f"game:{int(game_id)}".encode("ascii"), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).decode("ascii")[:TOKEN_CHARS]


def verify(secret: bytes, game_id: int, token: str) -> bool:
    return hmac.compare_digest(sign(secret, game_id).encode("ascii"),
                               token.encode("utf-8", "replace"))


def game_url(base_url: str, secret: bytes, game_id: int) -> str:
    """The game's page under the public base URL (``FAIRYPOST_WEB_URL``)."""
    return f"{base_url.rstrip('/')}/g/{int(game_id)}/{sign(secret, game_id)}"
