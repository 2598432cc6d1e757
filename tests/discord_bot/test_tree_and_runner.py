"""The command tree builds, every command and option is described; the runner's start-up
decisions (token, intents, configuration) need no network."""

from __future__ import annotations

import discord
import pytest
from discord import app_commands

from bot.adapters import main
from bot.config import ConfigError, Settings
from bot.discord_bot import views, waiting
from bot.discord_bot.runner import FairyClient, FairyTree, make_intents
from bot.discord_bot.tournament_join import JoinTournament

EXPECTED = {
    "challenge": ["game", "opponent", "days", "colour", "setup", "computer", "level", "rated"],
    "challenges": [],
    "move": ["move", "game"],
    "board": ["game", "my_side", "piece"],
    "resign": ["game"],
    "draw": ["answer", "game"],
    "takeback": ["answer", "game"],
    "games": ["finished"],
    "record": ["game"],
    "rules": ["game"],
    "piece": ["piece", "game"],
    "settings": ["notify", "channel", "timezone", "quiet_hours", "digest", "vacation", "vacation_days",
                 "confirm_moves", "block", "unblock", "email", "email_code", "email_notices", "web",
                 "language"],
    "help": [],
    "hint": ["game"],
    "review": ["game"],
    "replay": ["game"],
    "share": ["public", "game"],
    "ratings": ["game"],
    "premove": ["lines", "cancel", "game"],
}


@pytest.fixture
def client(tmp_path):
    return FairyClient(Settings(db_path=str(tmp_path / "t.db")))


def test_tree_has_every_command_described(client):
    tree = client.tree
    assert isinstance(tree, FairyTree)
    cmds = {c.name: c for c in tree.get_commands() if not isinstance(c, app_commands.Group)}
    groups = {c.name: c for c in tree.get_commands() if isinstance(c, app_commands.Group)}
    assert set(cmds) == set(EXPECTED)
    assert {name: [c.name for c in g.commands] for name, g in groups.items()} == {
        "tournament": ["create", "join", "leave", "start", "pause", "resume", "remove", "withdraw", "close",
                       "result", "replace", "extend", "director", "list", "standings"]}
    for group in groups.values():
        assert group.to_dict(tree)["name"] == group.name  # Discord's limits, checked
        for cmd in group.commands:
            assert cmd.description and all(p.description and len(p.description) <= 100
                                           for p in cmd.parameters), cmd.name
    for name, cmd in cmds.items():
        assert isinstance(cmd, app_commands.Command)
        assert cmd.description and cmd.description != "…", name
        assert [p.name for p in cmd.parameters] == EXPECTED[name]
        for p in cmd.parameters:
            assert p.description and p.description != "…", f"/{name} {p.name}"
            assert len(p.description) <= 100
        payload = cmd.to_dict(tree)  # what would be synced: Discord's limits are checked here
        assert payload["name"] == name and payload["description"] == cmd.description


def test_option_types_choices_and_autocomplete(client):
    cmds = {c.name: c for c in client.tree.get_commands()}
    ch = {p.name: p for p in cmds["challenge"].parameters}
    assert ch["game"].required and ch["game"].type is discord.AppCommandOptionType.string
    assert {c.value for c in ch["game"].choices} >= {"grandducal", "gigachess2", "kingqueen", "ganymede", "superchess"}
    assert ch["opponent"].type is discord.AppCommandOptionType.user and not ch["opponent"].required
    assert [c.value for c in ch["days"].choices] == [1, 2, 3, 5, 7, 10, 14, 0]
    assert {c.value for c in ch["colour"].choices} == {"white", "black", "random"}
    assert cmds["challenge"].guild_only
    mv = {p.name: p for p in cmds["move"].parameters}
    assert mv["move"].required and mv["move"].autocomplete is not None
    assert mv["move"].max_value == 40  # a string Range: max_length when synced
    assert mv["game"].type is discord.AppCommandOptionType.integer and mv["game"].autocomplete is not None
    assert {p.name: p for p in cmds["board"].parameters}["piece"].autocomplete is not None
    st = {p.name: p for p in cmds["settings"].parameters}
    assert st["channel"].type is discord.AppCommandOptionType.channel
    assert st["vacation_days"].min_value == 1 and st["timezone"].autocomplete is not None


