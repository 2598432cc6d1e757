"""Every operation of the service and its refusals (on the stand-in game, see fake_rules)."""

import pytest

from bot.delivery import events as ev
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
    SettingsError,
    TakebackError,
)

from .conftest import new_game

pytestmark = pytest.mark.contract  # on every database back end (backends.py)


async def test_players_are_created_once_and_renamed(svc):
    a = await svc.player("discord", "42", "Alice")
    again = await svc.player("discord", 42)
    assert again.id == a.id and again.name == "Alice"
    renamed = await svc.player("discord", "42", "Alicia")
    assert (renamed.id, renamed.name) == (a.id, "Alicia")
    other = await svc.player("email", "42", "Alice by mail")
    assert other.id != a.id
    assert (await svc.get_player(a.id)).name == "Alicia"
    with pytest.raises(NotFound):
        await svc.get_player(999)
    with pytest.raises(SettingsError):
        await svc.player("", "1")


async def test_settings(svc, alice):
    s = await svc.update_settings(alice.id, timezone="Europe/Paris", quiet_hours=("22:00", "07:30"),
                                  digest_time="08:00")
    assert (s.timezone, s.quiet_start, s.quiet_end, s.digest_time) == ("Europe/Paris", "22:00", "07:30", "08:00")
    assert (await svc.get_player(alice.id)).settings == s
    s = await svc.update_settings(alice.id, quiet_hours=None)
    assert (s.quiet_start, s.timezone, s.digest_time) == (None, "Europe/Paris", "08:00")
    for bad in ({"timezone": "Mars/Olympus"}, {"quiet_hours": ("22:00", "25:00")},
                {"quiet_hours": "22-7"}, {"digest_time": "noon"}):
        with pytest.raises(SettingsError):
            await svc.update_settings(alice.id, **bad)
    assert (await svc.get_player(alice.id)).settings == s


async def test_challenge_a_player_and_accept(svc, alice, bob, notifier):
    c = await svc.challenge(alice.id, "fake", opponent_id=bob.id, days=5, colour="black")
    assert (c.status, c.days, c.colour, c.opponent.id, c.setup) == ("open", 5, "black", bob.id, "default")
    (got,) = notifier.of(ev.ChallengeReceived)
    assert (got.recipient.id, got.challenger.name, got.open, got.days) == (bob.id, "Alice", False, 5)
    assert [x.id for x in await svc.list_challenges(bob.id)] == [c.id]
    g = await svc.accept_challenge(c.id, bob.id)
    assert ((g.white.id, g.black.id, g.status, g.ply, g.turn, g.to_move.id)
            == (bob.id, alice.id, "active", 0, "w", bob.id))
    assert g.days == 5 and g.seconds_left == 5 * 86400
    assert {e.recipient.id for e in notifier.of(ev.GameStarted)} == {alice.id, bob.id}
    # White is told at once, by the one notice that the game has begun
    assert {e.recipient.id for e in notifier.of(ev.GameStarted) if e.your_move} == {bob.id}
    assert notifier.of(ev.YourMove) == []
    assert (await svc.get_challenge(c.id)).game_id == g.id
    assert await svc.list_challenges(bob.id) == []


async def test_open_challenge_random_colour_no_clock(svc, alice, bob, carol, notifier):
    c = await svc.challenge(alice.id, "fake", days=None)
    (got,) = notifier.of(ev.ChallengeReceived)
    assert got.recipient is None and got.open
    assert [x.id for x in await svc.list_challenges(carol.id)] == [c.id]
    g = await svc.accept_challenge(c.id, carol.id)
    assert {g.white.id, g.black.id} == {alice.id, carol.id}
    assert g.deadline is None and g.days is None
    with pytest.raises(ChallengeError, match="no longer open"):
        await svc.accept_challenge(c.id, bob.id)


