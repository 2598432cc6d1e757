"""The Discord adapter's queries on its own tables (made by ``schema.py`` beside this), and
their rows: the adapter owns its tables' migrations and their queries; the core store knows
neither. ``ChatTables(tx)`` runs them in a transaction of the store (``store.read()`` or
``store.write()``) through ``Tx``'s public statement API.

Ids are the platform's own, as text; ``platform`` is kept with each row (one chat platform's
rows never answer another's)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.store import Tx


@dataclass(frozen=True)
class ChatThreadRow:
    game_id: int
    platform: str
    guild_id: str | None
    channel_id: str
    thread_id: str
    board_message_id: str | None


@dataclass(frozen=True)
class ChatChallengeRow:
    challenge_id: int
    platform: str
    guild_id: str | None
    channel_id: str
    message_id: str | None


@dataclass(frozen=True)
class ChatPrefRow:
    player_id: int
    notify: str
    guild_id: str | None
    channel_id: str | None


@dataclass(frozen=True)
class ChatTournamentRow:
    tournament_id: int
    platform: str
    guild_id: str | None
    channel_id: str
    message_id: str | None
    news_id: str


class ChatTables:
    """The chat tables as seen from one transaction."""

    def __init__(self, tx: Tx):
        self.tx = tx

    # a game's thread and its latest board message
    async def set_game_thread(self, game_id: int, platform: str, guild_id: str | None,
                              channel_id: str, thread_id: str) -> None:
        await self.tx.execute(
            "INSERT INTO chat_threads (game_id, platform, guild_id, channel_id, thread_id) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET "
            "platform = excluded.platform, guild_id = excluded.guild_id, "
            "channel_id = excluded.channel_id, thread_id = excluded.thread_id, "
            "board_message_id = NULL", (game_id, platform, guild_id, channel_id, thread_id))

    async def game_thread(self, game_id: int) -> ChatThreadRow | None:
        return await self.tx.fetch_one("SELECT * FROM chat_threads WHERE game_id = ?", (game_id,),
                                       into=ChatThreadRow)

    async def thread_games(self, platform: str, thread_id: str) -> list[int]:
        rows = await self.tx.fetch_all("SELECT game_id FROM chat_threads WHERE platform = ? "
                                       "AND thread_id = ? ORDER BY game_id", (platform, thread_id))
        return [r[0] for r in rows]

    async def set_board_message(self, game_id: int, message_id: str | None) -> None:
        await self.tx.execute("UPDATE chat_threads SET board_message_id = ? WHERE game_id = ?",
                              (message_id, game_id))

    # a challenge's message
    async def set_challenge_message(self, challenge_id: int, platform: str, guild_id: str | None,
                                    channel_id: str, message_id: str | None) -> None:
        await self.tx.execute(
            "INSERT INTO chat_challenges (challenge_id, platform, guild_id, channel_id, message_id) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (challenge_id) DO UPDATE SET "
            "platform = excluded.platform, guild_id = excluded.guild_id, "
            "channel_id = excluded.channel_id, message_id = excluded.message_id",
            (challenge_id, platform, guild_id, channel_id, message_id))

    async def challenge_message(self, challenge_id: int) -> ChatChallengeRow | None:
        return await self.tx.fetch_one("SELECT * FROM chat_challenges WHERE challenge_id = ?",
                                       (challenge_id,), into=ChatChallengeRow)

    # a tournament's announcement and the thread of its news
    async def set_tournament_place(self, row: ChatTournamentRow) -> None:
        await self.tx.execute(
            "INSERT INTO chat_tournaments (tournament_id, platform, guild_id, channel_id, message_id, news_id) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (tournament_id) DO NOTHING",
            (row.tournament_id, row.platform, row.guild_id, row.channel_id, row.message_id, row.news_id))

    async def tournament_place(self, tournament_id: int, platform: str) -> ChatTournamentRow | None:
        return await self.tx.fetch_one("SELECT * FROM chat_tournaments WHERE tournament_id = ? AND platform = ?",
                                       (tournament_id, platform), into=ChatTournamentRow)

    # where a player's notices go
    async def set_chat_pref(self, player_id: int, notify: str, guild_id: str | None,
                            channel_id: str | None) -> None:
        await self.tx.execute(
            "INSERT INTO chat_prefs (player_id, notify, guild_id, channel_id) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (player_id) DO UPDATE SET notify = excluded.notify, "
            "guild_id = excluded.guild_id, channel_id = excluded.channel_id",
            (player_id, notify, guild_id, channel_id))

    async def chat_pref(self, player_id: int) -> ChatPrefRow | None:
        return await self.tx.fetch_one("SELECT * FROM chat_prefs WHERE player_id = ?", (player_id,),
                                       into=ChatPrefRow)

    # the messages that carry an offer's buttons (a challenge's, a draw offer's, a takeback's)
    async def add_offer_message(self, what: str, ref_id: int, platform: str, channel_id: str,
                                message_id: str) -> None:
        await self.tx.execute(
            "INSERT INTO chat_offer_messages (what, ref_id, platform, channel_id, message_id) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (what, ref_id, platform, channel_id, message_id))

    async def take_offer_messages(self, what: str, ref_id: int, platform: str,
                                  message_ids: Sequence[str] | None = None) -> list[tuple[str, str]]:
        """The (channel, message) ids carrying this offer's buttons (only these messages',
        if given), forgotten as they are read."""
        where = "WHERE what = ? AND ref_id = ? AND platform = ?"
        key: tuple = (what, ref_id, platform)
        if message_ids is not None:
            where += f" AND message_id IN ({', '.join('?' for _ in message_ids) or 'NULL'})"
            key += tuple(message_ids)
        rows = await self.tx.fetch_all(f"SELECT channel_id, message_id FROM chat_offer_messages {where}",
                                       key)
        await self.tx.execute(f"DELETE FROM chat_offer_messages {where}", key)
        return [(r[0], r[1]) for r in rows]
