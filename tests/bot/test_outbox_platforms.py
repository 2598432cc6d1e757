"""An outbox takes only its own platform's notices: a terminal and the bot may share one database."""
from bot.delivery import events as ev
from bot.operations.service import GameService


class PlatformNotifier(ev.MemoryNotifier):
    def __init__(self, platforms):
        super().__init__()
        self.platforms = frozenset(platforms)


async def test_each_adapter_delivers_only_its_own_players(settings, clock):
    discord = PlatformNotifier({"discord"})
    terminal = PlatformNotifier({"terminal"})
    bot = await GameService.open(settings, clock=clock, notifier=discord)
    term = await GameService.open(settings, clock=clock, notifier=terminal)
    try:
        a = await bot.player("discord", "1", "Ann")
        b = await bot.player("discord", "2", "Bob")
        c = await term.player("terminal", "white", "White")
        d = await term.player("terminal", "black", "Black")
        # the terminal creates its challenge first: its dispatch must not take Bob's notice
        await term.challenge(c.id, "chess", opponent_id=d.id)
        await term.challenge(a.id, "chess", opponent_id=b.id)   # written by the terminal process
        await term.sweep()
        assert all(e.recipient.platform == "terminal" for e in terminal.events)
        await bot.sweep()
        assert [e.recipient.name for e in discord.events] == ["Bob"]
        assert {e.recipient.name for e in terminal.events} == {"Black"}
    finally:
        await bot.close()
        await term.close()
