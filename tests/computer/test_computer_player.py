"""The computer as a player, through the service: it accepts, answers every move in a
worker process, makes Super Chess's set-up actions, plays a game to its end, never loses
on time, and answers after a restart."""

from __future__ import annotations

import asyncio
import random
import time
from datetime import timedelta

from bot import computer as comp
from bot.events import YourMove
from bot.notifiers import Notifiers
from bot.events import MemoryNotifier
from bot.service import GameService

from .conftest import open_table


async def start_game(t, game: str, *, level: int = 1, colour: str = "white", setup: str = "default",
                     days=3):
    me = await t.service.player("human", "ann", "Ann")
    cpu = await comp.computer_player(t.service, level)
    c = await t.service.challenge(me.id, game, opponent_id=cpu.id, colour=colour, setup=setup, days=days)
    c = await t.service.get_challenge(c.id)
    assert c.status == "accepted" and c.game_id is not None  # accepted at once, by the computer
    return me, cpu, c.game_id


async def test_computer_accepts_and_answers_each_move_in_chess(table):
    me, cpu, gid = await start_game(table, "chess")
    assert cpu.platform == "computer" and cpu.user_id == "level-1" and cpu.name == "fairypost (level 1)"
    for ply, text in ((1, "e4"), (3, "d4"), (5, "Nf3")):
        view = await table.service.game(gid)
        if view.status != "active":
            break
        await table.service.move(gid, me.id, text if text in await _sans(table, gid) else
                                 (await table.service.legal_moves(gid))[0], expected_ply=ply - 1)
        await table.computer.idle(gid)
        view = await table.service.game(gid)
        assert view.ply == ply + 1
        assert view.moves[-1].player_id == cpu.id and view.to_move.id == me.id
    # the human was told of each reply, like of any opponent's move
    told = [e for e in table.seen.of(YourMove, me.id)]
    assert [e.ply for e in told] == [0, 2, 4, 6]
    assert all(e.last_move for e in told[1:])


async def _sans(t, gid):
    pos = await t.service.position(gid)
    return {pos.san(m) for m in pos.legal_moves()}


async def test_computer_makes_super_chess_setup_actions_and_moves(table):
    me, cpu, gid = await start_game(table, "superchess", setup="players")
    view = await table.service.game(gid)
    assert view.in_setup and view.to_move.id == me.id
    rng = random.Random(1)
    while view.in_setup or view.ply < 6:
        if view.to_move.id == me.id:
            await table.service.move(gid, me.id, rng.choice(await table.service.legal_moves(gid)),
                                     expected_ply=view.ply)
        await table.computer.idle(gid)
        view = await table.service.game(gid)
        assert view.status == "active"
    by_cpu = [m for m in view.moves if m.player_id == cpu.id]
    assert len(by_cpu) >= 3
    assert by_cpu[0].ply == 2  # Black's set-up action: the Super Pawns' squares
    assert "@" in by_cpu[0].lan or "S" in by_cpu[0].san


async def test_a_game_to_its_end_against_level_1(table):
    me, cpu, gid = await start_game(table, "chess", colour="black")
    rng = random.Random(5)
    view = await table.service.game(gid)
    await table.computer.idle(gid)
    for _ in range(400):
        view = await table.service.game(gid)
        if view.status != "active":
            break
        assert view.to_move.id == me.id
        await table.service.move(gid, me.id, rng.choice(await table.service.legal_moves(gid)),
                                 expected_ply=view.ply)
        await table.computer.idle(gid)
    assert view.status == "finished", "the game did not end"
    assert view.result in ("1-0", "0-1", "1/2-1/2")
    record = await table.service.record(gid)
    assert "fairypost (level 1)" in record and view.result in record


async def test_the_computer_never_loses_on_time_but_the_human_can(settings, clock):
    # no computer answering: the service alone keeps a computer side off the clock
    seen = MemoryNotifier()
    service = await GameService.open(settings, clock=clock, notifier=seen)
    try:
        me = await service.player("human", "ann", "Ann")
        cpu = await comp.computer_player(service, 2)
        c = await service.challenge(me.id, "chess", opponent_id=cpu.id, colour="black", days=1)
        view = await service.accept_challenge(c.id, cpu.id)
        assert view.to_move.id == cpu.id and view.deadline is None
        clock.advance(timedelta(days=400))
        await service.sweep()
        assert (await service.game(view.id)).status == "active"
        await service.move(view.id, cpu.id, "e4")
        view = await service.game(view.id)
        assert view.to_move.id == me.id and view.seconds_left == 86400
        assert not seen.of(YourMove, cpu.id) or all(e.deadline is None for e in seen.of(YourMove, cpu.id))
        clock.advance(timedelta(days=1, seconds=1))
        await service.sweep()
        view = await service.game(view.id)
        assert (view.status, view.result, view.reason) == ("finished", "1-0", "time")
    finally:
        await service.close()


async def test_restart_mid_think_and_the_computer_still_answers(settings, clock, pool):
    t = await open_table(settings, clock, pool, seconds=0.5)
    me, cpu, gid = await start_game(t, "chess", level=3)
    await t.service.move(gid, me.id, "e4", expected_ply=0)
    assert t.computer.thinking(gid)
    await t.close()  # stopped while the worker thinks
    t = await open_table(settings, clock, pool)
    try:
        assert (await t.service.game(gid)).ply == 1
        assert await t.computer.resume() == 1
        await t.computer.idle(gid)
        view = await t.service.game(gid)
        assert view.ply == 2 and view.moves[-1].player_id == cpu.id
    finally:
        await t.close()


async def test_the_worker_never_blocks_the_event_loop(settings, clock, pool):
    t = await open_table(settings, clock, pool, seconds=0.8)
    try:
        me, cpu, gid = await start_game(t, "chess", level=5)
        gaps = []

        async def tick():
            last = time.perf_counter()
            while True:
                await asyncio.sleep(0.01)
                now = time.perf_counter()
                gaps.append(now - last)
                last = now
        ticker = asyncio.get_running_loop().create_task(tick())
        started = time.perf_counter()
        await t.service.move(gid, me.id, "e4", expected_ply=0)
        await t.computer.idle(gid)
        thought = time.perf_counter() - started
        ticker.cancel()
        assert (await t.service.game(gid)).ply == 2
        assert thought >= 0.4  # level 5 used its budget: the loop ticked all along
        assert len(gaps) > 20
        assert max(gaps) < 0.15, f"the event loop waited {max(gaps) * 1000:.0f} ms"
    finally:
        await t.close()


async def test_hint_and_review(table):
    me, cpu, gid = await start_game(table, "chess")
    view = await table.service.game(gid)
    hint = await table.computer.hint(view, me.id)
    assert hint.lan in await table.service.legal_moves(gid)
    assert hint.text().startswith(f"The computer would play {hint.san} (score ")
    # the fool's mate, the human as Black... here as White losing: f3, g4
    for text in ("f3", "g4"):
        view = await table.service.game(gid)
        if view.status != "active":
            break
        await table.service.move(gid, me.id, text, expected_ply=view.ply)
        await table.computer.idle(gid)
    await table.service.resign(gid, me.id)
    view = await table.service.game(gid)
    reviewed = await table.computer.review(view)
    assert [m.san for m in reviewed] == [m.san for m in view.moves]
    assert all(m.mark in ("", "?", "??", "best") for m in reviewed)
    text = comp.review_text(view, reviewed)
    assert "1." in text and "f3" in text and "blunder" in text
