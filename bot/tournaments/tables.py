"""The tournaments' queries on their tables (made by the core's migration 14, in
bot/store/migrations.py), and their rows, run in a transaction of the store through ``Tx``'s
public statement API: ``TournamentTables(tx)``."""

from __future__ import annotations

from dataclasses import dataclass

from bot.store import RatingRow, Tx

ROUND_ROBIN, SWISS = "round-robin", "swiss"
FORMATS = (ROUND_ROBIN, SWISS)
OPEN, RUNNING, PAUSED, FINISHED = "open", "running", "paused", "finished"


@dataclass(frozen=True)
class TournamentRow:
    id: int
    name: str
    game: str
    format: str
    rounds: int
    days: int | None
    cycles: int
    rated: int
    starts_at: int | None
    max_players: int | None
    min_rating: float | None
    max_rating: float | None
    round_days: int | None
    creator_id: int | None
    scope: str | None
    status: str
    round: int
    round_deadline: int | None
    created_at: int
    started_at: int | None
    ended_at: int | None
    version: int = 0      # bumped by every change its page shows (``bump``)
    adjudicate: int = 0   # 1: a Swiss round's games still going at its deadline are adjudicated
    deadline_round: int | None = None  # the round whose deadline was acted on (deadlines.py)


@dataclass(frozen=True)
class EntrantRow:
    tournament_id: int
    player_id: int
    seed: int | None
    joined_at: int
    withdrawn_at: int | None


@dataclass(frozen=True)
class PairingRow:
    id: int
    tournament_id: int
    round: int
    board: int
    white_id: int
    black_id: int | None
    game_id: int | None
    bye_points: float | None
    time_left: int | None = None  # a paused event's game: the time its player to move has left
    # the game's, joined in (None for a bye)
    status: str | None = None
    result: str | None = None
    reason: str | None = None
    ply: int | None = None  # the moves made (a game lost before its loser moved is a forfeit)


_COLUMNS = ("name", "game", "format", "rounds", "days", "cycles", "rated", "starts_at", "max_players",
            "min_rating", "max_rating", "round_days", "creator_id", "scope", "created_at", "adjudicate")

#: Rows a multi-row INSERT carries (7 values each: well within every database's parameter limit)
_ROWS_PER_INSERT = 200


