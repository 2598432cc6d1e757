"""Game knowledge stays in the rules' hooks and the data: the bot and the renderer name
no game, no special piece and no set-up phase, in code, comments or docstrings alike.

The forbidden words are taken from the data itself, so a new game or special piece is
covered without touching this test: every game id and name, the name of every piece
that has a special mover or states, and every set-up phase name.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import rules

ROOT = Path(__file__).resolve().parents[2]
CHECKED = ("bot", "render")
# ids that are also plain words are looked for only as quoted strings ("chess")
PLAIN_WORDS = {"chess"}


def _forbidden() -> list[tuple[str, re.Pattern]]:
    """(word, pattern) for every name the bot and the renderer must not contain."""
    words: dict[str, re.Pattern] = {}

    def whole(word: str, flags=0) -> re.Pattern:
        return re.compile(r"(?<![A-Za-z0-9_])" + re.escape(word) + r"(?![A-Za-z0-9_])", flags)

    def quoted(word: str) -> re.Pattern:
        return re.compile(rf"""["']{re.escape(word)}["']""")

    for gid in rules.variants():
        game = rules.game(gid)
        if gid in PLAIN_WORDS:
            words[f'"{gid}"'] = quoted(gid)
        else:
            words[gid] = whole(gid, re.IGNORECASE)       # GANYMEDE = ... counts too
            words[game.name] = whole(game.name)
        for t in game.types.values():
            if game.movers.get(t.key) is not None or t.states:
                words[t.name] = whole(t.name)             # "Wall", not a wall clock
                words[t.name.lower()] = whole(t.name.lower())
                for name in {t.name.lower(), t.hook} - {None}:
                    words[f'"{name}"'] = quoted(name)       # if gid == "wall"
        for phase in game.extension.setup_phases:
            words[phase] = whole(phase)
    words.pop("wall", None)  # the lower-case word is the clock's ("wall clock")
    return sorted(words.items())


def _sources() -> list[Path]:
    return sorted(p for d in CHECKED for p in (ROOT / d).rglob("*.py"))


def test_the_forbidden_words_come_from_the_data():
    found = dict(_forbidden())
    # a sample of what the data yields today: games, special pieces, set-up phases
    for word in ("ganymede", "Super Chess", "King and Queen", '"chess"', "Cyclops", "Wall",
                 "Archer", "Spearman", "sp-w", "face-b"):
        assert word in found, word
    assert _sources() and all(p.suffix == ".py" for p in _sources())


@pytest.mark.parametrize("path", _sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_bot_and_render_name_no_game(path):
    text = path.read_text(encoding="utf-8")
    hits = [f"{path.relative_to(ROOT)}:{n}: {word!r} in {line.strip()[:90]!r}"
            for n, line in enumerate(text.splitlines(), 1)
            for word, pattern in _forbidden() if pattern.search(line)]
    assert not hits, "game knowledge outside rules/hooks and data:\n" + "\n".join(hits)


def test_the_check_catches_a_game_name(tmp_path):
    """The pattern finds what it is for (and leaves ordinary words alone)."""
    patterns = _forbidden()
    bad = ['if gid == "wall":', "# the Cyclops's facing", 'SETUP = {"superchess": ...}',
           'ids = [g for g in ids if g != "chess"]', "phase = 'sp-w'"]
    fine = ["the wall clock moved", "correspondence chess variants", "a piece on two squares"]
    for line in bad:
        assert any(p.search(line) for _, p in patterns), line
    for line in fine:
        assert not any(p.search(line) for _, p in patterns), line
