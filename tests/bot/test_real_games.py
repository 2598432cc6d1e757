"""Games played to mate through the service with the real rules engine.

Skipped until ``rules`` is importable and works.
"""

import pytest

from bot.delivery import events as ev
from bot.domain.errors import IllegalMove, NotYourTurn

from .conftest import new_game

# Short mates from the start position, as (White's, Black's, ...) moves in any
# notation the engine accepts, and the result they end with.
MATES = {
    "chess": (["f3", "e5", "g4", "Qh4#"], "0-1"),
    # superchess.md: from the start, Black answering k8 and k7, White mates on move 3
    "superchess": (["Cd1d3(NE)", "k9k8", "Cd3e4(N)", "k8k7", "Ce4e7(N)"], "1-0"),
    # found by a helpmate search with the engine
    "kingqueen": (["d1d6", "e6f5", "e3e4", "f5g4", "e4e5=+P"], "1-0"),
    # Scholar's mate on h7: the Sage leaves j8 (it guards h7), Ng5 supports Qxh7#
    "grandducal": (["g2g4", "j8k6", "i1h3", "k6l5", "h3g5", "a7a6", "f1j5", "a6a5", "j5h7"], "1-0"),
    # the Black King on h13 starts walled in by its own pieces; k10 is guarded only by
    # the j11 pawn: once it has gone, the Duchess's (3,3) leap smothers the King
    "gigachess2": (["i2i5", "j11j9", "i5i8", "a12a11", "i8k10"], "1-0"),
    # Black's Spearmen retreat to f11 and g11, walling in their King; the i10 pawn (h9's
    # guard) steps on; the Dragon's camel leap to h9 checks and its (2,2) leap covers f11
    "ganymede": (["i2k4", "g10g11(V)", "k4i6", "f10f11(V)", "a3a4", "i10i9", "i6h9"], "1-0"),
}


@pytest.fixture
async def real(opener, engine):
    svc = await opener()
    alice = await svc.player("test", "a", "Alice")
    bob = await svc.player("test", "b", "Bob")
    return svc, alice, bob


async def play_out(svc, g, white, black, moves):
    players = [white, black]
    r = None
    for i, m in enumerate(moves):
        assert r is None or r.outcome is None, f"the game ended early, before {m}"
        r = await svc.move(g.id, players[i % 2].id, m, expected_ply=i)
    return r


@pytest.mark.parametrize("game", sorted(MATES))
async def test_game_to_mate(real, game, notifier):
    svc, alice, bob = real
    moves, result = MATES[game]
    g = await new_game(svc, alice, bob, game=game, days=3)
    r = await play_out(svc, g, alice, bob, moves)
    assert r.outcome == (result, "checkmate")
    v = await svc.game(g.id)
    assert (v.status, v.result, v.reason, v.ply) == ("finished", result, "checkmate", len(moves))
    assert v.moves[-1].san.endswith("#")
    assert {e.recipient.id for e in notifier.of(ev.GameOver)} == {alice.id, bob.id}
    text = await svc.record(g.id)
    assert f'[Result "{result}"]' in text and f'[Variant "{game}"]' in text
    assert text.rstrip().endswith(result)


async def test_chess_record_and_notation(real):
    svc, alice, bob = real
    g = await new_game(svc, alice, bob, game="chess")
    await svc.move(g.id, alice.id, "e2-e4")
    await svc.move(g.id, bob.id, "e7e5")
    await svc.move(g.id, alice.id, "Ng1f3")
    r = await svc.move(g.id, bob.id, "Nc6")
    assert [m.lan for m in r.game.moves] == ["e2e4", "e7e5", "g1f3", "b8c6"]
    text = await svc.record(g.id)
    assert "[FEN " not in text and "[SetUp " not in text  # PGN's own start goes without saying
    assert text.rstrip().endswith("1. e4 e5 2. Nf3 Nc6 *")


