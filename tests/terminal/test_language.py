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


def test_french_prompts_and_answers_at_the_terminal(fairypost):
    # LANG alone makes the terminal French: the session's own sentences, the refusals of the
    # grammar, the help. (The status lines and the players' sides are the "words" helper's
    # texts: French at merge, so only the terminal's own lines are checked for English here.)
    from tests.language.leaks import english_left
    r = fairypost.play("chess", lines=["help", "moves", "m", "board z", "f3", "e5", "g4", "Qh4", "record"],
                       env=FRENCH)
    assert r.code == 0, r.err
    out = r.out
    assert "Tapez un coup (comme e4 ou Nf3), ou help pour les commandes." in out
    assert "Tapez un coup (Nf3, e2e4, Ng1-f3, O-O, exd5, e7e8=Q ...) ou une commande :" in out
    assert ("  language [LANG]  afficher ou choisir votre langue (default : celle de l'endroit où vous "
            "écrivez)") in out
    assert "20 coups légaux :" in out
    assert "M quoi ? 'm' est l'abréviation de move" in out or "M quoi ? Écrivez" in out
    assert "'z' n'est pas un nom de case." in out and "Usage : board [SQUARE]" in out
    assert "Blancs a joué f3." in out and "Noirs a joué Qh4#." in out
    own = ["White", "Black", "help", "language", "LANG", "default", "SQUARE", "MOVE", "GAME", "COMMAND",
           "CODE", "NAME", "LINES", "cancel", "on", "off", "ID", "ACT", "DETAILS", "PGN", "SAN", "VFEN",
           "fairypost", "play", "resume", "Nf3", "e4", "e2e4", "Ng1-f3", "O-O", "exd5", "e7e8=Q", "j10",
           "y/n", "premove", "e5", "c5", "Nc3", "f3", "g4", "Qh4", "Chess", "moves", "record", "quit",
           "m", "z", "board", "key", "show", "undo", "exit", "q", "vfen", "pgn", "?",
           *[w for line in out.splitlines() if line.startswith("  ") for w in line.split()[:1]]]
    mine = [line for line in out.splitlines()
            if line.startswith(("Tapez", "  ", "Partie #", "Blancs a joué", "Noirs a joué", "'z'", "M quoi",
                                "20 coups"))]
    assert len(mine) > 30
    assert [(line, english_left(line, "fr", own=own)) for line in mine
            if english_left(line, "fr", own=own)] == []


def test_two_players_at_one_keyboard_each_read_their_own_language(fairypost):
    # White chooses German, Black French: what the terminal says is for the player to move
    # (a move's news for the one who answers it), each in their own language
    r = fairypost.play("chess", lines=["language de", "e4", "language fr", "e5", "language", "quit"],
                       env={"LANG": "C", "LC_ALL": "", "LC_MESSAGES": "", "LANGUAGE": ""})
    assert r.code == 0, r.err
    assert "Ab jetzt liest du Deutsch." in r.out
    assert "White played e4." in r.out  # for Black, who has not chosen yet: the terminal's English
    assert "Désormais, vous lisez en Français." in r.out
    assert "Schwarz hat e5 gespielt." in r.out  # for White, in German
    assert "Du liest Deutsch, wie du es gewählt hast." in r.out  # White to move again: German
    assert r.out.rstrip().endswith("Die Partie #1 ist gespeichert. Weiter geht es mit: fairypost play --resume 1")
