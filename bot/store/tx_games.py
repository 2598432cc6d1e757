"""The statements on games and their moves: made, claimed, moved on (the optimistic version
check), clocks and deadlines, moves and checkpoints, public pages and conditional moves.
"""

from __future__ import annotations

from .rows import DueGameRow, GameRow, MoveRow, PremoveRow, as_row
from .tx_base import TxBase

# columns that update_game may set (names never come from outside this set)
_GAME_COLUMNS = frozenset(
    {"current_vfen", "ply", "turn_no", "status", "result", "reason", "to_move", "to_move_id",
     "turn_started_at", "deadline", "draw_offer", "takeback_by", "ended_at"})


class GameStatements(TxBase):
    """``Tx``'s statements on the games, moves, public_games and premoves tables."""

    # games
    async def insert_game(self, *, game: str, challenge_id: int | None, white_id: int, black_id: int,
                          start_vfen: str, to_move: str, to_move_id: int, days: int | None,
                          now: int, deadline: int | None, scope: str | None = None,
                          rated: bool = False) -> int:
        return await self._insert(
            "INSERT INTO games (game, challenge_id, white_id, black_id, start_vfen, current_vfen, "
            "days, to_move, to_move_id, turn_started_at, deadline, created_at, scope, rated) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (game, challenge_id, white_id, black_id, start_vfen, start_vfen, days, to_move,
             to_move_id, now, deadline, now, scope, int(rated)))

    async def game(self, game_id: int) -> GameRow | None:
        return as_row(GameRow, await self._one("SELECT * FROM games WHERE id = ?", (game_id,)))

    async def claim_game(self, game_id: int) -> GameRow | None:
        """The game, locked for this transaction; None if there is none, or if another
        transaction holds it (a move under way, another process's sweep: theirs to do)."""
        return as_row(GameRow, await self._one(f"SELECT * FROM games WHERE id = ?{self._skip_locked()}",
                                              (game_id,)))

    async def claim_games(self, game_ids) -> dict[int, GameRow]:
        """``claim_game`` of many games in one statement: id -> row of those locked for this
        transaction (those another holds, or that do not exist, are left out)."""
        ids = sorted(set(game_ids))
        if not ids:
            return {}
        marks = ", ".join("?" for _ in ids)
        rows = await self._all(f"SELECT * FROM games WHERE id IN ({marks}) ORDER BY id"
                               f"{self._skip_locked()}", ids)
        return {r["id"]: as_row(GameRow, r) for r in rows}

    async def bump_version(self, game_id: int, expected: int) -> bool:
        """The optimistic check: True, and the version moved on, only if unchanged."""
        n = await self._change("UPDATE games SET version = version + 1 WHERE id = ? AND version = ?",
                               (game_id, expected))
        return n == 1

    async def update_game(self, game_id: int, **columns) -> None:
        bad = set(columns) - _GAME_COLUMNS
        if bad:
            raise ValueError(f"not an updatable game column: {sorted(bad)}")
        names = sorted(columns)
        assignments = ", ".join(f"{name} = ?" for name in names)
        await self._exec(f"UPDATE games SET {assignments} WHERE id = ?",
                         [columns[n] for n in names] + [game_id])

    async def games_of(self, player_id: int, include_finished: bool) -> list[GameRow]:
        sql = "SELECT * FROM games WHERE (white_id = ? OR black_id = ?)"
        if not include_finished:
            sql += " AND status = 'active'"
        rows = await self._all(sql + " ORDER BY id", (player_id, player_id))
        return [as_row(GameRow, r) for r in rows]

    async def last_finished_games(self, player_id: int, limit: int) -> list[tuple[GameRow, str, str]]:
        """The player's last ``limit`` games that are over, newest first, each with its white
        and black players' names: one bounded query on the games_by_white/black indexes."""
        rows = await self._all(
            "SELECT g.*, w.name AS white_name, b.name AS black_name FROM games g "
            "JOIN players w ON w.id = g.white_id JOIN players b ON b.id = g.black_id "
            "WHERE (g.white_id = ? OR g.black_id = ?) AND g.status <> 'active' "
            "ORDER BY g.id DESC LIMIT ?", (player_id, player_id, limit))
        return [(as_row(GameRow, r), r["white_name"], r["black_name"]) for r in rows]

    async def games_to_move(self, player_id: int) -> list[GameRow]:
        rows = await self._all("SELECT * FROM games WHERE status = 'active' AND to_move_id = ? "
                               "ORDER BY id", (player_id,))
        return [as_row(GameRow, r) for r in rows]

    async def clocked_games(self, due_by: int | None = None) -> list[DueGameRow]:
        """Active games with a deadline (at or before due_by, if given), with the
        vacation of the player to move (their effective deadline can only be later)."""
        sql = ("SELECT g.id, g.version, g.to_move_id, g.turn_started_at, g.deadline, "
               "p.vacation_start, p.vacation_until FROM games g JOIN players p ON p.id = g.to_move_id "
               "WHERE g.status = 'active' AND g.deadline IS NOT NULL")
        params: tuple = ()
        if due_by is not None:
            sql += " AND g.deadline <= ?"
            params = (due_by,)
        rows = await self._all(sql + " ORDER BY g.deadline, g.id", params)
        return [as_row(DueGameRow, r) for r in rows]

    async def set_deadline(self, game_id: int, deadline: int | None) -> None:
        await self._exec("UPDATE games SET deadline = ? WHERE id = ?", (deadline, game_id))
        await self._exec("UPDATE reminders SET due_at = ? - before_deadline WHERE game_id = ? "
                         "AND status = 'pending' AND before_deadline IS NOT NULL", (deadline, game_id))

    async def next_deadline(self, after: int) -> int | None:
        """The earliest deadline of an active game later than ``after`` (indexed)."""
        row = await self._one("SELECT MIN(deadline) FROM games WHERE status = 'active' "
                              "AND deadline > ?", (after,))
        return row[0]

    async def game_turn(self, game_id: int) -> tuple[str, int] | None:
        row = await self._one("SELECT status, turn_no FROM games WHERE id = ?", (game_id,))
        return None if row is None else (row["status"], row["turn_no"])

    async def game_turns(self, game_ids) -> dict[int, tuple[str, int]]:
        """``game_turn`` of many games at once: id -> (status, turn_no)."""
        ids = sorted(set(game_ids))
        if not ids:
            return {}
        marks = ", ".join("?" for _ in ids)
        rows = await self._all(f"SELECT id, status, turn_no FROM games WHERE id IN ({marks})", ids)
        return {r["id"]: (r["status"], r["turn_no"]) for r in rows}

    # moves
    async def moves(self, game_id: int) -> list[MoveRow]:
        rows = await self._all("SELECT * FROM moves WHERE game_id = ? ORDER BY ply", (game_id,))
        return [as_row(MoveRow, r) for r in rows]

    async def last_move(self, game_id: int) -> MoveRow | None:
        return as_row(MoveRow, await self._one(
            "SELECT * FROM moves WHERE game_id = ? ORDER BY ply DESC LIMIT 1", (game_id,)))

    async def insert_move(self, game_id: int, ply: int, lan: str, san: str, player_id: int,
                          side: str, now: int, vfen: str | None = None) -> None:
        await self._exec("INSERT INTO moves (game_id, ply, lan, san, player_id, side, played_at, vfen) "
                         "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (game_id, ply, lan, san, player_id, side, now, vfen))

    async def drop_checkpoints(self, game_id: int, before_ply: int) -> None:
        """Forget the positions of moves before ``before_ply`` (after an irreversible move
        no earlier position can repeat; a game without them is replayed if need be)."""
        await self._exec("UPDATE moves SET vfen = NULL WHERE game_id = ? AND ply < ? AND vfen IS NOT NULL",
                         (game_id, before_ply))

    async def delete_move(self, game_id: int, ply: int) -> None:
        await self._exec("DELETE FROM moves WHERE game_id = ? AND ply = ?", (game_id, ply))

    async def last_moves(self, game_ids) -> dict[int, MoveRow]:
        """``last_move`` of many games in one statement: id -> its last move (games with
        none are left out)."""
        ids = sorted(set(game_ids))
        if not ids:
            return {}
        marks = ", ".join("?" for _ in ids)
        rows = await self._all(
            f"SELECT m.* FROM moves m JOIN (SELECT game_id, MAX(ply) AS ply FROM moves "
            f"WHERE game_id IN ({marks}) GROUP BY game_id) last "
            "ON last.game_id = m.game_id AND last.ply = m.ply", ids)
        return {r["game_id"]: as_row(MoveRow, r) for r in rows}

    # public games (their page open to anyone)
    async def is_public(self, game_id: int) -> bool:
        return await self._one("SELECT 1 FROM public_games WHERE game_id = ?", (game_id,)) is not None

    async def set_public(self, game_id: int, public: bool) -> None:
        if public:
            await self._exec("INSERT INTO public_games (game_id) VALUES (?) ON CONFLICT DO NOTHING",
                             (game_id,))
        else:
            await self._exec("DELETE FROM public_games WHERE game_id = ?", (game_id,))

    # conditional moves (bot/operations/premoves.py)
    async def premoves(self, game_id: int, player_id: int | None = None) -> list[PremoveRow]:
        """The game's conditional move trees (only the player's, if named)."""
        sql, params = "SELECT * FROM premoves WHERE game_id = ?", [game_id]
        if player_id is not None:
            sql, params = sql + " AND player_id = ?", params + [player_id]
        return [as_row(PremoveRow, r) for r in await self._all(sql + " ORDER BY player_id", params)]

    async def set_premoves(self, game_id: int, player_id: int, ply: int, tree: str, now: int) -> None:
        await self._exec("INSERT INTO premoves (game_id, player_id, ply, tree, updated_at) "
                         "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, player_id) DO UPDATE SET "
                         "ply = excluded.ply, tree = excluded.tree, updated_at = excluded.updated_at",
                         (game_id, player_id, ply, tree, now))

    async def delete_premoves(self, game_id: int, player_id: int) -> bool:
        return await self._change("DELETE FROM premoves WHERE game_id = ? AND player_id = ?",
                                  (game_id, player_id)) > 0
