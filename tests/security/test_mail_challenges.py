"""Issue #40 item 3: mail challenges only from addresses proven by a signed reply. A From
header alone never starts a challenge: 25 forged senders challenging one person make no
challenge and mail her nothing; the real sender proves the address by replying to the
signed mail the bot sends back, and from then on challenges at the plain address go at once.
Through the real SMTP/IMAP test servers (tests/email)."""

from __future__ import annotations

from bot.email.tables import EmailTables
from tests.email.conftest import BOT, bot, clock, servers, settings  # noqa: F401 - fixtures
from tests.email.servers import reply_to_mail, text_of, write_mail

VICTIM = "victim@v.test"


async def challenges(bot) -> int:  # noqa: F811
    async with bot.service.store.read() as tx:
        return len(await tx.fetch_all("SELECT id FROM challenges"))


async def test_twenty_five_forged_senders_challenge_nobody(bot, servers):  # noqa: F811
    for n in range(25):
        await servers.deliver(write_mail(f"forged{n}@f.test", BOT, "c", f"challenge chess {VICTIM}"))
    await bot.step()
    assert await challenges(bot) == 0
    assert servers.sent_to(VICTIM) == []   # she hears of none of them
    way = text_of(servers.last_to("forged3@f.test"))
    assert "To send this challenge, reply to this mail" in way and f"challenge chess {VICTIM}" in way
    async with bot.service.store.read() as tx:   # seen, not proven
        assert (await EmailTables(tx).email_address("forged3@f.test")).confirmed_at == 0


async def test_a_signed_reply_proves_the_address_and_sends_the_challenge(bot, servers):  # noqa: F811
    alice = "alice@a.test"
    await servers.deliver(write_mail(alice, BOT, "c", f"challenge chess {VICTIM} days 3"))
    await bot.step()
    assert await challenges(bot) == 0
    way = servers.last_to(alice)
    # a reply from another address (the forger's From again) does nothing
    await servers.deliver(reply_to_mail("mallory@m.test", way, f"challenge chess {VICTIM} days 3"))
    await bot.step()
    assert await challenges(bot) == 0 and servers.sent_to(VICTIM) == []
    await servers.deliver(reply_to_mail(alice, way, f"challenge chess {VICTIM} days 3"))
    await bot.step()
    assert await challenges(bot) == 1
    assert "Challenge #1 sent" in text_of(servers.last_to(alice))
    assert len(servers.sent_to(VICTIM)) == 1
    # proven now: her next challenge at the plain address goes at once
    await servers.deliver(write_mail(alice, BOT, "c", "challenge grandducal bob@b.test"))
    await bot.step()
    assert await challenges(bot) == 2 and len(servers.sent_to("bob@b.test")) == 1
