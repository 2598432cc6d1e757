"""A French game at the terminal (issue #44): ``LANG=fr_FR.UTF-8 fairypost play`` in a
real child process, from the first line to mate (and against the computer to its end), with
everything it printed read for English left: the terminal's own sentences, the shared words
(status lines, refusals, help), the computer's hint and review, ``fairypost games``, ``record``.

Not read for English: the board's rows (letters and squares), the PGN record's tag lines (a
format programs read: its tag names and values are the standard's, in every language), and the
players' own names and what they typed (``own``)."""

from __future__ import annotations

import asyncio
import re

import rules
from bot.terminal.images import Images
from bot.terminal.play import TerminalNotifier
from language import language
from tests.language.leaks import english_left

FRENCH = {"LANG": "fr_FR.UTF-8", "LC_ALL": "", "LC_MESSAGES": "", "LANGUAGE": ""}

#: the players' names and the words they typed, which stay as they wrote them
TYPED = ["White", "Black", "piece", "help", "language", "LANG", "default", "SQUARE", "MOVE", "GAME", "COMMAND",
         "CODE", "NAME", "LINES", "ACT", "ID", "DETAILS", "cancel", "on", "off", "PGN", "SAN", "VFEN",
         "fairypost", "play", "resume", "premove", "record", "moves", "draw", "quit", "legend", "hint",
         "review", "resign", "games", "chess", "y/n",
         "undo", "show", "pgn", "key", "vfen", "exit"]  # and the aliases the help lists


def _read(out: str) -> list[str]:
    """The lines a player reads: not the board's rows, not PGN's tag lines."""
    board = re.compile(r"^\s*(\d+\s+)?([a-zA-Z.+]\s+)+\d*\s*$|^\s+([a-z] )+[a-z]\s*$")
    return [line for line in out.splitlines()
            if line.strip() and not board.match(line) and not line.startswith("[")
            and not re.fullmatch(r"\s*(\d+\.\s+\S+(\s+\S+)?\s*)+(\*|1-0|0-1|1/2-1/2)?\s*", line)]


def _help_words(out: str) -> list[str]:
    """The command keywords of the help's first column (typed words: not translated)."""
    return [w for line in out.splitlines() if line.startswith("  ") for w in line.split()[:1]]


def _english(lines: list[str], code: str, own: list[str]) -> list[tuple[str, list[str]]]:
    """Each line with English left in it (file paths aside: the files' names are not words)."""
    return [(line, left) for line in lines if (left := english_left(re.sub(r"/\S+", " ", line), code, own=own))]


def test_a_french_game_to_mate_at_one_keyboard(fairypost):
    # White reads French (LANG alone); Black switches to German mid-game; an illegal move is
    # refused, a draw offer declined, help read, then fool's mate
    r = fairypost.play("chess", lines=["help", "f3", "Ke9", "moves", "help draw", "language de", "e5",
                                       "draw", "n", "g4", "Qh4", "record", "help"], env=FRENCH)
    assert r.code == 0, r.err
    out = r.out
    before, _, after = out.partition("Noirs> language de\n")
    assert after, out
    # exact French sentences
    assert "Tapez un coup (comme e4 ou Nf3), ou help pour les commandes." in before
    assert "Blancs a joué f3." in before
    assert "'e9' : cet échiquier a les rangées 1 à 8." in before  # the illegal move, refused
    assert "20 coups légaux :" in before
    assert "Nulle refusée ; la partie continue." in after  # White's answer, in French
    assert "Partie terminée : 0-1, Noirs gagne (échec et mat)." in after
    # Black's switch, and what Black reads from then on, in German
    assert "Ab jetzt liest du Deutsch." in after
    assert "Weiß hat g4 gespielt." in after  # the news of White's move, for Black
    own = TYPED + ["f3", "e5", "g4", "Qh4", "Ke9", "e9"] + _help_words(out)
    assert _english(_read(before), "fr", own) == []
    # after the switch each line is for White (French) or Black (German): none is English
    assert [(line, left) for line, left in _english(_read(after), "fr", own)
            if english_left(line, "de", own=own)] == []
    assert len(_read(out)) > 60


