"""Every adapter's own migration set, whether that adapter runs in this process or not.

Wherever the bot opens its database (``GameService.open``, ``fairypost health``, ``db
copy``) the store is given all of them: a process that runs no Discord still keeps the
Discord adapter's tables migrated, and a copy never misses a table. The store itself knows
no adapter; this is the one place that lists them (beside ``bot.adapters``' registry,
which imports the service and so cannot be imported by it). ``open_store`` opens a database
so for anything that is not the service (``fairypost health``, bench/seed.py)."""

from __future__ import annotations

import os

from .discord_bot.schema import SCHEMA as DISCORD
from .email.schema import SCHEMA as EMAIL
from .store import Store
from .store.base import StoreBase
from .store.reports import SCHEMA as REPORTS
from .web.schema import SCHEMA as WEB

# and the running processes' health reports (bot/store/reports.py: ``fairypost health``), a set
# of the store's own kept beside the core's in the same way
ADAPTER_SCHEMAS = (DISCORD, EMAIL, WEB, REPORTS)


async def open_store(target: str | os.PathLike) -> StoreBase:
    """The database at ``target`` (a file path or a PostgreSQL URL) as the bot opens it:
    made or upgraded to the core's tables and every adapter's."""
    return await Store.open(target, schemas=ADAPTER_SCHEMAS)
