"""``fairypost db copy FROM TO``: a whole game database into an empty one, SQLite to
PostgreSQL or back (or file to file), so a growing bot moves without losing a game.

Both are opened (and so brought to this program's schema); the target must hold no rows.
The source is read in one snapshot and the target written in one transaction: a copy that
fails half way leaves the target as empty as it was. Rows keep their ids, so links, records
and adapters' references stay right."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence

from ..domain.errors import StorageError
from . import Schema, Store

#: The core's first tables in an order that satisfies their references; every other table
#: (a later core migration's, or an adapter's own, which refer only to the core's) is copied
#: after these, in name order. The store names no adapter's table: a copy takes whatever
#: tables the database has.
ORDER = ("players", "vacations", "challenges", "games", "moves", "events", "reminders", "digests",
         "public_games", "tournaments")

#: References that go round in a circle (a challenge names its game, a game its challenge):
#: copied as NULL, then set once both tables are in.
LATER = {"challenges": ("game_id",)}

BATCH = 2000


class NotEmpty(StorageError):
    default_message = "the target database is not empty"


def _ordered(tables: list[str]) -> list[str]:
    tables = [t for t in tables if t not in ("schema_version", "schema_versions")]  # each its own
    return [t for t in ORDER if t in tables] + sorted(t for t in tables if t not in ORDER)


async def copy(source: Store, target: Store, say: Callable[[str], None] = print) -> dict[str, int]:
    """Copy every row of ``source`` into ``target`` (which must have none); rows per table."""
    tables = _ordered(await source.tables())
    missing = set(tables) - set(await target.tables())
    if missing:
        raise StorageError(f"the target has no table {', '.join(sorted(missing))}")
    counts: dict[str, int] = {}
    async with source.read() as src, target.write() as dst:
        for table in tables:
            if await dst._one(f"SELECT 1 FROM {table} LIMIT 1") is not None:
                raise NotEmpty(f"the target database {target.path} is not empty (table {table} "
                               f"has rows): copy into a new, empty one")
        for table in tables:
            columns = await src.columns(table)
            later = [c for c in LATER.get(table, ()) if c in columns]
            total = (await src._one(f"SELECT COUNT(*) FROM {table}"))[0]
            names = ", ".join(columns)
            insert = f"INSERT INTO {table} ({names}) VALUES ({', '.join('?' for _ in columns)})"
            order = ", ".join(str(i + 1) for i in range(len(columns)))
            done = 0
            while done < total:
                rows = await src._all(f"SELECT {names} FROM {table} ORDER BY {order} LIMIT ? OFFSET ?",
                                      (BATCH, done))
                if not rows:
                    break
                values = [[None if c in later else r[c] for c in columns] for r in rows]
                await dst._exec_many(insert, values)
                done += len(rows)
                say(f"{table}: {done}/{total}")
            if total == 0:
                say(f"{table}: 0/0")
            await dst.loaded(table)
            counts[table] = done
        for table, cols in LATER.items():
            if table not in counts:
                continue
            for col in cols:
                rows = await src._all(f"SELECT id, {col} FROM {table} WHERE {col} IS NOT NULL")
                await dst._exec_many(f"UPDATE {table} SET {col} = ? WHERE id = ?",
                                     [(r[1], r[0]) for r in rows])
    return counts


async def run(source_target: str, destination: str, schemas: Sequence[Schema] = ()) -> int:
    """The command: 0 copied, 1 refused or failed (the reason on stderr). Both databases
    are brought to the core's schema and ``schemas``' (the adapters' own tables)."""
    try:
        source = await Store.open(source_target, schemas=schemas)
    except StorageError as e:
        print(f"fairypost db copy: cannot open {source_target}: {e}", file=sys.stderr)
        return 1
    try:
        try:
            target = await Store.open(destination, schemas=schemas)
        except StorageError as e:
            print(f"fairypost db copy: cannot open {destination}: {e}", file=sys.stderr)
            return 1
        try:
            counts = await copy(source, target, say=lambda line: print(line, flush=True))
        except StorageError as e:
            print(f"fairypost db copy: {e}", file=sys.stderr)
            return 1
        finally:
            await target.close()
    finally:
        await source.close()
    print(f"copied {sum(counts.values())} rows in {len(counts)} tables from {source.path} to {target.path}")
    return 0
