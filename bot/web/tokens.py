"""Signed game links: ``/g/<id>/<token>``, the token an HMAC-SHA256 of the game id.

The secret is ``FAIRYPOST_WEB_SECRET`` (settings key ``web_secret``); when unset, one is
made once and kept in a file beside the database (``<db>.web-secret``, mode 600), so links
survive restarts and a new database (a new file) gets new links. A database on a server
(a URL) keeps it in the user's data folder instead: bots on several machines serving pages
for one database need ``FAIRYPOST_WEB_SECRET`` set alike on each.
"""

from __future__ import annotations

from pathlib import Path

from bot import signing

TOKEN_CHARS = 22  # 132 bits of the MAC: far beyond guessing, short enough for a chat line


def secret_file(db_path: str) -> Path:
    return signing.secret_file(db_path, "web")


def load_secret(web_secret: str | None, db_path: str) -> bytes:
    """The configured secret, else the one kept beside the database (made on first use)."""
    return signing.load_secret(web_secret, db_path, "web", "FAIRYPOST_WEB_SECRET")


def sign(secret: bytes, game_id: int) -> str:
    return signing.mac(secret, f"game:{int(game_id)}", TOKEN_CHARS)


def verify(secret: bytes, game_id: int, token: str) -> bool:
    return signing.verify(secret, f"game:{int(game_id)}", token, TOKEN_CHARS)


def game_url(base_url: str, secret: bytes, game_id: int) -> str:
    """The game's page under the public base URL (``FAIRYPOST_WEB_URL``)."""
    return f"{base_url.rstrip('/')}/g/{int(game_id)}/{sign(secret, game_id)}"
