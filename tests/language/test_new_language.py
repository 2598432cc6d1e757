"""A fifth language is one folder: a copy of the project with an Italian catalog added (and
nothing else changed) offers Italian everywhere a language is chosen, and says its sentences.
Run in a child process on a copy of language/ (the catalogs are found once, at import)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

ITALIAN = r'''
msgid ""
msgstr ""
"Language: it\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"
"Content-Type: text/plain; charset=utf-8\n"

msgid "Knight"
msgstr "Cavallo"

msgid "it is not your turn"
msgstr "non è il tuo turno"

msgid "Challenge someone (or anyone, or the computer) to a game"
msgstr "Sfida qualcuno (o chiunque, o il computer) a una partita"
'''


def test_an_italian_folder_is_italian_everywhere(tmp_path):
    copy = tmp_path / "src"
    copy.mkdir()
    shutil.copytree(ROOT / "language", copy / "language", ignore=shutil.ignore_patterns("__pycache__", "*.mo"))
    folder = copy / "language" / "locales" / "it" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "fairypost.po").write_text(ITALIAN, encoding="utf-8")
    script = textwrap.dedent("""
        import asyncio, language
        from language import LANGUAGES, language as lang, from_accept_language, from_discord_locale, from_environment
        assert language.__file__.startswith(%r), language.__file__
        assert "it" in LANGUAGES, LANGUAGES
        assert lang("it").data("Knight") == "Cavallo"
        assert from_accept_language("it-IT, en;q=0.5") == "it" and from_discord_locale("it") == "it"
        assert from_environment({"LANG": "it_IT.UTF-8"}) == "it"
        from bot.domain.errors import NotYourTurn
        from bot.words.text import DISCORD
        assert DISCORD.in_language("it").say(NotYourTurn().text) == "non è il tuo turno"
        from bot.identity.players import PlayerSettings
        assert PlayerSettings(language="it").language == "it"
        # Discord's command picker: the translator localises for Discord's Italian too
        from discord import Locale
        from discord.app_commands import locale_str
        from bot.discord_bot.translator import localised
        assert localised(locale_str("Challenge someone (or anyone, or the computer) to a game"),
                         lang("it")) == "Sfida qualcuno (o chiunque, o il computer) a una partita"
        assert from_discord_locale(Locale.italian) == "it"
        print("ok", lang("it").name)
    """) % str(copy)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(copy), str(ROOT)])}
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=tmp_path,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "ok Italiano"
