"""Conditional moves through the service, with the real rules engine: lines checked when
left, answers played in the opponent's move's transaction, dropped lines told; move
confirmation's setting; the next game."""

import asyncio

import pytest

from bot.delivery import events as ev
from bot.domain.errors import GameChanged, NotYourTurn, PremoveError, SettingsError
from bot.store import Tx

from .conftest import new_game

pytestmark = pytest.mark.contract  # on every database back end (backends.py)


@pytest.fixture
async def real(opener, engine, notifier):
    svc = await opener()
    alice = await svc.player("test", "a", "Alice")
    bob = await svc.player("test", "b", "Bob")
    return svc, alice, bob, notifier


async def after_e4(svc, alice, bob):
    g = await new_game(svc, alice, bob, game="chess")
    await svc.move(g.id, alice.id, "e4")
    return g.id


async def test_lines_are_checked_shown_to_their_owner_only_and_merged(real):
    svc, alice, bob, _ = real
    gid = await after_e4(svc, alice, bob)
    lines = await svc.set_premoves(gid, alice.id, "e7e5 Ng1-f3; 1... c5 2. Nf3 Nc6 d4; c5 Nf3 d6 d4")
    # any notation is one move (LAN, from-to), shown in SAN; shared beginnings merge
    assert lines.text() == "e5 Nf3; c5 Nf3 Nc6 d4; c5 Nf3 d6 d4"
    assert lines.count == 3
    assert (await svc.premoves(gid, alice.id)).text() == lines.text()
    assert (await svc.premoves(gid, bob.id)).count == 0  # the opponent never sees them
    assert "premove" not in repr(await svc.game(gid)).lower()


@pytest.mark.parametrize("text, words", [
    ("e5 Nf3; c5 Bb6", ["Bb6", "line 2", "move 2"]),  # the first bad move, named
    ("Ke7 Nf3", ["Ke7", "move 1", "opponent"]),
    ("e5 Nf3; e5 Nc3", ["two different answers", "e5", "Nf3", "Nc3"]),
    ("e5 Nf3 Nc6", ["Nc6", "add your answer"]),
    ("; ;", ["no moves"]),
])
async def test_bad_lines_are_refused_with_the_reason_and_change_nothing(real, text, words):
    svc, alice, bob, _ = real
    gid = await after_e4(svc, alice, bob)
    await svc.set_premoves(gid, alice.id, "d5 exd5")
    with pytest.raises(PremoveError) as e:
        await svc.set_premoves(gid, alice.id, text)
    for w in words:
        assert w in str(e.value)
    assert (await svc.premoves(gid, alice.id)).text() == "d5 exd5"


async def test_lines_are_left_only_while_the_opponent_is_to_move(real):
    svc, alice, bob, _ = real
    gid = await after_e4(svc, alice, bob)
    with pytest.raises(NotYourTurn, match="it is your move"):
        await svc.set_premoves(gid, bob.id, "Nf3 Nc6")


async def test_a_matching_move_is_answered_at_once_and_the_rest_waits(real):
    svc, alice, bob, notes = real
    gid = await after_e4(svc, alice, bob)
    await svc.set_premoves(gid, alice.id, "e5 Nf3; c5 Nf3 Nc6 d4; c5 Nf3 d6 d4")
    await svc.outbox.drain()
    notes.clear()
    r = await svc.move(gid, bob.id, "c7c5")
    assert (r.san, r.answer) == ("c5", "Nf3")
    assert [m.san for m in r.game.moves] == ["e4", "c5", "Nf3"]
    assert r.game.to_move.id == bob.id
    left = await svc.premoves(gid, alice.id)
    assert left.text() == "Nc6 d4; d6 d4" and left.ply == 3
    await svc.outbox.drain()
    (played,) = notes.of(ev.PremovePlayed, alice.id)
    assert (played.their_move, played.answer, played.lines_left) == ("c5", "Nf3", 2)
    (yours,) = notes.of(ev.YourMove, bob.id)  # the opponent is told as after any move
    assert yours.last_move == "Nf3"
    assert notes.of(ev.YourMove, alice.id) == []  # the answered turn is no turn of Alice's
    assert notes.of(ev.PremovePlayed, bob.id) == []
    r = await svc.move(gid, bob.id, "d6")
    assert r.answer == "d4" and (await svc.premoves(gid, alice.id)).count == 0


