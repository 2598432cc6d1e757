"""The statements on players: who they are, their settings and digest times, vacations,
their locks, ratings and blocks (bot/identity, bot/operations/ratings.py).
"""

from __future__ import annotations

from .rows import PlayerRow, RatingRow, as_row
from .tx_base import TxBase

#: players' advisory lock keys (``Tx.lock_players``): far above the write lock's (a small
#: number), and below 2**63 for any id the store accepts short of 2**62
PLAYER_LOCKS = 1 << 62


class PlayerStatements(TxBase):
    """``Tx``'s statements on the players, ratings, vacations and blocks tables."""

    # players
    async def player(self, player_id: int) -> PlayerRow | None:
        return as_row(PlayerRow, await self._one("SELECT * FROM players WHERE id = ?", (player_id,)))

    async def players_by_id(self, player_ids) -> dict[int, PlayerRow]:
        """Many players at once: id -> row (ids that name no player are left out)."""
        ids = sorted(set(player_ids))
        if not ids:
            return {}
        marks = ", ".join("?" for _ in ids)
        rows = await self._all(f"SELECT * FROM players WHERE id IN ({marks})", ids)
        return {r["id"]: as_row(PlayerRow, r) for r in rows}

    async def find_player(self, platform: str, user_id: str) -> PlayerRow | None:
        return as_row(PlayerRow, await self._one(
            "SELECT * FROM players WHERE platform = ? AND user_id = ?", (platform, user_id)))

    async def insert_player(self, platform: str, user_id: str, name: str, settings: str,
                            now: int) -> int:
        player_id = await self._insert(
            "INSERT INTO players (platform, user_id, name, settings, created_at) "
            "VALUES (?, ?, ?, ?, ?)", (platform, user_id, name, settings, now))
        if settings != "{}":  # their digest time is worked out at the next sweep
            await self.set_next_digest(player_id, 0)
        return player_id

    async def rename_player(self, player_id: int, name: str) -> None:
        await self._exec("UPDATE players SET name = ? WHERE id = ?", (name, player_id))

    async def set_player_settings(self, player_id: int, settings: str) -> None:
        """New settings; the next digest time is worked out again at the next sweep."""
        await self._exec("UPDATE players SET settings = ?, next_digest_at = 0 WHERE id = ?",
                         (settings, player_id))

    async def players_digest_due(self, now: int) -> list[PlayerRow]:
        """Players whose next digest time has come (indexed: not every player's settings)."""
        rows = await self._all("SELECT * FROM players WHERE next_digest_at <= ? ORDER BY id", (now,))
        return [as_row(PlayerRow, r) for r in rows]

    async def set_next_digest(self, player_id: int, at: int | None) -> None:
        await self._exec("UPDATE players SET next_digest_at = ? WHERE id = ?", (at, player_id))

    async def next_digest(self, after: int) -> int | None:
        """The earliest next digest time of any player later than ``after`` (indexed)."""
        return (await self._one("SELECT MIN(next_digest_at) FROM players WHERE next_digest_at > ?",
                                (after,)))[0]

    async def players_with_settings(self) -> list[PlayerRow]:
        rows = await self._all("SELECT * FROM players WHERE settings <> '{}' ORDER BY id")
        return [as_row(PlayerRow, r) for r in rows]

    async def players_on(self, platform: str) -> list[PlayerRow]:
        rows = await self._all("SELECT * FROM players WHERE platform = ? ORDER BY id", (platform,))
        return [as_row(PlayerRow, r) for r in rows]

    async def players_named(self, name: str) -> list[PlayerRow]:
        rows = await self._all("SELECT * FROM players WHERE lower(name) = lower(?) ORDER BY id", (name,))
        return [as_row(PlayerRow, r) for r in rows]

    # vacations
    async def start_vacation(self, player_id: int, start: int, until: int) -> None:
        await self._exec("UPDATE players SET vacation_start = ?, vacation_until = ? WHERE id = ?",
                         (start, until, player_id))
        await self._insert("INSERT INTO vacations (player_id, started_at, limit_at) VALUES (?, ?, ?)",
                           (player_id, start, until))

    async def end_vacation(self, player_id: int, end: int) -> None:
        await self._exec("UPDATE players SET vacation_start = NULL, vacation_until = NULL "
                         "WHERE id = ?", (player_id,))
        await self._exec("UPDATE vacations SET ended_at = ? WHERE player_id = ? AND ended_at IS NULL",
                         (end, player_id))

    async def vacation_used(self, player_id: int, year_start: int, year_end: int, now: int) -> int:
        """Seconds of vacation taken in vacations begun in [year_start, year_end)."""
        row = await self._one(
            "SELECT CAST(COALESCE(SUM(CASE WHEN COALESCE(ended_at, ?) < limit_at "
            "THEN COALESCE(ended_at, ?) ELSE limit_at END - started_at), 0) AS BIGINT) AS used "
            "FROM vacations WHERE player_id = ? AND started_at >= ? AND started_at < ?",
            (now, now, player_id, year_start, year_end))
        return max(0, row["used"])

    async def vacations_due(self, now: int) -> list[PlayerRow]:
        rows = await self._all("SELECT * FROM players WHERE vacation_until <= ? ORDER BY id", (now,))
        return [as_row(PlayerRow, r) for r in rows]

    async def vacation_limits(self) -> list[int]:
        rows = await self._all("SELECT vacation_until FROM players WHERE vacation_until IS NOT NULL")
        return [r[0] for r in rows]

    # locks: a player held for the rest of the transaction
    async def claim_player(self, player_id: int) -> PlayerRow | None:
        """The player, locked for this transaction (their digest, say); None if there is
        none or another transaction holds them."""
        return as_row(PlayerRow, await self._one(f"SELECT * FROM players WHERE id = ?{self._skip_locked()}",
                                                (player_id,)))

    async def lock_players(self, player_ids) -> None:
        """Hold these players until the transaction ends (their ratings are read and then
        written): advisory locks taken in id order, so two transactions never wait for each
        other in a circle. SQLite's one writer needs none."""
        if self.dialect != "postgres":
            return
        for pid in sorted(set(player_ids)):
            await self._exec("SELECT pg_advisory_xact_lock(?)", (PLAYER_LOCKS + pid,))

    # ratings (bot/operations/ratings.py): one row per player and game they have played rated
    async def rating(self, player_id: int, game: str) -> RatingRow | None:
        return as_row(RatingRow, await self._one(
            "SELECT * FROM ratings WHERE player_id = ? AND game = ?", (player_id, game)))

    async def ratings_of(self, player_id: int) -> list[RatingRow]:
        rows = await self._all("SELECT * FROM ratings WHERE player_id = ? ORDER BY game", (player_id,))
        return [as_row(RatingRow, r) for r in rows]

    async def put_rating(self, r: RatingRow) -> None:
        await self._exec("INSERT INTO ratings (player_id, game, rating, deviation, volatility, games, "
                         "rated_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (player_id, game) DO UPDATE "
                         "SET rating = excluded.rating, deviation = excluded.deviation, "
                         "volatility = excluded.volatility, games = excluded.games, "
                         "rated_at = excluded.rated_at",
                         (r.player_id, r.game, r.rating, r.deviation, r.volatility, r.games, r.rated_at))

    async def leaderboard(self, game: str, limit: int) -> list[tuple[RatingRow, PlayerRow]]:
        """The game's ratings, highest first (indexed), with their players."""
        rows = await self._all("SELECT r.*, p.* FROM ratings r JOIN players p ON p.id = r.player_id "
                               "WHERE r.game = ? ORDER BY r.rating DESC, r.player_id LIMIT ?",
                               (game, limit))
        return [(as_row(RatingRow, r), as_row(PlayerRow, r)) for r in rows]

    # blocks: the players each player will not hear from
    async def block(self, player_id: int, blocked_id: int, now: int) -> bool:
        return await self._change("INSERT INTO blocks (player_id, blocked_id, created_at) "
                                  "VALUES (?, ?, ?) ON CONFLICT DO NOTHING", (player_id, blocked_id, now)) == 1

    async def unblock(self, player_id: int, blocked_id: int) -> bool:
        return await self._change("DELETE FROM blocks WHERE player_id = ? AND blocked_id = ?",
                                  (player_id, blocked_id)) == 1

    async def blocks(self, player_id: int, blocked_id: int) -> bool:
        return await self._one("SELECT 1 FROM blocks WHERE player_id = ? AND blocked_id = ?",
                               (player_id, blocked_id)) is not None

    async def blocked_players(self, player_id: int) -> list[PlayerRow]:
        rows = await self._all("SELECT p.* FROM blocks b JOIN players p ON p.id = b.blocked_id "
                               "WHERE b.player_id = ? ORDER BY p.name, p.id", (player_id,))
        return [as_row(PlayerRow, r) for r in rows]
