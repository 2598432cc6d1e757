"""Every adapter's own migration set, whether that adapter runs in this process or not.

Wherever the bot opens its database (``GameService.open``, ``fairypost health``, ``db
copy``) the store is given all of them: a process that runs no Discord still keeps the
Discord adapter's tables migrated, and a copy never misses a table. The store itself knows
no adapter; this is the one place that lists them (beside ``bot.adapters``' registry,
which imports the service and so cannot be imported by it)."""

from __future__ import annotations

from .discord_bot.schema import SCHEMA as DISCORD
from .email.schema import SCHEMA as EMAIL

ADAPTER_SCHEMAS = (DISCORD, EMAIL)
