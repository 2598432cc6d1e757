"""The statements on challenges: made, answered, and their life (expiry, the budgets between
two players: bot/operations/challenges.py).
"""

from __future__ import annotations

from .rows import ChallengeRow, as_row
from .tx_base import TxBase

# the open challenges a player sees: by or to them, or open to anyone, but none of a player
# they blocked (parameters: the player's id three times)
_SEEN_BY = ("status = 'open' AND (challenger_id = ? OR opponent_id = ? OR opponent_id IS NULL) AND NOT EXISTS "
            "(SELECT 1 FROM blocks b WHERE b.player_id = ? AND b.blocked_id = challenges.challenger_id)")


class ChallengeStatements(TxBase):
    """``Tx``'s statements on the challenges table."""

    # challenges
    async def insert_challenge(self, challenger_id: int, opponent_id: int | None, game: str,
                               days: int | None, colour: str, setup: str, now: int,
                               scope: str | None = None, rated: bool = False,
                               expires_at: int | None = None) -> int:
        return await self._insert(
            "INSERT INTO challenges (challenger_id, opponent_id, game, days, colour, setup, created_at, "
            "scope, rated, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (challenger_id, opponent_id, game, days, colour, setup, now, scope, int(rated), expires_at))

    async def challenge(self, challenge_id: int) -> ChallengeRow | None:
        return as_row(ChallengeRow, await self._one("SELECT * FROM challenges WHERE id = ?",
                                                   (challenge_id,)))

    async def close_challenge(self, challenge_id: int, status: str, by: int, now: int) -> bool:
        """open -> status; False if it was no longer open."""
        n = await self._change(
            "UPDATE challenges SET status = ?, answered_by = ?, answered_at = ? "
            "WHERE id = ? AND status = 'open'", (status, by, now, challenge_id))
        return n == 1

    async def set_challenge_game(self, challenge_id: int, game_id: int) -> None:
        await self._exec("UPDATE challenges SET game_id = ? WHERE id = ?", (game_id, challenge_id))

    async def open_challenges(self, player_id: int | None) -> list[ChallengeRow]:
        """Open challenges by or to player_id, and all open-to-anyone ones (but those of
        players whom player_id has blocked)."""
        if player_id is None:
            rows = await self._all("SELECT * FROM challenges WHERE status = 'open' ORDER BY id")
        else:
            rows = await self._all(f"SELECT * FROM challenges WHERE {_SEEN_BY} ORDER BY id",
                                   (player_id, player_id, player_id))
        return [as_row(ChallengeRow, r) for r in rows]

    async def open_challenges_page(self, player_id: int, limit: int) -> tuple[list[ChallengeRow], int]:
        """open_challenges(player_id) a bounded page at a time: the player's own (their
        per-player limit bounds them) and the oldest ``limit`` of the others; and how many
        of those others are left out."""
        seen = (player_id, player_id, player_id, player_id)
        mine = await self._all("SELECT * FROM challenges WHERE status = 'open' AND challenger_id = ? "
                               "ORDER BY id", (player_id,))
        others = await self._all(f"SELECT * FROM challenges WHERE {_SEEN_BY} AND challenger_id <> ? "
                                 "ORDER BY id LIMIT ?", (*seen, limit))
        total = (await self._one(f"SELECT COUNT(*) FROM challenges WHERE {_SEEN_BY} AND challenger_id <> ?",
                                 seen))[0]
        rows = sorted((as_row(ChallengeRow, r) for r in [*mine, *others]), key=lambda c: c.id)
        return rows, max(0, int(total) - limit)

    # challenges' life (bot/operations/challenges.py)
    async def count_open_challenges(self, challenger_id: int, now: int,
                                    opponent_id: int | None = None) -> int:
        """Open, unexpired challenges the player made (to ``opponent_id``, if given)."""
        sql = ("SELECT COUNT(*) FROM challenges WHERE challenger_id = ? AND status = 'open' "
               "AND (expires_at IS NULL OR expires_at > ?)")
        params: tuple = (challenger_id, now)
        if opponent_id is not None:
            sql += " AND opponent_id = ?"
            params += (opponent_id,)
        return (await self._one(sql, params))[0]

    async def challenges_counting(self, challenger_id: int, opponent_id: int, now: int,
                                  withdrawn_since: int, declined_since: int) -> list[ChallengeRow]:
        """The challenges from one player to another that still count against the pair's
        budget at ``now``: open and unexpired, withdrawn (cancelled) after
        ``withdrawn_since``, declined after ``declined_since`` (indexed by challenger)."""
        rows = await self._all(
            "SELECT * FROM challenges WHERE challenger_id = ? AND opponent_id = ? AND ("
            "(status = 'open' AND (expires_at IS NULL OR expires_at > ?)) "
            "OR (status = 'cancelled' AND answered_at > ?) "
            "OR (status = 'declined' AND answered_at > ?)) ORDER BY id",
            (challenger_id, opponent_id, now, withdrawn_since, declined_since))
        return [as_row(ChallengeRow, r) for r in rows]

    async def challenges_due(self, due_by: int, limit: int) -> list[ChallengeRow]:
        """Open challenges whose time ran out by ``due_by``, oldest first (indexed)."""
        rows = await self._all("SELECT * FROM challenges WHERE status = 'open' AND expires_at <= ? "
                               "ORDER BY expires_at, id LIMIT ?", (due_by, limit))
        return [as_row(ChallengeRow, r) for r in rows]

    async def next_challenge_expiry(self) -> int | None:
        row = await self._one("SELECT MIN(expires_at) FROM challenges WHERE status = 'open'")
        return row[0]

    async def open_challenges_from(self, challenger_id: int, opponent_id: int) -> list[ChallengeRow]:
        rows = await self._all("SELECT * FROM challenges WHERE challenger_id = ? AND opponent_id = ? "
                               "AND status = 'open' ORDER BY id", (challenger_id, opponent_id))
        return [as_row(ChallengeRow, r) for r in rows]
