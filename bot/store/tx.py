"""``Tx``: the statements, run inside a transaction of a ``Store``, each SQL text written once
for both databases; their families' own modules joined (``tx_players``, ``tx_challenges``,
``tx_games``, ``tx_delivery``, on ``tx_base``'s plumbing), and the public statement API an
adapter queries its own tables with (its ``tables.py``).

Every value goes in through a parameter; the only names ever put into SQL text come from
fixed sets in these modules. A statement the database refuses raises
``bot.domain.errors.DatabaseError`` (a constraint: ``IntegrityError``), whatever the driver.
"""

from __future__ import annotations

from collections.abc import Sequence

from .rows import as_row
from .tx_challenges import ChallengeStatements
from .tx_delivery import DeliveryStatements
from .tx_games import GameStatements
from .tx_players import PlayerStatements


class Tx(PlayerStatements, ChallengeStatements, GameStatements, DeliveryStatements):
    """The statements, run inside a transaction of a :class:`Store`. A back end's subclass
    runs them (``_exec`` and the rest), each SQL text written once for both."""

    # The public statement API, for an owner of tables other than the core's (an adapter's:
    # bot/discord_bot/tables.py, bot/email/tables.py), so that their queries live with their
    # migrations and the core knows no adapter. SQL is written once, with ``?`` placeholders
    # (the PostgreSQL back end numbers them); a refused statement raises
    # ``bot.domain.errors.DatabaseError`` (``IntegrityError`` for a constraint), whatever the driver.
    # ``dialect`` ("sqlite" or "postgres") says which database runs it, for the rare SQL that
    # must differ (``FOR UPDATE SKIP LOCKED`` only on PostgreSQL).

    async def execute(self, sql: str, params: Sequence = ()) -> None:
        """Run a statement (nothing read back)."""
        await self._exec(sql, params)

    async def fetch_one(self, sql: str, params: Sequence = (), into: type | None = None):
        """The first row, or None. A row reads by column name or position (``row["id"]``,
        ``row[0]``); with ``into`` (a dataclass) it comes as one, from the columns it names."""
        row = await self._one(sql, params)
        return row if into is None else as_row(into, row)

    async def fetch_all(self, sql: str, params: Sequence = (), into: type | None = None) -> list:
        """Every row (as ``fetch_one``'s)."""
        rows = await self._all(sql, params)
        return list(rows) if into is None else [as_row(into, r) for r in rows]

    async def insert(self, sql: str, params: Sequence = ()) -> int:
        """Run an INSERT into a table with an ``id`` column; the new row's id."""
        return await self._insert(sql, params)

    async def change(self, sql: str, params: Sequence = ()) -> int:
        """Run an UPDATE, a DELETE or an INSERT ... ON CONFLICT; how many rows it changed."""
        return await self._change(sql, params)

    async def life_ended(self, life: str) -> bool:
        """Whether the process life ``life`` (``bot.store.lives``) is surely over: no process holds
        its lock on this database. False where the back end cannot tell (then a claim's lease
        decides)."""
        return False

    async def schema_version(self) -> int:
        row = await self._one("SELECT version FROM schema_version WHERE id = 1")
        return row["version"]
