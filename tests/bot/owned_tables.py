"""The tables each adapter makes, read from its own migrations (every ``schema.py`` in an
adapter's package under bot/), never from a hand-written list: a table an adapter adds
later is known here at once."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

from bot.store import Dialects, Schema

BOT = Path(__file__).resolve().parents[2] / "bot"

_CREATE_TABLE = re.compile(r"\bCREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?(\w+)", re.IGNORECASE)


def schema_modules() -> dict[str, Schema]:
    """Each adapter package's ``SCHEMA`` by package (``bot.email``: its schema.py's)."""
    found = {}
    for path in sorted(BOT.glob("*/schema.py")):
        package = f"bot.{path.parent.name}"
        found[package] = importlib.import_module(f"{package}.schema").SCHEMA
    return found


def tables_made(schema: Schema) -> set[str]:
    """The tables that a migration set creates (on either database)."""
    names = set()
    for migration in schema.migrations:
        for entry in migration:
            texts = (entry.sqlite, entry.postgres) if isinstance(entry, Dialects) else (entry,)
            for sql in filter(None, texts):
                names.update(_CREATE_TABLE.findall(sql))
    return names


def adapter_tables() -> set[str]:
    """Every table any adapter's own migrations create."""
    return set().union(*(tables_made(s) for s in schema_modules().values()))
