"""The core store knows no adapter: no adapter's table is named anywhere in bot/store/ (its
queries and row types are the adapter's own ``tables.py``, beside its ``schema.py``), and
bot/store imports nothing of an adapter's. The table names are read from the adapters' own
migrations (tests/bot/owned_tables.py), not listed by hand."""

from __future__ import annotations

import ast
import re

from bot.schemas import ADAPTER_SCHEMAS
from bot.store import Dialects, Schema
from bot.store.reports import SCHEMA as REPORTS

from .owned_tables import BOT, schema_modules, tables_made

STORE = BOT / "store"


def tables_named(text: str, tables: set[str]) -> set[str]:
    """Which of ``tables`` the text names (as whole words: ``games`` is not ``games_by_x``)."""
    return {t for t in tables if re.search(rf"\b{re.escape(t)}\b", text)}


def imported_modules(source: str, package: str) -> set[str]:
    """The absolute names of the modules a module of ``package`` imports."""
    out = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                stem = ".".join(base + ([node.module] if node.module else []))
            else:
                stem = node.module or ""
            out.update(f"{stem}.{alias.name}" for alias in node.names)
    return out


def test_the_checks_see_what_they_look_for():
    """The checks themselves, on made-up text: a name is found as a word only, and an
    import of an adapter is seen however it is written."""
    made = tables_made(Schema("x", ((
        "CREATE TABLE IF NOT EXISTS x_notes (id INTEGER PRIMARY KEY)",
        Dialects(postgres="CREATE TABLE x_pg_only (a TEXT)"),
        "CREATE INDEX x_notes_by_id ON x_notes (id)"),)))
    assert made == {"x_notes", "x_pg_only"}
    assert tables_named("SELECT * FROM x_notes WHERE 1", made) == {"x_notes"}
    assert tables_named("-- x_notes_by_id, x_pg_only_2", made) == set()
    assert imported_modules("from ..email.tables import EmailTables\nimport bot.discord_bot\n",
                            "bot.store") == {"bot.email.tables.EmailTables", "bot.discord_bot"}


def test_every_adapter_table_is_known_from_its_schema():
    found = schema_modules()
    assert {"bot.discord_bot", "bot.email"} <= set(found)
    # the store is given every adapter's migrations (bot/schemas.py misses none), and its own
    # set of the processes' health reports (bot/store/reports.py)
    assert {s.owner for s in found.values()} | {REPORTS.owner} == {s.owner for s in ADAPTER_SCHEMAS}
    for package, schema in found.items():
        assert tables_made(schema), f"{package}'s schema.py makes no table"


def test_the_store_names_no_adapter_table():
    tables = set().union(*(tables_made(s) for s in schema_modules().values()))
    named = {path.name: tables_named(path.read_text(encoding="utf-8"), tables)
             for path in sorted(STORE.glob("*.py"))}
    assert {"migrations.py", "tx.py", "tx_players.py", "tx_challenges.py", "tx_games.py",
            "tx_delivery.py", "copy.py"} <= set(named)
    assert {name: found for name, found in named.items() if found} == {}


def test_the_store_imports_no_adapter():
    adapters = set(schema_modules()) | {"bot.schemas", "bot.adapters"}
    for path in sorted(STORE.glob("*.py")):
        imports = imported_modules(path.read_text(encoding="utf-8"), "bot.store")
        bad = {m for m in imports if any(m == a or m.startswith(a + ".") for a in adapters)}
        assert not bad, f"bot/store/{path.name} imports {sorted(bad)}"