async def test_a_move_no_line_expected_drops_them_and_says_so(real):
    svc, alice, bob, notes = real
    gid = await after_e4(svc, alice, bob)
    await svc.set_premoves(gid, alice.id, "e5 Nf3; c5 Nf3")
    r = await svc.move(gid, bob.id, "d5")
    assert r.answer is None and r.game.to_move.id == alice.id
    assert (await svc.premoves(gid, alice.id)).count == 0
    await svc.outbox.drain()
    (dropped,) = notes.of(ev.PremovesDropped, alice.id)
    assert (dropped.why, dropped.move, dropped.lines) == ("move", "d5", 2)
    assert notes.of(ev.PremovesDropped, bob.id) == []


async def test_a_takeback_drops_the_lines(real):
    svc, alice, bob, notes = real
    gid = await after_e4(svc, alice, bob)
    await svc.set_premoves(gid, alice.id, "e5 Nf3")
    await svc.ask_takeback(gid, alice.id)
    await svc.accept_takeback(gid, bob.id)
    assert (await svc.premoves(gid, alice.id)).count == 0
    await svc.outbox.drain()
    (dropped,) = notes.of(ev.PremovesDropped, alice.id)
    assert dropped.why == "takeback"
    await svc.move(gid, alice.id, "d4")
    r = await svc.move(gid, bob.id, "e5")  # the old line is gone for good
    assert r.answer is None


async def test_cancel(real):
    svc, alice, bob, _ = real
    gid = await after_e4(svc, alice, bob)
    await svc.set_premoves(gid, alice.id, "c5 Nf3")
    await svc.set_premoves(gid, alice.id, "e5 Nf3; d5 exd5")  # a change: the new lines replace them
    assert (await svc.premoves(gid, alice.id)).text() == "e5 Nf3; d5 exd5"
    assert await svc.cancel_premoves(gid, alice.id) == 2
    assert (await svc.premoves(gid, alice.id)).count == 0
    assert (await svc.move(gid, bob.id, "e5")).answer is None


async def test_an_answer_that_mates_ends_the_game(real):
    svc, alice, bob, notes = real
    g = await new_game(svc, alice, bob, game="chess")
    for side, m in ((alice, "e4"), (bob, "e5"), (alice, "Bc4"), (bob, "Nc6"), (alice, "Qh5")):
        await svc.move(g.id, side.id, m)
    await svc.set_premoves(g.id, alice.id, "Nf6 Qxf7#")
    r = await svc.move(g.id, bob.id, "Nf6")
    assert r.answer == "Qxf7#" and r.outcome == ("1-0", "checkmate")
    assert r.game.status == "finished" and r.game.result == "1-0"


@pytest.mark.parametrize("failure", [RuntimeError("the disk is gone"), asyncio.CancelledError()])
async def test_the_move_and_its_answer_are_one_transaction(real, monkeypatch, failure):
    svc, alice, bob, _ = real
    gid = await after_e4(svc, alice, bob)
    await svc.set_premoves(gid, alice.id, "e5 Nf3")
    insert = Tx.insert_move

    async def failing(self, game_id, ply, *args):
        if ply == 3:  # the answer's: after the opponent's move is written, before the commit
            raise failure
        return await insert(self, game_id, ply, *args)
    monkeypatch.setattr(Tx, "insert_move", failing)
    with pytest.raises(type(failure)):
        await svc.move(gid, bob.id, "e5")
    monkeypatch.setattr(Tx, "insert_move", insert)
    v = await svc.game(gid)
    assert [m.san for m in v.moves] == ["e4"] and v.to_move.id == bob.id  # neither was kept
    assert (await svc.premoves(gid, alice.id)).text() == "e5 Nf3"
    assert (await svc.move(gid, bob.id, "e5")).answer == "Nf3"


