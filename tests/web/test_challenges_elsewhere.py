"""An open challenge made in the web's Lobby is seen and taken elsewhere (issue #42 item 3):
by a mail player typing ``challenges`` then ``accept N`` (the grammar and runner every mail
goes through), and on Discord by ``/challenges`` (each with its Accept button)."""

from __future__ import annotations

from bot.commands.run import Context, execute
from bot.discord_bot import commands
from bot.words.grammar import parse
from bot.words.text import PLAIN

from ..discord_bot.conftest import clock, open_world, run, settings  # noqa: F401 - fixtures
from ..discord_bot.helpers import answers


async def test_a_mail_player_lists_the_open_challenges_and_accepts_one(svc):
    ann = await svc.player("email", "ann@example.org", "Ann")   # as the web signs her in
    carl = await svc.player("email", "carl@example.org", "Carl")
    c = await svc.challenge(ann.id, "grandducal", days=5, colour="white")   # the web's New game
    reply = await execute(parse("challenges", in_game=False), Context(svc, carl, PLAIN))
    assert f"#{c.id} Ann: Grand Ducal" in reply.text and "accept N" in reply.text
    # Ann's own challenge is not one she may take
    mine = await execute(parse("challenges", in_game=False), Context(svc, ann, PLAIN))
    assert mine.text == "No challenge is open to you now."
    reply = await execute(parse(f"accept {c.id}", in_game=False), Context(svc, carl, PLAIN))
    assert "The game begins" in reply.text
    view = await svc.game((await svc.get_challenge(c.id)).game_id)
    assert (view.white.id, view.black.id) == (ann.id, carl.id)


async def test_discord_challenges_shows_the_lobbys_with_accept_buttons(settings, clock):  # noqa: F811
    w = await open_world(settings, clock)
    try:
        svc = w.fairy.service
        ann = await svc.player("email", "ann@example.org", "Ann")
        c = await svc.challenge(ann.id, "chess", days=3)     # made on the web: no server's scope
        alice = w.member("Alice")
        i = w.interaction(alice)
        await run(commands.challenges, i)
        listed, offered = answers(i)
        assert listed["ephemeral"] is True and f"#{c.id} Ann" in listed["content"]
        assert offered["ephemeral"] is True
        assert "Accept" in [b.label for b in offered["view"].children]
    finally:
        await w.fairy.service.close()