def test_french_against_the_computer_to_its_end_and_the_lists_after(fairypost, tmp_path):
    r = fairypost.play("chess", "--vs", "computer", "--level", "1", "--days", "3", "--images",
                       str(tmp_path / "pictures"), lines=["e4", "hint", "legend", "piece N", "xyz", "resign",
                                                          "y", "review", "quit"],
                       env=FRENCH, images=True, timeout=300)
    assert r.code == 0, r.err
    out = r.out
    assert "Vous jouez Blancs contre fairypost level 1 (débutant)." in out
    assert "Vous avez joué e4." in out
    assert "Vous (Blancs) (il reste 3\u00a0jours)> " in out  # the prompt's time, in French
    assert "Vous abandonnez." in out
    assert "Partie terminée : 0-1, fairypost level 1 (Noirs) gagne (abandon)." in out
    assert "Réflexion…" in out and "L'ordinateur jouerait" in out  # the hint
    assert "Analyse de 2 coups…" in out and "0 gaffe(s) (??)" in out  # the review
    computer = ["fairypost level 1"]  # the computer's player name
    own = (TYPED + computer + ["e4", "xyz", "Nf3", "exd5", "e2e4", "Ng1-f3", "Betza"])
    assert _english(_read(out), "fr", own) == []
    # its moves, whatever they were
    own += re.findall(r"\b[KQRBN]?[a-h]?x?[a-h][1-8]\S*", out)

    games = fairypost("games", env=FRENCH)
    assert games.code == 0, games.err
    assert "Vous v fairypost level 1, 2 demi-coups, 0-1 (abandon)" in games.out
    assert _english(games.out.splitlines(), "fr", own) == []

    record = fairypost("record", "1", str(tmp_path / "one.pgn"), env=FRENCH)
    assert record.code == 0, record.err
    assert _english(record.out.splitlines(), "fr", own) == []
    missing = fairypost("record", "9", env=FRENCH)
    assert missing.code != 0
    assert "il n'y a pas de partie" in missing.err.lower() or "partie #9" in missing.err.lower()
    assert _english(missing.err.splitlines(), "fr", own) == []


def test_a_bad_language_is_refused_in_french_and_changes_nothing(fairypost):
    r = fairypost.play("chess", lines=["language klingon", "language", "quit"], env=FRENCH)
    assert r.code == 0, r.err
    assert "'klingon' n'est pas une langue ici ; les langues sont : en, de, es, fr" in r.out
    assert "Vous lisez en Français, la langue de l'endroit où vous écrivez." in r.out


def test_the_level_names_are_the_computers_levels():
    import ai
    from bot.terminal.play import LEVEL_NAMES
    assert {n: str(t) for n, t in LEVEL_NAMES.items()} == {n: lv.name for n, lv in ai.LEVELS.items()}
    fr = language("fr")
    assert [fr.say(t) for t in LEVEL_NAMES.values()] != [str(t) for t in LEVEL_NAMES.values()]


def test_the_pictures_are_in_the_readers_language(tmp_path):
    # the board's banner after mate, the legend and a card: each drawn in the language asked
    pos = rules.start("chess")
    for san in ("f3", "e5", "g4", "Qh4"):
        pos = pos.play(san)
    pictures = {}
    for code in ("en", "fr"):
        images = Images(tmp_path / code)
        lang = language(code)
        board = images.board(1, pos, outcome=("0-1", "checkmate"), lang=lang)
        legend = images.legend(1, pos, lang=lang)
        assert images.problem is None and board is not None and legend is not None
        pictures[code] = board.read_bytes()
        import render
        assert pictures[code] == render.board_png(pos, result=render.result_text(pos.game, "0-1", "checkmate",
                                                                                  lang=lang), lang=lang)
    assert pictures["en"] != pictures["fr"]


