"""Issue #40 item 3, mail parts: code mails (/settings email ADDRESS) have budgets one
person cannot spend for another — one pending code per address, re-sent at most hourly;
at most 20 addresses an hour per requester; never to an address whose mail stopped
(bounced) for anyone but its own player. Through the Discord command (the spec'd double of
tests/discord_bot) and the real SMTP/IMAP test servers."""

from __future__ import annotations

import asyncio
import random
from datetime import timedelta

import pytest

from bot.config import ConfigError, Settings
from bot.delivery.notifiers import Notifiers
from bot.discord_bot import commands
from bot.discord_bot.core import Fairy
from bot.discord_bot.notifier import DiscordNotifier
from bot.email.adapter import EmailAdapter
from bot.email.sending import STOP_AFTER_BOUNCES
from bot.email.tables import EmailTables
from bot.identity.account_links import CodeMailBudget
from bot.operations.service import GameService
from tests.discord_bot.conftest import run
from tests.discord_bot.helpers import World, last_answer
from tests.email.conftest import clock, servers, settings  # noqa: F401 - fixtures

VICTIM = "victim@v.test"


async def open_world(settings, clock):  # noqa: F811
    w = World()
    adapter = EmailAdapter(settings.with_(discord_token="beside Discord"), clock=clock)
    service = await GameService.open(settings, clock=clock, rng=random.Random(7),
                                     notifier=Notifiers([DiscordNotifier(w.client), adapter]))
    adapter.bind(service)
    w.fairy = Fairy(service, w.client)
    w.client.fairy = w.fairy
    w.adapter = adapter
    w.mallory = w.member("Mallory")
    w.bob = w.member("Bob")
    return w


@pytest.fixture
async def world(settings, clock):  # noqa: F811
    w = await open_world(settings, clock)
    yield w
    await w.adapter.close()
    await w.fairy.service.close()


async def ask_code(w, user, address: str) -> str:
    i = w.interaction(user)
    await run(commands.settings, i, email=address)
    return last_answer(i)["content"]


async def test_sixty_code_mails_in_one_instant_mail_the_address_once(world, servers, clock):  # noqa: F811
    w = world
    answers = await asyncio.gather(*(ask_code(w, w.mallory, VICTIM) for _ in range(60)))
    await w.adapter.step()
    assert len(servers.sent_to(VICTIM)) == 1
    assert sum(f"a code was mailed to {VICTIM}" in a for a in answers) == 1
    refused = [a for a in answers if "less than 60 minutes ago" in a]
    assert len(refused) == 59 and "ask again in 60 minutes" in refused[0]
    # another requester gets no second code either: one pending code per address
    assert "less than 60 minutes ago" in await ask_code(w, w.bob, VICTIM)
    clock.advance(timedelta(minutes=59))
    assert "ask again in 1 minute" in await ask_code(w, w.mallory, VICTIM)
    await w.adapter.step()
    assert len(servers.sent_to(VICTIM)) == 1
    clock.advance(timedelta(minutes=1, seconds=1))   # an hour on: re-sent once
    assert f"a code was mailed to {VICTIM}" in await ask_code(w, w.bob, VICTIM)
    await w.adapter.step()
    assert len(servers.sent_to(VICTIM)) == 2


async def test_one_requester_mails_codes_to_at_most_twenty_addresses_an_hour(world, servers, clock):  # noqa: F811
    w = world
    addresses = [f"p{n}@many.test" for n in range(25)]
    answers = await asyncio.gather(*(ask_code(w, w.mallory, a) for a in addresses))
    await w.adapter.step()
    assert sum(len(servers.sent_to(a)) for a in addresses) == 20
    refused = [a for a in answers if "20 addresses for you in the last hour" in a]
    assert len(refused) == 5
    # Mallory's spending is hers: Bob still has his own codes
    assert "a code was mailed to bob@b.test" in await ask_code(w, w.bob, "bob@b.test")
    # a refused or bad address costs nothing
    clock.advance(timedelta(hours=1, seconds=1))
    assert "is not a mail address" in await ask_code(w, w.mallory, "no address")
    late = [await ask_code(w, w.mallory, f"q{n}@many.test") for n in range(20)]
    assert all("a code was mailed" in a for a in late)


async def test_a_stopped_address_is_not_mailed_again(world, servers, clock):  # noqa: F811
    w = world
    await w.adapter.accounts.player_for(VICTIM)   # a player by mail
    assert "a code was mailed" in await ask_code(w, w.bob, "bob@b.test")
    await w.adapter.step()
    servers.recorder.refuse.add(VICTIM)   # the victim's server refuses the bot: a hard bounce
    for n in range(STOP_AFTER_BOUNCES):
        await w.adapter.mailer.queue(f"test:{n}", VICTIM, servers.last_to("bob@b.test"))
        await w.adapter.step()
    servers.recorder.refuse.clear()
    async with w.fairy.service.store.read() as tx:
        assert (await EmailTables(tx).email_address(VICTIM)).stopped_at is not None
    before = len(servers.sent_to(VICTIM))
    clock.advance(timedelta(days=30))   # long after: still never by a stranger's asking
    answer = await ask_code(w, w.mallory, VICTIM)
    assert "bounced too often" in answer and "no code was sent" in answer
    await w.adapter.step()
    assert len(servers.sent_to(VICTIM)) == before
    # the refusal cost no budget: Mallory's request for another address goes out
    assert "a code was mailed" in await ask_code(w, w.mallory, "other@o.test")


def test_the_budgets_are_settings_with_their_defaults():
    assert (Settings().email_code_resend_minutes, Settings().email_codes_per_hour) == (60, 20)
    s = Settings.load(env={"FAIRYPOST_EMAIL_CODE_RESEND_MINUTES": "120", "FAIRYPOST_EMAIL_CODES_PER_HOUR": "3"})
    assert (s.email_code_resend_minutes, s.email_codes_per_hour) == (120, 3)
    for bad in ({"email_code_resend_minutes": 5}, {"email_codes_per_hour": 21}, {"email_codes_per_hour": 0}):
        with pytest.raises(ConfigError):
            Settings(**bad)
    budget = CodeMailBudget(60, 3)
    for n in range(3):
        budget.take(1, f"a{n}@x.test", 0.0)
    with pytest.raises(Exception, match="3 addresses"):
        budget.take(1, "a9@x.test", 10.0)
    budget.take(2, "a9@x.test", 10.0)   # another requester's budget is their own
