"""A real GameService on a SQLite file in tmp_path, with a ManualClock and the real rules
engine and pictures; Discord is the spec'd mocks of helpers.World."""

from __future__ import annotations

import random
from unittest import mock

import pytest
from discord import app_commands

from bot.config import Settings
from bot.discord_bot import commands
from bot.discord_bot.core import Fairy
from bot.discord_bot.notifier import DiscordNotifier
from bot.discord_bot.runner import FairyTree
from bot.operations.service import GameService
from bot.timekeeping.clock import ManualClock
from tests.bot.conftest import T0

from .helpers import World, custom_ids, last_answer


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(T0)


@pytest.fixture
def settings(tmp_path) -> Settings:
    return Settings(db_path=str(tmp_path / "games.db"), vacation_days_per_year=14)


async def open_world(settings, clock, world: World | None = None) -> World:
    """A service (and adapter) on the settings' database; a new one on the same file and
    the same Discord world is a restart."""
    w = world or World()
    svc = await GameService.open(settings, clock=clock, notifier=DiscordNotifier(w.client),
                                 rng=random.Random(7))
    w.fairy = Fairy(svc, w.client)
    w.client.fairy = w.fairy
    return w


@pytest.fixture
async def world(settings, clock):
    w = await open_world(settings, clock)
    w.alice = w.member("Alice")
    w.bob = w.member("Bob")
    yield w
    await w.fairy.service.close()


async def run(cmd, interaction, **options):
    """A slash command's handler, with the tree's error handling around it, as the
    CommandTree runs it."""
    try:
        await cmd.callback(interaction, **options)
    except Exception as e:  # noqa: BLE001 - what CommandTree._call does with it
        await FairyTree.on_error(mock.MagicMock(spec_set=FairyTree), interaction,
                                 app_commands.CommandInvokeError(cmd, e))


async def press(item_cls, custom_id: str, interaction):
    """A button press as discord.py dispatches a DynamicItem: match the template, build
    the item from the custom id, run its callback."""
    match = item_cls.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match, f"{custom_id} does not match {item_cls.__name__}"
    interaction.data = {"custom_id": custom_id, "component_type": 2}
    item = await item_cls.from_custom_id(interaction, None, match)
    assert item.custom_id == custom_id
    await item.callback(interaction)
    return item


async def start_game(w: World, game: str = "chess", white=None, black=None, days: int = 3):
    """/challenge by White, Accept by Black: the game view and its thread."""
    from bot.discord_bot.views import AcceptChallenge
    white, black = white or w.alice, black or w.bob
    i = w.interaction(white)
    await run(commands.challenge, i, game=game, opponent=black, days=days, colour="white")
    view = i.response.send_message.call_args.kwargs["view"]
    accept_id = custom_ids(view)[0]
    j = w.interaction(black, message=i.original_response.return_value)
    await press(AcceptChallenge, accept_id, j)
    thread = w.threads[-1]
    assert thread.mention in last_answer(j)["content"], last_answer(j)  # "Game #1 has begun in <#...>."
    c = await w.fairy.service.get_challenge(int(accept_id.split(":")[-1]))
    return await w.fairy.service.game(c.game_id), thread
