"""A Discord player links a mail address (/settings email, then the mailed code) and is the
same player by mail; a mail player challenges that address and plays the Discord player,
who answers through the Discord adapter's handlers (the spec'd double of
tests/discord_bot/helpers.py), to mate. The mail side goes through the real servers."""

from __future__ import annotations

import random
import re

import pytest

from bot.delivery.notifiers import Notifiers
from bot.discord_bot import commands
from bot.discord_bot.core import Fairy
from bot.discord_bot.notifier import DiscordNotifier
from bot.discord_bot.views import AcceptChallenge
from bot.email.adapter import EmailAdapter
from bot.identity import account_links
from bot.operations.service import GameService
from tests.discord_bot.conftest import press, run
from tests.discord_bot.helpers import World, custom_ids, last_answer

from .conftest import BOT, as_proven
from .servers import reply_to_mail, text_of, write_mail

ALICE, BOB_MAIL = "alice@a.test", "bob@b.test"


@pytest.fixture
async def world(settings, clock):
    w = World()
    adapter = EmailAdapter(settings.with_(discord_token="beside Discord"), clock=clock)
    service = await GameService.open(settings, clock=clock, rng=random.Random(7),
                                     notifier=Notifiers([DiscordNotifier(w.client), adapter]))
    adapter.bind(service)
    w.fairy = Fairy(service, w.client)
    w.client.fairy = w.fairy
    w.adapter = adapter
    w.bob = w.member("Bob")
    yield w
    await adapter.close()
    await service.close()


async def step(w):
    await w.adapter.step()


async def link_bob(w, servers) -> int:
    i = w.interaction(w.bob)
    await run(commands.settings, i, email=BOB_MAIL)
    assert f"a code was mailed to {BOB_MAIL}" in last_answer(i)["content"]
    await step(w)
    code = re.search(r"Your code is (\d{6})", text_of(servers.last_to(BOB_MAIL))).group(1)
    wrong = w.interaction(w.bob)
    await run(commands.settings, wrong, email_code="000000" if code != "000000" else "111111")
    assert "not the code mailed to you" in last_answer(wrong)["content"]
    j = w.interaction(w.bob)
    await run(commands.settings, j, email_code=code)
    assert f"{BOB_MAIL} is linked" in last_answer(j)["content"]
    return (await w.fairy.player(w.bob)).id


async def test_account_linking_makes_one_player(world, servers):
    w = world
    bob_id = await link_bob(w, servers)
    assert (await w.adapter.accounts.player_of(BOB_MAIL)).id == bob_id
    # a mail from the linked address is Bob's: his games list is his Discord one
    await servers.deliver(write_mail(BOB_MAIL, BOT, "games", "games"))
    await step(w)
    assert "No games yet." in text_of(servers.last_to(BOB_MAIL))
    assert [p.id for p in await w.fairy.service.players_on("email")] == []  # no second player


async def test_linking_without_play_by_email_is_refused_clearly(world):
    w = world
    account_links.unregister(w.fairy.service)  # a process that plays no email
    i = w.interaction(w.bob)
    await run(commands.settings, i, email=BOB_MAIL)
    assert "does not play by email" in last_answer(i)["content"]


