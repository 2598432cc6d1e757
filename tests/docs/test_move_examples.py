"""Every move example in the rules pages (docs/rules/*.md) and the README is played by
the engine: the checked ``moves`` blocks in their positions, to what the page says they
reach; every move written inline in prose stands in a checked block; and the
``python -m rules play`` example of docs/engine.md (once the README's) runs."""
from __future__ import annotations

import subprocess
import sys

import pytest

import rules
from rules.errors import RulesError

from .pages import ENGINE_DOC, README, ROOT, as_letters, block_tokens, examples, inline_moves, pages, play_commands

EXAMPLES = [e for p in pages() for e in examples(p)]


def test_every_page_has_checked_examples():
    assert {p.stem for p in pages()} >= {"ganymede", "gigachess2", "grandducal", "superchess", "kingqueen"}
    for p in pages():
        if p.stem in rules.variants():
            games = {e.game for e in examples(p)}
            assert games == {p.stem}, f"{p.name} has checked move blocks for {games}"


def _start(example):
    if example.vfen:
        return rules.from_fen(example.game, example.vfen)
    return rules.start(example.game)


@pytest.mark.parametrize("example", EXAMPLES, ids=str)
def test_the_example_plays_as_the_page_says(example):
    pos = _start(example)
    moves = list(example.moves)
    last = moves.pop() if example.expect == "refused" else None
    for text in moves:
        try:
            pos = pos.play(text)
        except RulesError as e:
            pytest.fail(f"{example}: {text!r} is refused: {e}")
    if last is not None:
        with pytest.raises(RulesError):
            pos.play(last)
        return
    if example.expect is None:
        return
    if "/" in example.expect:
        assert pos.fen() == example.expect, str(example)
    else:
        result, _, reason = example.expect.partition(" ")
        assert pos.outcome() == (result, reason), str(example)


@pytest.mark.parametrize("page", pages(), ids=lambda p: p.name)
def test_every_inline_move_of_a_page_is_in_its_checked_blocks(page):
    checked = block_tokens(page)
    missing = [m for m in inline_moves(page) if m not in checked]
    assert not missing, f"{page.name}: inline moves not in a checked block: {missing}"


def test_every_move_the_readme_names_is_checked_in_a_rules_page():
    checked = set().union(*(block_tokens(p) for p in pages()))
    named = inline_moves(README)
    assert len(named) >= 10
    missing = [m for m in named if m not in checked]
    assert not missing, f"README moves not in a checked block of docs/rules: {missing}"


def test_the_superchess_page_plays_facings_written_as_words():
    page = ROOT / "docs" / "rules" / "superchess.md"
    worded = [m for m in inline_moves(page) if as_letters(m) != m]
    assert worded, "the Super Chess page shows the facing words"
    checked_worded = {t for t in block_tokens(page) if as_letters(t) != t}
    assert set(worded) <= checked_worded and len(checked_worded) >= 4


def _played(game, moves):
    pos = rules.start(game)
    for text in moves:
        pos = pos.play(text)
    return pos.fen()


def test_the_play_commands_written_in_the_readme_and_pages_are_legal():
    commands = [c for p in [README, ENGINE_DOC, *pages()] for c in play_commands(p)]
    assert "grandducal" in {g for g, _ in play_commands(ENGINE_DOC)}, commands
    for game, moves in commands:
        _played(game, moves)
    game, moves = play_commands(ENGINE_DOC)[0]
    run = subprocess.run([sys.executable, "-m", "rules", "play", game, *moves],
                         capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == _played(game, moves)