async def test_chess_refusals_come_from_the_engine(real):
    svc, alice, bob = real
    g = await new_game(svc, alice, bob, game="chess")
    with pytest.raises(IllegalMove) as e:
        await svc.move(g.id, alice.id, "e2e5")
    assert str(e.value)  # the engine's own readable reason
    with pytest.raises(IllegalMove):
        await svc.move(g.id, alice.id, "hello")
    with pytest.raises(NotYourTurn):
        await svc.move(g.id, bob.id, "e5")
    assert (await svc.game(g.id)).ply == 0


async def test_chess_takeback_restores_the_position(real):
    svc, alice, bob = real
    g = await new_game(svc, alice, bob, game="chess")
    await svc.move(g.id, alice.id, "e4")
    before = (await svc.move(g.id, bob.id, "e5")).game.fen
    await svc.move(g.id, alice.id, "Qh5")
    await svc.ask_takeback(g.id, alice.id)
    v = await svc.accept_takeback(g.id, bob.id)
    assert v.fen == before and v.ply == 2 and v.turn == "w"
    r = await svc.move(g.id, alice.id, "Nf3")
    assert [m.san for m in r.game.moves] == ["e4", "e5", "Nf3"]


async def test_restart_replays_the_game_from_the_file(opener, engine, clock, notifier):
    svc = await opener()
    alice = await svc.player("test", "a", "Alice")
    bob = await svc.player("test", "b", "Bob")
    g = await new_game(svc, alice, bob, game="chess")
    await svc.move(g.id, alice.id, "f3")
    await svc.move(g.id, bob.id, "e5")
    fen = (await svc.game(g.id)).fen
    await opener.close(svc)
    svc = await opener()  # a new program: no cached positions
    v = await svc.game(g.id)
    assert v.fen == fen and v.ply == 2
    await svc.move(g.id, alice.id, "g4")
    r = await svc.move(g.id, bob.id, "Qh4")
    assert r.outcome == ("0-1", "checkmate") and r.san == "Qh4#"


async def test_superchess_set_up_by_the_players(real, notifier):
    svc, alice, bob = real
    g = await new_game(svc, alice, bob, game="superchess", setup="players")
    assert g.in_setup and g.start_vfen.endswith("setup=sp-w") and g.turn == "w"
    with pytest.raises(IllegalMove, match="Super Pawns"):
        # a move of the game is not a set-up action: the engine says what is expected
        await svc.setup_action(g.id, alice.id, "e2e4")
    r = await svc.setup_action(g.id, alice.id, "S@e2,S@f2")
    assert r.game.turn == "b" and r.game.in_setup
    with pytest.raises(NotYourTurn):
        await svc.setup_action(g.id, alice.id, "d1(N)")
    await svc.setup_action(g.id, bob.id, "S@e9,S@f9")
    await svc.setup_action(g.id, alice.id, "d1(N)")
    r = await svc.setup_action(g.id, bob.id, "d10(N)")
    assert not r.game.in_setup and r.game.turn == "w"
    assert r.game.fen == "rnbc(N)kqabnr/ppppsspppp/10/10/10/10/10/10/PPPPSSPPPP/RNBC(N)KQABNR w AKak - 0 1"
    with pytest.raises(IllegalMove, match="set-up is over"):
        await svc.setup_action(g.id, alice.id, "d1(N)")
    moves, result = MATES["superchess"]
    players = [alice, bob]
    for i, m in enumerate(moves):
        r = await svc.move(g.id, players[i % 2].id, m)
    assert r.outcome == (result, "checkmate")
    text = await svc.record(g.id)
    assert "{Set-up: " in text
    body = text.split("\n\n")[1]
    assert body.startswith("{Set-up:") and "1. C" in body and body.rstrip().endswith("1-0")


async def test_superchess_default_set_up(real):
    svc, alice, bob = real
    g = await new_game(svc, alice, bob, game="superchess")
    assert not g.in_setup
    assert g.start_vfen == "rnbc(N)kqabnr/ppppsspppp/10/10/10/10/10/10/PPPPSSPPPP/RNBC(N)KQABNR w AKak - 0 1"
