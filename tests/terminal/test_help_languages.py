"""The commands' help in the reader's language (issue #44): the grammar's help strings are
message ids, the help is built per reader, and Discord's /help stays within its limit in
every language."""

from __future__ import annotations

import pytest

from bot.commands.run import typed_grammar
from bot.discord_bot.commands import COMMANDS
from bot.discord_bot.tournament_commands import tournament
from bot.terminal.commands import TERMINAL
from bot.terminal.session import help_text
from bot.words import text
from bot.words.grammar import GRAMMAR
from bot.words.text import DISCORD, EMBED_DESCRIPTION, PLAIN
from language import LANGUAGES, language
from tests.language.leaks import english_left


@pytest.mark.parametrize("code", LANGUAGES)
def test_discord_help_stays_within_the_embed_limit_in_every_language(code):
    m = DISCORD.in_language(code)
    slash = {c.name: c.description for c in (*COMMANDS, tournament)}
    said = text.slash_help(slash, typed_grammar(), m)
    assert len(said) <= EMBED_DESCRIPTION, (code, len(said))
    if code != "en":  # the typed commands' words are the reader's (listed in full, or by usage)
        listed = [s for s in typed_grammar() if s.name not in ("premove", "language")]  # /premove, /settings
        helps = [m.tr(s.help) for s in listed]
        assert all(h != s.help for h, s in zip(helps, listed, strict=True))
        assert all(h in said for h in helps) or all(f"`{s.usage}`" in said for s in listed)


@pytest.mark.parametrize("code", ["fr", "de", "es"])
def test_every_help_string_has_its_translation(code):
    lang = language(code)
    for grammar in (GRAMMAR, TERMINAL):
        for spec in grammar:
            assert lang.tr(spec.help) != spec.help, (code, spec.name)
            assert english_left(lang.tr(spec.help), code, own=[*spec.usage.replace("[", " ").replace("]", " ")
                                                               .replace("|", " ").split(),
                                                               "join", "leave", "show", "withdraw", "start",
                                                               "pause", "resume", "close", "remove", "result",
                                                               "replace", "extend", "director", "premove",
                                                               "e5", "Nf3", "c5", "Nc3", "cancel", "default",
                                                               "casual", "fr", "de", "es", "PGN", "SAN",
                                                               "VFEN", "fairypost", "play", "--resume",
                                                               "y/n", "ID", "N", "confirm", "off", "on"]) == [], \
                (code, spec.name)


def test_the_terminal_help_in_french_keeps_its_columns():
    said = help_text(None, PLAIN.in_language("fr"))
    lines = said.splitlines()
    assert lines[0] == "Tapez un coup (Nf3, e2e4, Ng1-f3, O-O, exd5, e7e8=Q ...) ou une commande :"
    assert "  resign           abandonner la partie pour le camp au trait (demande d'abord)" in lines
    assert "  flip             retourner l'échiquier (et encore)" in lines
    assert help_text("legend", PLAIN.in_language("de")) == (
        "legend: die Buchstaben auf dem Brett und die Figuren, für die sie stehen (auch: key)")
    assert help_text("frobnicate", PLAIN.in_language("es")).startswith("No hay ningún comando 'frobnicate'")
    # English as before
    assert help_text("legend") == "legend: the letters on the board and the pieces they stand for (also: key)"
