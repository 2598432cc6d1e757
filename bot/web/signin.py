"""Signing in on the web: a single-use link, mailed (or given on Discord), then a session
kept by a cookie. Who signs in is the player of their mail play: the address's player
(a mail player, or a Discord player who linked it), made as a mail player on first sight,
so their games by mail and on the web are one list.

Only hashes are kept (SHA-256 of each link's and session's token): a copy of the database
signs nobody in. A link works once, for 15 minutes (web_links.LINK_SECONDS); using it starts
a new session (never one the browser brought along: no fixation). The links are made by
bot/identity/web_links.py (Discord's ``/settings web`` makes them too). Mails are budgeted:
at most ``MAILS_PER_ADDRESS`` to one address and ``MAILS_PER_CLIENT`` asked by one client in
``BUDGET_SECONDS``, and ``MAILS_PER_HOUR`` in all; beyond, ``TooMany`` says when to try again and nothing is sent."""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass

from language.text import T, Text, Tn

from ..identity.web_links import add_link, hashed

SESSION_SECONDS = 30 * 86400
BUDGET_SECONDS = 3600
MAILS_PER_ADDRESS = 3
MAILS_PER_CLIENT = 10
MAILS_PER_HOUR = 100  # all sign-in mails: many clients (a botnet, IPv6 /64s) asking for many addresses
MAX_ADDRESS = 254  # RFC 5321's longest path
MAIL_PLATFORM = "email"  # a mail player: platform "email", the address as its user id
# the local part: RFC 5322's dot-atom characters only (no control character, space or quote)
_ADDRESS = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
                      r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+")


class BadAddress(ValueError):
    """Not a mail address: the text (a ``Text``, ``args[0]``) says what was wrong."""


class TooMany(Exception):
    """Over a sign-in mail budget: ``retry_after`` seconds until one may be sent again."""

    def __init__(self, text: Text, retry_after: int):
        super().__init__(text)
        self.retry_after = retry_after


class LinkRefused(Exception):
    """A sign-in link that does not work (unknown, used, expired): the text says which."""


@dataclass(frozen=True)
class Session:
    player_id: int
    token_hash: str


def normal_address(text: str) -> str:
    """The address as kept (lower case); BadAddress saying why it is none."""
    address = text.strip()
    if not address:
        raise BadAddress(T("type your email address (like {example})", example="ann@example.org"))
    if len(address) > MAX_ADDRESS:
        raise BadAddress(T("an email address is at most {n} characters", n=MAX_ADDRESS))
    if not _ADDRESS.fullmatch(address) or not address.isascii():
        raise BadAddress(T("that is not an email address (like {example})", example="ann@example.org"))
    return address.lower()


