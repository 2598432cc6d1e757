"""The queries of the directors' tables (made by the core's migration 16, in
bot/store/migrations.py): each event's directors, its rules for withdrawals and timeouts,
the results decided by hand or by a rule, and its withdrawals; and the counts the creation
budget reads. Run in a transaction of the store: ``DirectorTables(tx)``. Every write that
changes what the event's page shows moves the event's version on (``TournamentTables.bump``:
the page is cached by it)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.store import Tx

from .tables import TournamentTables

#: what happens to a player who leaves a running event (tournament_policies.withdrawal):
#: ``iccf``: in a round robin, under half their games finished cancels all their results,
#: else the played ones stand and the rest are lost by them (a Swiss: always the latter);
#: ``keep``: always the latter; ``cancel``: a round robin always cancels them
WITHDRAWAL_RULES = ("iccf", "keep", "cancel")
DEFAULT_WITHDRAWAL = "iccf"
DEFAULT_TIMEOUTS = 3  # timeouts in one event that withdraw the player (0: never)

#: a decided result's points for White (None: the game counts for nobody)
DECIDED_WHITE_POINTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5, "+/-": 1.0, "-/+": 0.0,
                        "cancelled": None}
FORFEITS = ("+/-", "-/+")
CANCELLED = "cancelled"


@dataclass(frozen=True)
class Policy:
    withdrawal: str = DEFAULT_WITHDRAWAL
    timeouts: int = DEFAULT_TIMEOUTS


@dataclass(frozen=True)
class DecisionRow:
    game_id: int
    tournament_id: int
    result: str
    reason: str
    director_id: int | None
    decided_by: str
    decided_at: int


@dataclass(frozen=True)
class WithdrawalRow:
    tournament_id: int
    player_id: int
    cancelled: int
    reason: str
    at: int


class DirectorTables:
    def __init__(self, tx: Tx):
        self.tx = tx

    # directors
    async def directors(self, tournament_id: int) -> list[int]:
        rows = await self.tx.fetch_all("SELECT player_id FROM tournament_directors WHERE tournament_id = ? "
                                       "ORDER BY named_at, player_id", (tournament_id,))
        return [r[0] for r in rows]

    async def is_director(self, tournament_id: int, player_id: int) -> bool:
        row = await self.tx.fetch_one("SELECT 1 FROM tournament_directors WHERE tournament_id = ? AND "
                                      "player_id = ?", (tournament_id, player_id))
        return row is not None

    async def add_director(self, tournament_id: int, player_id: int, now: int) -> bool:
        n = await self.tx.change(
            "INSERT INTO tournament_directors (tournament_id, player_id, named_at) VALUES (?, ?, ?) "
            "ON CONFLICT (tournament_id, player_id) DO NOTHING", (tournament_id, player_id, now))
        if n == 1:
            await TournamentTables(self.tx).bump(tournament_id)
        return n == 1

    async def remove_director(self, tournament_id: int, player_id: int) -> bool:
        n = await self.tx.change("DELETE FROM tournament_directors WHERE tournament_id = ? AND player_id = ?",
                                 (tournament_id, player_id))
        if n == 1:
            await TournamentTables(self.tx).bump(tournament_id)
        return n == 1

    # the event's rules
    async def policy(self, tournament_id: int) -> Policy:
        row = await self.tx.fetch_one("SELECT withdrawal, timeouts FROM tournament_policies "
                                      "WHERE tournament_id = ?", (tournament_id,))
        return Policy() if row is None else Policy(row[0], row[1])

    async def set_policy(self, tournament_id: int, policy: Policy) -> None:
        await self.tx.execute("INSERT INTO tournament_policies (tournament_id, withdrawal, timeouts) "
                              "VALUES (?, ?, ?)", (tournament_id, policy.withdrawal, policy.timeouts))

    # decided results
    async def decisions(self, tournament_id: int) -> dict[int, DecisionRow]:
        rows = await self.tx.fetch_all("SELECT * FROM tournament_decisions WHERE tournament_id = ?",
                                       (tournament_id,), into=DecisionRow)
        return {r.game_id: r for r in rows}

    async def decide(self, tournament_id: int, game_id: int, result: str, reason: str,
                     director_id: int | None, decided_by: str, now: int) -> None:
        """The game's result for the event (a later decision replaces an earlier one)."""
        await self.tx.execute("DELETE FROM tournament_decisions WHERE game_id = ?", (game_id,))
        await self.tx.execute(
            "INSERT INTO tournament_decisions (game_id, tournament_id, result, reason, director_id, "
            "decided_by, decided_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (game_id, tournament_id, result, reason, director_id, decided_by, now))
        await TournamentTables(self.tx).bump(tournament_id)

    # withdrawals
    async def withdrawals(self, tournament_id: int) -> dict[int, WithdrawalRow]:
        rows = await self.tx.fetch_all("SELECT * FROM tournament_withdrawals WHERE tournament_id = ?",
                                       (tournament_id,), into=WithdrawalRow)
        return {r.player_id: r for r in rows}

    async def record_withdrawal(self, tournament_id: int, player_id: int, cancelled: bool, reason: str,
                                now: int) -> None:
        await self.tx.execute(
            "INSERT INTO tournament_withdrawals (tournament_id, player_id, cancelled, reason, at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (tournament_id, player_id) DO NOTHING",
            (tournament_id, player_id, int(cancelled), reason, now))
        await TournamentTables(self.tx).bump(tournament_id)

    async def timed_out(self, tournament_id: int, at_least: int) -> list[int]:
        """The event's players still in it who lost ``at_least`` games on time (one pass
        over the event's games lost on time, grouped by who lost each)."""
        rows = await self.tx.fetch_all(
            "SELECT CASE WHEN g.result = '0-1' THEN g.white_id ELSE g.black_id END AS loser "
            "FROM tournament_pairings p JOIN games g ON g.id = p.game_id "
            "WHERE p.tournament_id = ? AND g.status = 'finished' AND g.reason = 'time' "
            "AND g.result IN ('1-0', '0-1') GROUP BY loser HAVING COUNT(*) >= ? ORDER BY loser",
            (tournament_id, at_least))
        still_in = {e for e in (r[0] for r in rows)
                    if await self.tx.fetch_one("SELECT 1 FROM tournament_entrants WHERE tournament_id = ? "
                                               "AND player_id = ? AND withdrawn_at IS NULL", (tournament_id, e))}
        return sorted(still_in)

    # the creation budget
    async def made_since(self, since: int, creator_id: int | None = None) -> int:
        """Events made at ``since`` or after (by ``creator_id``, if given)."""
        if creator_id is None:
            row = await self.tx.fetch_one("SELECT COUNT(*) FROM tournaments WHERE created_at >= ?", (since,))
        else:
            row = await self.tx.fetch_one("SELECT COUNT(*) FROM tournaments WHERE creator_id = ? AND "
                                          "created_at >= ?", (creator_id, since))
        return row[0]

    async def oldest_since(self, since: int, creator_id: int | None = None) -> int | None:
        """When the oldest event counted by ``made_since`` was made (its hour ends then)."""
        if creator_id is None:
            row = await self.tx.fetch_one("SELECT MIN(created_at) FROM tournaments WHERE created_at >= ?",
                                          (since,))
        else:
            row = await self.tx.fetch_one("SELECT MIN(created_at) FROM tournaments WHERE creator_id = ? "
                                          "AND created_at >= ?", (creator_id, since))
        return row[0]

    # who sees an event in a list
    async def listed_ids(self, player_id: int | None, scope: str | None) -> list[int]:
        """The events listed to ``player_id`` typing in ``scope`` (a Discord server; None: a
        DM, mail, the terminal): the owner's (made at the command line) to everyone; a
        server's on that server; and any event to its directors and players. None (the
        owner): every event."""
        if player_id is None:
            rows = await self.tx.fetch_all("SELECT id FROM tournaments ORDER BY id")
            return [r[0] for r in rows]
        rows = await self.tx.fetch_all(
            "SELECT t.id FROM tournaments t WHERE (t.scope IS NULL AND t.creator_id IS NULL) "
            "OR (t.scope IS NOT NULL AND t.scope = ?) "
            "OR EXISTS (SELECT 1 FROM tournament_directors d WHERE d.tournament_id = t.id AND d.player_id = ?) "
            "OR EXISTS (SELECT 1 FROM tournament_entrants e WHERE e.tournament_id = t.id AND e.player_id = ?) "
            "ORDER BY t.id", (scope, player_id, player_id))
        return [r[0] for r in rows]
