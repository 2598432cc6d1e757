"""The mails a new player gets on the first day (issue 29, item 2), read as sent to the
test's SMTP server: the challenger's confirmation is theirs, not the opponent's text, and
at the game's start the player to move gets one mail that says it is their move."""

from __future__ import annotations

from .conftest import BOT, as_proven
from .servers import reply_to_mail, text_of, write_mail

ANN, BOB = "ann@a.test", "bob@b.test"


async def test_a_challenge_by_mail_and_its_start_in_the_words_a_player_reads(bot, servers):
    await as_proven(bot.adapter, ANN)
    await servers.deliver(write_mail(ANN, BOT, "a game", "challenge chess bob@b.test days 3"))
    await bot.step()
    confirmation = text_of(servers.last_to(ANN))
    assert confirmation.startswith("I read: `challenge chess bob@b.test days 3`")  # issue #41 item 3
    confirmation = confirmation.splitlines()[2]
    assert confirmation.startswith(
        "Challenge #1 sent to bob: Chess · rated · 3 days per move · colours by lot · open until ")
    assert "challenges you" not in confirmation
    invitation = servers.last_to(BOB)
    assert text_of(invitation).startswith("ann challenges you to Chess (#1) · rated · 3 days "
                                          "per move · colours by lot.")
    before = {a: len(servers.sent_to(a)) for a in (ANN, BOB)}
    await servers.deliver(reply_to_mail(BOB, invitation, "accept"))
    await bot.step()
    await bot.service.sweep()  # the reminders' sweep adds no second "your move" mail
    await bot.step()
    game = await bot.service.game(1)
    white, black = (ANN, BOB) if game.white.name == "ann" else (BOB, ANN)
    # White moves first: one mail, saying the game has begun and that it is their move
    started = servers.sent_to(white)[before[white]:]
    assert len(started) == 1, [m["Subject"] for m in started]
    body = without_what_was_read(white, text_of(started[0]))
    assert body.startswith(f"Game #1 (Chess) against {game.black.name} has begun: you play White, "
                           "3 days per move, a rated game. It is your move: answer by Thu 09 Jan "
                           "2025 12:00 UTC.")
    assert "Your move in game #1" not in body
    # Black, who waits, is told the game has begun, and not that it is their move
    told = [without_what_was_read(black, text_of(m)) for m in servers.sent_to(black)[before[black]:]]
    assert any(t.startswith(f"Game #1 (Chess) against {game.white.name} has begun: you play Black, "
                            "3 days per move, a rated game.\r\n") for t in told), told


def without_what_was_read(address: str, text: str) -> str:
    """The first game mail's own words: Bob's answers his accept, so it says first what it
    read (issue #41 item 3); Ann's does not."""
    if address == BOB:
        assert text.startswith("I read: `accept`\r\n\r\n"), text
        return text.split("\r\n\r\n", 1)[1]
    assert "I read" not in text, text
    return text
