"""The board caption during Super Chess's set-up says what to choose, and for the
facing, whose side N is on (issue 15, item 3): the rules' own wording."""

from __future__ import annotations

import asyncio

from bot.config import Settings
from bot.discord_bot import format
from bot.operations.service import GameService
from rules.hooks.superchess import FACING_NOTE


def test_the_caption_asks_for_the_facing_with_the_note(tmp_path):
    async def scenario():
        svc = await GameService.open(Settings(db_path=str(tmp_path / "g.db")))
        try:
            a = await svc.player("discord", "1", "Ann")
            b = await svc.player("discord", "2", "Bob")
            c = await svc.challenge(a.id, "superchess", opponent_id=b.id, colour="white",
                                    setup="players")
            v = await svc.accept_challenge(c.id, b.id)
            first = format.board_caption(v)
            for who, text in ((a, "ef"), (b, "ef")):
                v = (await svc.move(v.id, who.id, text, expected_ply=v.ply)).game
            facing = format.board_caption(v)
            v = (await svc.move(v.id, a.id, "forward", expected_ply=v.ply)).game
            v = (await svc.move(v.id, b.id, "back-right", expected_ply=v.ply)).game
            return first, facing, format.board_caption(v), v
        finally:
            await svc.close()

    first, facing, after, view = asyncio.run(scenario())
    assert "Set-up: choose the files of the two Super Pawns on rank 2" in first
    assert "Set-up: choose the way the Cyclops faces: N, NE, E, SE, S, SW, W, NW or the words " \
           "forward, forward-right" in facing
    assert facing.endswith(FACING_NOTE)
    assert "Set-up" not in after  # the game is under way
    assert "C(N)" in view.fen and "c(SE)" in view.fen


def test_the_set_up_caption_is_in_the_readers_language(tmp_path):
    """Before: the rules' set-up hint stayed English in a French caption."""
    from bot.words.text import DISCORD
    from tests.language.leaks import english_left

    async def scenario():
        svc = await GameService.open(Settings(db_path=str(tmp_path / "g.db")))
        try:
            a = await svc.player("discord", "1", "Ann")
            b = await svc.player("discord", "2", "Bob")
            c = await svc.challenge(a.id, "superchess", opponent_id=b.id, colour="white",
                                    setup="players")
            return await svc.accept_challenge(c.id, b.id)
        finally:
            await svc.close()

    v = asyncio.run(scenario())
    fr = format.board_caption(v, m=DISCORD.in_language("fr"))
    line = next(x for x in fr.splitlines() if "Set-up" in x or "Mise en place" in x or "choisi" in x.lower())
    assert "files" not in line, line
    assert english_left(line, "fr", own=["Ann", "Bob"]) == [], line
