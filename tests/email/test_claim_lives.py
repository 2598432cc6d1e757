"""Mail claims owned by process lives (issue #32 item 4): two processes that would have the
same host name and pid (two containers, both pid 1) are two lives. A mail the other is
handling is left alone while it lives, whatever its lease; once that process is gone (its
database let go), the mail is taken over at once, without waiting for the lease."""

from __future__ import annotations

from bot.email.tables import EmailTables
from bot.store import lives

from .conftest import BOT, Bot
from .servers import text_of, write_mail
from .test_game_by_mail import ALICE


async def test_a_live_process_keeps_its_mail_and_a_dead_ones_is_taken_at_once(bot, settings, clock, servers):
    other = await Bot(settings, clock).open()
    closed = False
    try:
        owner = other.adapter.receiver.owner
        assert lives.is_life(owner) and owner == other.service.store.life
        assert owner != bot.adapter.receiver.owner
        await servers.deliver(write_mail(ALICE, BOT, "help", ""))
        assert await other.adapter.receiver.fetch_new() == 1
        async with bot.service.store.read() as tx:
            (key, _), = await EmailTables(tx).unhandled_mails()
        assert await other.adapter.receiver.claim(key)  # the other is handling it...
        assert await bot.adapter.receiver.handle_pending() == 0  # ...and lives: left alone
        async with bot.service.store.read() as tx:
            assert (await EmailTables(tx).mail_holder(key))[0] == owner
        await other.close()  # it stops before handling it
        closed = True
        assert await bot.adapter.receiver.handle_pending() == 1  # at once: no lease waited for
        await bot.step()
        assert "challenge GAME OPPONENT" in text_of(servers.last_to(ALICE))
    finally:
        if not closed:
            await other.close()
