"""Whether the bot's mail to a player has stopped (their address bounced too often:
bot/email/sending.py), for the front ends that can tell them by another route: the game
page shows it to the player whose link it is. Read with the email adapter's own query
(bot/email/tables.py), as bot/schemas.py takes its migrations, so that no front end
imports another; the tables are there whether or not this process runs the mail."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from ..email.sending import RETRY_STOPPED_AFTER
from ..email.tables import EmailTables


@dataclass(frozen=True)
class StoppedMail:
    address: str
    bounces: int
    retry_at: datetime  # when the bot tries the address once more by itself


async def stopped_mail(store, player_id: int) -> list[StoppedMail]:
    """The player's addresses the bot mails no more, in order."""
    async with store.read() as tx:
        rows = await EmailTables(tx).player_addresses(player_id)
    return [StoppedMail(r.address, r.hard_bounces,
                        datetime.fromtimestamp(r.stopped_at + RETRY_STOPPED_AFTER, UTC))
            for r in rows if r.stopped_at is not None]