class SignIns:
    """The links and sessions of one database; ``now()`` the time (seconds)."""

    def __init__(self, service):
        self.service = service
        self.store = service.store
        self._next_prune = 0

    def now(self) -> int:
        return int(self.service.clock.now().timestamp())

    async def new_link(self, client: str, *, address: str | None = None,
                       player_id: int | None = None) -> str:
        """A new single-use link's token, for ``address`` (its budgets checked first) or a
        known player (given on Discord, not mailed: no budget)."""
        now = self.now()
        if address is not None:  # a flood over budget is refused by reads: no write lock taken
            async with self.store.read() as tx:
                await self._check_budgets(tx, client, address, now)
        async with self.store.write() as tx:
            if address is not None:  # again, under the lock: the mails asked meanwhile count
                await self._check_budgets(tx, client, address, now)
            return await add_link(tx, now, client, address=address, player_id=player_id)

    async def _check_budgets(self, tx, client: str, address: str, now: int) -> None:
        """TooMany if a mail to ``address`` asked by ``client`` is over any budget."""
        await self._check_budget(tx, "address", address, MAILS_PER_ADDRESS, now, lambda minutes: Tn(
            "too many sign-in mails to this address in an hour: try again in {n} minute",
            "too many sign-in mails to this address in an hour: try again in {n} minutes", minutes))
        await self._check_budget(tx, "client", client, MAILS_PER_CLIENT, now, lambda minutes: Tn(
            "too many sign-in mails asked from here in an hour: try again in {n} minute",
            "too many sign-in mails asked from here in an hour: try again in {n} minutes", minutes))
        await self._check_budget(tx, None, None, MAILS_PER_HOUR, now, lambda minutes: Tn(
            "too many sign-in mails asked of this site in an hour: try again in {n} minute",
            "too many sign-in mails asked of this site in an hour: try again in {n} minutes", minutes))

    @staticmethod
    async def _check_budget(tx, column: str | None, value: str | None, limit: int, now: int,
                            refusal) -> None:
        """TooMany if ``limit`` mails went within the hour to the rows whose ``column`` is
        ``value`` (all of them if None)."""
        where, params = (f"{column} = ? AND ", (value,)) if column else ("", ())
        rows = await tx.fetch_all(f"SELECT created_at FROM web_signin_links WHERE {where}"
                                  "created_at > ? AND address IS NOT NULL ORDER BY created_at",
                                  (*params, now - BUDGET_SECONDS))
        if len(rows) >= limit:
            wait = int(rows[len(rows) - limit][0]) + BUDGET_SECONDS - now
            minutes = max(1, (wait + 59) // 60)
            raise TooMany(refusal(minutes), wait)

    async def link_for(self, token: str) -> tuple[str | None, int | None]:
        """Whom a working link signs in (its address, its player); LinkRefused if none."""
        row = await self._link(token)
        return row["address"], row["player_id"]

    async def _link(self, token: str, tx=None):
        if not token or len(token) > 100:
            raise LinkRefused(T("this sign-in link is not one of ours"))
        async with self.store.read() as tx:
            row = await tx.fetch_one("SELECT * FROM web_signin_links WHERE token_hash = ?",
                                     (hashed(token),))
        if row is None:
            raise LinkRefused(T("this sign-in link is not one of ours"))
        if row["used_at"] is not None:
            raise LinkRefused(T("this sign-in link was used already: each works once. Ask for a new one"))
        if row["expires_at"] <= self.now():
            raise LinkRefused(T("this sign-in link has expired (each works for 15 minutes). Ask for a new one"))
        return row

    async def use_link(self, token: str) -> tuple[str, int]:
        """Spend the link: a new session's cookie token and its player. LinkRefused if the
        link does not work (two uses at once: only one gets in)."""
        row = await self._link(token)
        now = self.now()
        async with self.store.write() as tx:
            if await tx.change("UPDATE web_signin_links SET used_at = ? WHERE token_hash = ? "
                               "AND used_at IS NULL", (now, hashed(token))) != 1:
                raise LinkRefused(T("this sign-in link was used already: each works once. Ask for a new one"))
        player_id = row["player_id"] or await self.player_of_address(row["address"])
        session = secrets.token_urlsafe(32)
        async with self.store.write() as tx:
            await tx.execute("INSERT INTO web_sessions (token_hash, player_id, created_at, expires_at) "
                             "VALUES (?, ?, ?, ?)", (hashed(session), player_id, now, now + SESSION_SECONDS))
        return session, player_id

    async def player_of_address(self, address: str) -> int:
        """The address's player (as bot/email/accounts.py keeps it: one address, one
        player), made a mail player with it if it has none."""
        async with self.store.read() as tx:
            row = await tx.fetch_one("SELECT player_id FROM email_addresses WHERE address = ?", (address,))
        if row is not None:
            return int(row[0])
        player = await self.service.player(MAIL_PLATFORM, address, address.split("@")[0])
        async with self.store.write() as tx:
            await tx.execute("INSERT INTO email_addresses (address, player_id, confirmed_at) "
                             "VALUES (?, ?, ?) ON CONFLICT (address) DO NOTHING",
                             (address, player.id, self.now()))
        return player.id

    async def session(self, token: str | None) -> Session | None:
        """The signed-in session of a cookie's token, or None."""
        if not token or len(token) > 100:
            return None
        async with self.store.read() as tx:
            row = await tx.fetch_one("SELECT player_id, expires_at, ended_at FROM web_sessions "
                                     "WHERE token_hash = ?", (hashed(token),))
        if row is None or row["ended_at"] is not None or row["expires_at"] <= self.now():
            return None
        return Session(int(row["player_id"]), hashed(token))

    # --- the sweep's part (GameService.add_sweeper; site.add_routes registers it) ---

    PRUNE_EVERY = 3600

    async def sweep_due(self, now: int) -> int:
        """At most hourly, ``prune``. Returns 0: the sweep's report counts the computer's
        turns tried again here (SweepReport.turns_retried), and these rows are not turns."""
        if now >= self._next_prune:
            self._next_prune = now + self.PRUNE_EVERY
            await self.prune(now)
        return 0

    async def prune(self, now: int) -> int:
        """Delete the sessions signed out or run out and the links older than the budgets'
        hour (used or expired long since): rows nobody can use, which would otherwise grow
        with every sign-in. How many rows went."""
        async with self.store.write() as tx:
            sessions = await tx.change("DELETE FROM web_sessions WHERE ended_at IS NOT NULL "
                                       "OR expires_at <= ?", (now,))
            links = await tx.change("DELETE FROM web_signin_links WHERE created_at <= ? "
                                    "AND expires_at <= ?", (now - BUDGET_SECONDS, now))
        return sessions + links

    def next_due(self) -> int | None:
        return None  # nothing to wake for: the rows wait for the next sweep

    async def end(self, session: Session) -> None:
        async with self.store.write() as tx:
            await tx.execute("UPDATE web_sessions SET ended_at = ? WHERE token_hash = ?",
                             (self.now(), session.token_hash))