class TournamentTables:
    """The tournament tables as seen from one transaction."""

    def __init__(self, tx: Tx):
        self.tx = tx

    async def insert(self, **values) -> int:
        names = [c for c in _COLUMNS if c in values]
        return await self.tx.insert(
            f"INSERT INTO tournaments ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})",
            [values[n] for n in names])

    async def get(self, tournament_id: int) -> TournamentRow | None:
        return await self.tx.fetch_one("SELECT * FROM tournaments WHERE id = ?", (tournament_id,),
                                       into=TournamentRow)

    async def listed(self, statuses=(OPEN, RUNNING, PAUSED, FINISHED), scope: str | None = None) -> list[TournamentRow]:
        marks = ", ".join("?" * len(statuses))
        sql = f"SELECT * FROM tournaments WHERE status IN ({marks})"
        params: list = list(statuses)
        if scope is not None:
            sql += " AND (scope = ? OR scope IS NULL)"
            params.append(scope)
        return await self.tx.fetch_all(sql + " ORDER BY id", params, into=TournamentRow)

    async def move_on(self, tournament_id: int, *, status: str, expected_status: str,
                      expected_round: int, round: int, round_deadline: int | None,
                      started_at: int | None = None, ended_at: int | None = None) -> bool:
        """The one step that makes a start or a round happen once: it changes the row only
        if it is still as the caller read it (the status and the round). False if another
        transaction did it first."""
        n = await self.tx.change(
            "UPDATE tournaments SET status = ?, round = ?, round_deadline = ?, "
            "started_at = COALESCE(?, started_at), ended_at = COALESCE(?, ended_at) "
            "WHERE id = ? AND status = ? AND round = ?",
            (status, round, round_deadline, started_at, ended_at, tournament_id, expected_status,
             expected_round))
        if n == 1:
            await self.bump(tournament_id)
        return n == 1

    async def set_status(self, tournament_id: int, status: str, expected: str,
                         round_deadline: int | None) -> bool:
        n = await self.tx.change("UPDATE tournaments SET status = ?, round_deadline = ? "
                                 "WHERE id = ? AND status = ?",
                                 (status, round_deadline, tournament_id, expected))
        if n == 1:
            await self.bump(tournament_id)
        return n == 1

    async def due(self, now: int) -> list[TournamentRow]:
        """Running events whose round deadline has come."""
        return await self.tx.fetch_all(
            "SELECT * FROM tournaments WHERE status = 'running' AND round_deadline <= ? ORDER BY id",
            (now,), into=TournamentRow)

    async def starting(self, now: int) -> list[TournamentRow]:
        """Open events whose start time has come."""
        return await self.tx.fetch_all(
            "SELECT * FROM tournaments WHERE status = 'open' AND starts_at <= ? ORDER BY id",
            (now,), into=TournamentRow)

    async def next_due(self) -> int | None:
        row = await self.tx.fetch_one(  # a deadline acted on (deadlines.py) is due no more
            "SELECT MIN(round_deadline) FROM tournaments WHERE status = 'running' "
            "AND COALESCE(deadline_round, 0) < round")
        row2 = await self.tx.fetch_one("SELECT MIN(starts_at) FROM tournaments WHERE status = 'open'")
        times = [r[0] for r in (row, row2) if r is not None and r[0] is not None]
        if await self.with_games_to_make():  # a start or a round cut short: due at once
            times.append(0)
        return min(times) if times else None

    async def bump(self, tournament_id: int) -> None:
        """A change the event's page shows: its version moves on (the page is cached by it)."""
        await self.tx.execute("UPDATE tournaments SET version = version + 1 WHERE id = ?", (tournament_id,))

    async def version(self, tournament_id: int) -> int | None:
        row = await self.tx.fetch_one("SELECT version FROM tournaments WHERE id = ?", (tournament_id,))
        return None if row is None else row[0]

    async def public_games(self, tournament_id: int) -> frozenset[int]:
        """The event's games open to anyone (their pages' setting), in one statement."""
        rows = await self.tx.fetch_all(
            "SELECT p.game_id FROM tournament_pairings p JOIN public_games g ON g.game_id = p.game_id "
            "WHERE p.tournament_id = ?", (tournament_id,))
        return frozenset(r[0] for r in rows)

    # entrants
    async def entrants(self, tournament_id: int, *, withdrawn: bool = True) -> list[EntrantRow]:
        sql = "SELECT * FROM tournament_entrants WHERE tournament_id = ?"
        if not withdrawn:
            sql += " AND withdrawn_at IS NULL"
        return await self.tx.fetch_all(sql + " ORDER BY joined_at, player_id", (tournament_id,),
                                       into=EntrantRow)

    async def entrant(self, tournament_id: int, player_id: int) -> EntrantRow | None:
        return await self.tx.fetch_one(
            "SELECT * FROM tournament_entrants WHERE tournament_id = ? AND player_id = ?",
            (tournament_id, player_id), into=EntrantRow)

    async def join(self, tournament_id: int, player_id: int, now: int) -> bool:
        n = await self.tx.change(
            "INSERT INTO tournament_entrants (tournament_id, player_id, joined_at) VALUES (?, ?, ?) "
            "ON CONFLICT (tournament_id, player_id) DO NOTHING", (tournament_id, player_id, now))
        if n == 1:
            await self.bump(tournament_id)
        return n == 1

    async def leave(self, tournament_id: int, player_id: int) -> bool:
        n = await self.tx.change("DELETE FROM tournament_entrants WHERE tournament_id = ? AND player_id = ?",
                                 (tournament_id, player_id))
        if n == 1:
            await self.bump(tournament_id)
        return n == 1

    async def withdraw(self, tournament_id: int, player_id: int, now: int) -> bool:
        n = await self.tx.change(
            "UPDATE tournament_entrants SET withdrawn_at = ? WHERE tournament_id = ? AND player_id = ? "
            "AND withdrawn_at IS NULL", (now, tournament_id, player_id))
        if n == 1:
            await self.bump(tournament_id)
        return n == 1

    async def set_seeds(self, tournament_id: int, order: list[int]) -> None:
        """Every entrant's seed (1, 2, ... in ``order``) in one statement a few hundred at a time."""
        for start in range(0, len(order), _ROWS_PER_INSERT):
            chunk = order[start:start + _ROWS_PER_INSERT]
            cases = " ".join("WHEN ? THEN CAST(? AS INTEGER)" for _ in chunk)
            params: list = []
            for i, pid in enumerate(chunk, start + 1):
                params += [pid, i]
            await self.tx.execute(
                f"UPDATE tournament_entrants SET seed = CASE player_id {cases} END "
                f"WHERE tournament_id = ? AND player_id IN ({', '.join('?' * len(chunk))})",
                params + [tournament_id, *chunk])

    async def set_seed(self, tournament_id: int, player_id: int, seed: int) -> None:
        await self.tx.execute("UPDATE tournament_entrants SET seed = ? WHERE tournament_id = ? AND player_id = ?",
                              (seed, tournament_id, player_id))

    async def ratings(self, tournament_id: int, game: str) -> dict[int, RatingRow]:
        """The entrants' ratings at the event's game (those who have one)."""
        rows = await self.tx.fetch_all(
            "SELECT r.* FROM ratings r JOIN tournament_entrants e ON e.player_id = r.player_id "
            "WHERE e.tournament_id = ? AND r.game = ?", (tournament_id, game), into=RatingRow)
        return {r.player_id: r for r in rows}

    async def count(self, tournament_id: int) -> int:
        row = await self.tx.fetch_one("SELECT COUNT(*) FROM tournament_entrants WHERE tournament_id = ?",
                                      (tournament_id,))
        return row[0]

    # pairings
    async def add_pairing(self, tournament_id: int, round: int, board: int, white_id: int,
                          black_id: int | None, game_id: int | None, bye_points: float | None) -> int:
        await self.bump(tournament_id)
        return await self.tx.insert(
            "INSERT INTO tournament_pairings (tournament_id, round, board, white_id, black_id, game_id, "
            "bye_points) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (tournament_id, round, board, white_id, black_id, game_id, bye_points))

    async def add_pairings(self, tournament_id: int, round: int,
                           rows: list[tuple[int, int, int | None, float | None]]) -> None:
        """A round's pairings, (board, white, black, bye points) each, their games still to be
        made (``games_to_make``), in a few multi-row statements."""
        for start in range(0, len(rows), _ROWS_PER_INSERT):
            chunk = rows[start:start + _ROWS_PER_INSERT]
            params: list = []
            for board, white, black, bye in chunk:
                params += [tournament_id, round, board, white, black, bye]
            await self.tx.execute(
                "INSERT INTO tournament_pairings (tournament_id, round, board, white_id, black_id, "
                "bye_points) VALUES " + ", ".join("(?, ?, ?, ?, ?, ?)" for _ in chunk), params)
        await self.bump(tournament_id)

    async def games_to_make(self, tournament_id: int, limit: int) -> list[PairingRow]:
        """Pairings whose game is still to be made, in round and board order (on PostgreSQL
        locked as read, those another process holds passed over)."""
        lock = " FOR UPDATE SKIP LOCKED" if self.tx.dialect == "postgres" else ""
        return await self.tx.fetch_all(
            "SELECT * FROM tournament_pairings WHERE tournament_id = ? AND black_id IS NOT NULL "
            f"AND game_id IS NULL ORDER BY round, board LIMIT ?{lock}", (tournament_id, limit),
            into=PairingRow)

    async def set_game(self, pairing: PairingRow, game_id: int) -> bool:
        """A pairing's game, made: False if another transaction made it first."""
        n = await self.tx.change("UPDATE tournament_pairings SET game_id = ? WHERE id = ? AND game_id IS NULL",
                                 (game_id, pairing.id))
        return n == 1

    async def count_games_to_make(self, tournament_id: int) -> int:
        row = await self.tx.fetch_one(
            "SELECT COUNT(*) FROM tournament_pairings WHERE tournament_id = ? AND black_id IS NOT NULL "
            "AND game_id IS NULL", (tournament_id,))
        return row[0]

    async def with_games_to_make(self) -> list[int]:
        """The running or paused events with games still to be made (a start or a round that a
        crash cut short, or one under way in another process)."""
        rows = await self.tx.fetch_all(
            "SELECT DISTINCT p.tournament_id FROM tournament_pairings p JOIN tournaments t "
            "ON t.id = p.tournament_id WHERE t.status IN ('running', 'paused') "
            "AND p.black_id IS NOT NULL AND p.game_id IS NULL ORDER BY p.tournament_id")
        return [r[0] for r in rows]

    async def pairings(self, tournament_id: int) -> list[PairingRow]:
        return await self.tx.fetch_all(
            "SELECT p.*, g.status, g.result, g.reason, g.ply FROM tournament_pairings p "
            "LEFT JOIN games g ON g.id = p.game_id WHERE p.tournament_id = ? ORDER BY p.round, p.board",
            (tournament_id,), into=PairingRow)

    async def games_going(self, tournament_id: int, round: int | None = None) -> int:
        """How many of the event's games (of one round, if given) are still going."""
        # a pairing whose game is still to be made (a start in batches) counts as going
        sql = ("SELECT COUNT(*) FROM tournament_pairings p LEFT JOIN games g ON g.id = p.game_id "
               "WHERE p.tournament_id = ? AND (g.status = 'active' OR "
               "(p.game_id IS NULL AND p.black_id IS NOT NULL))")
        params: tuple = (tournament_id,)
        if round is not None:
            sql += " AND p.round = ?"
            params += (round,)
        return (await self.tx.fetch_one(sql, params))[0]

    async def paused_game(self, game_id: int) -> bool:
        """Whether the game is one of a paused event's (its clock stands still)."""
        row = await self.tx.fetch_one(
            "SELECT 1 FROM tournament_pairings p JOIN tournaments t ON t.id = p.tournament_id "
            "WHERE p.game_id = ? AND t.status = 'paused'", (game_id,))
        return row is not None

    async def set_time_left(self, game_id: int, seconds: int | None) -> None:
        await self.tx.execute("UPDATE tournament_pairings SET time_left = ? WHERE game_id = ?",
                              (seconds, game_id))

    async def round_of_game(self, game_id: int) -> tuple[int, int] | None:
        """The (tournament, round) a game is played in; None: no tournament's."""
        row = await self.tx.fetch_one("SELECT tournament_id, round FROM tournament_pairings WHERE game_id = ?",
                                      (game_id,))
        return None if row is None else (row[0], row[1])

    async def of_game(self, game_id: int) -> int | None:
        row = await self.tx.fetch_one("SELECT tournament_id FROM tournament_pairings WHERE game_id = ?",
                                      (game_id,))
        return None if row is None else row[0]
