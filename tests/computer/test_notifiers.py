"""bot.delivery.notifiers.Notifiers: each event to the notifier of its recipient's platform."""

from __future__ import annotations

from bot.delivery.events import ChallengeReceived, MemoryNotifier, PlayerRef
from bot.delivery.notifiers import Notifiers


class Scoped(MemoryNotifier):
    def __init__(self, *platforms: str):
        super().__init__()
        self.platforms = frozenset(platforms)


def _challenge(recipient):
    ann = PlayerRef(1, "discord", "11", "Ann")
    return ChallengeReceived(recipient=recipient, challenge_id=1, challenger=ann, game="chess",
                             days=3, colour="white", setup="default", open=recipient is None)


async def test_events_go_to_their_platforms_notifier_and_lobby_events_to_all():
    discord, computer = Scoped("discord"), Scoped("computer")
    both = Notifiers([discord, computer])
    assert both.platforms == {"discord", "computer"}  # the outbox takes only these
    await both.notify(_challenge(PlayerRef(2, "computer", "level-3", "fairypost level 3")))
    await both.notify(_challenge(PlayerRef(3, "discord", "33", "Bob")))
    await both.notify(_challenge(None))
    assert [e.recipient and e.recipient.id for e in computer.events] == [2, None]
    assert [e.recipient and e.recipient.id for e in discord.events] == [3, None]


async def test_a_notifier_without_platforms_takes_the_others():
    anyone, computer = MemoryNotifier(), Scoped("computer")
    both = Notifiers([anyone, computer])
    assert both.platforms is None
    await both.notify(_challenge(PlayerRef(4, "email", "a@b", "Cy")))
    await both.notify(_challenge(PlayerRef(2, "computer", "level-3", "fairypost level 3")))
    assert [e.recipient.id for e in anyone.events] == [4]
    assert [e.recipient.id for e in computer.events] == [2]
