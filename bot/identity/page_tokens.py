"""Signed game links: ``/g/<id>/<token>``, the token an HMAC-SHA256 of the game id (a
link to watch), or of the game id and a side (a player's own link, that lets them play
that side: ``side_url``).

The secret is ``FAIRYPOST_WEB_SECRET`` (settings key ``web_secret``); when unset, one is
made once and kept in a file beside the database (``<db>.web-secret``, mode 600), so links
survive restarts and a new database (a new file) gets new links. A database on a server
(a URL) keeps it in the user's data folder instead: bots on several machines serving pages
for one database need ``FAIRYPOST_WEB_SECRET`` set alike on each.
"""

from __future__ import annotations

from pathlib import Path

from bot.identity import signing

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


SIDES = {"white": "w", "black": "b"}


def sign_side(secret: bytes, game_id: int, side: str) -> str:
    """The token of a player's own link: ``side`` is "w" or "b"."""
    if side not in ("w", "b"):
        raise ValueError(f"a side is 'w' or 'b', not {side!r}")
    return signing.mac(secret, f"game:{int(game_id)}:side:{side}", TOKEN_CHARS)


def role(secret: bytes, game_id: int, token: str) -> str | None:
    """What ``token`` lets its holder do in the game: "w" or "b" (play that side), ""
    (watch), None (nothing: a forged or altered token). All three are checked, each in
    constant time, whichever matches."""
    found = None
    for side in ("b", "w"):
        if signing.verify(secret, f"game:{int(game_id)}:side:{side}", token, TOKEN_CHARS):
            found = side
    if verify(secret, game_id, token):
        found = ""
    return found


def side_url(base_url: str, secret: bytes, game_id: int, side: str) -> str:
    """A player's own page, that lets them play ``side`` ("w" or "b")."""
    return f"{base_url.rstrip('/')}/g/{int(game_id)}/{sign_side(secret, game_id, side)}"


def game_url(base_url: str, secret: bytes, game_id: int) -> str:
    """The game's page under the public base URL (``FAIRYPOST_WEB_URL``)."""
    return f"{base_url.rstrip('/')}/g/{int(game_id)}/{sign(secret, game_id)}"


# A tournament's page (bot/web/tournament_page.py): a link to watch the event and its games.

def sign_tournament(secret: bytes, tournament_id: int) -> str:
    return signing.mac(secret, f"tournament:{int(tournament_id)}", TOKEN_CHARS)


def verify_tournament(secret: bytes, tournament_id: int, token: str) -> bool:
    return signing.verify(secret, f"tournament:{int(tournament_id)}", token, TOKEN_CHARS)


def tournament_url(base_url: str, secret: bytes, tournament_id: int) -> str:
    """The tournament's page under the public base URL."""
    return f"{base_url.rstrip('/')}/t/{int(tournament_id)}/{sign_tournament(secret, tournament_id)}"
