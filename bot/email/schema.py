"""The email adapter's own tables, as its own migrations (owner ``email``, versioned apart
from the core's; the store runs them after the core's, as their rows refer to the core's).

Databases made before adapters owned their tables already have these (the core's version
10 made them): the first migration makes each only if it is missing, so an existing
database keeps its tables and rows and a new one ends up with the same. Append new
entries; never change one that has shipped.
"""

from __future__ import annotations

from ..store import Schema

# Each mail read, kept until handled (so a crash between reading and acting loses nothing,
# and a mail read twice is handled once); the mails the bot sends, each once, retried; the
# players' addresses (a mail player's own, or one a Discord player linked with a mailed
# code) and their hard bounces.
_V1_TABLES = (
    """CREATE TABLE IF NOT EXISTS email_inbox (
        message_key  TEXT PRIMARY KEY,
        raw          BLOB NOT NULL,
        received_at  INTEGER NOT NULL,
        handled_at   INTEGER
    )""",
    "CREATE INDEX IF NOT EXISTS email_inbox_unhandled ON email_inbox (handled_at, received_at)",
    """CREATE TABLE IF NOT EXISTS email_outbox (
        id          INTEGER PRIMARY KEY,
        dedupe_key  TEXT NOT NULL UNIQUE,
        recipient   TEXT NOT NULL,
        message     BLOB NOT NULL,
        created_at  INTEGER NOT NULL,
        attempts    INTEGER NOT NULL DEFAULT 0,
        next_at     INTEGER NOT NULL,
        sent_at     INTEGER,
        dropped     TEXT
    )""",
    "CREATE INDEX IF NOT EXISTS email_outbox_due ON email_outbox (sent_at, dropped, next_at)",
    """CREATE TABLE IF NOT EXISTS email_addresses (
        address       TEXT PRIMARY KEY,
        player_id     INTEGER NOT NULL REFERENCES players(id),
        confirmed_at  INTEGER NOT NULL,
        hard_bounces  INTEGER NOT NULL DEFAULT 0,
        stopped_at    INTEGER,
        notices       INTEGER NOT NULL DEFAULT 0
    )""",
    "CREATE INDEX IF NOT EXISTS email_addresses_by_player ON email_addresses (player_id)",
    """CREATE TABLE IF NOT EXISTS email_links (
        address     TEXT NOT NULL,
        player_id   INTEGER NOT NULL REFERENCES players(id),
        code        TEXT NOT NULL,
        expires_at  INTEGER NOT NULL,
        tries       INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (player_id, address)
    )""",
)

# Several processes read one mailbox (PostgreSQL): a kept mail is handled by the one that
# claims it (bot/email/receiving.py), for a lease, as the core's notices are claimed.
_V2_INBOX_CLAIMS = (
    "ALTER TABLE email_inbox ADD COLUMN claimed_by TEXT",
    "ALTER TABLE email_inbox ADD COLUMN lease_until INTEGER",
)

# Bounces that prove themselves and recover (bot/email/sending.py): when the last one came,
# so that old ones are forgotten; the answers to one address in the last hour (the loop
# breaker) and a bounce's mail found by id and recipient.
_V3_BOUNCES = (
    "ALTER TABLE email_addresses ADD COLUMN last_bounce_at INTEGER",
    "CREATE INDEX IF NOT EXISTS email_outbox_by_recipient ON email_outbox (recipient, created_at)",
)

# A mail's bounce counts once (a report sent twice, or a second report of the same mail,
# counts for nothing): when the mail's first failure report was counted.
_V4_BOUNCED_MAILS = (
    "ALTER TABLE email_outbox ADD COLUMN bounced_at INTEGER",
)

# A mail to send is claimed by a process life (taken over at once when that process is gone,
# as the inbox's and the notices' claims are), and marked when it was handed to the server
# (the end of its DATA): a mail whose sender died after that is not sent again (issue #45).
_V5_OUTBOX_CLAIMS = (
    "ALTER TABLE email_outbox ADD COLUMN claimed_by TEXT",
    "ALTER TABLE email_outbox ADD COLUMN handed_at INTEGER",
)

SCHEMA = Schema("email", (_V1_TABLES, _V2_INBOX_CLAIMS, _V3_BOUNCES, _V4_BOUNCED_MAILS,
                          _V5_OUTBOX_CLAIMS))
