"""The statements behind the notices (bot/delivery): reminders, the outbox's events and
their claims, digests, pruning what is spent, and the shared command buckets.
"""

from __future__ import annotations

from collections.abc import Sequence

from .rows import EventRow, PendingReminderRow, ReminderRow, as_row
from .tx_base import TxBase

#: What pruning deletes, table by table, older than a cutoff: spent reminders (sent,
#: superseded, cancelled), digest days, and finished events (sent, obsolete, failed) that
#: nothing kept still refers to, but the newest (ids are never reused: adapters drop repeats
#: by id). Pending and claimed events, games, moves and players are never touched. In this
#: order: an event goes once the rows referring to it have gone.
_PRUNE = {
    "reminders": "DELETE FROM reminders WHERE id IN (SELECT id FROM reminders WHERE status IN "
                 "('sent', 'superseded', 'cancelled') AND done_at < ? LIMIT ?)",
    "digests": "DELETE FROM digests WHERE (player_id, day) IN (SELECT player_id, day FROM digests "
               "WHERE done_at < ? LIMIT ?)",
    "events": "DELETE FROM events WHERE id IN (SELECT id FROM events WHERE status IN "
              "('sent', 'obsolete', 'failed') AND created_at < ? "
              "AND id < (SELECT MAX(id) FROM events) "
              "AND NOT EXISTS (SELECT 1 FROM reminders r WHERE r.event_id = events.id) "
              "AND NOT EXISTS (SELECT 1 FROM digests d WHERE d.event_id = events.id) LIMIT ?)",
}


def _platform_filter(platforms) -> tuple[str, list]:
    """SQL (and its parameters) keeping events addressed to players on these platforms."""
    if platforms is None:
        return "", []
    names = sorted(platforms)
    marks = ", ".join("?" for _ in names)
    return (f"AND (player_id IS NULL OR player_id IN "
            f"(SELECT id FROM players WHERE platform IN ({marks})))", names)