async def test_lines_checked_on_a_position_that_changed_meanwhile_are_refused(real, monkeypatch):
    svc, alice, bob, _ = real
    gid = await after_e4(svc, alice, bob)
    import bot.operations.premoves as pm
    build = pm.build_tree

    def build_then_bob_moves(pos, text):
        tree = build(pos, text)
        asyncio.run_coroutine_threadsafe(svc.move(gid, bob.id, "e5"), loop).result()
        return tree
    loop = asyncio.get_running_loop()
    monkeypatch.setattr(pm, "build_tree", build_then_bob_moves)
    with pytest.raises(GameChanged):
        await svc.set_premoves(gid, alice.id, "e5 Nf3")
    assert (await svc.premoves(gid, alice.id)).count == 0


# --- the games' own moves: Cyclops facings, Wall moves, drops, a set-up phase ---------------

async def test_super_chess_cyclops_facings_and_its_set_up_phase(real):
    svc, alice, bob, _ = real
    setup = await new_game(svc, alice, bob, game="superchess", setup="players")
    with pytest.raises(PremoveError, match="set-up"):
        await svc.set_premoves(setup.id, bob.id, "Nc6 Nc3")
    g = await new_game(svc, alice, bob, game="superchess")
    await svc.move(g.id, alice.id, "Nc3")
    lines = await svc.set_premoves(g.id, alice.id, "Cd8(S) Cd1(E); d10d8(N) Cd3(N)")
    assert lines.text() == "Cd8(S) Cd1(E); Cd8(N) Cd3(N)"
    r = await svc.move(g.id, bob.id, "Cd8(N)")
    assert r.answer == "Cd3(N)" and r.game.moves[-1].lan == "d1d3(N)"
    with pytest.raises(PremoveError, match="Cd8"):  # a facing the Cyclops cannot take there
        await svc.set_premoves(g.id, alice.id, "Cd8(X) Cd1(E)")


async def test_ganymede_wall_moves(real):
    svc, alice, bob, _ = real
    g = await new_game(svc, alice, bob, game="ganymede")
    await svc.move(g.id, alice.id, "Gc2")
    await svc.set_premoves(g.id, alice.id, "a11b11-b11c11 W(k2l2)-j2k2")
    with pytest.raises(PremoveError, match=r"W\(a2b2\)-b2c2.*cannot move"):  # Gc2 stands there
        await svc.set_premoves(g.id, alice.id, "W(a11b11)-b11c11 W(a2b2)-b2c2")
    r = await svc.move(g.id, bob.id, "W(a11b11)-b11c11")
    assert r.answer == "W(k2l2)-j2k2"


async def test_king_and_queen_drops(real):
    svc, alice, bob, _ = real
    g = await new_game(svc, alice, bob, game="kingqueen")
    for side, m in ((alice, "Cd2"), (bob, "a4"), (alice, "axa4=+P")):
        await svc.move(g.id, side.id, m)
    await svc.set_premoves(g.id, alice.id, "c4 P@d1; e4 P@f2")
    r = await svc.move(g.id, bob.id, "c4")
    assert r.answer == "P@d1" and r.game.moves[-1].lan.startswith("P@")


# --- move confirmation's setting, and the next game --------------------------------------

