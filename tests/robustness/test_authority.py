"""Players who should not be able to act (issue #12, part 5).

A user who is not in a game cannot move, resign, abort, offer, accept or decline a draw,
or ask for, accept or decline a takeback in it; a player cannot accept their own
challenge, answer one meant for someone else, move for the opponent, or accept their
own offers; a finished game (mate, resignation, agreement, abort, time) accepts nothing.
Every refusal is the service's own error with a message that says why, and changes
nothing: every row of every table, and the notices sent, are as they were.
"""
from __future__ import annotations

from datetime import timedelta

import pytest

from bot.domain.errors import (
    AbortError,
    ChallengeError,
    DrawError,
    GameChanged,
    GameOver,
    IllegalMove,
    NotAPlayer,
    NotFound,
    NotYourTurn,
    ServiceError,
    TakebackError,
)

from .helpers import Unchanged, new_game

GAME_COMMANDS = ("move", "setup_action", "resign", "abort", "offer_draw", "accept_draw",
                 "decline_draw", "ask_takeback", "accept_takeback", "decline_takeback")


async def call(svc, command: str, game_id: int, player_id: int, **kw):
    fn = getattr(svc, command)
    if command == "move":
        return await fn(game_id, player_id, kw.pop("text", "e5"), **kw)
    if command == "setup_action":
        return await fn(game_id, player_id, kw.pop("text", "S@e2,S@f2"), **kw)
    return await fn(game_id, player_id, **kw)


async def refused(svc, notifier, error, match, command, *args, **kw):
    async with Unchanged(svc, notifier):
        with pytest.raises(error, match=match) as info:
            await call(svc, command, *args, **kw) if isinstance(command, str) else await command(*args, **kw)
    assert isinstance(info.value, ServiceError) and str(info.value).strip()
    return info.value


@pytest.fixture
async def busy_game(svc, people):
    """Alice (White) played e4, asked to take it back and offered a draw: Bob to move."""
    alice, bob, _carol = people
    g = await new_game(svc, alice, bob)
    await svc.move(g.id, alice.id, "e4")
    await svc.ask_takeback(g.id, alice.id)
    g = await svc.offer_draw(g.id, alice.id)
    assert g.takeback_by == "w" and g.draw_offer == "w" and g.turn == "b"
    return g


@pytest.mark.parametrize("command", GAME_COMMANDS)
async def test_an_outsider_can_do_nothing_in_a_game(svc, notifier, people, busy_game, command):
    _alice, _bob, carol = people
    err = await refused(svc, notifier, NotAPlayer, "not a player in this game", command, busy_game.id, carol.id)
    assert str(err) == "you are not a player in this game"


@pytest.mark.parametrize("command", GAME_COMMANDS)
async def test_an_outsider_is_refused_with_the_right_ply_too(svc, notifier, people, busy_game, command):
    """Knowing the position (expected_ply) gives no authority."""
    _alice, _bob, carol = people
    await refused(svc, notifier, NotAPlayer, "not a player", command, busy_game.id, carol.id,
                  expected_ply=busy_game.ply)


@pytest.mark.parametrize("command", GAME_COMMANDS)
async def test_nobody_can_act_in_a_game_that_does_not_exist(svc, notifier, people, busy_game, command):
    alice, *_ = people
    await refused(svc, notifier, NotFound, "no game #999", command, 999, alice.id)


async def test_a_player_cannot_move_for_the_opponent(svc, notifier, people):
    alice, bob, _carol = people
    g = await new_game(svc, alice, bob)
    await refused(svc, notifier, NotYourTurn, "not your turn: Alice is to move", "move", g.id, bob.id, text="e5")
    # on White's turn, White names a Black piece's move
    await refused(svc, notifier, IllegalMove, "e7 is Black's; it is White's move", "move", g.id, alice.id,
                  text="e7e5")
    await svc.move(g.id, alice.id, "e4")
    await refused(svc, notifier, NotYourTurn, "Bob is to move", "move", g.id, alice.id, text="d4")
    await refused(svc, notifier, NotYourTurn, "not your turn", "move", g.id, alice.id, text="e7e5")


async def test_a_player_cannot_answer_their_own_offers(svc, notifier, people, busy_game):
    alice, bob, _carol = people
    gid = busy_game.id
    await refused(svc, notifier, DrawError, "no draw offer from your opponent to accept", "accept_draw", gid, alice.id)
    await refused(svc, notifier, DrawError, "no draw offer from your opponent to decline", "decline_draw",
                  gid, alice.id)
    await refused(svc, notifier, DrawError, "already offered a draw", "offer_draw", gid, alice.id)
    await refused(svc, notifier, TakebackError, "no takeback request from your opponent", "accept_takeback",
                  gid, alice.id)
    await refused(svc, notifier, TakebackError, "no takeback request from your opponent", "decline_takeback",
                  gid, alice.id)
    await refused(svc, notifier, TakebackError, "already asked", "ask_takeback", gid, alice.id)
    # Bob cannot take back Alice's move
    await refused(svc, notifier, TakebackError, "only take back your own last move", "ask_takeback", gid, bob.id)


