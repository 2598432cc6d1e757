"""People's spellings on the service path (issue #41 item 2): a typed line, from any front
end, is read by the one grammar (bot/words/grammar.py) and run by bot/commands/run.py
against the service, whose move goes to the engine's one reader (rules.spelling, then
rules.notation). Each spelling is played there as the move it writes; two moves on one
line are refused as two and change nothing; ``Accept.``, ``accept!``, ``Yes, accept`` take
the challenge. A real SQLite file and the real engine."""

from __future__ import annotations

import random

import pytest

from bot.commands.run import Context, execute
from bot.domain.errors import IllegalMove
from bot.operations.service import GameService
from bot.words.grammar import GrammarError, parse
from bot.words.text import PLAIN


@pytest.fixture
async def service(settings, clock, notifier):
    s = await GameService.open(settings, clock=clock, notifier=notifier, rng=random.Random(1))
    yield s
    await s.close()


async def _players(service):
    return (await service.player("test", "ann", "Ann"), await service.player("test", "bob", "Bob"))


async def _game(service, white, black):
    c = await service.challenge(white.id, "chess", opponent_id=black.id, days=3, colour="white")
    return await service.accept_challenge(c.id, black.id)


# (White's line, Black's line, the moves they play)
LINES = [
    ("b4.", "Nf6!", ["b4", "Nf6"]),
    ("e4?!", "*e5*", ["e4", "e5"]),
    ("1. e4", "1... e5", ["e4", "e5"]),
    ("1.e4", "1\u2026 Nf6", ["e4", "Nf6"]),
    ("_d4_", "**d5**", ["d4", "d5"]),
    ("e2\u2013e4", "e7\u2014e5", ["e4", "e5"]),
    ("e2 \u2013 e4", "move 1... e5.", ["e4", "e5"]),
    ("m *Nf3*", "Yes, d5", None),  # "Yes, d5" is no move: refused, nothing played for Black
]


@pytest.mark.parametrize("white_line, black_line, sans", LINES)
async def test_each_spelling_is_played_as_its_move(service, white_line, black_line, sans):
    ann, bob = await _players(service)
    g = await _game(service, ann, bob)
    await execute(parse(white_line), Context(service, ann, PLAIN, g.id))
    if sans is None:
        with pytest.raises(IllegalMove):
            await execute(parse(black_line), Context(service, bob, PLAIN, g.id))
        assert [m.san for m in (await service.game(g.id)).moves] == ["Nf3"]
        return
    await execute(parse(black_line), Context(service, bob, PLAIN, g.id))
    assert [m.san for m in (await service.game(g.id)).moves] == sans


async def test_captures_with_a_colon_or_a_times_sign(service):
    ann, bob = await _players(service)
    for capture in ("B:c6", "B\u00d7c6", "Bxc6"):
        g = await _game(service, ann, bob)
        for who, line in ((ann, "e4"), (bob, "e5"), (ann, "Nf3"), (bob, "Nc6"), (ann, "Bb5"), (bob, "a6"),
                          (ann, capture)):
            await execute(parse(line), Context(service, who, PLAIN, g.id))
        assert (await service.game(g.id)).moves[-1].san == "Bxc6", capture


@pytest.mark.parametrize("line, words", [("e4 e5", "e4 and e5"), ("1. e4 e5", "e4 and e5"),
                                         ("move e4 e5", "e4 and e5")])
async def test_two_moves_on_a_line_are_refused_as_two_and_nothing_is_played(service, line, words):
    ann, bob = await _players(service)
    g = await _game(service, ann, bob)
    with pytest.raises(IllegalMove) as err:
        await execute(parse(line), Context(service, ann, PLAIN, g.id))
    assert f"one move at a time: I read {words}" in str(err.value)
    assert (await service.game(g.id)).ply == 0


@pytest.mark.parametrize("line", ["Accept.", "accept!", "Yes, accept", "*accept*", "ok, accept.", "Accept 1."])
async def test_a_challenge_is_accepted_as_people_write_it(service, line):
    ann, bob = await _players(service)
    c = await service.challenge(ann.id, "chess", opponent_id=bob.id, days=3, colour="white")
    assert c.id == 1
    reply = await execute(parse(line, in_game=False), Context(service, bob, PLAIN))
    assert reply.changed and "The game begins." in reply.text, reply.text
    assert [g.id for g in await service.list_games(bob.id)] == [reply.game.id]
    assert await service.list_challenges(bob.id) == []


def test_a_no_before_a_command_is_not_taken_off():
    """Only a yes (ok, sure, please) goes before a command: "no, accept" is not an accept."""
    for line in ("no, accept", "No accept", "not accept"):
        with pytest.raises(GrammarError):
            parse(line, in_game=False)
        assert parse(line).name == "move"  # in a game: a text for the engine, which refuses it


@pytest.mark.parametrize("line", ["Decline.", "decline!", "Yes, decline"])
async def test_a_challenge_is_declined_as_people_write_it(service, line):
    ann, bob = await _players(service)
    await service.challenge(ann.id, "chess", opponent_id=bob.id, days=3, colour="white")
    reply = await execute(parse(line, in_game=False), Context(service, bob, PLAIN))
    assert reply.text.startswith("You declined challenge #1"), reply.text
