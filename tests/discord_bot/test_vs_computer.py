"""Playing the computer on Discord, through the adapter's handlers: /challenge of the bot
itself (or with computer / level), the computer's reply posted in the thread like any move,
/hint (only against the computer), /review after the end."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from bot.computer.player import Computer, make_pool
from bot.delivery.notifiers import Notifiers
from bot.discord_bot import commands
from bot.discord_bot.core import Fairy
from bot.discord_bot.notifier import DiscordNotifier
from bot.operations.service import GameService

from .conftest import run
from .helpers import World, last_answer


@pytest.fixture(scope="module")
def pool():
    p = make_pool(1, games=("chess",))
    yield p
    p.shutdown(wait=True, cancel_futures=True)


@pytest.fixture
async def world(settings, clock, pool):
    """The runner's wiring: the Discord notifier and the computer behind one notifier."""
    w = World()
    computer = Computer(pool, seconds=0.2, hint_seconds=0.2, review_seconds=0.05)
    svc = await GameService.open(settings, clock=clock,
                                 notifier=Notifiers([DiscordNotifier(w.client), computer]),
                                 rng=random.Random(7))
    w.fairy = Fairy(svc, w.client)
    w.client.fairy = w.fairy
    computer.bind(svc, act=w.fairy.act)
    w.fairy.computer = computer
    w.client.user = w.guild.me  # the bot's own user
    w.alice = w.member("Alice")
    w.bob = w.member("Bob")
    yield w
    await computer.close()
    await svc.close()


async def test_challenge_the_bot_play_hint_and_review(world):
    w = world
    i = w.interaction(w.alice)
    await run(commands.challenge, i, game="chess", opponent=w.guild.me, colour="white", level=1)
    first = last_answer(i)["content"]
    assert "✅ Accepted by **fairypost level 1**: game #" in first
    thread = w.threads[-1]
    assert "The game begins." in w.sent_to(thread)[0]["content"]
    gid = (await w.fairy.service.list_games((await w.fairy.player(w.alice)).id))[0].id

    m = w.interaction(w.alice, channel=thread)
    await run(commands.move, m, move="e4")
    assert last_answer(m)["content"].startswith("You played **e4**")
    await w.fairy.computer.idle(gid)
    gv = await w.fairy.service.game(gid)
    assert gv.ply == 2 and gv.moves[-1].player_id == gv.black.id
    reply = w.sent_to(thread)[-1]
    assert f"played **{gv.moves[-1].san}**" in reply["content"] and "view" in reply
    assert reply["file"].filename == f"game{gid}-2.png"
    # the "your move" notice comes after the board, by DM as Alice's settings say
    assert any(f"#{gid}" in d["content"] for d in w.dms(w.alice))

    h = w.interaction(w.alice, channel=thread)
    await run(commands.hint, h)
    text = last_answer(h)["content"]
    assert text.startswith(f"Game #{gid}: The computer would play ") and "(score " in text
    assert (await w.fairy.service.game(gid)).ply == 2  # a hint changes nothing

    early = w.interaction(w.alice, channel=thread)
    await run(commands.review, early)
    assert "a review is for a finished game" in last_answer(early)["content"].lower()

    await w.fairy.service.resign(gid, gv.white.id)
    r = w.interaction(w.alice, channel=thread)
    await run(commands.review, r)
    answer = last_answer(r)
    assert answer["content"].startswith(f"The review of game #{gid}: ")
    assert answer["file"].filename == f"fairypost-review-{gid}.txt"
    review = answer["file"].fp.read().decode()
    assert "1.     e4" in review and "Alice v fairypost level 1, 0-1 (resignation)" in review


async def test_the_computer_option_and_white_computer_moves_first(world, clock):
    w = world
    i = w.interaction(w.bob)
    await run(commands.challenge, i, game="chess", computer=True, colour="black")
    assert "✅ Accepted by **fairypost level 3**" in last_answer(i)["content"]
    thread = w.threads[-1]
    bob = await w.fairy.player(w.bob)
    gid = (await w.fairy.service.list_games(bob.id))[0].id
    await w.fairy.computer.idle(gid)
    gv = await w.fairy.service.game(gid)
    assert gv.white.name == "fairypost level 3" and gv.ply == 1 and gv.deadline is not None
    posts = [p["content"] for p in w.sent_to(thread)]
    assert "The game begins." in posts[0] and f"played **{gv.moves[0].san}**" in posts[-1]
    # the human's clock runs: out of time, the final board is posted once
    clock.advance(timedelta(days=4))
    await w.fairy.service.sweep()
    gv = await w.fairy.service.game(gid)
    assert (gv.result, gv.reason) == ("1-0", "time")
    final = w.sent_to(thread)[len(posts):]
    assert len(final) == 1 and "view" not in final[0]


async def test_hint_is_refused_between_people_and_other_bots_are_refused(world):
    w = world
    i = w.interaction(w.alice)
    other_bot = w.member("Robot", bot=True)
    await run(commands.challenge, i, game="chess", opponent=other_bot)
    assert "bots do not play here" in last_answer(i)["content"].lower()
    j = w.interaction(w.alice)
    await run(commands.challenge, j, game="chess", opponent=w.bob, computer=True)
    assert "not both" in last_answer(j)["content"]
    alice, bob = await w.fairy.player(w.alice), await w.fairy.player(w.bob)
    c = await w.fairy.service.challenge(alice.id, "chess", opponent_id=bob.id, colour="white")
    gv = await w.fairy.service.accept_challenge(c.id, bob.id)
    h = w.interaction(w.alice)
    await run(commands.hint, h, game=gv.id)
    assert "hints are only for games against the computer" in last_answer(h)["content"].lower()


def test_the_challenge_options_for_the_computer(tmp_path):
    from bot.config import Settings
    from bot.discord_bot.runner import FairyClient
    client = FairyClient(Settings(db_path=str(tmp_path / "t.db")))
    cmds = {c.name: c for c in client.tree.get_commands()}
    ch = {p.name: p for p in cmds["challenge"].parameters}
    assert ch["computer"].type.name == "boolean" and not ch["computer"].required
    assert (ch["level"].min_value, ch["level"].max_value) == (1, 5) and not ch["level"].required
    assert "computer" in ch["opponent"].description


async def test_hint_and_review_typed_in_the_thread(world):
    from bot.discord_bot import typed
    w = world
    i = w.interaction(w.alice)
    await run(commands.challenge, i, game="chess", opponent=w.guild.me, colour="white", level=1)
    thread = w.threads[-1]
    gid = (await w.fairy.service.list_games((await w.fairy.player(w.alice)).id))[0].id

    async def say(content):
        msg = w.message(thread, author=w.alice, content=content)
        assert await typed.on_message(w.fairy, msg)
        args, kwargs = msg.reply.call_args
        return (args[0] if args else kwargs["content"]), kwargs

    text, _ = await say("hint")
    assert text.startswith(f"Game #{gid}: The computer would play ") and "(score " in text
    text, _ = await say("review")
    assert text == "a review is for a finished game: this one is still being played"
    await w.fairy.service.resign(gid, (await w.fairy.player(w.alice)).id)
    text, kwargs = await say("review")
    assert text.startswith(f"The review of game #{gid}: 0 blunder(s) (??)")
    assert kwargs["file"].filename == f"fairypost-review-{gid}.txt"
    assert "Alice v fairypost level 1, 0-1 (resignation)" in kwargs["file"].fp.read().decode()
