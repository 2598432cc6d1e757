"""Issue 17, items 8 and 9: a readable settings file holding the token is warned about;
delivered notices and spent reminders are pruned after ``retention_days``."""

from __future__ import annotations

import logging
import os
import sqlite3
from datetime import timedelta

import pytest

from bot.config import ConfigError, Settings
from bot.store import MIGRATIONS

from .conftest import new_game

# --- item 8: the settings file ---------------------------------------------------------


@pytest.mark.parametrize(("mode", "token", "warned"), [
    (0o644, True, True), (0o640, True, True), (0o604, True, True),
    (0o600, True, False), (0o400, True, False), (0o644, False, False)])
def test_a_readable_settings_file_with_the_token_is_warned_about(tmp_path, caplog, mode, token, warned):
    path = tmp_path / "fairypost.toml"
    path.write_text('db = "x.db"\n' + ('discord_token = "abc.def"\n' if token else ""))
    os.chmod(path, mode)
    with caplog.at_level(logging.WARNING, logger="bot.config"):
        settings = Settings.load(path, env={})
    lines = [r for r in caplog.records if r.name == "bot.config"]
    assert settings.db_path == "x.db"
    if warned:
        assert len(lines) == 1 and "\n" not in lines[0].getMessage()
        assert "chmod 600" in lines[0].getMessage() and "abc.def" not in lines[0].getMessage()
    else:
        assert lines == []


def test_retention_days_setting(tmp_path):
    assert Settings().retention_days == 30
    assert Settings.load(env={"FAIRYPOST_RETENTION_DAYS": "7"}).retention_days == 7
    path = tmp_path / "f.toml"
    path.write_text("retention_days = 0\n")
    assert Settings.load(path, env={}).retention_days == 0
    with pytest.raises(ConfigError, match="retention_days must not be negative"):
        Settings.load(env={"FAIRYPOST_RETENTION_DAYS": "-1"})


# --- item 9: pruning ---------------------------------------------------------------------

def _counts(path) -> dict[str, int]:
    con = sqlite3.connect(path)
    try:
        return {t: con.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
                for t in ("events", "reminders", "digests", "moves", "games", "players")}
    finally:
        con.close()


async def _play(svc, clock, alice, bob, game_id, plies):
    for i in range(plies):
        mover = (alice, bob)[i % 2]
        await svc.move(game_id, mover.id, ("a1", "b2")[i % 2])
        clock.advance(hours=6)
        await svc.sweep()


async def test_old_notices_and_reminders_are_pruned_and_records_kept(opener, fake_engine, settings, clock,
                                                                    notifier):
    svc = await opener(settings=settings.with_(retention_days=10))
    alice, bob = await svc.player("test", "a", "Alice"), await svc.player("test", "b", "Bob")
    await svc.update_settings(alice.id, digest_time="08:00")
    old = await new_game(svc, alice, bob, days=3)
    await _play(svc, clock, alice, bob, old.id, 20)
    await svc.resign(old.id, alice.id)
    record = await svc.record(old.id)
    before = _counts(svc.store.path)
    clock.advance(days=11)
    live = await new_game(svc, alice, bob, days=3)  # its rows are new: kept
    report = await svc.sweep()
    after = _counts(svc.store.path)
    assert report.pruned > 0
    assert after["moves"] == before["moves"] and after["games"] == before["games"] + 1
    assert after["players"] == before["players"]
    assert await svc.record(old.id) == record
    async with svc.store.read() as tx:
        events = await tx.events()
        reminders = await tx.reminders(old.id) + await tx.reminders(live.id)
    cutoff = int((clock.now() - timedelta(days=10)).timestamp())
    assert all(e.created_at >= cutoff for e in events[:-1])
    assert events[-1].id == max(e.id for e in events)  # the newest is always kept
    assert all(r.game_id == live.id for r in reminders)
    assert any(r.status == "pending" for r in reminders)
    assert after["events"] < before["events"] and after["reminders"] < before["reminders"]
    # a second sweep within the hour does not prune again; nothing is pending but new rows
    assert (await svc.sweep()).pruned == 0
    con = sqlite3.connect(svc.store.path)
    assert con.execute("PRAGMA foreign_key_check").fetchall() == []
    con.close()
    # new events get new ids (never one of a pruned event's)
    await svc.move(live.id, alice.id, "a1")
    async with svc.store.read() as tx:
        newest = (await tx.events())[-1]
    assert newest.id > max(e.id for e in events)


async def test_pending_notices_are_never_pruned(opener, fake_engine, settings, clock):
    class Down:
        async def notify(self, event):
            raise ConnectionError("down")

    svc = await opener(settings=settings.with_(retention_days=1, notify_max_attempts=10**6),
                       notifier=Down())
    alice, bob = await svc.player("test", "a", "Alice"), await svc.player("test", "b", "Bob")
    await new_game(svc, alice, bob, days=None)
    before = _counts(svc.store.path)["events"]
    clock.advance(days=30)
    await svc.sweep()
    async with svc.store.read() as tx:
        statuses = {e.status for e in await tx.events()}
    # the challenge, its buttons' tidying (offer_settled), two game_started (the first mover's
    # says it is their move: no your_move after it)
    assert statuses == {"pending"} and _counts(svc.store.path)["events"] == before == 4


async def test_retention_zero_keeps_everything(opener, fake_engine, settings, clock):
    svc = await opener(settings=settings.with_(retention_days=0))
    alice, bob = await svc.player("test", "a", "Alice"), await svc.player("test", "b", "Bob")
    g = await new_game(svc, alice, bob, days=3)
    await _play(svc, clock, alice, bob, g.id, 6)
    before = _counts(svc.store.path)
    clock.advance(days=400)
    assert (await svc.sweep()).pruned == 0 and await svc.prune() == 0
    after = _counts(svc.store.path)
    assert after["events"] == before["events"] + 2 and after["reminders"] == before["reminders"]


async def test_the_prune_indexes_are_a_migration(opener, fake_engine):
    svc = await opener()
    async with svc.store.read() as tx:
        assert await tx.schema_version() == len(MIGRATIONS)
    con = sqlite3.connect(svc.store.path)
    names = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    con.close()
    assert {"reminders_by_event", "digests_by_event"} <= names
