"""docs/variants.md, the server owners' guide to their own variants: every key of the schema
(rules/schema.py) is in its table, and the worked examples load and count what it says."""
from __future__ import annotations

import re

import pytest

import rules
from rules import schema

from .pages import README, ROOT

DOC = (ROOT / "docs" / "variants.md").read_text(encoding="utf-8")
SECTIONS = {"### The top level": schema.TOP, "### `[sides]`": schema.SIDES,
            "### `[rules]`": schema.RULES, "### `[[castling]]`": schema.CASTLING,
            "### `[pieces.X]`": schema.PIECE, "### `promotion`": schema.PROMOTION}


def section(title: str) -> str:
    start = DOC.index(title)
    end = DOC.find("\n### ", start + 1)
    return DOC[start:end if end > 0 else None]


@pytest.mark.parametrize("title", SECTIONS)
def test_every_key_is_documented_in_its_table(title):
    rows = set(re.findall(r"^\| `([a-z_]+)` \|", section(title), re.M))
    keys = set(SECTIONS[title]) - {"pieces", "sides", "rules", "zones", "castling"}
    assert rows == keys


def test_the_worked_examples_load_and_count_as_the_guide_says(tmp_path):
    blocks = re.findall(r"```toml\n(.*?)```", DOC, re.S)
    assert len(blocks) == 2
    folder = tmp_path / "variants"
    folder.mkdir()
    (folder / "wazirknight.toml").write_text(blocks[0], encoding="utf-8")
    (folder / "losalamos.toml").write_text(blocks[1], encoding="utf-8")
    try:
        assert rules.add_variants_dir(folder) == ["losalamos", "wazirknight"]
        assert [rules.start("wazirknight").perft(d) for d in (1, 2, 3)] == [12, 144, 2029]
        assert [rules.start("losalamos").perft(d) for d in (1, 2, 3)] == [10, 100, 1212]
    finally:
        rules.remove_variants_dir(folder)
    assert "12, 144, 2029 and 28108" in DOC and "10, 100, 1212 and 14332" in DOC


def test_the_readme_links_the_guide_and_the_settings_name_the_setting():
    assert "(docs/variants.md)" in README.read_text(encoding="utf-8")
    settings = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    assert "(variants.md)" in settings  # the table links it, from docs/
    assert "| `FAIRYPOST_VARIANTS_DIR` | `variants_dir` |" in settings
