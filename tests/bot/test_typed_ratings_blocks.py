"""The grammar's ratings, challenge ... casual, block and unblock, run by commands_text for
any adapter that reads typed lines (here in plain text)."""

from __future__ import annotations

import pytest

from bot.commands import run as commands_text
from bot.delivery import events as ev
from bot.domain.errors import ChallengeError
from bot.operations.glicko import Rating, rate_game
from bot.words.grammar import parse
from bot.words.text import PLAIN


@pytest.fixture
async def typing(engine, opener, notifier):
    svc = await opener()
    alice, bob = await svc.player("test", "a", "Alice"), await svc.player("test", "b", "Bob")
    people = {"alice": alice, "bob": bob}

    async def find(who: str):
        return people.get(who.casefold())

    async def types(player, line: str, game_id: int | None = None):
        ctx = commands_text.Context(svc, player, PLAIN, game_id, find_player=find)
        return await commands_text.execute(parse(line, in_game=game_id is not None), ctx)
    return svc, alice, bob, types


async def test_a_casual_challenge_typed_and_ratings_typed(typing):
    svc, alice, bob, types = typing
    reply = await types(alice, "challenge chess bob days 3 casual")
    assert "· casual ·" in reply.text
    assert not (await svc.get_challenge(1)).rated
    listed = (await types(bob, "games")).text
    assert "#1 Alice challenges you to Chess, open until Mon 13 Jan 2025 12:00 UTC" in listed  # 7 days
    await types(alice, "challenge chess bob")
    game = await types(bob, "accept 2")
    assert game.game.rated
    await types(bob, "resign", game.game.id)
    won, lost = rate_game(Rating(), Rating(), 1.0 if game.game.white.id == alice.id else 0.0)
    alice_now = won if game.game.white.id == alice.id else lost
    r = await types(alice, "ratings", game.game.id)  # in a game: that game's
    assert r.text.splitlines()[0] == "Ratings, Chess:"
    assert f"Alice: Chess: {alice_now.shown()} (1 rated game)" in r.text.splitlines()


async def test_block_and_unblock_typed(typing, notifier):
    svc, alice, bob, types = typing
    assert (await types(bob, "block alice")).text == "You blocked Alice. Blocked: Alice."
    notifier.clear()
    with pytest.raises(ChallengeError, match="you cannot challenge this player"):
        await types(alice, "challenge chess bob")
    assert notifier.of(ev.ChallengeReceived) == []
    assert (await types(bob, "unblock alice")).text == "You unblocked Alice. Blocked: no one."
    await types(alice, "challenge chess bob")
    assert len(notifier.of(ev.ChallengeReceived, bob.id)) == 1