class DeliveryStatements(TxBase):
    """``Tx``'s statements on the reminders, events, digests and command_buckets tables."""

    # reminders
    async def claim_reminders(self, game_id: int, turn_no: int) -> set[int]:
        """The ids of the turn's pending reminders, locked for this transaction (those
        another holds are left out)."""
        rows = await self._all("SELECT id FROM reminders WHERE game_id = ? AND turn_no = ? "
                               f"AND status = 'pending'{self._skip_locked()}", (game_id, turn_no))
        return {r[0] for r in rows}

    async def claim_turn_reminders(self, game_ids) -> set[int]:
        """``claim_reminders`` of many games' pending reminders in one statement (the caller
        keeps those of the turn it means)."""
        ids = sorted(set(game_ids))
        if not ids:
            return set()
        marks = ", ".join("?" for _ in ids)
        rows = await self._all(f"SELECT id FROM reminders WHERE game_id IN ({marks}) "
                               f"AND status = 'pending' ORDER BY id{self._skip_locked()}", ids)
        return {r[0] for r in rows}

    async def insert_reminder(self, game_id: int, turn_no: int, player_id: int, kind: str,
                              before_deadline: int | None, due_at: int | None) -> None:
        await self._exec("INSERT INTO reminders (game_id, turn_no, player_id, kind, before_deadline, "
                         "due_at) VALUES (?, ?, ?, ?, ?, ?)",
                         (game_id, turn_no, player_id, kind, before_deadline, due_at))

    async def next_reminder_due(self, after: int) -> int | None:
        """The earliest nominal due time of a pending reminder later than ``after`` (indexed)."""
        row = await self._one("SELECT MIN(due_at) FROM reminders WHERE status = 'pending' "
                              "AND due_at > ?", (after,))
        return row[0]

    async def cancel_reminders(self, game_id: int, now: int) -> None:
        await self._exec("UPDATE reminders SET status = 'cancelled', done_at = ? "
                         "WHERE game_id = ? AND status = 'pending'", (now, game_id))

    async def pending_reminders(self, game_id: int | None = None,
                                due_by: int | None = None) -> list[PendingReminderRow]:
        """Pending reminders of the current turn of active games (of one game, if given;
        only those nominally due by ``due_by``, if given)."""
        sql = ("SELECT r.id, r.game_id, r.turn_no, r.player_id, r.kind, r.before_deadline, "
               "g.turn_started_at, g.deadline, p.settings, p.vacation_start, p.vacation_until "
               "FROM reminders r JOIN games g ON g.id = r.game_id JOIN players p ON p.id = r.player_id "
               "WHERE r.status = 'pending' AND g.status = 'active' AND g.turn_no = r.turn_no")
        params: tuple = ()
        if game_id is not None:
            sql += " AND r.game_id = ?"
            params = (game_id,)
        if due_by is not None:
            sql += " AND r.due_at <= ?"
            params += (due_by,)
        rows = await self._all(sql + " ORDER BY r.game_id, r.id", params)
        return [as_row(PendingReminderRow, r) for r in rows]

    async def close_reminders(self, closes: Sequence[tuple[int, str, int | None]], now: int) -> None:
        """Many reminders the caller has claimed, pending -> status, in one statement:
        ``(reminder id, status, the event written for it or None)``."""
        await self._exec_many("UPDATE reminders SET status = ?, done_at = ?, event_id = ? "
                              "WHERE id = ? AND status = 'pending'",
                              [(status, now, event_id, rid) for rid, status, event_id in closes])

    async def reminders(self, game_id: int) -> list[ReminderRow]:
        rows = await self._all("SELECT * FROM reminders WHERE game_id = ? ORDER BY id", (game_id,))
        return [as_row(ReminderRow, r) for r in rows]

    # events (the outbox)
    async def insert_event(self, kind: str, player_id: int | None, game_id: int | None,
                           turn_no: int | None, payload: str, now: int) -> int:
        return await self._insert(
            "INSERT INTO events (kind, player_id, game_id, turn_no, payload, created_at, next_try_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)", (kind, player_id, game_id, turn_no, payload, now, now))

    async def insert_events(self, rows: Sequence[tuple[str, int | None, int | None, int | None, str]],
                            now: int) -> list[int]:
        """Many events in one statement, ``(kind, player_id, game_id, turn_no, payload)``
        each: their ids, in the order given (a multi-row insert numbers its rows in order)."""
        if not rows:
            return []
        values = ", ".join("(?, ?, ?, ?, ?, ?, ?)" for _ in rows)
        params = [x for kind, player, game, turn, payload in rows
                  for x in (kind, player, game, turn, payload, now, now)]
        ids = await self._all("INSERT INTO events (kind, player_id, game_id, turn_no, payload, created_at, "
                              f"next_try_at) VALUES {values} RETURNING id", params)
        return sorted(r[0] for r in ids)

    async def claim_event(self, now: int, platforms=None, owner: str | None = None,
                          lease_until: int | None = None) -> EventRow | None:
        """Take the oldest deliverable pending event (``claim_events`` of one)."""
        rows = await self.claim_events(now, platforms, owner, lease_until, 1)
        return rows[0] if rows else None

    async def claim_events(self, now: int, platforms=None, owner: str | None = None,
                           lease_until: int | None = None, limit: int = 1) -> list[EventRow]:
        """Take up to ``limit`` of the oldest deliverable pending events, oldest first:
        pending -> claimed (by ``owner``, until ``lease_until``), in one statement.

        platforms: only events for players on these platforms (and lobby events with no
        player), so that a terminal and the bot sharing one database never take each
        other's notices; None takes every event."""
        where, args = _platform_filter(platforms)
        # the rows are claimed as they are picked (never waited for nor taken twice: on
        # PostgreSQL another process's claims are passed over, SQLite has one writer)
        skip = self._skip_locked()
        rows = await self._all(
            "UPDATE events SET status = 'claimed', claimed_at = ?, claimed_by = ?, lease_until = ?, "
            "attempts = attempts + 1 WHERE status = 'pending' AND id IN (SELECT id FROM events "
            f"WHERE status = 'pending' AND next_try_at <= ? {where} ORDER BY id LIMIT ?{skip}) "
            "RETURNING *", (now, owner, lease_until, now, *args, limit))
        return sorted((as_row(EventRow, r) for r in rows), key=lambda r: r.id)

    async def finish_event(self, event_id: int, status: str, now: int,
                           error: str | None = None, owner: str | None = None) -> bool:
        """claimed (by ``owner``) -> sent / failed / obsolete; False if the claim was lost."""
        return await self._change(
            "UPDATE events SET status = ?, sent_at = ?, last_error = ?, lease_until = NULL "
            "WHERE id = ? AND status = 'claimed' AND claimed_by IS NOT DISTINCT FROM ?",
            (status, now if status == "sent" else None, error, event_id, owner)) == 1

    async def finish_events(self, event_ids: Sequence[int], status: str, now: int,
                            owner: str | None = None) -> int:
        """``finish_event`` for many at once (a delivery round's marks, one statement): how
        many were still claimed by ``owner``."""
        if not event_ids:
            return 0
        marks = ", ".join("?" for _ in event_ids)
        return await self._change(
            "UPDATE events SET status = ?, sent_at = ?, last_error = NULL, lease_until = NULL "
            f"WHERE id IN ({marks}) AND status = 'claimed' AND claimed_by IS NOT DISTINCT FROM ?",
            (status, now if status == "sent" else None, *event_ids, owner))

    async def retry_event(self, event_id: int, next_try_at: int, error: str,
                          owner: str | None = None) -> None:
        await self._exec("UPDATE events SET status = 'pending', next_try_at = ?, last_error = ?, "
                         "claimed_by = NULL, lease_until = NULL "
                         "WHERE id = ? AND status = 'claimed' AND claimed_by IS NOT DISTINCT FROM ?",
                         (next_try_at, error, event_id, owner))

    async def claim_holders(self, platforms=None) -> list[str | None]:
        """Who holds the claimed events (of these platforms' players)."""
        where, args = _platform_filter(platforms)
        rows = await self._all(f"SELECT DISTINCT claimed_by FROM events WHERE status = 'claimed' {where}",
                               tuple(args))
        return [r[0] for r in rows]

    async def release_claimed_events(self, platforms=None, now: int | None = None,
                                     dead: Sequence[str | None] = ()) -> int:
        """Claimed events whose holder stopped before marking them -> pending: those whose
        lease ran out by ``now`` (or that have none), and those of the ``dead`` holders
        (None: a claim with no holder's name, made before schema 6). ``now`` None: every
        claim. Only this run's platforms: another process may be delivering the others."""
        where, args = _platform_filter(platforms)
        if now is None:
            which, which_args = "", []
        else:
            named = [d for d in dead if d is not None]
            marks = ", ".join("?" for _ in named) or "NULL"
            which = (f"AND (claimed_by IS NULL OR lease_until IS NULL OR lease_until <= ? "
                     f"OR claimed_by IN ({marks}))")
            which_args = [now, *named]
        return await self._change(
            "UPDATE events SET status = 'pending', claimed_by = NULL, lease_until = NULL "
            f"WHERE status = 'claimed' {which} {where}", (*which_args, *args))

    async def next_event_try(self) -> int | None:
        row = await self._one("SELECT MIN(next_try_at) FROM events WHERE status = 'pending'")
        return row[0]

    async def events(self, player_id: int | None = None) -> list[EventRow]:
        if player_id is None:
            rows = await self._all("SELECT * FROM events ORDER BY id")
        else:
            rows = await self._all("SELECT * FROM events WHERE player_id = ? ORDER BY id", (player_id,))
        return [as_row(EventRow, r) for r in rows]

    async def undelivered_events(self, kind: str, player_id: int) -> list[EventRow]:
        """The player's events of ``kind`` never delivered: pending, or failed (given up);
        few, read through the status index."""
        rows = await self._all("SELECT * FROM events WHERE status IN ('pending', 'failed') "
                               "AND kind = ? AND player_id = ? ORDER BY id", (kind, player_id))
        return [as_row(EventRow, r) for r in rows]

    async def drop_event(self, event_id: int) -> bool:
        """pending -> obsolete: never to be delivered. False if delivery took it meanwhile."""
        return await self._change("UPDATE events SET status = 'obsolete' "
                                  "WHERE id = ? AND status = 'pending'", (event_id,)) == 1

    # pruning: what no game's record needs, once it is old
    async def prune(self, table: str, before: int, limit: int) -> int:
        """Delete up to ``limit`` old rows of ``table`` (see ``_PRUNE``); how many went."""
        return await self._change(_PRUNE[table], (before, limit))

    # digests
    async def digest_done(self, player_id: int, day: str) -> bool:
        row = await self._one("SELECT 1 FROM digests WHERE player_id = ? AND day = ?", (player_id, day))
        return row is not None

    async def record_digest(self, player_id: int, day: str, status: str, event_id: int | None,
                            now: int) -> bool:
        n = await self._change("INSERT INTO digests (player_id, day, status, event_id, done_at) "
                               "VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING", (player_id, day, status, event_id, now))
        return n == 1

    # flood control shared between processes (bot/delivery/limits.py SharedCommandLimiter)
    async def take_token(self, player_id: int, budget: str, now: float, rate: float,
                         burst: float) -> tuple[float, bool]:
        """Take one token of the player's ``budget`` ("commands", "reads"...: a bucket of
        ``burst``, refilled at ``rate`` a second) in one statement: (tokens left, False), or
        (tokens there, True) if fewer than one was there. The row is locked for the statement, so of two takes at once
        the second sees the first's result: two never both take the last token."""
        lo, hi = ("least", "greatest") if self.dialect == "postgres" else ("min", "max")
        num = "CAST(? AS DOUBLE PRECISION)"  # PostgreSQL infers no type from a bare parameter here
        refilled = f"{lo}({num}, b.tokens + {hi}(0, {num} - b.at) * {num})"
        enough = f"{refilled} >= 1 - 1e-9"
        one = (burst, now, rate)
        row = await self._one(
            f"INSERT INTO command_buckets AS b (player_id, budget, tokens, at, refused) "
            f"VALUES (?, ?, {num} - 1, {num}, 0) ON CONFLICT (player_id, budget) DO UPDATE SET "
            f"tokens = CASE WHEN {enough} THEN {refilled} - 1 ELSE {refilled} END, "
            f"refused = CASE WHEN {enough} THEN 0 ELSE 1 END, at = {hi}(b.at, {num}) "
            f"RETURNING tokens, refused",
            (player_id, budget, burst, now, *one, *one, *one, *one, now))
        return float(row[0]), bool(row[1])
