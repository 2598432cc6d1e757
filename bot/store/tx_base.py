"""What every statement of ``Tx`` runs on: the plumbing a back end supplies (``_exec``,
``_one``, ``_all``, ``_insert``, ``_exec_many``, ``_change``) and the lock a claim takes.
The statement families (``tx_players``, ``tx_challenges``, ``tx_games``, ``tx_delivery``)
build on it; ``tx.Tx`` joins them.
"""

from __future__ import annotations

from collections.abc import Sequence


class TxBase:
    """The plumbing the statements are written with; a back end's ``Tx`` subclass runs them."""

    dialect = ""  # "sqlite" or "postgres"

    # plumbing: the back end's
    async def _exec(self, sql: str, params: Sequence = ()) -> None:
        raise NotImplementedError

    async def _one(self, sql: str, params: Sequence = ()):
        """The first row (by name or position), or None."""
        raise NotImplementedError

    async def _all(self, sql: str, params: Sequence = ()) -> list:
        raise NotImplementedError

    async def _insert(self, sql: str, params: Sequence) -> int:
        """Run an INSERT into a table with an ``id`` column; the new row's id."""
        return (await self._one(sql + " RETURNING id", params))[0]

    async def _change(self, sql: str, params: Sequence) -> int:
        """Run an UPDATE or DELETE; how many rows it changed."""
        raise NotImplementedError

    async def _exec_many(self, sql: str, rows: Sequence[Sequence]) -> None:
        """Run one statement for each of many parameter rows."""
        raise NotImplementedError

    def _skip_locked(self) -> str:
        """A claim's lock: on PostgreSQL the rows are locked as they are read, and those
        another transaction holds are passed over, never waited for; SQLite has one writer."""
        return " FOR UPDATE SKIP LOCKED" if self.dialect == "postgres" else ""
