"""``fairypost run --shards A-B --shard-count N``: this process runs those shards (discord.py's
AutoShardedClient), and only the process with shard 0 registers the slash commands."""

import discord
import pytest

from bot.cli import main
from bot.config import Settings
from bot.discord_bot.runner import DiscordAdapter, FairyClient, ShardedFairyClient, make_client
from bot.discord_bot.shards import ShardError, Shards, parse_shards


def test_shard_ranges():
    assert parse_shards("0-3", 8) == Shards((0, 1, 2, 3), 8)
    assert parse_shards("5", 8) == Shards((5,), 8)
    assert parse_shards(None, None) is None
    for text, count, words in (("0-9", 8, "numbered 0 to 7"), ("3-1", 8, "a range goes up"),
                               ("a-b", 8, "like 0-3"), ("0-3", None, "go together"),
                               (None, 8, "go together"), ("0", 0, "at least 1")):
        with pytest.raises(ShardError, match=words):
            parse_shards(text, count)


def test_the_command_line_refuses_bad_shards_before_starting(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("FAIRYPOST_DB", str(tmp_path / "s.db"))
    monkeypatch.setenv("DISCORD_TOKEN", "x.y")
    with pytest.raises(SystemExit) as stop:
        main(["run", "--shards", "4-8", "--shard-count", "8"])
    assert stop.value.code == 2
    assert "--shards 4-8: shards are numbered 0 to 7" in capsys.readouterr().err
    monkeypatch.delenv("DISCORD_TOKEN")
    with pytest.raises(SystemExit):
        main(["run", "--shards", "0-3", "--shard-count", "8"])
    assert "--shards is for the Discord bot, and it is not configured" in capsys.readouterr().err


def test_the_discord_adapter_runs_the_shards_it_is_given(tmp_path):
    settings = Settings(db_path=str(tmp_path / "s.db"), discord_token="x.y")
    adapter = DiscordAdapter(settings, shards=Shards((2, 3), 4))
    assert isinstance(adapter.client, ShardedFairyClient) and adapter.client.hosted
    assert (adapter.client.shard_ids, adapter.client.shard_count) == ([2, 3], 4)
    assert type(DiscordAdapter(settings).client) is FairyClient


async def test_a_sharded_client_runs_its_shards_and_syncs_only_with_shard_0(tmp_path, monkeypatch):
    assert type(make_client(Settings(db_path=str(tmp_path / "a.db")))) is FairyClient
    synced = {}
    for ids, name in (((0, 1, 2, 3), "first"), ((4, 5, 6, 7), "second")):
        client = make_client(Settings(db_path=str(tmp_path / "s.db")), Shards(ids, 8))
        assert isinstance(client, ShardedFairyClient) and isinstance(client, discord.AutoShardedClient)
        assert (client.shard_ids, client.shard_count) == (list(ids), 8)
        calls = synced.setdefault(name, [])

        async def fake_sync(*, guild=None, calls=calls):
            calls.append(guild)
            return []
        monkeypatch.setattr(client.tree, "sync", fake_sync)
        await client._async_setup_hook()  # what login() does first (the shards' queue)
        await client.setup_hook()
        try:
            assert client.fairy is not None and client.scheduler.scheduler.running
        finally:
            await client.close()
    assert synced == {"first": [None], "second": []}
