"""Games and challenges belong to the server they were made in; buttons only act on the
message that carries them; notices only go to channels the player and the bot may use.
Each test is a hole the review found (issue 17, items 2 and 3)."""

from __future__ import annotations

import discord

from bot.discord_bot import commands
from bot.discord_bot.threads import NotifyPref
from bot.discord_bot.views import AcceptChallenge, DeclineChallenge, FlipButton, board_view, challenge_view

from .conftest import press, run, start_game
from .helpers import EVERYONE_MAY_POST, answers, last_answer, make_guild, spec_mock

NOT_HERE = "There is no game #1 you can see here"


def elsewhere(w):
    """A channel in another server, where the bot also is."""
    return w.text_channel("other-club", guild=make_guild())


async def test_a_game_and_its_challenge_carry_the_server_they_were_made_in(world):
    w = world
    gv, _ = await start_game(w)
    assert gv.scope == f"discord:guild:{w.guild.id}"
    assert (await w.fairy.service.get_challenge(1)).scope == gv.scope


async def test_record_and_board_by_number_only_in_the_games_server_or_for_its_players(world):
    w = world
    await start_game(w)
    carol = w.member("Carol")
    for where in ("elsewhere", "dm"):  # another server; a DM
        for cmd in (commands.record, commands.board):
            i = w.interaction(carol, dm=True) if where == "dm" else w.interaction(carol, channel=elsewhere(w))
            await run(cmd, i, game=1)
            a = last_answer(i)
            assert a["content"] == NOT_HERE and "file" not in a, (cmd.name, a)
            assert "Alice" not in a["content"]
    i = w.interaction(carol, channel=elsewhere(w))  # a number that does not exist reads the same
    await run(commands.record, i, game=99)
    assert last_answer(i)["content"] == "There is no game #99 you can see here"
    i = w.interaction(carol)  # in the game's own server anyone may look
    await run(commands.record, i, game=1)
    assert last_answer(i)["file"].filename == "fairypost-game-1.pgn"
    i = w.interaction(w.bob, dm=True)  # and its players anywhere
    await run(commands.board, i, game=1)
    assert "file" in last_answer(i)


async def test_a_crafted_flip_button_from_another_server_shows_nothing(world):
    w = world
    await start_game(w)
    carol = w.member("Carol")
    other = elsewhere(w)
    message = w.message(other, view=board_view(1))  # a forged message is not even needed
    i = w.interaction(carol, channel=other, message=message)
    await press(FlipButton, "fp:flip:1", i)
    (a,) = answers(i)
    assert a["content"] == NOT_HERE and "file" not in a


async def test_an_open_challenge_is_accepted_only_in_its_server(world):
    w = world
    i = w.interaction(w.alice)
    await run(commands.challenge, i, game="chess")
    carol = w.member("Carol")
    for where in (w.dm_channel(carol), elsewhere(w)):  # a crafted accept button, from a DM or another server
        forged = w.message(where, view=challenge_view(1))
        j = w.interaction(carol, channel=where, message=forged)
        await press(AcceptChallenge, "fp:accept:1", j)
        assert last_answer(j)["content"] == "There is no challenge #1 you can accept here"
    assert (await w.fairy.service.get_challenge(1)).status == "open" and not w.threads
    j = w.interaction(carol, message=i.original_response.return_value)  # in its server: fine
    await press(AcceptChallenge, "fp:accept:1", j)
    assert "has begun" in last_answer(j)["content"]


async def test_a_crafted_decline_cannot_overwrite_another_message(world):
    w = world
    _, thread = await start_game(w)
    board = w.messages[max(m for m, msg in w.messages.items() if msg.channel is thread)]
    await run(commands.challenge, w.interaction(w.alice), game="chess", opponent=w.bob)
    edits = [kw for where, kw in w.sent if isinstance(where, tuple)]  # (game 1's accepted challenge)
    # Alice withdraws her own challenge #2 with a custom id forged onto game 1's board
    i = w.interaction(w.alice, channel=thread, message=board)
    await press(DeclineChallenge, "fp:decline:2", i)
    assert last_answer(i)["content"] == "That button does not belong to this message"
    i.response.edit_message.assert_not_called()
    assert [kw for where, kw in w.sent if isinstance(where, tuple)] == edits  # nothing more edited
    assert (await w.fairy.service.get_challenge(2)).status == "open"


# --- /settings channel: -------------------------------------------------------------------

async def _refused(w, target, why: str, *, channel=None) -> None:
    i = w.interaction(w.alice, channel=channel)
    await run(commands.settings, i, notify="channel", channel=target)
    a = last_answer(i)
    assert a["ephemeral"] is True and why in a["content"], a["content"]
    assert await w.fairy.links.notify_pref((await w.fairy.player(w.alice)).id) == NotifyPref("dm")


async def test_notices_only_go_where_the_player_and_the_bot_may_read_and_post(world):
    w = world
    news = w.text_channel("announcements")
    news.is_news.return_value = True
    await _refused(w, news, "cannot go to an announcement channel")
    await _refused(w, elsewhere(w), "That channel is not in this server")
    mute = w.text_channel("rules")
    mute.permissions_for.side_effect = lambda who: (discord.Permissions(view_channel=True)
                                                    if who is w.guild.me else EVERYONE_MAY_POST)
    await _refused(w, mute, "In #rules, the bot may not send messages")
    hidden = w.text_channel("staff")
    hidden.permissions_for.side_effect = lambda who: (discord.Permissions.none() if who is w.alice
                                                      else EVERYONE_MAY_POST)
    await _refused(w, hidden, "In #staff, you may not view channel or send messages")
    forum = spec_mock(discord.ForumChannel, id=77, name="forum", guild=w.guild, type=discord.ChannelType.forum)
    await _refused(w, None, "not to a channel of this kind (forum)", channel=forum)  # used where it cannot post
    ok = w.text_channel("chess-notices")
    i = w.interaction(w.alice)
    await run(commands.settings, i, notify="channel", channel=ok)
    assert last_answer(i)["content"].startswith(f"Done: notices go to <#{ok.id}>")


async def test_a_thread_for_notices_needs_the_right_to_post_in_threads(world):
    w = world
    _, thread = await start_game(w)
    thread.permissions_for.return_value = discord.Permissions(view_channel=True, send_messages=True)
    await _refused(w, None, "may not send messages in threads", channel=thread)


# (the migration giving existing games and challenges their server: tests/bot/test_owned_migrations.py)
