"""Who a mail address is: a mail player (platform ``email``, the address as user id) made on
first sight, or a Discord player who linked the address (``/settings email ADDRESS``,
confirmed with a code the bot mails there). Either way one address is one player, and a
linked Discord player is the same player by mail as in Discord. An address seen only in a
From header is unproven (anyone can write any From) until a signed reply or a link code
comes back from it: only then does the plain address act on its challenges."""

from __future__ import annotations

import secrets

from bot.domain.errors import SettingsError
from language import T

from .tables import EmailTables
from .urls import check_address

PLATFORM = "email"
CODE_SECONDS = 24 * 3600  # a link code is good for a day
CODE_TRIES = 5  # wrong codes before a link must be asked for again
UNPROVEN = 0  # an address's confirmed_at until a signed reply or a link code comes from it


def normal_address(text: str) -> str:
    """The address as the bot keeps it (lower case); SettingsError if it is none."""
    try:
        return check_address(text.strip(), "the address").lower()
    except ValueError:
        raise SettingsError(T("{text} is not a mail address (like {example})", text=repr(text.strip()[:80]),
                              example="ann@example.org")) from None


class Accounts:
    def __init__(self, service, clock):
        self.service = service
        self.clock = clock

    def _now(self) -> int:
        return int(self.clock.now().timestamp())

    async def player_of(self, address: str):
        """The player whose (confirmed) address this is, or None."""
        async with self.service.store.read() as tx:
            row = await EmailTables(tx).email_address(address.lower())
        return None if row is None else await self.service.get_player(row.player_id)

    async def player_for(self, address: str, name: str | None = None):
        """The address's player, made (a mail player) if it has none."""
        address = address.lower()
        found = await self.player_of(address)
        if found is not None:
            return found
        player = await self.service.player(PLATFORM, address, name or address.split("@")[0])
        async with self.service.store.write() as tx:  # seen, not proven: anyone can write a From
            await EmailTables(tx).set_email_address(address, player.id, UNPROVEN)
        return player

    async def is_proven(self, address: str) -> bool:
        """Whether a signed reply (or a link code) came back from ``address``: mail to it
        reaches whoever writes from it."""
        async with self.service.store.read() as tx:
            row = await EmailTables(tx).email_address(address.lower())
        return row is not None and row.confirmed_at != UNPROVEN

    async def proven(self, address: str) -> None:
        """A signed reply came from ``address``."""
        async with self.service.store.write() as tx:
            await EmailTables(tx).set_proven(address.lower(), self._now())

    async def address_of(self, player_id: int) -> str | None:
        """Where to mail this player: a mail player's own address, else a linked one."""
        async with self.service.store.read() as tx:
            player = await tx.player(player_id)
            rows = await EmailTables(tx).player_addresses(player_id)
        if player is not None and player.platform == PLATFORM:
            return player.user_id
        return rows[0].address if rows else None

    async def wants_notices(self, player_id: int) -> bool:
        """Whether a player of another platform asked for their notices by mail too."""
        async with self.service.store.read() as tx:
            rows = await EmailTables(tx).player_addresses(player_id)
        return any(r.notices for r in rows)

    async def set_notices(self, player_id: int, on: bool) -> str:
        """Mail the player's notices to their linked address too (or no more): the address."""
        async with self.service.store.write() as tx:
            rows = await EmailTables(tx).player_addresses(player_id)
            if not rows:
                raise SettingsError(T("link an address first: {command}", command="/settings email ADDRESS"))
            await EmailTables(tx).set_email_notices(rows[0].address, on)
        return rows[0].address

    async def check_not_stopped(self, player_id: int, address: str) -> bool:
        """Whether ``address``'s mail stopped (it bounced) and it is the player's own, who
        may have a code mailed there to start it again; SettingsError if it stopped and is
        anyone else's: nobody makes the bot mail it again."""
        address = normal_address(address)
        async with self.service.store.read() as tx:
            row = await EmailTables(tx).email_address(address)
        if row is None or row.stopped_at is None:
            return False
        if row.player_id != player_id:
            raise SettingsError(T("mail to {address} bounced too often and the bot mails it no more: "
                                  "no code was sent (check the address, or link another)", address=address))
        return True

    async def start_link(self, player_id: int, address: str) -> tuple[str, str]:
        """A code for linking ``address`` to the player: (the address, the code to mail).
        Until the code comes back the address stays whose it was."""
        address = normal_address(address)
        async with self.service.store.write() as tx:
            row = await EmailTables(tx).email_address(address)
            if row is not None and row.player_id != player_id:
                owner = await tx.player(row.player_id)
                if owner is None or owner.platform != PLATFORM:
                    raise SettingsError(T("that address is linked to another player"))
            code = f"{secrets.randbelow(10**6):06d}"
            await EmailTables(tx).set_email_link(address, player_id, code, self._now() + CODE_SECONDS)
        return address, code

    async def confirm_link(self, player_id: int, code: str) -> str:
        """The address the code confirms for this player; SettingsError if none does (a
        few wrong codes drop the link: a new one must be asked for)."""
        code, now = code.strip(), self._now()
        async with self.service.store.write() as tx:
            links = await EmailTables(tx).email_links(player_id)
            for link in links:
                if link.expires_at >= now and secrets.compare_digest(link.code, code):
                    await EmailTables(tx).set_email_address(link.address, player_id, now)
                    await EmailTables(tx).drop_email_link(link.address, player_id)
                    return link.address
            if links:
                await EmailTables(tx).email_link_tried(player_id, CODE_TRIES)
        if not links:
            raise SettingsError(T("no link is waiting for a code: first {command}",
                                  command="/settings email ADDRESS"))
        raise SettingsError(T("that is not the code mailed to you (or it expired): check it, or "
                              "ask for a new one with {command}", command="/settings email ADDRESS"))
