"""The player's language at the terminal (issue #44): LANG as the terminal's own default, the
typed ``language`` command, French prompts and answers."""

from __future__ import annotations

FRENCH = {"LANG": "fr_FR.UTF-8", "LC_ALL": "", "LC_MESSAGES": "", "LANGUAGE": ""}


def test_lang_sets_the_terminal_language_and_the_command_switches_it(fairypost):
    r = fairypost.play("chess", lines=["language", "language xx", "language de", "language", "quit"],
                       env=FRENCH)
    assert r.code == 0, r.err
    assert "Vous lisez en Français, la langue de l'endroit où vous écrivez." in r.out
    assert "'xx' n'est pas une langue ici ; les langues sont : en, de, es, fr" in r.out
    assert "Ab jetzt liest du Deutsch." in r.out
    assert "Du liest Deutsch, wie du es gewählt hast." in r.out
