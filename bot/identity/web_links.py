"""One-time sign-in links for the web site, for any front end: the site mails them
(bot/web/signin.py), Discord's ``/settings web`` gives one in an answer only its player
sees. A link works once, for ``LINK_SECONDS``; only the SHA-256 of its token is kept, in the
site's table ``web_signin_links`` (bot/web/schema.py), so that whichever process serves
the pages finds it."""

from __future__ import annotations

import hashlib
import secrets

from language.text import T

from ..domain.errors import SettingsError

LINK_SECONDS = 15 * 60
KEEP_USED_SECONDS = 86400  # a link's row kept this long after it expired (the mail budgets count them)


def hashed(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


async def add_link(tx, now: int, client: str, *, address: str | None = None,
                   player_id: int | None = None) -> str:
    """A new link (for an address, or a known player) written in ``tx``: its token."""
    token = secrets.token_urlsafe(32)
    await tx.execute("INSERT INTO web_signin_links (token_hash, address, player_id, client, "
                     "created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)",
                     (hashed(token), address, player_id, client[:64], now, now + LINK_SECONDS))
    await tx.execute("DELETE FROM web_signin_links WHERE expires_at < ?", (now - KEEP_USED_SECONDS,))
    return token


async def signin_url(service, player_id: int, front_end: str) -> str:
    """A one-time link signing ``player_id`` in on the site (``FAIRYPOST_WEB_URL``)."""
    web_url = service.settings.web_url
    if not web_url:
        raise SettingsError(T("this bot has no web site ({variable} is not set)", variable="FAIRYPOST_WEB_URL"))
    now = int(service.clock.now().timestamp())
    async with service.store.write() as tx:
        token = await add_link(tx, now, front_end, player_id=player_id)
    return f"{web_url.rstrip('/')}/signin/{token}"
