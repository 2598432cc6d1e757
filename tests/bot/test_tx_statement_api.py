"""``Tx``'s public statement API, with which an adapter queries its own tables (made by its
own migrations), on every database: one SQL text with ``?`` placeholders, rows by name or
position or as a dataclass, new ids, rows changed, the store's errors, the dialect. And the
adapters' own query modules on it (bot/discord_bot/tables.py, bot/email/tables.py)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from bot.discord_bot.tables import ChatTables, ChatThreadRow
from bot.domain.errors import IntegrityError
from bot.email.tables import EmailTables
from bot.schemas import ADAPTER_SCHEMAS
from bot.store import Schema, Store

pytestmark = pytest.mark.contract

# an owner of its own (as an adapter is): a table with an id, one with a unique name
NOTES = Schema("notes", ((
    "CREATE TABLE notes (id INTEGER PRIMARY KEY, player_id INTEGER REFERENCES players(id), "
    "body TEXT NOT NULL UNIQUE, stars INTEGER NOT NULL DEFAULT 0)",),))


@dataclass(frozen=True)
class Note:
    id: int
    body: str
    stars: int


async def test_an_owner_queries_its_own_table(db_target):
    store = await Store.open(db_target, schemas=[NOTES])
    try:
        async with store.write() as tx:
            first = await tx.insert("INSERT INTO notes (body) VALUES (?)", ("a '?' kept",))
            second = await tx.insert("INSERT INTO notes (body, stars) VALUES (?, ?)", ("b", 2))
            assert (first, second) == (1, 2)
            await tx.execute("UPDATE notes SET stars = stars + ? WHERE id = ?", (3, first))
            assert await tx.change("UPDATE notes SET stars = stars + 1 WHERE stars >= ?", (2,)) == 2
            assert await tx.change("DELETE FROM notes WHERE body = ?", ("none",)) == 0
        async with store.read() as tx:
            row = await tx.fetch_one("SELECT id, body, stars FROM notes WHERE id = ?", (first,))
            assert (row["body"], row[2]) == ("a '?' kept", 4)  # the quoted ? is text, not a parameter
            assert await tx.fetch_one("SELECT * FROM notes WHERE id = ?", (99,)) is None
            assert await tx.fetch_one("SELECT * FROM notes WHERE id = ?", (99,), into=Note) is None
            # a dataclass takes the columns it names (player_id is left out)
            assert await tx.fetch_all("SELECT * FROM notes ORDER BY id", into=Note) == [
                Note(1, "a '?' kept", 4), Note(2, "b", 3)]
            assert [tuple(r) for r in await tx.fetch_all("SELECT id, stars FROM notes ORDER BY id")] == [
                (1, 4), (2, 3)]
            assert tx.dialect == store.dialect and tx.dialect in ("sqlite", "postgres")
        # SQL that must differ between the databases, chosen by the dialect
        async with store.write() as tx:
            lock = " FOR UPDATE SKIP LOCKED" if tx.dialect == "postgres" else ""
            row = await tx.fetch_one(f"SELECT id FROM notes WHERE stars > ? ORDER BY id LIMIT 1{lock}", (3,))
            assert row[0] == first
        # a refused statement is the store's error, whatever the driver, and changes nothing
        with pytest.raises(IntegrityError):
            async with store.write() as tx:
                await tx.execute("UPDATE notes SET stars = 9 WHERE id = ?", (first,))
                await tx.insert("INSERT INTO notes (body) VALUES (?)", ("b",))
        async with store.read() as tx:
            assert (await tx.fetch_one("SELECT stars FROM notes WHERE id = ?", (first,)))[0] == 4
    finally:
        await store.close()


async def _player(tx, user_id: str) -> int:
    return await tx.insert_player("test", user_id, user_id, "{}", 0)


async def test_the_adapters_tables_on_every_database(db_target):
    store = await Store.open(db_target, schemas=ADAPTER_SCHEMAS)
    try:
        async with store.write() as tx:
            alice = await _player(tx, "a")
            bob = await _player(tx, "b")
            game = await tx.insert_game(game="chess", challenge_id=None, white_id=alice, black_id=bob,
                                        start_vfen="x", to_move="w", to_move_id=alice, days=3, now=0,
                                        deadline=None)
            chat, mail = ChatTables(tx), EmailTables(tx)
            await chat.set_game_thread(game, "discord", None, "10", "11")
            await chat.set_board_message(game, "12")
            for message in ("20", "21", "22"):
                await chat.add_offer_message("draw", game, "discord", "10", message)
            assert await mail.queue_mail("k", "a@example.org", b"\x00\xffbody", 5)
            assert not await mail.queue_mail("k", "a@example.org", b"again", 6)  # queued once
            await mail.set_email_address("a@example.org", alice, 1)
        async with store.write() as tx:
            chat, mail = ChatTables(tx), EmailTables(tx)
            assert await chat.game_thread(game) == ChatThreadRow(game, "discord", None, "10", "11", "12")
            assert await chat.thread_games("discord", "11") == [game]
            assert await chat.take_offer_messages("draw", game, "discord", ["21"]) == [("10", "21")]
            assert sorted(await chat.take_offer_messages("draw", game, "discord")) == [
                ("10", "20"), ("10", "22")]
            assert await chat.take_offer_messages("draw", game, "discord") == []  # forgotten
            [due] = await mail.due_mails(5)
            assert (due.recipient, due.message, due.attempts) == ("a@example.org", b"\x00\xffbody", 0)
            assert await mail.next_mail_at() == 5
            assert await mail.hard_bounce("a@example.org", 2, 7, forget_before=0) == (1, False)
            assert await mail.hard_bounce("a@example.org", 2, 8, forget_before=0) == (2, True)
            assert (await mail.email_address("a@example.org")).stopped_at == 8
            # bounces older than forget_before count no more: the count starts again
            assert await mail.hard_bounce("a@example.org", 2, 100, forget_before=50) == (1, False)
            assert await mail.hard_bounce("nobody@example.org", 2, 9, forget_before=0) == (0, False)
    finally:
        await store.close()