async def test_challenge_refusals(svc, alice, bob):
    with pytest.raises(ChallengeError, match="no game 'checkers'"):
        await svc.challenge(alice.id, "checkers", opponent_id=bob.id)
    with pytest.raises(ChallengeError, match="days per move"):
        await svc.challenge(alice.id, "fake", opponent_id=bob.id, days=4)
    with pytest.raises(ChallengeError, match="colour"):
        await svc.challenge(alice.id, "fake", opponent_id=bob.id, colour="green")
    with pytest.raises(ChallengeError, match="set-up"):
        await svc.challenge(alice.id, "fake", opponent_id=bob.id, setup="mine")
    with pytest.raises(ChallengeError, match="no set-up"):
        await svc.challenge(alice.id, "fake", opponent_id=bob.id, setup="players")
    with pytest.raises(ChallengeError, match="yourself"):
        await svc.challenge(alice.id, "fake", opponent_id=alice.id)
    with pytest.raises(NotFound):
        await svc.challenge(alice.id, "fake", opponent_id=999)
    with pytest.raises(NotFound):
        await svc.challenge(999, "fake")
    assert await svc.list_challenges() == []


async def test_accept_decline_cancel_refusals(svc, alice, bob, carol, notifier):
    c = await svc.challenge(alice.id, "fake", opponent_id=bob.id)
    with pytest.raises(ChallengeError, match="your own"):
        await svc.accept_challenge(c.id, alice.id)
    with pytest.raises(ChallengeError, match="someone else"):
        await svc.accept_challenge(c.id, carol.id)
    with pytest.raises(ChallengeError, match="only the challenged"):
        await svc.decline_challenge(c.id, carol.id)
    with pytest.raises(ChallengeError, match="only the challenger"):
        await svc.cancel_challenge(c.id, bob.id)
    with pytest.raises(NotFound):
        await svc.accept_challenge(999, bob.id)
    d = await svc.decline_challenge(c.id, bob.id)
    assert d.status == "declined"
    (closed,) = notifier.of(ev.ChallengeClosed)
    assert (closed.recipient.id, closed.how, closed.by.id) == (alice.id, "declined", bob.id)
    with pytest.raises(ChallengeError, match="no longer open"):
        await svc.accept_challenge(c.id, bob.id)
    with pytest.raises(ChallengeError, match="no longer open"):
        await svc.cancel_challenge(c.id, alice.id)
    o = await svc.challenge(alice.id, "fake")
    with pytest.raises(ChallengeError, match="cannot be declined"):
        await svc.decline_challenge(o.id, bob.id)
    assert (await svc.cancel_challenge(o.id, alice.id)).status == "cancelled"
    c2 = await svc.challenge(alice.id, "fake", opponent_id=bob.id)
    await svc.cancel_challenge(c2.id, alice.id)
    assert notifier.of(ev.ChallengeClosed)[-1].recipient.id == bob.id


async def test_moves_and_their_refusals(svc, alice, bob, carol, notifier):
    g = await new_game(svc, alice, bob)
    with pytest.raises(NotYourTurn, match="Alice is to move"):
        await svc.move(g.id, bob.id, "a1")
    with pytest.raises(NotAPlayer):
        await svc.move(g.id, carol.id, "a1")
    with pytest.raises(IllegalMove, match="'z9' is not a legal move"):
        await svc.move(g.id, alice.id, "z9")
    with pytest.raises(NotFound):
        await svc.move(999, alice.id, "a1")
    r = await svc.move(g.id, alice.id, " a1 ")
    assert (r.lan, r.san, r.outcome, r.game.ply, r.game.turn, r.game.to_move.id) == ("a1", "A1", None, 1, "b", bob.id)
    ym = notifier.of(ev.YourMove, bob.id)
    assert len(ym) == 1 and ym[0].last_move == "A1" and ym[0].ply == 1
    with pytest.raises(GameChanged, match="the game changed, look again"):
        await svc.move(g.id, bob.id, "b2", expected_ply=0)
    r = await svc.move(g.id, bob.id, "b2", expected_ply=1)
    assert [m.san for m in r.game.moves] == ["A1", "B2"]
    assert await svc.legal_moves(g.id) == sorted(["a1", "b2", "c3", "d4", "mate", "stale"])
    r = await svc.move(g.id, alice.id, "mate")
    assert r.outcome == ("1-0", "checkmate")
    assert (r.game.status, r.game.result, r.game.reason, r.game.to_move) == ("finished", "1-0", "checkmate", None)
    overs = notifier.of(ev.GameOver)
    assert {e.recipient.id for e in overs} == {alice.id, bob.id}
    assert overs[0].last_move == "MATE" and overs[0].result == "1-0"
    with pytest.raises(GameOver, match="1-0"):
        await svc.move(g.id, bob.id, "a1")
    assert await svc.legal_moves(g.id) == []


