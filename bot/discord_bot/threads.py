"""Where things are on Discord, kept in the game database (the adapter's own ``chat_*``
tables: ``schema.py`` makes them, ``tables.py`` queries them):
each game's thread and latest board message, each challenge's message, and where each
player wants notices (``dm`` or ``channel``)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.store import Store

from . import PLATFORM
from .tables import ChatChallengeRow, ChatTables, ChatThreadRow, ChatTournamentRow


@dataclass(frozen=True)
class NotifyPref:
    notify: str = "dm"  # 'dm' or 'channel'
    guild_id: int | None = None
    channel_id: int | None = None


def _id(text: str | None) -> int | None:
    return int(text) if text else None


class Links:
    def __init__(self, store: Store):
        self.store = store

    # games and their threads
    async def set_thread(self, game_id: int, guild_id: int | None, channel_id: int, thread_id: int) -> None:
        async with self.store.write() as tx:
            await ChatTables(tx).set_game_thread(game_id, PLATFORM, str(guild_id) if guild_id else None,
                                     str(channel_id), str(thread_id))

    async def thread_of(self, game_id: int) -> ChatThreadRow | None:
        async with self.store.read() as tx:
            row = await ChatTables(tx).game_thread(game_id)
        return row if row is not None and row.platform == PLATFORM else None

    async def games_in(self, thread_id: int) -> list[int]:
        async with self.store.read() as tx:
            return await ChatTables(tx).thread_games(PLATFORM, str(thread_id))

    async def set_board_message(self, game_id: int, message_id: int | None) -> None:
        async with self.store.row_write() as tx:  # one statement on one row: beside other writes
            await ChatTables(tx).set_board_message(game_id, str(message_id) if message_id else None)

    # challenges and their messages
    async def set_challenge_message(self, challenge_id: int, guild_id: int | None, channel_id: int,
                                    message_id: int | None) -> None:
        async with self.store.write() as tx:
            await ChatTables(tx).set_challenge_message(challenge_id, PLATFORM, str(guild_id) if guild_id else None,
                                           str(channel_id), str(message_id) if message_id else None)

    async def challenge_message(self, challenge_id: int) -> ChatChallengeRow | None:
        async with self.store.read() as tx:
            return await ChatTables(tx).challenge_message(challenge_id)

    # the messages that carry an offer's buttons (to disable once it is settled)
    async def remember_offer_message(self, what: str, ref_id: int, channel: str, message_id: int) -> None:
        """``channel``: a channel's id, or '@' and a user's id for their direct messages."""
        async with self.store.row_write() as tx:  # a row of its own
            await ChatTables(tx).add_offer_message(what, ref_id, PLATFORM, channel, str(message_id))

    async def take_offer_messages(self, what: str, ref_id: int,
                                  message_ids: list[int] | None = None) -> list[tuple[str, int]]:
        """The messages carrying the offer's buttons (of ``message_ids`` only, if given: a
        handler that has just edited them itself), forgotten."""
        ids = None if message_ids is None else [str(m) for m in message_ids if m]
        async with self.store.write() as tx:
            rows = await ChatTables(tx).take_offer_messages(what, ref_id, PLATFORM, ids)
        return [(channel, int(mid)) for channel, mid in rows]

    # tournaments: where each was announced, and the thread of its news
    async def set_tournament_place(self, tournament_id: int, guild_id: int | None, channel_id: int,
                                   message_id: int | None, news_id: int) -> None:
        async with self.store.write() as tx:
            await ChatTables(tx).set_tournament_place(ChatTournamentRow(
                tournament_id, PLATFORM, str(guild_id) if guild_id else None, str(channel_id),
                str(message_id) if message_id else None, str(news_id)))

    async def tournament_place(self, tournament_id: int) -> ChatTournamentRow | None:
        async with self.store.read() as tx:
            return await ChatTables(tx).tournament_place(tournament_id, PLATFORM)

    # where a player's notices go
    async def notify_pref(self, player_id: int) -> NotifyPref:
        async with self.store.read() as tx:
            row = await ChatTables(tx).chat_pref(player_id)
        if row is None:
            return NotifyPref()
        return NotifyPref(row.notify, _id(row.guild_id), _id(row.channel_id))

    async def set_notify_pref(self, player_id: int, pref: NotifyPref) -> None:
        async with self.store.write() as tx:
            await ChatTables(tx).set_chat_pref(player_id, pref.notify,
                                   str(pref.guild_id) if pref.guild_id else None,
                                   str(pref.channel_id) if pref.channel_id else None)