async def test_a_mail_player_against_a_discord_player_to_mate(world, servers):
    """Bob plays in Discord, and once by mail: he asked for his notices by mail too."""
    w = world
    bob_id = await link_bob(w, servers)
    i = w.interaction(w.bob)
    await run(commands.settings, i, email_notices=True)
    assert f"your notices are mailed to {BOB_MAIL} too" in last_answer(i)["content"]
    await as_proven(w.adapter, ALICE)
    await servers.deliver(write_mail(ALICE, BOT, "challenge", f"challenge chess {BOB_MAIL} days 2"))
    await step(w)
    invite = w.dms(w.bob)[-1]  # the linked player is a Discord player: told in Discord
    assert "alice challenges you to **Chess**" in invite["content"]
    accept_id = next(c for c in custom_ids(invite["view"]) if c.startswith("fp:accept:"))
    j = w.interaction(w.bob)
    await press(AcceptChallenge, accept_id, j)
    await step(w)
    game = await w.fairy.service.game(1)
    assert {game.white.id, game.black.id} >= {bob_id}
    bob_side = game.side_of(bob_id)
    moves = ["f3", "e5", "g4", "Qh4#"]  # the fool's mate: Black mates
    by_mail = 0 if bob_side == "w" else 1  # Bob's first move: by mail
    for ply, san in enumerate(moves):
        side = "w" if ply % 2 == 0 else "b"
        if ply == by_mail:
            board = servers.last_to(BOB_MAIL)
            assert "It is your move" in text_of(board)  # the game's start, or a "your move" mail
            await servers.deliver(reply_to_mail(BOB_MAIL, board, san))
        elif side == bob_side:
            i = w.interaction(w.bob)
            await run(commands.move, i, move=san, game=1)
            assert f"You played **{san}**" in last_answer(i)["content"], last_answer(i)
        else:
            await servers.deliver(reply_to_mail(ALICE, servers.last_to(ALICE), san))
        await step(w)
    view = await w.fairy.service.game(1)
    assert (view.result, view.reason) == ("0-1", "checkmate")
    assert [m.san for m in view.moves] == moves
    assert "is over: 0-1" in text_of(servers.last_to(ALICE))
    assert "is over: 0-1" in w.dms(w.bob)[-1]["content"]
    assert "is over: 0-1" in text_of(servers.last_to(BOB_MAIL))


async def test_a_discord_players_notices_stay_in_discord_unless_asked(world, servers):
    w = world
    await link_bob(w, servers)
    mails = len(servers.sent_to(BOB_MAIL))
    await as_proven(w.adapter, ALICE)
    await servers.deliver(write_mail(ALICE, BOT, "challenge", f"challenge chess {BOB_MAIL}"))
    await step(w)
    assert "challenges you" in w.dms(w.bob)[-1]["content"]
    assert len(servers.sent_to(BOB_MAIL)) == mails  # not mailed: he did not ask
    i = w.interaction(w.bob)
    await run(commands.settings, i, email_notices=False)
    assert "no longer mailed" in last_answer(i)["content"]


async def test_asking_to_link_someones_address_takes_nothing_from_them(world, servers):
    """Eve (on Discord) asks for Alice's address: Alice still plays by mail; the code goes to
    Alice, and guessing it fails a few times, then the link is gone."""
    w = world
    bob = "bob@b.test"  # a mail player here
    await as_proven(w.adapter, ALICE)
    await servers.deliver(write_mail(ALICE, BOT, "c", f"challenge chess {bob}"))
    await step(w)
    await servers.deliver(reply_to_mail(bob, servers.last_to(bob), "accept"))
    await step(w)
    view = await w.fairy.service.game(1)
    eve = w.member("Eve")
    i = w.interaction(eve)
    await run(commands.settings, i, email=ALICE)
    assert f"a code was mailed to {ALICE}" in last_answer(i)["content"]
    await step(w)
    assert "Your code is" in text_of(servers.last_to(ALICE))
    alice_side = "w" if view.white.user_id == ALICE else "b"
    if alice_side == "b":
        await servers.deliver(reply_to_mail(bob, servers.last_to(bob), "e4"))
        await step(w)
    await servers.deliver(reply_to_mail(ALICE, servers.last_to(ALICE, "It is your move"),
                                        "d4" if alice_side == "w" else "d5"))
    await step(w)
    assert (await w.fairy.service.game(1)).moves[-1].san in ("d4", "d5")  # Alice still plays
    for n in range(5):
        j = w.interaction(eve)
        await run(commands.settings, j, email_code=f"{n:06d}x")
        assert "not the code mailed to you" in last_answer(j)["content"]
    k = w.interaction(eve)
    await run(commands.settings, k, email_code="123456")
    assert "No link is waiting for a code" in last_answer(k)["content"]
    assert (await w.adapter.accounts.player_of(ALICE)).platform == "email"


