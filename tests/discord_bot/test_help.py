"""Discord's /help is built by bot/words/text.py: every slash command with its own description,
and the commands typed in a thread in the grammar's words (the terminal's and email's
help say the same); within Discord's limit on an embed's description."""

from __future__ import annotations

import discord

from bot.commands.run import typed_grammar
from bot.discord_bot import commands, format
from bot.discord_bot.commands import COMMANDS
from bot.discord_bot.tournament_commands import tournament
from bot.terminal.commands import TERMINAL
from bot.words import text
from bot.words.text import DISCORD, EMBED_DESCRIPTION, PLAIN

from .conftest import run
from .helpers import last_answer


async def test_help_names_every_slash_command_and_every_typed_one(world):
    i = world.interaction(world.alice)
    await run(commands.help_, i)
    e = last_answer(i)["embed"]
    assert isinstance(e, discord.Embed) and len(e.description) <= EMBED_DESCRIPTION and len(e) <= 6000
    for c in (*COMMANDS, tournament):
        assert f"`/{c.name}`: {DISCORD.escape(c.description)}" in e.description, c.name
    assert "**Tournaments**" in e.description
    assert "`/tournament create` posts it with a **Join** button" in e.description
    for spec in typed_grammar():
        if spec.name not in ("premove", "language"):  # /premove, /settings language instead
            assert f"`{spec.usage}`: {DISCORD.escape(spec.help)}" in e.description, spec.name


def test_the_typed_commands_read_the_same_in_every_help():
    discord_help = format.help_text(COMMANDS)
    terminal_help = text.help_text(TERMINAL, PLAIN)
    # the terminal's own meanings aside; premove: Discord's is /premove
    shared = [s for s in typed_grammar() if TERMINAL.find(s.name) == s and s.name not in ("premove", "language")]
    assert len(shared) >= 10
    for spec in shared:
        assert DISCORD.escape(spec.help) in discord_help and spec.help in terminal_help, spec.name


def test_a_help_too_long_for_an_embed_lists_the_typed_commands_by_usage():
    slash = {c.name: c.description for c in COMMANDS}
    whole = text.slash_help(slash, typed_grammar(), DISCORD)
    short = text.slash_help(slash, typed_grammar(), DISCORD, limit=len(whole) - 1)
    assert len(short) < len(whole)
    assert "`move MOVE`, `board [SQUARE]`, " in short and "Type `help COMMAND` there" in short
    assert all(f"`/{name}`: " in short for name in slash)
