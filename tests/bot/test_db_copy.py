"""Choosing the database, and moving a bot from one to another: ``fairypost db copy FROM TO``
(SQLite to PostgreSQL and back, when FAIRYPOST_TEST_POSTGRES is set; SQLite to SQLite
always), and the commands that work on either (``health``, ``play``, ``games``)."""

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import Settings
from bot.discord_bot.tables import ChatTables, ChatTournamentRow
from bot.email.tables import EmailTables
from bot.identity.web_links import add_link
from bot.operations.service import GameService
from bot.schemas import ADAPTER_SCHEMAS
from bot.store import Store
from bot.store.copy import copy, run

from .conftest import new_game
from .owned_tables import adapter_tables

pytestmark = pytest.mark.contract

ROOT = Path(__file__).resolve().parents[2]


async def _dump(target) -> dict[str, list[tuple]]:
    """Every row of every table, in a fixed order (what a copy must keep exactly)."""
    store = await Store.open(target, schemas=ADAPTER_SCHEMAS)
    try:
        out = {}
        for table in await store.tables():
            async with store.read() as tx:
                n = len(await tx.columns(table))
                rows = await tx._all(f"SELECT * FROM {table} ORDER BY "
                                     + ", ".join(str(i + 1) for i in range(n)))
            out[table] = [tuple(r) for r in rows]
        return out
    finally:
        await store.close()


async def _a_database_with_games(path: str, clock) -> None:
    svc = await GameService.open(Settings(db_path=path), clock=clock)
    try:
        alice = await svc.player("test", "a", "Alice")
        bob = await svc.player("test", "b", "Bob")
        g = await new_game(svc, alice, bob)
        await svc.move(g.id, alice.id, "a1")
        await svc.move(g.id, bob.id, "b2")
        await svc.set_public(g.id, True)
        done = await new_game(svc, bob, alice)
        await svc.resign(done.id, bob.id)
        await svc.challenge(alice.id, "fake", opponent_id=None, days=3, colour="white")  # still open
        t = await svc.create_tournament("chess", name="Cup", format="swiss", rounds=1, creator_id=alice.id)
        async with svc.store.write() as tx:  # a row in every adapter's table: copied as any other
            chat, mail = ChatTables(tx), EmailTables(tx)
            await chat.set_game_thread(g.id, "discord", "1", "2", "3")
            await chat.set_challenge_message(1, "discord", "1", "2", "4")
            await chat.set_chat_pref(alice.id, "channel", "1", "2")
            await chat.add_offer_message("draw", g.id, "discord", "2", "5")
            await chat.set_tournament_place(ChatTournamentRow(t.id, "discord", "1", "2", "6", "7"))
            await mail.record_mail("key", b"raw\x00mail", 1)
            await mail.queue_mail("event:1", "a@example.org", b"\xffmessage", 1)
            await mail.set_email_address("a@example.org", alice.id, 1)
            await mail.set_email_link("b@example.org", bob.id, "123456", 100)
            await add_link(tx, 1, "203.0.113.5", address="a@example.org")   # the web site's
            await tx.execute("INSERT INTO web_sessions (token_hash, player_id, created_at, expires_at) "
                             "VALUES (?, ?, ?, ?)", ("a session's hash", alice.id, 1, 2))
    finally:
        await svc.close()


async def test_copy_there_and_back_keeps_every_row(db_target, tmp_path, clock, fake_engine, capsys):
    source = str(tmp_path / "source.sqlite3")
    await _a_database_with_games(source, clock)
    assert await run(source, db_target, ADAPTER_SCHEMAS) == 0
    out = capsys.readouterr().out
    assert "moves: 2/2" in out and "games: 2/2" in out and "copied" in out
    back = str(tmp_path / "back.sqlite3")
    assert await run(db_target, back, ADAPTER_SCHEMAS) == 0
    original, there, returned = await _dump(source), await _dump(db_target), await _dump(back)
    assert original["moves"] and original["events"] and original["challenges"]
    assert all(original[t] for t in adapter_tables())  # adapters' tables too, none named by the copy
    assert there == original and returned == original

    # the copy is a working database: ids go on after the copied ones
    svc = await GameService.open(Settings(db_path=db_target), clock=clock)
    try:
        carol = await svc.player("test", "c", "Carol")
        assert carol.id == 3
        alice = await svc.player("test", "a")
        g = (await svc.list_games(alice.id))[0]
        assert (await svc.move(g.id, alice.id, "c3", expected_ply=2)).game.ply == 3
        c = await svc.challenge(carol.id, "fake", opponent_id=alice.id, days=3, colour="white")
        assert c.id == 4  # three were copied
    finally:
        await svc.close()


async def test_copy_refuses_a_target_with_rows(db_target, tmp_path, clock, fake_engine, capsys):
    source = str(tmp_path / "source.sqlite3")
    await _a_database_with_games(source, clock)
    assert await run(source, db_target, ADAPTER_SCHEMAS) == 0
    before = await _dump(db_target)
    capsys.readouterr()
    assert await run(source, db_target, ADAPTER_SCHEMAS) == 1
    err = capsys.readouterr().err
    assert "is not empty (table players has rows)" in err
    assert await _dump(db_target) == before


async def test_a_failed_copy_leaves_the_target_empty(db_target, tmp_path, clock, fake_engine, monkeypatch):
    source = str(tmp_path / "source.sqlite3")
    await _a_database_with_games(source, clock)
    src, dst = (await Store.open(source, schemas=ADAPTER_SCHEMAS),
                await Store.open(db_target, schemas=ADAPTER_SCHEMAS))
    lines = []

    def say(line):
        lines.append(line)
        if line.startswith("moves"):
            raise OSError("the disk is full")

    try:
        with pytest.raises(OSError):
            await copy(src, dst, say=say)
    finally:
        await src.close()
        await dst.close()
    assert any(line.startswith("games") for line in lines)
    assert all(rows == [] for table, rows in (await _dump(db_target)).items()
               if table not in ("schema_version", "schema_versions"))


def _fairypost(db: str, *args: str, input: str = "") -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("FAIRYPOST_")}
    env.update(FAIRYPOST_DB=db, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], input=input, capture_output=True,
                          text=True, env=env, timeout=120, check=False)


def test_health_play_and_games_on_either_database(db_target, tmp_path):
    health = _fairypost(db_target, "health")
    assert health.returncode == 0 and health.stdout.startswith("ok: database "), health.stderr
    played = _fairypost(db_target, "play", "chess", "--no-images", "--white", "Ann", "--black", "Ben",
                        input="e4\ne5\nquit\n")
    assert played.returncode == 0, played.stderr
    games = _fairypost(db_target, "games")
    assert games.returncode == 0 and "Ann" in games.stdout and "Ben" in games.stdout, games.stdout
    resumed = _fairypost(db_target, "play", "--resume", "--no-images", input="record\nquit\n")
    assert "1. e4 e5" in resumed.stdout, resumed.stdout


def test_the_command_line_copies(tmp_path):
    source, target = str(tmp_path / "a.sqlite3"), str(tmp_path / "b.sqlite3")

    async def make():
        await (await Store.open(source)).close()

    asyncio.run(make())
    r = subprocess.run([sys.executable, "-m", "bot.cli", "db", "copy", source, target], capture_output=True,
                       text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60, check=False)
    assert r.returncode == 0 and "players: 0/0" in r.stdout and "copied 0 rows" in r.stdout, r.stderr
