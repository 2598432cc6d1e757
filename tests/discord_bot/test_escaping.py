"""What users write (display names, typed text) is posted as literal text, and only the
intended recipients of a post can be pinged (issue 17, item 4)."""

from __future__ import annotations

from bot.discord_bot import commands, format

from .conftest import run, start_game
from .helpers import last_answer, pinged, pings_no_one

EVIL = "<@999> [Claim Nitro](https://example.com) @everyone"


def assert_literal(text: str) -> None:
    """No mention, masked link or @everyone can form in ``text``."""
    assert "<@999>" not in text and "[Claim Nitro](" not in text and "@everyone" not in text, text
    assert "Claim Nitro" in text  # the name is still there, as text


def test_safe_makes_markdown_and_mentions_literal():
    assert format.safe("Alice") == "Alice"
    assert format.safe("Jean-Luc #1") == "Jean-Luc #1"  # nothing to escape mid-line
    assert format.safe(EVIL) == "\\<@\u200b999> \\[Claim Nitro\\](https://example.com) @\u200beveryone"
    assert format.safe("# big\n> quote\n- item") == "\\# big\n\\> quote\n\\- item"
    assert format.safe("**b** _i_ ~~s~~ ||spoiler|| `code`") == \
        "\\*\\*b\\*\\* \\_i\\_ \\~\\~s\\~\\~ \\|\\|spoiler\\|\\| \\`code\\`"
    assert format.bold("a*b") == "**a\\*b**"


async def test_a_name_that_mentions_and_links_is_posted_as_text_and_pings_no_one(world):
    w = world
    mallory = w.member(EVIL)
    i = w.interaction(mallory)
    await run(commands.challenge, i, game="chess", opponent=w.bob, colour="white")
    a = last_answer(i)
    assert_literal(a["content"])
    assert pinged(a) == [w.bob.id] and a["allowed_mentions"].everyone is False
    assert a["allowed_mentions"].roles is False
    assert_literal(w.dms(w.bob)[-1]["content"])  # the challenge notice
    gv, thread = await start_game(w, white=mallory, black=w.bob)
    first = w.sent_to(thread)[0]
    assert_literal(first["content"])
    assert pinged(first) == [mallory.id, w.bob.id]  # the players, not user 999
    await run(commands.move, w.interaction(mallory, channel=thread), move="e4")
    board, dm = w.sent_to(thread)[-1], w.dms(w.bob)[-1]
    assert_literal(board["content"])
    assert pinged(board) is False
    assert_literal(dm["content"])
    assert dm["content"].startswith(f"Your move in game #{gv.id}")
    assert pings_no_one(dm["allowed_mentions"])


async def test_a_notice_in_a_channel_pings_its_recipient_only(world):
    w = world
    mallory = w.member(EVIL)
    await run(commands.settings, w.interaction(w.bob), notify="channel")
    _, thread = await start_game(w, white=mallory, black=w.bob)
    await run(commands.move, w.interaction(mallory, channel=thread), move="e4")
    notice = w.sent_to(thread)[-1]
    assert notice["content"].startswith(f"<@{w.bob.id}> Your move")
    assert_literal(notice["content"])
    assert pinged(notice) == [w.bob.id] and notice["allowed_mentions"].everyone is False


async def test_typed_text_echoed_in_a_refusal_is_literal(world):
    w = world
    _, thread = await start_game(w)
    i = w.interaction(w.alice, channel=thread)
    await run(commands.move, i, move="<@&1234> [x](https://e.example)")
    a = last_answer(i)
    assert a["ephemeral"] is True and pings_no_one(a["allowed_mentions"])
    assert "1234>" in a["content"]  # the refusal quotes it,
    assert "<@&1234>" not in a["content"] and "[x](" not in a["content"]  # as text


async def test_games_lists_names_as_text(world):
    w = world
    mallory = w.member(EVIL)
    await start_game(w, white=mallory, black=w.bob)
    i = w.interaction(w.bob)
    await run(commands.games, i)
    assert_literal(last_answer(i)["embed"].description)
