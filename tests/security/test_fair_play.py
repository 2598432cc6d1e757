"""Issue #40 item 4: no engine help in a game between people while it is on — the service's
rule (bot/operations/fair_play.py), the web's eval.json through it; the server owner's
``allow_engine_in_casual`` opens it in casual games only."""

from __future__ import annotations

import pytest

from bot.config import Settings
from bot.identity import page_tokens as tokens
from bot.identity.players import COMPUTER
from bot.operations.fair_play import EngineHelpRefused
from bot.web.server import EVALUATOR

from .conftest import SECRET, open_service, web_client

# White to move: Qxf7# is mate in 1
SCHOLAR = ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6"]


async def play(svc, white, black, moves, *, rated=None):
    kw = {} if rated is None else {"rated": rated}
    ch = await svc.challenge(white.id, "chess", opponent_id=black.id, days=3, colour="white", **kw)
    view = await svc.accept_challenge(ch.id, black.id)
    for i, text in enumerate(moves):
        view = (await svc.move(view.id, (white if i % 2 == 0 else black).id, text)).game
    return view


async def people(svc):
    return await svc.player("test", "w", "White"), await svc.player("test", "b", "Black")


def own_link(game_id: int, side: str = "w") -> str:
    return f"/g/{game_id}/{tokens.sign_side(SECRET, game_id, side)}/eval.json"


async def test_whites_own_link_gets_no_mate_in_a_live_game_between_people(svc, client):
    client.server.app[EVALUATOR].seconds = 0.2
    white, black = await people(svc)
    view = await play(svc, white, black, SCHOLAR)
    for link in (own_link(view.id), own_link(view.id, "b"),
                 f"/g/{view.id}/{tokens.sign(SECRET, view.id)}/eval.json"):   # a watcher's too
        r = await client.get(link)
        body = await r.text()
        assert r.status == 403, body
        assert "between people" in body and "Qxf7" not in body
    assert client.server.app[EVALUATOR].searches == 0   # refused before any search
    # once the game is over, the same link gets the computer's view
    await svc.resign(view.id, black.id)
    r = await client.get(own_link(view.id))
    got = await r.json()
    assert r.status == 200 and got["pv"][0] == "Qxf7#" and got["text"].startswith("mate in 1")


async def test_allowed_against_the_computer(svc, client):
    client.server.app[EVALUATOR].seconds = 0.2
    white = await svc.player("test", "w", "White")
    cpu = await svc.player(COMPUTER, "level-1", "Computer")
    view = await play(svc, white, cpu, SCHOLAR)
    assert view.status == "active"
    r = await client.get(own_link(view.id))
    assert r.status == 200 and (await r.json())["pv"][0] == "Qxf7#"


@pytest.mark.parametrize("allowed", [False, True])
async def test_casual_games_only_with_the_owners_setting(tmp_path, allowed):
    svc = await open_service(tmp_path, allow_engine_in_casual=allowed)
    client = await web_client(svc)
    try:
        client.server.app[EVALUATOR].seconds = 0.2
        white, black = await people(svc)
        casual = await play(svc, white, black, SCHOLAR, rated=False)
        rated = await play(svc, white, black, SCHOLAR, rated=True)
        r = await client.get(own_link(casual.id))
        assert r.status == (200 if allowed else 403), await r.text()
        if allowed:
            assert (await r.json())["pv"][0] == "Qxf7#"
        r = await client.get(own_link(rated.id))   # a rated game: never
        assert r.status == 403
        # a tournament's game, even unrated: never
        t = await svc.create_tournament("chess", name="Cup", format="round-robin", days=3)
        for p in (white, black):
            await svc.join_tournament(t.id, p.id)
        t = await svc.start_tournament(t.id)
        game_id = next(p.game_id for p in t.pairings if p.game_id is not None)
        assert not (await svc.game(game_id)).rated
        r = await client.get(own_link(game_id))
        assert r.status == 403
        with pytest.raises(EngineHelpRefused):
            await svc.check_engine_help(await svc.game(game_id))
    finally:
        await client.close()
        await svc.close()


def test_the_setting_by_name():
    assert Settings.load(env={"FAIRYPOST_ALLOW_ENGINE_IN_CASUAL": "1"}).allow_engine_in_casual is True
    assert Settings().allow_engine_in_casual is False
    from bot.config import ConfigError
    with pytest.raises(ConfigError):
        Settings(allow_engine_in_casual="yes")
