"""Running some of the bot's Discord shards in this process: ``fairypost run --shards 0-3
--shard-count 8``. Discord splits the servers among ``shard-count`` gateway connections
(it requires sharding from 2,500 servers); each process runs a range of them, on one
database, and any process delivers any notice and runs any sweep (bot/README.md)."""

from __future__ import annotations

from dataclasses import dataclass


class ShardError(ValueError):
    """--shards / --shard-count that do not make sense, said plainly."""


@dataclass(frozen=True)
class Shards:
    ids: tuple[int, ...]
    count: int

    @property
    def syncs_commands(self) -> bool:
        """One process registers the slash commands (they are the application's, not a
        shard's): the one running shard 0."""
        return 0 in self.ids

    def client_options(self) -> dict:
        """What discord.py's AutoShardedClient takes."""
        return {"shard_ids": list(self.ids), "shard_count": self.count}


def parse_shards(text: str | None, count: int | None) -> Shards | None:
    """``A-B`` (or one shard ``A``) of ``count``; None when neither is given (one process,
    no sharding)."""
    if text is None and count is None:
        return None
    if text is None or count is None:
        raise ShardError("--shards and --shard-count go together, as in --shards 0-3 --shard-count 8")
    if count < 1:
        raise ShardError(f"--shard-count must be at least 1 (got {count})")
    first, sep, last = text.partition("-")
    try:
        a, b = int(first), int(last) if sep else int(first)
    except ValueError:
        raise ShardError(f"--shards {text!r}: give a range of shard numbers like 0-3, or one like 5") from None
    if not 0 <= a <= b < count:
        raise ShardError(f"--shards {text}: shards are numbered 0 to {count - 1} when there are {count}, "
                         "and a range goes up")
    return Shards(tuple(range(a, b + 1)), count)

