"""The email adapter's queries on its own tables (made by ``schema.py`` beside this), and
their rows: the adapter owns its tables' migrations and their queries; the core store knows
neither. ``EmailTables(tx)`` runs them in a transaction of the store (``store.read()`` or
``store.write()``) through ``Tx``'s public statement API.

The tables: the mails read (kept until handled), the mails to send (each once, retried),
the players' addresses (with their hard bounces and whether notices go there too), and the
links asked for and not yet confirmed."""

from __future__ import annotations

from dataclasses import dataclass

from bot.store import Tx


@dataclass(frozen=True)
class EmailOutRow:
    id: int
    recipient: str
    message: bytes
    attempts: int
    created_at: int = 0


@dataclass(frozen=True)
class EmailAddressRow:
    address: str
    player_id: int
    confirmed_at: int
    hard_bounces: int
    stopped_at: int | None
    notices: int = 0  # a linked address: the player's notices are mailed there too
    last_bounce_at: int | None = None


@dataclass(frozen=True)
class EmailLinkRow:
    """A link asked for and not yet confirmed: the code mailed to the address."""
    address: str
    player_id: int
    code: str
    expires_at: int
    tries: int


class EmailTables:
    """The email tables as seen from one transaction."""

    def __init__(self, tx: Tx):
        self.tx = tx

    # the mails read
    async def record_mail(self, key: str, raw: bytes, now: int) -> bool:
        """Keep a mail read from the mailbox; False if it was kept before (read twice)."""
        return await self.tx.change("INSERT INTO email_inbox (message_key, raw, received_at) "
                                    "VALUES (?, ?, ?) ON CONFLICT DO NOTHING", (key, raw, now)) == 1

    async def unhandled_mails(self, limit: int = 50) -> list[tuple[str, bytes]]:
        rows = await self.tx.fetch_all("SELECT message_key, raw FROM email_inbox WHERE handled_at IS NULL "
                                       "ORDER BY received_at, message_key LIMIT ?", (limit,))
        return [(r[0], bytes(r[1])) for r in rows]

    async def mail_holder(self, key: str) -> tuple[str | None, int | None] | None:
        """(who claimed the kept mail, until when); None once it is handled."""
        row = await self.tx.fetch_one("SELECT claimed_by, lease_until FROM email_inbox "
                                      "WHERE message_key = ? AND handled_at IS NULL", (key,))
        return None if row is None else (row[0], row[1])

    async def claim_mail(self, key: str, holder: str | None, owner: str, lease_until: int) -> bool:
        """The kept mail claimed by ``owner``, if ``holder`` (as read) holds it still and it
        is not handled; False if another process took it meanwhile."""
        return await self.tx.change(
            "UPDATE email_inbox SET claimed_by = ?, lease_until = ? WHERE message_key = ? "
            "AND handled_at IS NULL AND claimed_by IS NOT DISTINCT FROM ?",
            (owner, lease_until, key, holder)) == 1

    async def mail_handled(self, key: str, now: int) -> None:
        await self.tx.execute("UPDATE email_inbox SET handled_at = ? WHERE message_key = ?", (now, key))

    # the mails to send
    async def queue_mail(self, dedupe_key: str, recipient: str, message: bytes, now: int) -> bool:
        """A mail to send; False if one with this key was queued before (sent once)."""
        return await self.tx.change(
            "INSERT INTO email_outbox (dedupe_key, recipient, message, created_at, next_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (dedupe_key, recipient, message, now, now)) == 1

    async def mail_queued(self, dedupe_key: str) -> bool:
        """Whether a mail with this key was queued (then queueing it again does nothing)."""
        return await self.tx.fetch_one("SELECT 1 FROM email_outbox WHERE dedupe_key = ?",
                                       (dedupe_key,)) is not None

    async def due_mails(self, now: int, limit: int = 20) -> list[EmailOutRow]:
        rows = await self.tx.fetch_all("SELECT id, recipient, message, attempts, created_at "
                                       "FROM email_outbox WHERE sent_at IS NULL AND dropped IS NULL "
                                       "AND next_at <= ? ORDER BY next_at, id LIMIT ?", (now, limit))
        return [EmailOutRow(r[0], r[1], bytes(r[2]), r[3], r[4]) for r in rows]

    async def sent_mail_recipient(self, mail_id: int) -> str | None:
        """To whom the outbox's mail ``mail_id`` went (None: no such mail, or never tried)."""
        row = await self.tx.fetch_one("SELECT recipient FROM email_outbox WHERE id = ? AND "
                                      "(sent_at IS NOT NULL OR attempts > 0)", (mail_id,))
        return None if row is None else row[0]

    async def mail_bounced(self, mail_id: int, now: int) -> bool:
        """The outbox's mail ``mail_id`` bounced: False if its bounce was counted before."""
        return await self.tx.change("UPDATE email_outbox SET bounced_at = ? WHERE id = ? "
                                    "AND bounced_at IS NULL", (now, mail_id)) == 1

    async def queue_mail_at(self, dedupe_key: str, recipient: str, message: bytes, now: int,
                            send_at: int) -> bool:
        """A mail to send from ``send_at`` on; False if one with this key was queued before."""
        return await self.tx.change(
            "INSERT INTO email_outbox (dedupe_key, recipient, message, created_at, next_at) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (dedupe_key, recipient, message, now, send_at)) == 1

    async def answer_times(self, recipient: str, key_prefix: str, since: int) -> list[int]:
        """When the answers (keys beginning ``key_prefix``) to ``recipient`` went, or go if
        not sent yet, after ``since``; in order."""
        rows = await self.tx.fetch_all(
            "SELECT COALESCE(sent_at, next_at) AS at FROM email_outbox WHERE recipient = ? "
            "AND dedupe_key LIKE ? AND dropped IS NULL AND COALESCE(sent_at, next_at) > ? "
            "ORDER BY at", (recipient, key_prefix + "%", since))
        return [r[0] for r in rows]

    async def prune_mails(self, before: int, keep) -> int:
        """The bodies of the mails handled or sent (or given up) before ``before`` replaced
        by ``keep(raw)`` (their headers): their keys stay, so a mail read again is still
        known and an answer queued again is still a no-op. How many were pruned."""
        pruned = 0
        rows = await self.tx.fetch_all("SELECT message_key, raw FROM email_inbox WHERE handled_at "
                                       "IS NOT NULL AND handled_at < ?", (before,))
        for key, raw in rows:
            kept = keep(bytes(raw))
            if len(kept) < len(raw):
                await self.tx.execute("UPDATE email_inbox SET raw = ? WHERE message_key = ?", (kept, key))
                pruned += 1
        rows = await self.tx.fetch_all("SELECT id, message FROM email_outbox WHERE "
                                       "(sent_at IS NOT NULL AND sent_at < ?) OR "
                                       "(dropped IS NOT NULL AND created_at < ?)", (before, before))
        for mail_id, message in rows:
            kept = keep(bytes(message))
            if len(kept) < len(message):
                await self.tx.execute("UPDATE email_outbox SET message = ? WHERE id = ?", (kept, mail_id))
                pruned += 1
        return pruned

    async def claim_due_mail(self, mail_id: int, now: int, lease_until: int,
                             life: str | None = None) -> bool:
        """A due mail taken for sending by the process ``life``: not due again before
        ``lease_until`` (False: another process took it, or it was sent, meanwhile)."""
        return await self.tx.change(
            "UPDATE email_outbox SET next_at = ?, claimed_by = ?, handed_at = NULL WHERE id = ? "
            "AND sent_at IS NULL AND dropped IS NULL AND next_at <= ?",
            (lease_until, life, mail_id, now)) == 1

    async def claimed_mails(self, now: int, life: str | None, limit: int = 20
                            ) -> list[tuple[EmailOutRow, str, int | None]]:
        """The mails other processes than ``life`` claimed and hold (their leases running),
        not yet marked sent: (the mail, its holder, when it was handed to the server)."""
        rows = await self.tx.fetch_all(
            "SELECT id, recipient, message, attempts, created_at, claimed_by, handed_at "
            "FROM email_outbox WHERE sent_at IS NULL AND dropped IS NULL AND next_at > ? "
            "AND claimed_by IS NOT NULL AND claimed_by IS DISTINCT FROM ? ORDER BY next_at, id "
            "LIMIT ?", (now, life, limit))
        return [(EmailOutRow(r[0], r[1], bytes(r[2]), r[3], r[4]), r[5], r[6]) for r in rows]

    async def take_over_mail(self, mail_id: int, holder: str, life: str | None,
                             lease_until: int) -> bool:
        """The mail claimed by ``holder`` (a process now gone) claimed by ``life`` instead;
        False if it was sent, or taken over by another, meanwhile."""
        return await self.tx.change(
            "UPDATE email_outbox SET next_at = ?, claimed_by = ? WHERE id = ? AND sent_at IS NULL "
            "AND dropped IS NULL AND handed_at IS NULL AND claimed_by = ?",
            (lease_until, life, mail_id, holder)) == 1

    async def next_mail_at(self) -> int | None:
        row = await self.tx.fetch_one("SELECT MIN(next_at) FROM email_outbox "
                                      "WHERE sent_at IS NULL AND dropped IS NULL")
        return row[0]

    async def mail_handed(self, mail_id: int, now: int) -> None:
        """The mail is being handed to the server: its text is all written but the end."""
        await self.tx.execute("UPDATE email_outbox SET handed_at = ? WHERE id = ?", (now, mail_id))

    async def mail_sent(self, mail_id: int, now: int, holder: str | None = None) -> bool:
        """Marked sent (if ``holder`` is given: only while that process still claims it);
        False if it was marked before."""
        mark = "UPDATE email_outbox SET sent_at = ?, attempts = attempts + 1 WHERE id = ? AND sent_at IS NULL"
        if holder is None:
            return await self.tx.change(mark, (now, mail_id)) == 1
        return await self.tx.change(mark + " AND claimed_by = ?", (now, mail_id, holder)) == 1

    async def mail_failed(self, mail_id: int, next_at: int | None, why: str | None) -> None:
        """One more failed try: again at ``next_at``, or (None) given up because of ``why``."""
        await self.tx.execute("UPDATE email_outbox SET attempts = attempts + 1, claimed_by = NULL, "
                              "handed_at = NULL, next_at = COALESCE(?, next_at), dropped = ? "
                              "WHERE id = ?",
                              (next_at, why, mail_id))

    # the players' addresses
    async def email_address(self, address: str) -> EmailAddressRow | None:
        return await self.tx.fetch_one("SELECT * FROM email_addresses WHERE address = ?", (address,),
                                        into=EmailAddressRow)

    async def player_addresses(self, player_id: int) -> list[EmailAddressRow]:
        return await self.tx.fetch_all("SELECT * FROM email_addresses WHERE player_id = ? "
                                       "ORDER BY address", (player_id,), into=EmailAddressRow)

    async def set_email_address(self, address: str, player_id: int, now: int) -> None:
        """The address is the player's (confirmed now)."""
        await self.tx.execute(  # (confirmed: it receives mail, whatever bounced before)
            "INSERT INTO email_addresses (address, player_id, confirmed_at) VALUES (?, ?, ?) "
            "ON CONFLICT (address) DO UPDATE SET player_id = excluded.player_id, "
            "confirmed_at = excluded.confirmed_at, notices = 0, hard_bounces = 0, "
            "stopped_at = NULL, last_bounce_at = NULL", (address, player_id, now))

    async def set_proven(self, address: str, now: int) -> None:
        """A signed reply came from ``address`` (``confirmed_at`` 0 until then: seen only)."""
        await self.tx.execute("UPDATE email_addresses SET confirmed_at = ? WHERE address = ? AND confirmed_at = 0",
                              (now, address))

    async def set_email_notices(self, address: str, on: bool) -> None:
        await self.tx.execute("UPDATE email_addresses SET notices = ? WHERE address = ?",
                              (int(on), address))

    async def hard_bounce(self, address: str, stop_after: int, now: int,
                          forget_before: int) -> tuple[int, bool]:
        """Count a hard bounce of ``address`` (those before ``forget_before`` forgotten):
        (bounces so far, whether mail to it stops now)."""
        row = await self.email_address(address)
        if row is None:
            return 0, False
        earlier = row.hard_bounces if (row.last_bounce_at or 0) >= forget_before else 0
        count = earlier + 1
        stop = row.stopped_at is None and count >= stop_after
        await self.tx.execute("UPDATE email_addresses SET hard_bounces = ?, last_bounce_at = ?, "
                              "stopped_at = COALESCE(stopped_at, ?) WHERE address = ?",
                              (count, now, now if stop else None, address))
        return count, stop

    async def bounces_forgotten(self, address: str, count: int = 0) -> None:
        """Mail to ``address`` goes again: its bounces set to ``count`` (0: all forgotten)."""
        await self.tx.execute("UPDATE email_addresses SET hard_bounces = ?, stopped_at = NULL "
                              "WHERE address = ?", (count, address))

    # links asked for, not yet confirmed
    async def set_email_link(self, address: str, player_id: int, code: str, expires_at: int) -> None:
        await self.tx.execute(
            "INSERT INTO email_links (address, player_id, code, expires_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (player_id, address) DO UPDATE SET code = excluded.code, "
            "expires_at = excluded.expires_at, tries = 0", (address, player_id, code, expires_at))

    async def email_links(self, player_id: int) -> list[EmailLinkRow]:
        return await self.tx.fetch_all("SELECT * FROM email_links WHERE player_id = ? ORDER BY address",
                                       (player_id,), into=EmailLinkRow)

    async def email_link_tried(self, player_id: int, drop_after: int) -> None:
        """One more wrong code for the player's links; those tried ``drop_after`` times go."""
        await self.tx.execute("UPDATE email_links SET tries = tries + 1 WHERE player_id = ?",
                              (player_id,))
        await self.tx.execute("DELETE FROM email_links WHERE player_id = ? AND tries >= ?",
                              (player_id, drop_after))

    async def drop_email_link(self, address: str, player_id: int) -> None:
        await self.tx.execute("DELETE FROM email_links WHERE address = ? AND player_id = ?",
                              (address, player_id))
