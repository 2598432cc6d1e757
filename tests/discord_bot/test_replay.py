"""/replay: a game as an animated GIF, seen from the asking player's side, for those who
may see the game."""
from __future__ import annotations

import rules
from bot.discord_bot import commands
from render.replay import replay_gif

from .conftest import run, start_game
from .helpers import last_answer
from .test_access import NOT_HERE, elsewhere

MATE = ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]


async def test_replay_from_each_players_side_and_not_for_outsiders_elsewhere(world):
    w = world
    gv, thread = await start_game(w)
    for i, san in enumerate(MATE):
        await w.fairy.service.move(gv.id, (gv.white if i % 2 == 0 else gv.black).id, san)
    start = rules.start("chess")
    for who, flip in ((w.alice, False), (w.bob, True)):
        i = w.interaction(who, channel=thread)
        await run(commands.replay, i)
        answer = last_answer(i)
        assert answer["content"] == f"Game #{gv.id}, 7 moves."
        assert answer["file"].filename == f"fairypost-game-{gv.id}.gif"
        data = answer["file"].fp.read()
        # the same drawing as the renderer's from that side, the stored result on the last frame
        assert data == replay_gif(start, MATE, flip=flip)
        assert data != replay_gif(start, MATE, flip=not flip)
    carol = w.member("Carol")
    i = w.interaction(carol, channel=elsewhere(w))
    await run(commands.replay, i, game=gv.id)
    assert last_answer(i)["content"] == NOT_HERE and "file" not in last_answer(i)


def test_replay_is_a_command_described_within_discords_limits():
    assert commands.replay in commands.COMMANDS
    assert 1 <= len(commands.replay.description) <= 100