def test_buttons_are_dynamic_with_game_ids():
    v = views.board_view(42)
    assert [c.custom_id for c in v.children] == ["fp:move:42", "fp:mine:42", "fp:flip:42", "fp:draw:42",
                                                 "fp:resign:42"]
    assert v.timeout is None and all(isinstance(c, discord.ui.DynamicItem) for c in v.children)
    assert v.is_persistent()
    assert [c.custom_id for c in views.challenge_view(7).children] == ["fp:accept:7", "fp:decline:7"]
    assert [c.custom_id for c in views.answer_view("takeback", 3).children] == ["fp:takeback-accept:3",
                                                                               "fp:takeback-decline:3"]
    templates = [cls.__discord_ui_compiled_template__ for cls in views.DYNAMIC_ITEMS]
    for cid in ("fp:move:1", "fp:resign-yes:1:4", "fp:draw-accept:9", "fp:mine:12"):
        assert sum(bool(t.fullmatch(cid)) for t in templates) == 1, cid


def test_no_token_stops_at_once_with_help(capsys, tmp_path):
    assert main(Settings(db_path=str(tmp_path / "x.db"))) == 2
    err = capsys.readouterr().err
    assert "DISCORD_TOKEN" in err and "discord.com/developers" in err
    assert "fairypost play" in err and "applications.commands" in err
    assert not (tmp_path / "x.db").exists()  # nothing was started


def test_intents_default_and_message_content_only_if_configured():
    off = make_intents(Settings())
    assert off.guilds and off.guild_messages and off.dm_messages
    assert not off.message_content and not off.members and not off.presences
    assert make_intents(Settings(discord_message_content=True)).message_content


def test_settings_from_environment_and_file(tmp_path):
    s = Settings.load(env={"DISCORD_TOKEN": "abc.def", "FAIRYPOST_DB": str(tmp_path / "g.db"),
                           "FAIRYPOST_DISCORD_GUILD": "123", "FAIRYPOST_DISCORD_MESSAGE_CONTENT": "true"})
    assert (s.discord_token, s.db_path, s.discord_guild_id, s.discord_message_content) == \
        ("abc.def", str(tmp_path / "g.db"), 123, True)
    assert "abc.def" not in repr(s)  # the token never reaches a log line
    f = tmp_path / "fp.toml"
    f.write_text('[fairypost]\ndiscord_token = "from-file"\ndiscord_message_content = false\n')
    s = Settings.load(env={"FAIRYPOST_CONFIG": str(f)})
    assert s.discord_token == "from-file" and not s.discord_message_content
    with pytest.raises(ConfigError, match="true or false"):
        Settings.load(env={"FAIRYPOST_DISCORD_MESSAGE_CONTENT": "perhaps"})


async def test_client_setup_registers_items_and_syncs_to_the_guild(tmp_path, monkeypatch):
    """setup_hook (after login): service open, dynamic items registered, commands synced to
    the configured guild, scheduler started; close stops it all."""
    client = FairyClient(Settings(db_path=str(tmp_path / "s.db"), discord_guild_id=99))
    synced = []

    async def fake_sync(*, guild=None):
        synced.append(guild.id if guild else None)
        return []
    monkeypatch.setattr(client.tree, "sync", fake_sync)
    await client.setup_hook()
    try:
        assert synced == [99]
        store = client._connection._view_store
        dynamic = set(views.DYNAMIC_ITEMS + waiting.DYNAMIC) | {JoinTournament}
        assert set(store._dynamic_items.values()) == dynamic
        assert client.fairy is not None and client.scheduler.scheduler.running
        assert {c.name for c in client.tree.get_commands(guild=discord.Object(99))} == set(EXPECTED) | {"tournament"}
    finally:
        await client.close()
    assert not client.scheduler.scheduler.running