async def test_a_stale_board_is_refused(svc, notifier, people, busy_game):
    _alice, bob, _carol = people
    for command in ("move", "resign", "accept_draw", "accept_takeback"):
        await refused(svc, notifier, GameChanged, "the game changed, look again", command, busy_game.id,
                      bob.id, expected_ply=0)


async def test_challenges_answer_only_to_whom_they_concern(svc, notifier, people):
    alice, bob, carol = people
    direct = await svc.challenge(alice.id, "chess", opponent_id=bob.id)
    open_ = await svc.challenge(alice.id, "gigachess2")
    await refused(svc, notifier, ChallengeError, "cannot accept your own challenge",
                  svc.accept_challenge, direct.id, alice.id)
    await refused(svc, notifier, ChallengeError, "cannot accept your own challenge",
                  svc.accept_challenge, open_.id, alice.id)
    await refused(svc, notifier, ChallengeError, "for someone else", svc.accept_challenge, direct.id, carol.id)
    await refused(svc, notifier, ChallengeError, "only the challenged player can decline",
                  svc.decline_challenge, direct.id, carol.id)
    await refused(svc, notifier, ChallengeError, "only the challenged player can decline",
                  svc.decline_challenge, direct.id, alice.id)
    await refused(svc, notifier, ChallengeError, "open challenge cannot be declined",
                  svc.decline_challenge, open_.id, bob.id)
    await refused(svc, notifier, ChallengeError, "only the challenger can cancel",
                  svc.cancel_challenge, direct.id, bob.id)
    await refused(svc, notifier, ChallengeError, "cannot challenge yourself",
                  svc.challenge, alice.id, "chess", opponent_id=alice.id)
    await refused(svc, notifier, NotFound, "no player #99", svc.accept_challenge, direct.id, 99)
    await refused(svc, notifier, NotFound, "no challenge #99", svc.accept_challenge, 99, bob.id)
    # once answered, it is closed to everyone, its answerer included
    await svc.accept_challenge(direct.id, bob.id)
    for who in (alice, bob, carol):
        await refused(svc, notifier, ChallengeError, "no longer open", svc.accept_challenge, direct.id, who.id)
    await refused(svc, notifier, ChallengeError, "no longer open", svc.cancel_challenge, direct.id, alice.id)


async def _mate(svc, g, alice, bob):
    for i, m in enumerate(["f3", "e5", "g4", "Qh4#"]):
        r = await svc.move(g.id, (alice, bob)[i % 2].id, m)
    assert r.outcome == ("0-1", "checkmate")


async def _resign(svc, g, alice, bob):
    await svc.resign(g.id, alice.id)


async def _agree(svc, g, alice, bob):
    await svc.offer_draw(g.id, alice.id)
    await svc.accept_draw(g.id, bob.id)


async def _abort(svc, g, alice, bob):
    await svc.abort(g.id, bob.id)


async def _time(svc, g, alice, bob, clock=None):
    svc.clock.advance(timedelta(days=4))
    report = await svc.sweep()
    assert report.games_timed_out == 1


@pytest.mark.parametrize("ending,message", [
    (_mate, "over: 0-1 \\(checkmate\\)"), (_resign, "over: 0-1 \\(resignation\\)"),
    (_agree, "over: 1/2-1/2 \\(agreement\\)"), (_abort, "was aborted"), (_time, "over: 0-1 \\(time\\)"),
])
async def test_a_finished_game_accepts_nothing(svc, notifier, people, ending, message):
    alice, bob, carol = people
    g = await new_game(svc, alice, bob)
    await ending(svc, g, alice, bob)
    view = await svc.game(g.id)
    assert view.status in ("finished", "aborted")
    assert await svc.legal_moves(g.id) == []
    for player in (alice, bob):
        for text in ("e4", "e5", "Nf3", "Nf6", "a3", "a6", "O-O"):
            await refused(svc, notifier, GameOver, message, "move", g.id, player.id, text=text)
        for command in ("resign", "offer_draw", "accept_draw", "decline_draw", "ask_takeback",
                        "accept_takeback", "decline_takeback"):
            await refused(svc, notifier, GameOver, message, command, g.id, player.id)
        await refused(svc, notifier, (GameOver, AbortError), "over|aborted|no longer", "abort", g.id, player.id)
    await refused(svc, notifier, NotAPlayer, "not a player", "move", g.id, carol.id)


async def test_refusals_over_a_whole_game(svc, notifier, people):
    """Along a real game, at every ply: the outsider, the player not to move and a move of
    the wrong side's piece are all refused, and nothing changes."""
    alice, bob, carol = people
    g = await new_game(svc, alice, bob, game="grandducal")
    moves = ["g2g4", "j8k6", "i1h3", "k6l5", "h3g5", "a7a6", "f1j5", "a6a5", "j5h7"]
    for i, m in enumerate(moves):
        mover, other = ((alice, bob), (bob, alice))[i % 2]
        await refused(svc, notifier, NotAPlayer, "not a player", "move", g.id, carol.id, text=m)
        await refused(svc, notifier, NotYourTurn, f"{mover.name} is to move", "move", g.id, other.id, text=m)
        await svc.move(g.id, mover.id, m)
    assert (await svc.game(g.id)).result == "1-0"
    await refused(svc, notifier, GameOver, "checkmate", "move", g.id, bob.id, text="a5a4")
