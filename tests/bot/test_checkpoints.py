"""A game's position is loaded from its stored checkpoints (each move's VFEN, and the few
before the last irreversible move that repetition needs), not replayed from move 1; the
result is the replay's, repetition and last-move marks included."""

import random

import pytest

from .conftest import new_game

pytestmark = pytest.mark.contract  # on every database back end (backends.py)


@pytest.fixture
async def real(opener, engine):
    svc = await opener()
    return svc, await svc.player("test", "a", "Alice"), await svc.player("test", "b", "Bob")


def no_replays(svc):
    def refuse(g, lans):
        raise AssertionError(f"game #{g.id} was replayed from move 1 ({len(lans)} moves)")
    svc._replay = refuse


async def play_random(svc, g, players, plies: int, seed: int):
    svc.limiter.rate = 0  # no flood control for this fast player
    rng = random.Random(seed)
    for _ in range(plies):
        v = await svc.game(g.id)
        if v.status != "active":
            break
        mover = players[0] if v.turn == "w" else players[1]
        await svc.move(g.id, mover.id, rng.choice(await svc.legal_moves(g.id)))
    return await svc.game(g.id)


def same_position(loaded, replayed):
    assert loaded.fen() == replayed.fen()
    assert loaded.key() == replayed.key()
    assert loaded.repetitions() == replayed.repetitions()
    assert loaded.outcome() == replayed.outcome()
    assert loaded.last_move.lan == replayed.last_move.lan
    assert sorted(m.lan for m in loaded.legal_moves()) == sorted(m.lan for m in replayed.legal_moves())


@pytest.mark.parametrize("game", ["gigachess2", "chess"])
async def test_a_restart_loads_the_position_as_the_replay_has_it(opener, real, game):
    svc, alice, bob = real
    g = await new_game(svc, alice, bob, game=game)
    v = await play_random(svc, g, (alice, bob), 40, seed=3)
    await opener.close(svc)
    svc = await opener()  # a new program: nothing cached
    replayed = svc._replay(await _row(svc, g.id), tuple(m.lan for m in v.moves))
    no_replays(svc)
    same_position(await svc.position(g.id), replayed)


async def _row(svc, game_id):
    async with svc.store.read() as tx:
        return await tx.game(game_id)


async def test_repetition_counts_positions_from_before_the_restart(opener, real):
    svc, alice, bob = real
    g = await new_game(svc, alice, bob, game="chess")
    shuffle = ["Nf3", "Nf6", "Ng1", "Ng8"] * 2
    for n, san in enumerate(shuffle[:-1]):
        await svc.move(g.id, (alice, bob)[n % 2].id, san)
    await opener.close(svc)
    svc = await opener()
    no_replays(svc)
    assert (await svc.position(g.id)).repetitions() == 2
    r = await svc.move(g.id, bob.id, "Ng8")  # the third time: a draw
    assert r.outcome == ("1/2-1/2", "threefold repetition")


async def test_games_stored_without_checkpoints_are_replayed(opener, real):
    svc, alice, bob = real
    g = await new_game(svc, alice, bob, game="chess")
    v = await play_random(svc, g, (alice, bob), 12, seed=5)
    async with svc.store.write() as tx:  # as stored before checkpoints
        await tx._exec("UPDATE moves SET vfen = NULL WHERE game_id = ?", (g.id,))
    await opener.close(svc)
    svc = await opener()
    replays = []
    original = svc._replay
    svc._replay = lambda g, lans: replays.append(len(lans)) or original(g, lans)
    assert (await svc.position(g.id)).fen() == v.fen and replays == [12]


async def test_a_checkpoint_that_disagrees_with_the_game_is_not_trusted(opener, real, caplog):
    svc, alice, bob = real
    g = await new_game(svc, alice, bob, game="chess")
    await svc.move(g.id, alice.id, "e4")
    v = await svc.move(g.id, bob.id, "e5")
    async with svc.store.write() as tx:
        await tx.update_game(g.id, current_vfen="8/8/8/8/8/8/8/K6k w - - 0 1")
    await opener.close(svc)
    svc = await opener()
    assert (await svc.position(g.id)).fen() == v.game.fen
    assert "differs from the replayed" in caplog.text


async def test_a_takeback_loads_the_position_before(opener, real):
    svc, alice, bob = real
    g = await new_game(svc, alice, bob, game="chess")
    await svc.move(g.id, alice.id, "e4")
    before = (await svc.move(g.id, bob.id, "e5")).game.fen
    await svc.move(g.id, alice.id, "Nf3")
    await svc.ask_takeback(g.id, alice.id)
    await opener.close(svc)
    svc = await opener()
    no_replays(svc)
    v = await svc.accept_takeback(g.id, bob.id)
    assert v.fen == before and (await svc.position(g.id)).last_move.lan == "e7e5"


async def test_only_the_checkpoints_repetition_needs_are_kept(opener, real):
    svc, alice, bob = real
    g = await new_game(svc, alice, bob, game="chess")
    sans = ["e4", "e5", "Nf3", "Nc6", "Bb5", "Nf6", "O-O", "Ng8", "Re1", "a6"]  # a6: irreversible
    for n, san in enumerate(sans[:-1]):
        await svc.move(g.id, (alice, bob)[n % 2].id, san)
    kept = [m.ply for m in (await svc.game(g.id)).moves if m.ply in await _checkpointed(svc, g.id)]
    assert kept == list(range(1, 10))  # e5 was the last pawn move, but nothing is dropped yet
    v = (await svc.move(g.id, bob.id, "a6")).game
    assert await _checkpointed(svc, g.id) == [9, 10]  # a6's, and the one before (a takeback)
    await opener.close(svc)
    svc = await opener()
    no_replays(svc)
    assert (await svc.position(g.id)).fen() == v.fen


async def _checkpointed(svc, game_id):
    async with svc.store.read() as tx:
        return [m.ply for m in await tx.moves(game_id) if m.vfen is not None]
