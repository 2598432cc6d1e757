"""The bot's words, once (bot/words/text.py): every notice in every markup, user text escaped by
each markup, and the same words under Discord's markdown as in plain text."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from bot.delivery import events as ev
from bot.words import text
from bot.words.grammar import GRAMMAR, GrammarError
from bot.words.text import DISCORD, HTML, PLAIN

HOSTILE = "**Eve** <b>@everyone</b> [x](http://evil) `a`"
ANN = ev.PlayerRef(1, "discord", "11", "Ann")
EVE = ev.PlayerRef(2, "email", "eve@example.org", HOSTILE)
WHEN = datetime(2026, 11, 24, 21, 0, tzinfo=UTC)


def every_event(recipient=ANN, by=EVE):
    common = {"recipient": recipient, "game_id": 3, "game": "grandducal"}
    return [
        ev.YourMove(**common, opponent=by, ply=4, last_move="Nf3", deadline=WHEN),
        ev.TimeWarning(**common, opponent=by, level="80%", deadline=WHEN, seconds_left=7200),
        ev.GameStarted(**common, white=recipient, black=by, days=3, challenge_id=9),
        ev.GameOver(**common, white=recipient, black=by, result="0-1", reason="checkmate", last_move="Qh4#"),
        ev.ChallengeReceived(recipient=recipient, challenge_id=9, challenger=by, game="grandducal", days=3,
                             colour="random", setup="default", open=False),
        ev.ChallengeClosed(recipient=recipient, challenge_id=9, how="declined", by=by),
        ev.DrawOffered(**common, by=by),
        ev.DrawDeclined(**common, by=by),
        ev.TakebackAsked(**common, by=by, move="e4"),
        ev.TakebackAnswered(**common, by=by, accepted=True),
        ev.Digest(recipient=recipient, day="2026-11-24",
                  games=(ev.DigestEntry(3, "grandducal", by.name, WHEN, 7200),)),
    ]


@pytest.mark.parametrize("m", [PLAIN, DISCORD, HTML], ids=lambda m: m.name)
@pytest.mark.parametrize("event", every_event(), ids=lambda e: e.kind)
def test_every_notice_has_its_words_in_every_markup(m, event):
    words = text.event_text(event, m)
    assert words and ("#3" in words or "#9" in words)
    if m is PLAIN:
        assert HOSTILE in words  # plain text is shown as it is (the terminal escapes controls)
    if m is DISCORD:
        assert "**Eve**" not in words and "@everyone" not in words
        assert not re.search(r"(?<!\\)\]\(", words)  # no masked link forms
        assert re.sub(r"\\(.)", r"\1", words.replace("@\u200b", "@")).count(HOSTILE) >= 1
    if m is HTML:
        assert "<b>@everyone" not in words and "&lt;b&gt;@everyone&lt;/b&gt;" in words


def test_the_markups_differ_only_in_markup():
    e = ev.YourMove(recipient=ANN, game_id=3, game="chess", opponent=ANN, ply=1, last_move="e4",
                    deadline=None)
    assert text.event_text(e, PLAIN) == "Your move in game #3 (Chess) against Ann. Ann played e4."
    assert text.event_text(e, DISCORD) == "Your move in game #3 (Chess) against Ann. Ann played **e4**."
    assert text.event_text(e, HTML) == "Your move in game #3 (Chess) against Ann. Ann played <b>e4</b>."


def test_a_deadline_reads_in_each_markup():
    e = every_event()[0]
    assert "Answer by Tue 24 Nov 2026 21:00 UTC." in text.event_text(e, PLAIN)
    stamp = int(WHEN.timestamp())
    assert f"Answer by <t:{stamp}:f> (<t:{stamp}:R>)." in text.event_text(e, DISCORD)


def test_a_lobby_notice_and_an_empty_digest_say_nothing():
    lobby = ev.ChallengeReceived(recipient=None, challenge_id=1, challenger=ANN, game="chess", days=None,
                                 colour="white", setup="default", open=True)
    assert text.event_text(lobby, PLAIN) is None
    assert text.event_text(ev.Digest(recipient=ANN, day="2026-11-24", games=()), HTML) is None


def test_links_lists_and_code_in_each_markup():
    assert PLAIN.link("game", "https://x/g/1") == "game (https://x/g/1)"
    assert DISCORD.link("ga]me", "https://x/g/1") == "[ga\\]me](https://x/g/1)"
    assert HTML.link("<g>", 'https://x/"1') == '<a href="https://x/&quot;1">&lt;g&gt;</a>'
    assert PLAIN.list(["a", "b"]) == "- a\n- b"
    assert HTML.list(["a", "b"]) == "<ul><li>a</li><li>b</li></ul>"
    assert DISCORD.code("a`b") == "`a\u02cbb`"
    assert HTML.lines(["a", "b"]) == "a<br>\nb"


def test_help_comes_from_the_grammar_in_each_markup():
    plain = text.help_text(GRAMMAR, PLAIN)
    for spec in GRAMMAR:
        assert spec.usage in plain and spec.help in plain
    assert "`challenge GAME OPPONENT [days N] [casual]`: challenge someone" in text.help_text(GRAMMAR, DISCORD)
    assert text.help_text(GRAMMAR, HTML, "undo").startswith("<code>takeback [accept|decline]</code>: ")
    with pytest.raises(GrammarError, match="no command 'dance'"):
        text.help_text(GRAMMAR, PLAIN, "dance")


def test_the_games_start_is_the_first_movers_one_notice():
    """Issue 29: at a game's start the player to move is told once, by the notice that it
    has begun; the other player is told it has begun."""
    mover = ev.GameStarted(recipient=ANN, game_id=3, game="chess", white=ANN, black=EVE, days=3,
                           challenge_id=9, rated=True, your_move=True, deadline=WHEN)
    assert text.event_text(mover, PLAIN) == (
        f"Game #3 (Chess) against {HOSTILE} has begun: you play White, 3 days per move, a rated "
        "game. It is your move: answer by Tue 24 Nov 2026 21:00 UTC.")
    stamp = int(WHEN.timestamp())
    assert text.event_text(mover, DISCORD).endswith(f"It is your move: answer by <t:{stamp}:f> (<t:{stamp}:R>).")
    untimed = ev.GameStarted(recipient=ANN, game_id=3, game="chess", white=ANN, black=EVE, days=None,
                             challenge_id=9, your_move=True)
    assert text.event_text(untimed, HTML).endswith("no clock, a casual game. It is your move.")
    waiting = ev.GameStarted(recipient=EVE, game_id=3, game="chess", white=ANN, black=EVE, days=3,
                             challenge_id=9)
    assert text.event_text(waiting, PLAIN) == ("Game #3 (Chess) against Ann has begun: you play Black, "
                                               "3 days per move, a casual game.")