def test_a_terminal_players_notice_is_in_their_language(tmp_path):
    # a terminal player whose opponent is elsewhere reads their notices in their own language
    from datetime import UTC, datetime

    from bot.config import Settings
    from bot.operations.service import GameService
    from bot.timekeeping.clock import ManualClock
    settings = Settings(db_path=str(tmp_path / "games.db"), command_rate_per_minute=0)
    clock = ManualClock(datetime(2026, 3, 2, 12, tzinfo=UTC))
    said: list[str] = []
    notifier = TerminalNotifier(said.append, here="fr")

    async def run():
        service = await GameService.open(settings, clock=clock, notifier=notifier)
        notifier.bind(service)
        try:
            ann = await service.player("terminal", "ann", "Ann")
            bob = await service.player("terminal", "bob", "Bob")
            await service.update_settings(bob.id, language="de")
            c = await service.challenge(ann.id, "chess", opponent_id=bob.id, colour="white")
            await service.accept_challenge(c.id, bob.id)
            await service.outbox.drain()
        finally:
            await service.close()
    asyncio.run(run())
    to_bob = [s for s in said if s.startswith("[an Bob]")]
    to_ann = [s for s in said if s.startswith("[pour Ann]")]
    assert to_bob and to_ann, said
    assert [s for s in to_bob if english_left(s, "de", own=["Ann", "Bob", "Chess"])] == []
    assert [s for s in to_ann if english_left(s, "fr", own=["Ann", "Bob", "Chess"])] == []


def test_french_game_choice_set_up_and_a_bad_days_value(fairypost):
    # without a game named: the list, a wrong name refused, Super Chess's set-up question
    r = fairypost.play(lines=["nope", "superchess", "x", "default", "quit"], env=FRENCH)
    assert r.code == 0, r.err
    out = r.out
    assert "Quel jeu ?" in out
    assert ("Super Chess commence par une mise en place : chaque camp choisit où se placent ses deux Super "
            "Pawns et dans quelle direction regarde son Cyclops.") in out
    assert "Répondez default ou players, s'il vous plaît." in out
    # the inventor's names stay (glossary): they are in the catalog as such
    own = TYPED + ["nope", "superchess", "x", "players"] + list(rules.variants())
    assert _english(_read(out), "fr", own) == []

    days = fairypost.play("chess", "--days", "9", env=FRENCH)
    assert days.code == 2
    said = days.out + days.err
    assert "9" in said and "fairypost play:" in said
    assert _english(said.splitlines(), "fr", own + ["none"]) == []


def test_the_play_commands_own_refusals_in_french(fairypost, tmp_path):
    # what `fairypost play` says of its options before any game: in the terminal's language
    level = fairypost.play("chess", "--level", "2", env=FRENCH)
    assert level.code == 2
    assert "--level et --colour vont avec --vs computer, comme dans : fairypost play chess --vs computer" in level.err
    rated = fairypost.play("chess", "--vs", "computer", "--rated", env=FRENCH)
    assert rated.code == 2
    assert "les parties contre l'ordinateur ne comptent jamais pour le classement : retirez --rated" in rated.err
    a_file = tmp_path / "pictures.txt"
    a_file.write_text("")
    images = fairypost.play("chess", "--images", str(a_file), env=FRENCH, images=True)
    assert images.code == 2
    assert "c'est un fichier ; indiquez un dossier pour les images" in images.err
    both = fairypost.play("chess", "--resume", env=FRENCH)
    assert both.code == 2 and "indiquez un jeu à commencer ou --resume, pas les deux" in both.err
    own = TYPED + ["level", "colour", "vs", "computer", "rated", "images", "GAME", "usage", "error"]
    for r in (level, rated, images, both):
        # argparse's own "usage:" and "error:" aside (its words, not ours), no English left
        assert _english([line for line in r.err.splitlines() if not line.startswith("usage:")], "fr", own) == []


def test_every_command_the_help_lists_runs_in_french(fairypost):
    # each command word of the terminal's help has its handler (none ends the session with a
    # traceback), and what it says is French
    from bot.terminal.commands import HANDLERS, TERMINAL
    assert sorted(s.name for s in TERMINAL if s.name not in HANDLERS) == []
    r = fairypost.play("chess", lines=["tournaments", "challenges", "tournament join 1", "e4", "undo", "quit"],
                       env=FRENCH)
    assert r.code == 0, r.err
    assert "Traceback" not in r.err
    assert "Coup repris : le coup e4 de Blancs." in r.out  # a sentence, with its capital
    own = TYPED + ["tournaments", "challenges", "tournament", "join", "e4", "undo"]
    assert _english(_read(r.out), "fr", own) == []
