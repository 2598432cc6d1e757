"""The ops area's texts that are not refusals, in the reader's language (issue #44): the
computer's hints and reviews, the links to a game's and a tournament's page. English stays
as before when no language is given."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest

from ai.engine import MATE
from bot.computer import player as computer
from bot.config import Settings
from bot.delivery.events import MemoryNotifier
from bot.identity.links import link_suffix, tournament_link_line
from bot.operations.service import GameService
from bot.timekeeping.clock import ManualClock
from language import language
from tests.language.leaks import english_left

T0 = datetime(2025, 1, 6, 12, 0, tzinfo=UTC)
OWN = ["Alice", "Bob", "chess"]  # the players' names; the game's id as the review names it
MOVES = [computer.ReviewedMove(1, "w", "e4", "e2e4", "e4", "e2e4", 30, 30),
         computer.ReviewedMove(2, "b", "f6", "f7f6", "e5", "e7e5", -30, -150),
         computer.ReviewedMove(3, "w", "d4", "d2d4", "Qh5", "d1h5", 110, -250)]


@pytest.fixture
async def finished(tmp_path):
    """A real game of chess, 1. e4 e5, resigned by Black."""
    settings = Settings(db_path=str(tmp_path / "games.db"), web_url="https://fairy.example")
    svc = await GameService.open(settings, clock=ManualClock(T0), notifier=MemoryNotifier(), rng=random.Random(7))
    a, b = await svc.player("test", "a", "Alice"), await svc.player("test", "b", "Bob")
    c = await svc.challenge(a.id, "chess", opponent_id=b.id, colour="white")
    gid = (await svc.accept_challenge(c.id, b.id)).id
    await svc.move(gid, a.id, "e4")
    await svc.move(gid, b.id, "e5")
    yield settings, await svc.resign(gid, b.id)
    await svc.close()


@pytest.mark.parametrize("code", ["fr", "de", "es"])
async def test_a_review_and_a_hint_in_the_language(finished, code):
    _, view = finished
    lang = language(code)
    review = computer.review_text(view, MOVES, lang=lang)
    summary = computer.review_summary(view.id, MOVES, lang=lang)
    hint = computer.hint_line(view.id, computer.Hint("g1f3", "Nf3", 35), lang=lang)
    mate = computer.hint_line(view.id, computer.Hint("d1h5", "Qh5", MATE - 3), lang=lang)
    for text in (review, summary, hint, mate):
        assert english_left(text, code, own=OWN) == []
    assert "Qh5" in review and "-2.5" in review and "Nf3" in hint and "+0.3" in hint
    assert review.splitlines()[0] != computer.review_text(view, MOVES).splitlines()[0]


async def test_a_review_in_french_exactly_and_english_as_before(finished):
    _, view = finished
    fr = language("fr")
    assert computer.review_summary(view.id, MOVES, lang=fr) == (
        f"L'analyse de la partie #{view.id} : 1 gaffe(s) (??), 1 erreur(s) (?), "
        "1 coup(s) comme l'ordinateur les jouerait.")
    assert computer.review_text(view, MOVES, lang=fr).splitlines()[0] == (
        f"Analyse de la partie #{view.id} (chess) : Alice contre Bob, 1-0 (abandon)")
    assert computer.hint_line(7, computer.Hint("g1f3", "Nf3", 35), lang=fr) == (
        "Partie #7 : L'ordinateur jouerait Nf3 (évaluation +0.3).")
    assert computer.review_summary(view.id, MOVES) == (
        f"The review of game #{view.id}: 1 blunder(s) (??), 1 mistake(s) (?), "
        "1 move(s) as the computer would play.")
    assert computer.review_text(view, MOVES).splitlines()[0] == (
        f"Review of game #{view.id} (chess): Alice v Bob, 1-0 (resignation)")
    assert computer.hint_line(7, computer.Hint("d1h5", "Qh5", MATE - 3), lang=fr) == (
        "Partie #7 : L'ordinateur jouerait Qh5 (évaluation mat en 2).")
    assert computer.hint_line(7, computer.Hint("d1h5", "Qh5", MATE - 3)) == (
        "Game #7: The computer would play Qh5 (score mate in 2).")  # as ai.describe_score says it
    assert computer.hint_line(7, computer.Hint("g1f3", "Nf3", 35)) == (
        "Game #7: The computer would play Nf3 (score +0.3).")


@pytest.mark.parametrize("code", ["fr", "de", "es"])
async def test_page_links_in_the_language(finished, code):
    settings, view = finished
    lang = language(code)
    for text in (link_suffix(settings, view.id, lang=lang), link_suffix(settings, view.id, "w", lang=lang),
                 tournament_link_line(settings, 3, lang=lang)):
        assert "<https://fairy.example/" in text
        assert english_left(text, code) == []
    assert link_suffix(settings, view.id).startswith("\nGame page: <https://fairy.example/")
    assert language("fr").tr("Game page: {link}", link="x") == "Page de la partie : x"


def _fairypost(tmp_path, *args, lang_env: str):
    """``fairypost ARGS`` as a subprocess on a database in ``tmp_path``, with LANG=lang_env."""
    import os
    import subprocess
    import sys
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FAIRYPOST_", "LC_", "LANG"))}
    env.update(FAIRYPOST_DB=str(tmp_path / "games.sqlite3"), XDG_DATA_HOME=str(tmp_path / "xdg"),
               PYTHONIOENCODING="utf-8", LANG=lang_env)
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], capture_output=True, text=True,
                          encoding="utf-8", cwd=tmp_path, env=env, timeout=120, check=False)


def test_fairypost_record_says_what_is_wrong_in_the_language_of_lang(tmp_path):
    none = _fairypost(tmp_path, "record", "1", lang_env="fr_FR.UTF-8")
    assert none.returncode == 2 and none.stdout == ""
    assert none.stderr.startswith("fairypost record: il n'y a pas de partie #1 (pas de base de données à ")
    (tmp_path / "folder").mkdir()
    folder = _fairypost(tmp_path, "record", "1", "folder", lang_env="de_DE.UTF-8")
    assert folder.stderr.strip() == "fairypost record: folder: das ist ein Ordner; nenne eine Datei zum Schreiben"
    english = _fairypost(tmp_path, "record", "1", "folder", lang_env="C.UTF-8")
    assert english.stderr.strip() == "fairypost record: folder: that is a folder; name a file to write"
    gif = _fairypost(tmp_path, "replay", "1", "x.png", lang_env="es_ES.UTF-8")
    assert gif.returncode == 2 and gif.stderr.strip() == "fairypost replay: x.png: indica un archivo .gif"


@pytest.mark.parametrize("code", ["fr", "de", "es"])
async def test_rating_lines_in_the_language(tmp_path, code):
    from bot.operations.ratings import PROVISIONAL_NOTE, leaderboard_lines, own_lines, provisional_note
    settings = Settings(db_path=str(tmp_path / "games.db"))
    svc = await GameService.open(settings, clock=ManualClock(T0), notifier=MemoryNotifier(), rng=random.Random(7))
    try:
        a, b = await svc.player("test", "a", "Alice"), await svc.player("test", "b", "Bob")
        c = await svc.challenge(a.id, "chess", opponent_id=b.id, colour="white", rated=True)
        gid = (await svc.accept_challenge(c.id, b.id)).id
        for who, move in [(a, "e4"), (b, "e5")]:
            await svc.move(gid, who.id, move)
        await svc.resign(gid, b.id)
        board, mine = await svc.leaderboard("chess"), await svc.player_ratings(a.id)
    finally:
        await svc.close()
    lang = language(code)
    said = leaderboard_lines(board, lang=lang) + own_lines(mine, lang.data, lang=lang) + [provisional_note(lang)]
    assert english_left("\n".join(said), code, own=OWN) == []
    assert said[0].startswith("1. Alice ") and "Bob" in said[1]
    assert leaderboard_lines(board)[0].endswith("(1 rated game)")  # English as before
    assert provisional_note() == PROVISIONAL_NOTE
    if code == "fr":
        assert said[0].endswith("(1 partie classée)")