async def test_a_mail_player_who_links_to_discord_still_plays_the_games_begun_by_mail(world, servers):
    w = world
    await as_proven(w.adapter, ALICE)
    await servers.deliver(write_mail(ALICE, BOT, "c", "challenge chess carol@c.test"))
    await step(w)
    await servers.deliver(reply_to_mail("carol@c.test", servers.last_to("carol@c.test"), "accept"))
    await step(w)
    view = await w.fairy.service.game(1)
    alice = w.member("Alice")  # Alice joins Discord, and links her address there
    i = w.interaction(alice)
    await run(commands.settings, i, email=ALICE)
    await step(w)
    code = re.search(r"Your code is (\d{6})", text_of(servers.last_to(ALICE, "Your code"))).group(1)
    j = w.interaction(alice)
    await run(commands.settings, j, email_code=code)
    assert (await w.adapter.accounts.player_of(ALICE)).platform == "discord"
    if view.white.user_id != ALICE:
        await servers.deliver(reply_to_mail("carol@c.test", servers.last_to("carol@c.test", "It is your move"), "e4"))
        await step(w)
    await servers.deliver(reply_to_mail(ALICE, servers.last_to(ALICE, "It is your move"),
                                        "d4" if view.white.user_id == ALICE else "d5"))
    await step(w)
    assert (await w.fairy.service.game(1)).moves[-1].san in ("d4", "d5")
    assert "Your move" in text_of(servers.last_to("carol@c.test"))


async def test_a_discord_players_mate_by_mail_is_answered_by_mail_with_what_it_read(world, servers):
    """Bob (Discord, his address linked) mates by mail with his notices no longer mailed: the
    game-over notice reaches him in Discord, and his mail is answered by mail all the same,
    by the game-over mail saying what it read (issue #41 item 3)."""
    w = world
    bob_id = await link_bob(w, servers)
    i = w.interaction(w.bob)
    await run(commands.settings, i, email_notices=True)
    await as_proven(w.adapter, ALICE)
    await servers.deliver(write_mail(ALICE, BOT, "challenge", f"challenge chess {BOB_MAIL} days 2"))
    await step(w)
    accept_id = next(c for c in custom_ids(w.dms(w.bob)[-1]["view"]) if c.startswith("fp:accept:"))
    await press(AcceptChallenge, accept_id, w.interaction(w.bob))
    await step(w)
    bob_side = (await w.fairy.service.game(1)).side_of(bob_id)
    moves = ["f3", "e5", "g4", "Qh4#"] if bob_side == "b" else ["e4", "f6", "d4", "g5", "Qh5#"]
    for ply, san in enumerate(moves[:-1]):
        if ("w" if ply % 2 == 0 else "b") == bob_side:
            await run(commands.move, w.interaction(w.bob), move=san, game=1)
        else:
            await servers.deliver(reply_to_mail(ALICE, servers.last_to(ALICE), san))
        await step(w)
    board = servers.last_to(BOB_MAIL)
    assert "It is your move" in text_of(board)
    i = w.interaction(w.bob)
    await run(commands.settings, i, email_notices=False)
    assert "no longer mailed" in last_answer(i)["content"]
    mails = len(servers.sent_to(BOB_MAIL))
    await servers.deliver(reply_to_mail(BOB_MAIL, board, moves[-1], message_id="<mate@b.test>"))
    await step(w)
    view = await w.fairy.service.game(1)
    assert view.status == "finished" and [m.san for m in view.moves] == moves
    assert "is over" in w.dms(w.bob)[-1]["content"]
    answer, = servers.sent_to(BOB_MAIL)[mails:]
    assert text_of(answer).startswith(f"I read: `{moves[-1]}`") and "is over" in text_of(answer)
    assert answer["In-Reply-To"] == "<mate@b.test>"
    assert "I read" not in text_of(servers.last_to(ALICE)) and "is over" in text_of(servers.last_to(ALICE))
