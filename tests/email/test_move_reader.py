"""Mail reads moves with the engine's one reader (issue #29 item 1): a reply ``Bb4`` is
the Bishop, never the b-pawn; it is refused with the reason and nothing is played."""

from __future__ import annotations

from .servers import reply_to_mail, text_of
from .test_game_by_mail import start_game


async def test_a_mailed_bb4_is_never_the_b_pawn(bot, servers):
    game_id, side = await start_game(bot, servers)
    white, black = side["w"], side["b"]
    await servers.deliver(reply_to_mail(white, servers.last_to(white), "Bb4"))
    await bot.step()
    text = text_of(servers.last_to(white))
    assert "Nothing was played" in text and "No Bishop of yours can move to b4" in text, text
    assert (await bot.service.game(game_id)).ply == 0
    for mover, move in ((white, "e4"), (black, "e5"), (white, "Bb5")):
        await servers.deliver(reply_to_mail(mover, servers.last_to(mover), move))
        await bot.step()
    assert [m.san for m in (await bot.service.game(game_id)).moves] == ["e4", "e5", "Bb5"]
