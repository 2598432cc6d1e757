"""Two adapters in one process on one database (bot/adapters.py): Discord (the spec'd
double of helpers.World) and the terminal's notifier. A Discord player and a terminal
player play a game; each notice goes to its player's own platform as soon as the change
commits (the outbox's background delivery, drained), with no sweep and no clock moved."""

from __future__ import annotations

import random

from bot.adapters import Host
from bot.commands import run as commands_text
from bot.discord_bot.runner import DiscordAdapter
from bot.discord_bot.views import AcceptChallenge, Answer
from bot.terminal.play import PLATFORM as TERMINAL
from bot.terminal.play import TerminalNotifier
from bot.words.grammar import parse
from bot.words.text import PLAIN

from .conftest import press
from .helpers import World, custom_ids


class DiscordWithoutGateway(DiscordAdapter):
    """The real adapter on the Discord double: no login, no gateway (Discord itself)."""

    async def start(self, service) -> None:
        self.attach(service)


class TerminalSide:
    """A terminal adapter whose console is a list of lines."""

    name = "terminal"

    def __init__(self):
        self.said: list[str] = []
        self.notifier = TerminalNotifier(self.said.append)

    async def start(self, service) -> None:
        self.service = service

    async def wait(self) -> None:
        pass

    async def stop(self) -> None:
        pass


async def test_each_players_notice_goes_to_their_own_platform_at_once(settings, clock):
    w = World()
    w.alice = w.member("Alice")
    discord_side, terminal = DiscordWithoutGateway(settings, client=w.client), TerminalSide()
    host = await Host.open(settings, [discord_side, terminal], clock=clock, reminders=False,
                           rng=random.Random(1))  # colours by lot: Tom, the challenger, is White
    service = host.service

    async def no_sweep(*args, **kwargs):
        raise AssertionError("delivery must not wait for a sweep")
    service.sweep = no_sweep
    try:
        fairy = w.fairy = w.client.fairy
        alice = await fairy.player(w.alice)
        tom = await service.player(TERMINAL, "tom", "Tom")

        async def by_name(who: str):  # the terminal names players by their names
            return alice if who.casefold() == "alice" else None

        async def tom_types(line: str, game_id: int | None = None):
            ctx = commands_text.Context(service, tom, PLAIN, game_id, find_player=by_name)
            reply = await commands_text.execute(parse(line, in_game=game_id is not None), ctx)
            await service.outbox.drain()
            return reply

        def news(before_dms: int, before_said: int):
            return [d["content"] for d in w.dms(w.alice)[before_dms:]], terminal.said[before_said:]

        # Tom (terminal) challenges Alice (Discord): the notice is Alice's DM, with its buttons
        reply = await tom_types("challenge chess alice days 3")
        assert reply.text.startswith("Challenge #1 sent to Alice: Chess · rated · 3 days per move · ")
        dms, said = news(0, 0)
        assert len(dms) == 1 and "Tom challenges you to **Chess** (#1)" in dms[0] and said == []
        accept = custom_ids(w.dms(w.alice)[-1]["view"])[0]

        # Alice accepts on Discord: each is told the game has begun on their own platform
        await press(AcceptChallenge, accept, w.interaction(w.alice, dm=True))
        await service.outbox.drain()
        dms, said = news(1, 0)
        assert any("has begun: you play Black" in d for d in dms)
        assert any(s.startswith("[to Tom] Game #1 (Chess) against Alice has begun: you play White") for s in said)

        # Tom moves (terminal): Alice's notice, Tom none
        n_dms, n_said = len(w.dms(w.alice)), len(terminal.said)
        await tom_types("e4", 1)
        dms, said = news(n_dms, n_said)
        assert dms == ["Your move in game #1 (Chess) against Tom. Tom played **e4**. "
                       + dms[0].split("**e4**. ", 1)[1]] and dms[0].count("Answer by <t:") == 1
        assert said == []

        # Alice moves (Discord): Tom's notice, in plain words, Alice none
        n_dms, n_said = len(w.dms(w.alice)), len(terminal.said)
        await fairy.play(alice.id, 1, "e5")
        await service.outbox.drain()
        dms, said = news(n_dms, n_said)
        assert dms == []
        assert len(said) == 1 and said[0].startswith(
            "[to Tom] Your move in game #1 (Chess) against Alice. Alice played e5. Answer by ")

        # Tom offers a draw; Alice accepts it with the notice's button; both hear the end
        n_dms, n_said = len(w.dms(w.alice)), len(terminal.said)
        await tom_types("draw", 1)
        dms, said = news(n_dms, n_said)
        assert dms == ["Tom offers a draw in game #1 (Chess)."] and said == []
        await press(Answer, custom_ids(w.dms(w.alice)[-1]["view"])[0], w.interaction(w.alice, dm=True))
        await service.outbox.drain()
        dms, said = news(n_dms + 1, n_said)
        assert any("is over: 1/2-1/2 · Drawn by agreement" in d for d in dms)
        assert said == ["[to Tom] Game #1 (Chess) is over: 1/2-1/2 · Drawn by agreement."]
    finally:
        await host.close()


async def test_the_hosted_client_sets_up_only_its_own_part(settings, monkeypatch):
    """In ``fairypost run`` the client registers its buttons and commands at login; the
    service, the reminders and the pages are the host's, and outlive the client."""
    from bot.discord_bot import views
    from bot.discord_bot.runner import FairyClient
    from bot.operations.service import GameService

    adapter = DiscordAdapter(settings)
    assert isinstance(adapter.client, FairyClient) and adapter.client.hosted
    service = await GameService.open(settings)
    try:
        fairy = adapter.attach(service)
        assert adapter.client.fairy is fairy and adapter.act == fairy.act

        async def fake_sync(*, guild=None):
            return []
        monkeypatch.setattr(adapter.client.tree, "sync", fake_sync)
        await adapter.client.setup_hook()
        store = adapter.client._connection._view_store
        assert set(views.DYNAMIC_ITEMS) <= set(store._dynamic_items.values())
        assert adapter.client.scheduler is None and adapter.client.web is None
        await adapter.stop()
        assert (await service.player("terminal", "x", "X")).name == "X"  # still open
    finally:
        await service.close()
