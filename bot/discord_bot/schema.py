"""The Discord adapter's own tables, as its own migrations (owner ``discord``, versioned apart
from the core's; the store runs them after the core's, as their rows refer to the core's).

Databases made before adapters owned their tables already have these (the core's versions 2
and 9 made them): the first migration makes each only if it is missing, so an existing
database keeps its tables and rows and a new one ends up with the same. Append new
entries; never change one that has shipped.
"""

from __future__ import annotations

from ..store import Schema

# Where the adapter shows things: a game's thread and its latest board message, a
# challenge's message, where a player's notifications go; and which messages carry the
# buttons of a challenge, a draw offer or a takeback request, so that they are disabled once
# it is settled. Ids are Discord's, as text. And the server (scope) of the challenges and
# games made before scopes existed, which only these tables say (rows without one only).
_V1_TABLES = (
    """CREATE TABLE IF NOT EXISTS chat_threads (
        game_id           INTEGER PRIMARY KEY REFERENCES games(id),
        platform          TEXT NOT NULL,
        guild_id          TEXT,
        channel_id        TEXT NOT NULL,
        thread_id         TEXT NOT NULL,
        board_message_id  TEXT
    )""",
    "CREATE INDEX IF NOT EXISTS chat_threads_by_thread ON chat_threads (platform, thread_id)",
    """CREATE TABLE IF NOT EXISTS chat_challenges (
        challenge_id  INTEGER PRIMARY KEY REFERENCES challenges(id),
        platform      TEXT NOT NULL,
        guild_id      TEXT,
        channel_id    TEXT NOT NULL,
        message_id    TEXT
    )""",
    """CREATE TABLE IF NOT EXISTS chat_prefs (
        player_id   INTEGER PRIMARY KEY REFERENCES players(id),
        notify      TEXT NOT NULL DEFAULT 'dm' CHECK (notify IN ('dm', 'channel')),
        guild_id    TEXT,
        channel_id  TEXT
    )""",
    """CREATE TABLE IF NOT EXISTS chat_offer_messages (
        what        TEXT NOT NULL CHECK (what IN ('challenge', 'draw', 'takeback')),
        ref_id      INTEGER NOT NULL,
        platform    TEXT NOT NULL,
        channel_id  TEXT NOT NULL,
        message_id  TEXT NOT NULL,
        PRIMARY KEY (what, ref_id, platform, channel_id, message_id)
    )""",
    """UPDATE challenges SET scope = (
        SELECT 'discord:guild:' || m.guild_id FROM chat_challenges m
        WHERE m.challenge_id = challenges.id AND m.platform = 'discord' AND m.guild_id IS NOT NULL)
    WHERE scope IS NULL""",
    """UPDATE games SET scope = (
        SELECT 'discord:guild:' || t.guild_id FROM chat_threads t
        WHERE t.game_id = games.id AND t.platform = 'discord' AND t.guild_id IS NOT NULL)
    WHERE scope IS NULL""",
)

# A tournament's announcement on a server: the message with its Join button, in its channel,
# and the thread (or, where none could be opened, the channel) its news are posted in.
_V2_TOURNAMENTS = (
    """CREATE TABLE chat_tournaments (
        tournament_id  INTEGER PRIMARY KEY REFERENCES tournaments(id),
        platform       TEXT NOT NULL,
        guild_id       TEXT,
        channel_id     TEXT NOT NULL,
        message_id     TEXT,
        news_id        TEXT NOT NULL
    )""",
)

SCHEMA = Schema("discord", (_V1_TABLES, _V2_TOURNAMENTS))