async def test_confirm_moves_setting(real):
    svc, alice, _, _ = real
    assert (await svc.get_player(alice.id)).settings.confirm_moves == "off"
    await svc.update_settings(alice.id, confirm_moves="typed")
    me = await svc.get_player(alice.id)
    assert me.settings.confirm_moves == "typed" and me.confirms(typed=True) and not me.confirms(typed=False)
    with pytest.raises(SettingsError, match="off, typed, all"):
        await svc.update_settings(alice.id, confirm_moves="sometimes")
    assert (await svc.get_player(alice.id)).settings.confirm_moves == "typed"


async def test_next_game_is_the_earliest_deadline_where_it_is_my_move(real, clock):
    svc, alice, bob, _ = real
    carol = await svc.player("test", "c", "Carol")
    assert await svc.next_game(alice.id) is None
    slow = await new_game(svc, bob, alice, game="chess", days=7)
    fast = await new_game(svc, carol, alice, game="chess", days=2)
    unclocked = await new_game(svc, alice, bob, game="chess", days=None)
    mine_not = await new_game(svc, bob, alice, game="chess", days=1)  # Bob to move there
    assert (await svc.next_game(alice.id)).id == unclocked.id  # the only one to move in
    await svc.move(unclocked.id, alice.id, "e4")
    assert await svc.next_game(alice.id) is None
    await svc.move(slow.id, bob.id, "e4")
    assert (await svc.next_game(alice.id)).id == slow.id
    await svc.move(fast.id, carol.id, "e4")
    assert (await svc.next_game(alice.id)).id == fast.id  # 2 days beat 7
    await svc.move(mine_not.id, bob.id, "e4")
    assert (await svc.next_game(alice.id)).id == mine_not.id  # 1 day


async def test_an_answer_that_can_no_longer_be_played_is_dropped_with_a_notice(real):
    svc, alice, bob, notes = real
    gid = await after_e4(svc, alice, bob)
    # a stored tree whose answer is not legal after the move it answers (e4-e5 is blocked
    # once Black's pawn stands on e5): as if the position had changed under the lines
    from bot.operations.premoves import Node, to_json
    async with svc.store.write() as tx:
        await tx.set_premoves(gid, alice.id, 1, to_json((Node("e7e5", "e5", "e4e5", "e5"),)), 0)
    r = await svc.move(gid, bob.id, "e5")
    assert r.answer is None and r.game.to_move.id == alice.id and r.game.ply == 2
    assert (await svc.premoves(gid, alice.id)).count == 0
    await svc.outbox.drain()
    (dropped,) = notes.of(ev.PremovesDropped, alice.id)
    assert (dropped.why, dropped.move) == ("illegal", "e5")


def test_the_notices_words_and_the_grammar():
    from bot.words.grammar import GrammarError, parse
    from bot.words.text import PLAIN, event_text
    bob = ev.PlayerRef(2, "test", "b", "Bob")
    played = ev.PremovePlayed(game_id=4, game="chess", opponent=bob, their_move="c5", answer="Nc3",
                              lines_left=1)
    assert event_text(played, PLAIN) == ("Game #4: Bob played c5, and your conditional answer Nc3 "
                                         "was played. 1 line still waits.")
    dropped = ev.PremovesDropped(game_id=4, game="chess", opponent=bob, why="move", move="d5", lines=2)
    assert event_text(dropped, PLAIN) == ("Game #4: your 2 conditional lines were dropped: Bob played "
                                          "d5, which none of them expected. It is your move.")
    back = ev.PremovesDropped(game_id=4, game="chess", opponent=bob, why="takeback", move=None, lines=1)
    assert "your 1 conditional line was dropped: a move was taken back" in event_text(back, PLAIN)
    assert parse("premove Nf6 e5; Nc6 d4 Nf6 Bg5")["lines"] == "Nf6 e5; Nc6 d4 Nf6 Bg5"
    assert parse("premove cancel")["lines"] == "cancel" and parse("premove")["lines"] is None
    assert parse("next").name == "next" and parse("confirm off")["answer"] == "off"
    with pytest.raises(GrammarError, match="usage: confirm on|off"):
        parse("confirm sometimes")
