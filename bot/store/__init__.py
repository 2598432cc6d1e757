"""The game database, as an interface with two back ends.

``await Store.open(target)``: a file path is SQLite (``sqlite.py``, the default: nothing to
install), a ``postgresql://`` URL is PostgreSQL (``postgres.py``, asyncpg, for several bot
processes on one database). Both run the same statements and the same ordered migrations,
the core's SQL, written once for both: the schema (``migrations.py``), the rows
(``rows.py``), and the statements (``tx.py``'s ``Tx``, joining its families: ``tx_players``,
``tx_challenges``, ``tx_games``, ``tx_delivery``, on ``tx_base``'s plumbing). An adapter's
own tables are its own migrations (a ``Schema`` of its own, versioned per owner), which the
store runs when given them: the store knows no adapter, the caller says which sets to keep
migrated (``bot.schemas``: every known adapter's). ``base.py`` is what the back ends share
(the interface, migrating, the DDL's PostgreSQL form); ``copy.py`` is ``fairypost db copy``.
The rest of the program sees only ``Store`` (``read()``, ``write()``, ``close()``,
``watch()``) and ``Tx``, whose methods are the statements, and never which database it is;
an adapter queries its own tables through ``Tx``'s public statement API (``execute``,
``fetch_one``, ``fetch_all``, ``insert``, ``change``, ``dialect``).

``read()`` is a consistent snapshot; ``write()`` a transaction that commits on success and
rolls back on any exception, so nothing is ever half written, and writes are one at a time
(SQLite's ``BEGIN IMMEDIATE``; on PostgreSQL a transaction-scoped advisory lock, across
every process on the database). ``row_write()`` is a write that locks the rows it changes
instead (one game, claimed notices or reminders): on PostgreSQL such writes run side by side
across processes, on SQLite it is ``write()``. The service's optimistic version checks hold
either way: a command reads a snapshot in one transaction and writes in another, and of two
commands on one game the second write finds the version moved on and is refused. What a
command answers (a move's ply, the game after it) is read in its write transaction, never
after the commit: by then another process may have moved (issue #32; bot/README.md,
"Transactions").

``reports.py`` keeps each running process's health report (``fairypost health``), its table
a migration set of its own (``reports.SCHEMA``, listed with the adapters' in ``bot.schemas``).

Each open store has a ``life`` (a random id its process's claims carry) and holds its lock
until closed (``hold_life``; ``bot.store.lives``), so that ``Tx.life_ended`` tells the other
processes when a claim's holder has died.

May import: ``language``, ``bot.domain`` (its refusals: ``StorageError``, ``NotFound``), the standard
library and the database drivers (aiosqlite; asyncpg for PostgreSQL).
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from .base import CORE, Dialects, Schema, StoreBase, database_file, is_postgres, printable
from .migrations import MIGRATIONS
from .rows import (
    ChallengeRow,
    DueGameRow,
    EventRow,
    GameRow,
    MoveRow,
    PendingReminderRow,
    PlayerRow,
    PremoveRow,
    RatingRow,
    ReminderRow,
)
from .tx import Tx

__all__ = ["CORE", "MIGRATIONS", "Dialects", "Schema", "Store", "Tx", "database_file", "printable",
           "ChallengeRow", "DueGameRow", "EventRow", "GameRow", "MoveRow", "PendingReminderRow", "PlayerRow",
           "PremoveRow", "RatingRow", "ReminderRow"]


class Store(StoreBase):
    """Open with ``await Store.open(path or URL, schemas=[...])``: the back end is chosen by
    what is given; ``schemas`` are the adapters' migration sets to run after the core's
    (``migrations``: the core's, all of them unless a test wants an older schema)."""

    @classmethod
    async def open(cls, target: str | os.PathLike, migrations: Sequence | None = None, *,
                   schemas: Sequence[Schema] = ()) -> StoreBase:
        core = Schema(CORE, MIGRATIONS if migrations is None else migrations)
        if any(s.owner == CORE for s in schemas):
            raise ValueError("the core's migrations are the store's own")
        if is_postgres(target):
            from .postgres import PostgresStore as chosen
        else:
            from .sqlite import SQLiteStore as chosen
        return await chosen.open(target, [core, *schemas])
