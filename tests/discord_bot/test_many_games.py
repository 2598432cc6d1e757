"""A server with more games than Discord's 25 fixed choices (its own variants beside the
built-in six): the game option becomes typed with suggestions, /rules lists them all
within an embed's 25 fields, and an unknown typed game is refused clearly."""
from __future__ import annotations

import pytest
from discord import app_commands

import rules
from bot.discord_bot import commands

from .conftest import run
from .helpers import last_answer


@pytest.fixture
def thirty_games(tmp_path):
    for i in range(24):
        (tmp_path / f"house{i:02d}.toml").write_text(
            f'extends = "chess"\nname = "House Chess {i:02d}"\nsummary = "Chess, the house way."\n',
            encoding="utf-8")
    rules.add_variants_dir(tmp_path)
    try:
        assert len(rules.variants()) == 30
        yield
    finally:
        rules.remove_variants_dir(tmp_path)


def _game_parameter():
    async def a_command(interaction, game: str) -> None:  # the shape of /challenge's option
        """A game."""
    cmd = app_commands.command()(commands.game_option(a_command))
    return next(p for p in cmd.parameters if p.name == "game")


def test_the_builtin_games_are_a_fixed_list():
    param = _game_parameter()
    assert [c.value for c in param.choices] == rules.variants() and not param.autocomplete


def test_more_than_25_games_are_typed_with_suggestions(thirty_games):
    param = _game_parameter()
    assert not param.choices and param.autocomplete


async def test_suggestions_and_the_games_list_hold_every_game(thirty_games, world):
    i = world.interaction(world.alice)
    found = await commands.variant_autocomplete(i, "house chess 2")
    assert [c.value for c in found] == ["house20", "house21", "house22", "house23"]
    assert len(await commands.variant_autocomplete(i, "")) == 25
    await run(commands.rules_, i)
    embed = last_answer(i)["embed"]
    assert len(embed.fields) <= 25
    shown = " ".join(f.name + " " + f.value for f in embed.fields)
    assert all(rules.game(g).name in shown for g in rules.variants())


async def test_a_typed_game_that_does_not_exist_is_refused(thirty_games, world):
    for cmd, options in ((commands.rules_, {"game": "housee"}),
                         (commands.piece, {"game": "nope", "piece": "K"})):
        i = world.interaction(world.alice)
        await run(cmd, i, **options)
        assert "there is no game" in last_answer(i)["content"].lower()
