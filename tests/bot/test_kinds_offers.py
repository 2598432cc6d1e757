"""The typed side, status and outcome; one template for every game command; one
mechanism for every kind of offer (on the stand-in game, see fake_rules)."""

import pytest

from bot.delivery import events as ev
from bot.delivery.events import ref
from bot.domain.errors import DrawError, GameChanged, GameOver, NotAPlayer, RateLimited
from bot.domain.kinds import ChallengeStatus, GameStatus, Outcome, Side
from bot.operations.offers import DRAW, TAKEBACK, Offer, lapsed, standing_offers

from .conftest import new_game

pytestmark = pytest.mark.contract  # on every database back end (backends.py)

# every game command, as (name, call); each takes expected_ply=
GAME_COMMANDS = [
    ("move", lambda svc, g, p, **kw: svc.move(g, p, "a1", **kw)),
    ("setup_action", lambda svc, g, p, **kw: svc.setup_action(g, p, "a1", **kw)),
    ("resign", lambda svc, g, p, **kw: svc.resign(g, p, **kw)),
    ("abort", lambda svc, g, p, **kw: svc.abort(g, p, **kw)),
    ("offer_draw", lambda svc, g, p, **kw: svc.offer_draw(g, p, **kw)),
    ("accept_draw", lambda svc, g, p, **kw: svc.accept_draw(g, p, **kw)),
    ("decline_draw", lambda svc, g, p, **kw: svc.decline_draw(g, p, **kw)),
    ("ask_takeback", lambda svc, g, p, **kw: svc.ask_takeback(g, p, **kw)),
    ("accept_takeback", lambda svc, g, p, **kw: svc.accept_takeback(g, p, **kw)),
    ("decline_takeback", lambda svc, g, p, **kw: svc.decline_takeback(g, p, **kw)),
]


def test_outcome_knows_its_winner_and_equals_the_pair_it_replaces():
    assert Outcome.loss(Side.WHITE, "time") == Outcome("0-1", "time")
    assert Outcome.loss("b", "resignation").winner is Side.WHITE
    assert Outcome.win(Side.BLACK, "checkmate").winner is Side.BLACK
    assert Outcome.draw("agreement").winner is None and Outcome.aborted().winner is None
    assert Outcome("1-0", "checkmate") == ("1-0", "checkmate")
    assert Outcome("1-0", "checkmate") != ("0-1", "checkmate")
    result, reason = Outcome.draw("stalemate")
    assert (result, reason) == ("1/2-1/2", "stalemate")
    assert len({Outcome.draw("x"), Outcome("1/2-1/2", "x")}) == 1
    with pytest.raises(ValueError, match="not a game result"):
        Outcome("2-0", "checkmate")


def test_side_and_status_are_their_stored_strings():
    assert Side.WHITE == "w" and Side("b") is Side.BLACK and Side.WHITE.other is Side.BLACK
    assert f"{Side.BLACK}" == "b" and str(Side.WHITE) == "w"
    assert GameStatus("aborted") is GameStatus.ABORTED and GameStatus.ACTIVE == "active"


async def test_results_carry_the_types(svc, alice, bob):
    c = await svc.challenge(alice.id, "fake", opponent_id=bob.id, days=3, colour="white")
    assert c.status is ChallengeStatus.OPEN
    g = await svc.accept_challenge(c.id, bob.id)
    assert (g.status, g.turn, g.side_of(bob.id), g.outcome) == (
        GameStatus.ACTIVE, Side.WHITE, Side.BLACK, None)
    r = await svc.move(g.id, alice.id, "a1")
    assert r.game.turn is Side.BLACK and r.game.moves[0].side is Side.WHITE and r.outcome is None
    await svc.offer_draw(g.id, bob.id)
    r = await svc.move(g.id, bob.id, "mate")
    assert isinstance(r.outcome, Outcome) and r.outcome.winner is Side.BLACK
    assert r.game.status is GameStatus.FINISHED and r.game.outcome == Outcome("0-1", "checkmate")
    assert r.game.draw_offer is None
    (summary,) = await svc.list_games(alice.id, include_finished=True)
    assert (summary.my_side, summary.status, summary.outcome.winner) == (
        Side.WHITE, GameStatus.FINISHED, Side.BLACK)


