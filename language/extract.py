"""Babel's extractor for the games' data files: the texts a player reads in a TOML file (a
game's name, summary, special rules and how it ends; each piece's name and description;
the sides' names), each a message id as it is written there (``known()`` says them)."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from typing import Any

#: the keys whose values a player reads (a string, or a list of strings)
TEXT_KEYS = frozenset({"name", "summary", "special_rules", "game_end", "description", "side_names",
                       "white", "black", "title", "caption"})


def texts(data: Any, key: str = "") -> Iterator[str]:
    """Every player-read string in parsed TOML data, in the file's order."""
    if isinstance(data, dict):
        for k, v in data.items():
            yield from texts(v, k)
    elif isinstance(data, list):
        for item in data:
            yield from texts(item, key)
    elif isinstance(data, str) and key in TEXT_KEYS and data.strip():
        yield data


def extract_toml(fileobj, keywords, comment_tags, options) -> Iterator[tuple[int, str | None, str, list[str]]]:
    data = tomllib.loads(fileobj.read().decode("utf-8"))
    for text in texts(data):
        yield 1, None, text, []
