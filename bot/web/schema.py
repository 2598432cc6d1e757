"""The web site's own tables, as its own migrations (owner ``web``, versioned apart from
the core's; listed in bot/schemas.py). Append new entries; never change one that has shipped.

    web_signin_links  each sign-in link mailed (or given on Discord): kept as the SHA-256 of
                      its token, for whom (an address, or a player), the client that asked
                      (the budgets count these rows), when it expires and when it was used
    web_sessions      each signed-in browser: the SHA-256 of its cookie, the player, when
                      it ends by itself and when it was signed out
"""

from __future__ import annotations

from ..store import Schema

_V1_TABLES = (
    """CREATE TABLE IF NOT EXISTS web_signin_links (
        token_hash  TEXT PRIMARY KEY,
        address     TEXT,
        player_id   INTEGER REFERENCES players(id),
        client      TEXT NOT NULL,
        created_at  INTEGER NOT NULL,
        expires_at  INTEGER NOT NULL,
        used_at     INTEGER
    )""",
    "CREATE INDEX IF NOT EXISTS web_signin_by_address ON web_signin_links (address, created_at)",
    "CREATE INDEX IF NOT EXISTS web_signin_by_client ON web_signin_links (client, created_at)",
    """CREATE TABLE IF NOT EXISTS web_sessions (
        token_hash  TEXT PRIMARY KEY,
        player_id   INTEGER NOT NULL REFERENCES players(id),
        created_at  INTEGER NOT NULL,
        expires_at  INTEGER NOT NULL,
        ended_at    INTEGER
    )""",
)

# the sign-in mails' total budget an hour (signin.MAILS_PER_HOUR) and the sweep's prune
_V2_BY_TIME = (
    "CREATE INDEX IF NOT EXISTS web_signin_by_time ON web_signin_links (created_at)",
    "CREATE INDEX IF NOT EXISTS web_sessions_by_end ON web_sessions (expires_at)",
)

SCHEMA = Schema("web", (_V1_TABLES, _V2_BY_TIME))