async def test_resign(svc, alice, bob, carol, notifier):
    g = await new_game(svc, alice, bob)
    with pytest.raises(NotAPlayer):
        await svc.resign(g.id, carol.id)
    with pytest.raises(GameChanged):
        await svc.resign(g.id, bob.id, expected_ply=3)
    v = await svc.resign(g.id, bob.id)  # not their turn: resigning is still allowed
    assert (v.status, v.result, v.reason) == ("finished", "1-0", "resignation")
    assert len(notifier.of(ev.GameOver)) == 2
    with pytest.raises(GameOver):
        await svc.resign(g.id, alice.id)


async def test_abort_only_before_both_have_moved(svc, alice, bob):
    g = await new_game(svc, alice, bob)
    v = await svc.abort(g.id, bob.id)
    assert (v.status, v.result, v.reason) == ("aborted", "*", "aborted")
    with pytest.raises(GameOver, match="aborted"):
        await svc.move(g.id, alice.id, "a1")
    g = await new_game(svc, alice, bob)
    await svc.move(g.id, alice.id, "a1")
    assert (await svc.abort(g.id, alice.id)).status == "aborted"
    g = await new_game(svc, alice, bob)
    await svc.move(g.id, alice.id, "a1")
    await svc.move(g.id, bob.id, "a1")
    with pytest.raises(AbortError, match="before both sides have moved"):
        await svc.abort(g.id, alice.id)


async def test_draw_offer_accept_decline(svc, alice, bob, carol, notifier):
    g = await new_game(svc, alice, bob)
    with pytest.raises(DrawError, match="no draw offer"):
        await svc.accept_draw(g.id, bob.id)
    with pytest.raises(DrawError, match="no draw offer"):
        await svc.decline_draw(g.id, bob.id)
    with pytest.raises(NotAPlayer):
        await svc.offer_draw(g.id, carol.id)
    v = await svc.offer_draw(g.id, alice.id)
    assert v.draw_offer == "w"
    (o,) = notifier.of(ev.DrawOffered)
    assert (o.recipient.id, o.by.id) == (bob.id, alice.id)
    with pytest.raises(DrawError, match="already offered"):
        await svc.offer_draw(g.id, alice.id)
    with pytest.raises(DrawError, match="no draw offer"):
        await svc.accept_draw(g.id, alice.id)  # one's own offer
    v = await svc.decline_draw(g.id, bob.id)
    assert v.draw_offer is None
    (d,) = notifier.of(ev.DrawDeclined)
    assert d.recipient.id == alice.id
    await svc.offer_draw(g.id, alice.id)
    v = await svc.accept_draw(g.id, bob.id)
    assert (v.status, v.result, v.reason) == ("finished", "1/2-1/2", "agreement")
    with pytest.raises(GameOver):
        await svc.offer_draw(g.id, alice.id)


async def test_draw_offer_lapses_when_its_maker_moves_only(svc, alice, bob):
    g = await new_game(svc, alice, bob)
    await svc.offer_draw(g.id, bob.id)  # Black offers while White is to move
    v = (await svc.move(g.id, alice.id, "a1")).game  # the other side moves: the offer stands
    assert v.draw_offer == "b"
    v = (await svc.move(g.id, bob.id, "b2")).game  # its maker moves: it lapses
    assert v.draw_offer is None
    with pytest.raises(DrawError):
        await svc.accept_draw(g.id, alice.id)
    # offering when the opponent's offer stands agrees to it
    await svc.offer_draw(g.id, alice.id)
    v = await svc.offer_draw(g.id, bob.id)
    assert (v.result, v.reason) == ("1/2-1/2", "agreement")


