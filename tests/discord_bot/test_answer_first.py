"""Every interaction is answered (or deferred) before any other request to Discord, and a
new game's thread is there before its first notices, which link to it: the requests the
bot makes, in order, on the Discord double, with delivery in the background as the
runner runs it, and a DM that fails twice with 502."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import discord
import pytest

from bot.discord_bot import commands
from bot.discord_bot.views import AcceptChallenge, DeclineChallenge

from .conftest import press, run
from .helpers import custom_ids


def bad_gateway() -> discord.HTTPException:
    return discord.HTTPException(mock.MagicMock(status=502, reason="Bad Gateway"), "Bad Gateway")


class Requests(list):
    """The bot's requests to the double, in order: ('answer', interaction, how),
    ('dm', member, text), ('dm-failed', member, None), ('thread', thread, name),
    ('post', channel, text)."""

    def __init__(self, w):
        super().__init__()
        self.w = w
        members = {m.id: m for m in w.users.values()}
        recorder = self

        class Sent(list):  # every send the double takes, DMs and channel posts
            def append(self, item):
                where, kw = item
                kind = "dm" if getattr(where, "id", None) in members else "post"
                recorder.append((kind, where, kw.get("content") or ""))
                super().append(item)
        w.sent = Sent(w.sent)
        thread_for = w._thread_for

        async def opened(channel, kw):
            t = await thread_for(channel, kw)
            recorder.append(("thread", t, kw.get("name")))
            return t
        w._thread_for = opened

    def interaction(self, user, **kw):
        i = self.w.interaction(user, **kw)
        for name in ("send_message", "defer", "send_modal", "edit_message"):
            self._before(getattr(i.response, name), ("answer", i, name))
        self._before(i.edit_original_response, ("edit-answer", i, None))
        self._before(i.followup.send, ("followup", i, None))
        return i

    def _before(self, async_mock, step):
        inner = async_mock.side_effect

        async def record(*args, **kwargs):
            self.append(step)
            return await inner(*args, **kwargs)
        async_mock.side_effect = record

    def failing_dms(self, member, times: int):
        """The member's next ``times`` DMs fail with 502 (recorded as tried)."""
        inner = member.send.side_effect
        left = {"n": times}

        async def send(*args, **kwargs):
            if left["n"]:
                left["n"] -= 1
                self.append(("dm-failed", member, None))
                raise bad_gateway()
            return await inner(*args, **kwargs)
        member.send.side_effect = send

    def index(self, kind, who=None, start: int = 0) -> int:
        for n, (k, w, _) in enumerate(self[start:], start):
            if k == kind and (who is None or w is who):
                return n
        raise AssertionError(f"no {kind} request to {who} in {[(k, str(t)[:40]) for k, _, t in self]}")

    def first_of(self, i) -> str:
        """The kind of the first request made while handling ``i`` that was not its answer."""
        return next(k for k, w, _ in self if not (k in ("answer",) and w is i))


@pytest.fixture(params=["background", "inline"])
async def live(world, clock, request):
    """The world with delivery in the background, as the runner starts it; or delivery
    by the service itself after each commit (no delivery task)."""
    if request.param == "background":
        world.fairy.service.start_delivery()
    world.requests = Requests(world)
    yield world
    await world.fairy.service.outbox.stop()


async def test_challenge_is_answered_before_the_dm_that_fails_twice_and_the_game_gets_its_thread(live, clock):
    w, req = live, live.requests
    svc = w.fairy.service
    req.failing_dms(w.bob, 2)
    i = req.interaction(w.alice)
    await run(commands.challenge, i, game="chess", opponent=w.bob, days=3, colour="white")
    await svc.outbox.drain()
    assert req[0] == ("answer", i, "send_message")  # before the DM, which failed
    assert req.index("dm-failed", w.bob) > 0
    clock.advance(timedelta(seconds=svc.settings.notify_retry_seconds))
    await svc.outbox.drain()  # the retry fails too (the second 502)
    assert [k for k, who, _ in req if who is w.bob] == ["dm-failed", "dm-failed"]
    clock.advance(timedelta(seconds=2 * svc.settings.notify_retry_seconds))
    await svc.outbox.drain()
    challenge_dm = req.index("dm", w.bob)
    assert "challenge" in req[challenge_dm][2].lower()

    accept_id = custom_ids(i.response.send_message.call_args.kwargs["view"])[0]
    start = len(req)
    j = req.interaction(w.bob, message=i.original_response.return_value)
    await press(AcceptChallenge, accept_id, j)
    await svc.outbox.drain()
    steps = req[start:]
    assert steps[0] == ("answer", j, "defer")
    opened = req.index("thread", start=start)
    [thread] = w.threads
    board = req.index("post", thread, start=start)
    assert opened < board  # the game's board is in its thread
    dms = [n for n, (k, who, _) in enumerate(req) if n > start and k == "dm"]
    # game begun (both; Alice's, who moves first, says it is her move: one notice, issue 29)
    assert {req[n][1] for n in dms} == {w.alice, w.bob}
    assert len(dms) == 2 and all(n > opened for n in dms)
    alices = next(req[n][2] for n in dms if req[n][1] is w.alice)
    assert "has begun: you play White" in alices and "It is your move: answer by" in alices
    assert all(str(thread.id) in req[n][2] for n in dms)  # each links to the thread
    game = (await svc.list_games((await w.fairy.player(w.alice)).id))[0]
    assert (await w.fairy.links.thread_of(game.id)).thread_id == str(thread.id)


async def test_decline_is_answered_before_the_challengers_notice(live):
    w, req = live, live.requests
    svc = w.fairy.service
    i = req.interaction(w.alice)
    await run(commands.challenge, i, game="chess", opponent=w.bob, days=3, colour="white")
    await svc.outbox.drain()
    decline_id = custom_ids(i.response.send_message.call_args.kwargs["view"])[1]
    start = len(req)
    j = req.interaction(w.bob, message=i.original_response.return_value)
    await press(DeclineChallenge, decline_id, j)
    await svc.outbox.drain()
    assert req[start] == ("answer", j, "edit_message")
    assert req.index("dm", w.alice, start=start) > start  # Alice is told, afterwards


async def test_settings_are_answered_before_a_vacations_notices(live):
    w, req = live, live.requests
    i = req.interaction(w.alice)
    await run(commands.settings, i, vacation="start", vacation_days=3)
    await w.fairy.service.outbox.drain()
    assert req[0] == ("answer", i, "defer")