@pytest.mark.parametrize("name,command", GAME_COMMANDS, ids=[n for n, _ in GAME_COMMANDS])
async def test_every_game_command_has_the_same_refusals(svc, alice, bob, carol, clock, name, command):
    """The template: a stale board, a stranger and a finished game are refused before the
    command looks further, and change nothing."""
    g = await new_game(svc, alice, bob)
    await svc.move(g.id, alice.id, "a1")
    before = await svc.game(g.id)
    with pytest.raises(GameChanged):
        await command(svc, g.id, alice.id, expected_ply=0)
    with pytest.raises(NotAPlayer):
        await command(svc, g.id, carol.id, expected_ply=1)
    assert await svc.game(g.id) == before
    await svc.resign(g.id, bob.id)
    with pytest.raises(GameOver, match="0-1|1-0"):
        await command(svc, g.id, alice.id)


async def test_a_game_command_is_rate_limited_before_it_reads(opener, fake_engine, settings):
    from dataclasses import replace
    svc = await opener(settings=replace(settings, command_rate_per_minute=1, command_burst=1))
    a, b = await svc.player("test", "a", "A"), await svc.player("test", "b", "B")
    g = await new_game(svc, a, b)  # a's one command: the challenge
    with pytest.raises(RateLimited):
        await svc.resign(g.id, a.id)
    assert (await svc.game(g.id)).status is GameStatus.ACTIVE


def test_offers_lapse_by_their_own_rule():
    class Game:
        draw_offer, takeback_by = "w", "b"
    assert standing_offers(Game) == {"draw_offer": "w", "takeback_by": "b"}
    assert lapsed(standing_offers(Game), Side.WHITE) == {"draw_offer": None, "takeback_by": None}
    # a draw offer stands until its maker moves; a takeback request lapses with any move
    assert lapsed(standing_offers(Game), Side.BLACK) == {"takeback_by": None}
    assert DRAW.standing(Game) is Side.WHITE and TAKEBACK.standing(Game) is Side.BLACK


# A third kind in a few lines: an abort both players agree to, at any ply (a test-only
# kind; it keeps its standing offer in the draw offer's column).
MUTUAL_ABORT = Offer(
    column="draw_offer",
    error=DrawError,
    already_made="you have already proposed to abort",
    nothing_to_answer="there is no proposal to abort to {verb}",
    offered=lambda cmd: ev.DrawOffered(game_id=cmd.game.id, game=cmd.game.game,
                                       by=ref(cmd.player(cmd.side))),
    declined=lambda cmd: ev.DrawDeclined(game_id=cmd.game.id, game=cmd.game.game,
                                         by=ref(cmd.player(cmd.side))),
    accept=lambda cmd, tx, _: cmd.finish(tx, Outcome.aborted()),
)


async def test_a_third_kind_of_offer_needs_only_its_description(svc, alice, bob, notifier):
    g = await new_game(svc, alice, bob)
    for move, player in (("a1", alice), ("b2", bob), ("c3", alice)):
        await svc.move(g.id, player.id, move)
    v = await svc._make_offer(MUTUAL_ABORT, g.id, bob.id, None)
    assert v.draw_offer is Side.BLACK
    assert [e.recipient.id for e in notifier.of(ev.DrawOffered)] == [alice.id]
    with pytest.raises(DrawError, match="already proposed"):
        await svc._make_offer(MUTUAL_ABORT, g.id, bob.id, None)
    with pytest.raises(DrawError, match="no proposal to abort to accept"):
        await svc._answer_offer(MUTUAL_ABORT, g.id, bob.id, True, None)
    v = await svc._answer_offer(MUTUAL_ABORT, g.id, alice.id, True, None)
    assert (v.status, v.outcome, v.draw_offer) == (GameStatus.ABORTED, Outcome.aborted(), None)
    assert {e.recipient.id for e in notifier.of(ev.GameOver)} == {alice.id, bob.id}