async def test_takeback(svc, alice, bob, clock, notifier):
    g = await new_game(svc, alice, bob)
    with pytest.raises(TakebackError, match="your own last move"):
        await svc.ask_takeback(g.id, alice.id)  # no move yet
    await svc.move(g.id, alice.id, "a1")
    with pytest.raises(TakebackError, match="your own last move"):
        await svc.ask_takeback(g.id, bob.id)  # not Bob's move
    with pytest.raises(TakebackError, match="no takeback request"):
        await svc.accept_takeback(g.id, bob.id)
    v = await svc.ask_takeback(g.id, alice.id)
    assert v.takeback_by == "w"
    (t,) = notifier.of(ev.TakebackAsked)
    assert (t.recipient.id, t.move) == (bob.id, "A1")
    with pytest.raises(TakebackError, match="already asked"):
        await svc.ask_takeback(g.id, alice.id)
    with pytest.raises(TakebackError, match="no takeback request"):
        await svc.accept_takeback(g.id, alice.id)  # one's own request
    v = await svc.decline_takeback(g.id, bob.id)
    assert v.takeback_by is None and v.ply == 1
    assert notifier.of(ev.TakebackAnswered)[-1].accepted is False
    await svc.ask_takeback(g.id, alice.id)
    clock.advance(hours=30)
    notifier.clear()
    v = await svc.accept_takeback(g.id, bob.id)
    assert (v.ply, v.turn, v.to_move.id, v.moves, v.takeback_by) == (0, "w", alice.id, (), None)
    assert v.fen == "- w - - 0 1"
    assert v.seconds_left == 3 * 86400  # the asker gets a full turn again
    assert notifier.of(ev.TakebackAnswered)[-1].accepted is True
    assert len(notifier.of(ev.YourMove, alice.id)) == 1
    r = await svc.move(g.id, alice.id, "c3")
    assert [m.lan for m in r.game.moves] == ["c3"]


async def test_takeback_request_lapses_when_the_opponent_replies(svc, alice, bob):
    g = await new_game(svc, alice, bob)
    await svc.move(g.id, alice.id, "a1")
    await svc.ask_takeback(g.id, alice.id)
    v = (await svc.move(g.id, bob.id, "b2")).game
    assert v.takeback_by is None
    with pytest.raises(TakebackError):
        await svc.accept_takeback(g.id, bob.id)


async def test_list_games_my_move_first_least_time_first(svc, alice, bob, carol, clock):
    g1 = await new_game(svc, alice, bob, days=7)     # Alice to move, 7 days
    g2 = await new_game(svc, alice, carol, days=1)   # Alice to move, 1 day
    g3 = await new_game(svc, bob, alice, days=2)     # Bob to move
    g4 = await new_game(svc, carol, alice, days=None)
    await svc.move(g4.id, carol.id, "a1")            # Alice to move, no clock
    g5 = await new_game(svc, alice, bob, days=3)
    await svc.resign(g5.id, alice.id)                 # finished
    clock.advance(hours=1)
    games = await svc.list_games(alice.id)
    assert [s.id for s in games] == [g2.id, g1.id, g4.id, g3.id]
    assert [s.my_move for s in games] == [True, True, True, False]
    assert games[0].seconds_left == 23 * 3600 and games[0].opponent.name == "Carol"
    assert games[2].seconds_left is None
    every = await svc.list_games(alice.id, include_finished=True)
    assert [s.id for s in every][-1] == g5.id and every[-1].result == "0-1"
    with pytest.raises(NotFound):
        await svc.list_games(999)


async def test_record_is_pgn_like(svc, alice, bob):
    g = await new_game(svc, alice, bob, days=3)
    for who, m in [(alice, "a1"), (bob, "b2"), (alice, "c3"), (bob, "d4"), (alice, "mate")]:
        await svc.move(g.id, who.id, m)
    text = await svc.record(g.id)
    head, moves = text.split("\n\n")
    assert '[White "Alice"]' in head and '[Black "Bob"]' in head
    assert '[Result "1-0"]' in head and '[Date "2025.01.06"]' in head
    assert '[Variant "fake"]' in head and '[FEN "- w - - 0 1"]' in head
    assert '[TimeControl "1/259200"]' in head and '[Termination "checkmate"]' in head
    assert moves.strip() == "1. A1 B2 2. C3 D4 3. MATE 1-0"


async def test_record_of_a_game_in_progress_and_quotes(svc, alice):
    bob = await svc.player("test", "q", 'Bob "the Rook"')
    g = await new_game(svc, bob, alice, days=None)
    await svc.move(g.id, bob.id, "a1")
    await svc.move(g.id, alice.id, "b2")
    await svc.move(g.id, bob.id, "c3")
    text = await svc.record(g.id)
    assert r'[White "Bob \"the Rook\""]' in text
    assert '[Result "*"]' in text and '[TimeControl "-"]' in text
    assert text.strip().endswith("1. A1 B2 2. C3 *")
