"""A whole Swiss of four on the Discord double: the announcement with its Join button and the
thread of its news; the organiser's acts refused to others; the start opens a thread for
each game (the players' notices link to it) and posts the round; a pause by a server
manager holds the next round back though every game is over, the organiser's resume starts
it; the games end by mate and resignation typed in their threads and by a player's removal;
each result and the final standings reach the news thread, and every player is told."""

from __future__ import annotations

from bot.discord_bot import tournament_commands as tc
from bot.discord_bot import typed
from bot.discord_bot.tournament_join import JoinTournament

from .conftest import press, run
from .helpers import custom_ids, last_answer


async def typed_line(w, thread, member, line: str):
    msg = w.message(thread, author=member, content=line)
    assert await typed.on_message(w.fairy, msg) is True, line
    return msg


def posts(w, where) -> list[str]:
    return [kw.get("content") or "" for kw in w.sent_to(where)]


async def test_a_swiss_through_discord(world):
    w = world
    carol, dave = w.member("*Carol* @everyone"), w.member("Dave")
    for member, manager in ((w.alice, False), (w.bob, False), (carol, False), (dave, True)):
        member.guild_permissions.manage_guild = manager
    svc = w.fairy.service

    i = w.interaction(w.alice)
    await run(tc.create, i, game="chess", name="Club *Swiss*", format="swiss", rounds=2, days=3)
    announcement = last_answer(i)
    assert announcement["ephemeral"] is False and "Press Join" in announcement["content"]
    assert custom_ids(announcement["view"]) == ["fp:tjoin:1"]
    news = w.threads[-1]
    assert news.name == "🏆 Club *Swiss*" and news.parent is w.channel
    assert "The news of tournament #1 **Club \\*Swiss\\***" in posts(w, news)[0]

    message = i.original_response.return_value  # the announcement, its button pressed
    for member in (w.bob, carol, dave):
        j = w.interaction(member, message=message)
        await press(JoinTournament, "fp:tjoin:1", j)
        assert "You are in #1" in last_answer(j)["content"] and last_answer(j)["ephemeral"] is True
    j = w.interaction(w.bob, message=message)
    await press(JoinTournament, "fp:tjoin:1", j)
    assert "You are in Club \\*Swiss\\* (#1) already" in last_answer(j)["content"]
    await run(tc.join, w.interaction(w.alice), id=1)
    edits = [kw for where, kw in w.sent if where == ("edit", message.id)]
    assert "· 4 players · open for entries" in edits[-1]["content"]  # the announcement kept up to date
    assert custom_ids(edits[-1]["view"]) == ["fp:tjoin:1"]

    for act, options in ((tc.start, {}), (tc.pause, {}), (tc.remove, {"player": w.bob})):
        j = w.interaction(carol)
        await run(act, j, id=1, **options)
        assert "Only the organiser of Club \\*Swiss\\* (#1) can do that" in last_answer(j)["content"], act
    assert (await svc.tournament(1)).status == "open"

    await run(tc.start, w.interaction(w.alice), id=1)
    await svc.outbox.dispatch(svc._now())
    t = await svc.tournament(1)
    round1 = [p for p in t.pairings if p.round == 1]
    assert len(round1) == 2 and all(p.game_id for p in round1)
    said = "\n".join(posts(w, news))
    assert "🏁 Round 1 of 2 has begun." in said
    edits = [kw for where, kw in w.sent if where == ("edit", message.id)]
    assert "· under way" in edits[-1]["content"] and edits[-1]["view"] is None  # its Join button gone
    for p in round1:
        row = await w.fairy.links.thread_of(p.game_id)
        assert row is not None and int(row.channel_id) == w.channel.id  # the games' threads: beside the news
        assert f"game #{p.game_id} <#{row.thread_id}>" in said
        for member in (w.alice, w.bob, carol, dave):
            if str(member.id) in (p.white.user_id, p.black.user_id):
                start = [d["content"] for d in w.dms(member) if f"Game #{p.game_id} " in d["content"]]
                assert start and start[0].startswith("Tournament #1 **Club \\*Swiss\\***, round 1: ")
                assert f"/{row.thread_id}" in start[0]  # the link to the game's thread

    # the shared grammar typed in a game's thread
    first = round1[0]
    thread = w.channels[int((await w.fairy.links.thread_of(first.game_id)).thread_id)]
    white = next(m for m in (w.alice, w.bob, carol, dave) if str(m.id) == first.white.user_id)
    black = next(m for m in (w.alice, w.bob, carol, dave) if str(m.id) == first.black.user_id)
    msg = await typed_line(w, thread, white, "tournaments")
    assert "#1 **Club \\*Swiss\\*** · Chess · Swiss, 2 rounds" in msg.reply.call_args.args[0]

    j = w.interaction(dave)  # a server manager may pause it
    await run(tc.pause, j, id=1)
    assert "Paused #1" in last_answer(j)["content"]
    for who, move in ((white, "f3"), (black, "e5"), (white, "g4"), (black, "Qh4#")):
        await typed_line(w, thread, who, move)
    second = round1[1]
    thread2 = w.channels[int((await w.fairy.links.thread_of(second.game_id)).thread_id)]
    loser = next(m for m in (w.alice, w.bob, carol, dave) if str(m.id) == second.black.user_id)
    await typed_line(w, thread2, loser, "resign")
    await svc.outbox.dispatch(svc._now())
    t = await svc.tournament(1)
    assert (t.status, t.round) == ("paused", 1)  # every game over, yet no round 2
    said = "\n".join(posts(w, news))
    assert f"Round 1 · game #{first.game_id}: 0-1 · " in said and "wins by checkmate" in said
    assert f"Round 1 · game #{second.game_id}: 1-0 · " in said and "wins by resignation" in said
    assert "Round 2" not in said

    j = w.interaction(w.alice)
    await run(tc.resume, j, id=1)
    assert "Resumed #1" in last_answer(j)["content"]
    await svc.outbox.dispatch(svc._now())
    t = await svc.tournament(1)
    assert (t.status, t.round) == ("running", 2)
    assert "🏁 Round 2 of 2 has begun." in "\n".join(posts(w, news))
    round2 = [p for p in t.pairings if p.round == 2]
    assert {frozenset((p.white.id, p.black.id)) for p in round2}.isdisjoint(
        {frozenset((p.white.id, p.black.id)) for p in round1})  # no pair twice

    # round 2: one game resigned in its thread, the other ended by removing a player
    a, b = round2
    thread_a = w.channels[int((await w.fairy.links.thread_of(a.game_id)).thread_id)]
    await typed_line(w, thread_a, next(m for m in (w.alice, w.bob, carol, dave) if str(m.id) == a.white.user_id),
                     "resign")
    removed = next(m for m in (w.alice, w.bob, carol, dave) if str(m.id) == b.black.user_id)
    j = w.interaction(w.alice)
    await run(tc.remove, j, id=1, player=removed)
    assert "Took " in last_answer(j)["content"] and "out of #1" in last_answer(j)["content"]
    await svc.outbox.dispatch(svc._now())

    t = await svc.tournament(1)
    assert t.status == "finished"
    g = await svc.game(b.game_id)
    assert (g.result, g.reason) == ("1-0", "withdrawal")
    said = "\n".join(posts(w, news))
    assert said.count("Round 2 · game #") == 2
    final = posts(w, news)[-1]
    picture = w.sent_to(news)[-1]["file"]  # the crosstable drawn like the boards
    assert picture.filename == "crosstable.png" and picture.fp.read(8) == b"\x89PNG\r\n\x1a\n"
    assert final.startswith("🏆 The tournament is over.") and "Standings (points · BH-C1 · BH · DE):" in final
    assert "\\*Carol\\* @\u200beveryone" in final and "Games:" not in final
    assert "(withdrawn)" in final
    for s in t.standings:
        member = next(m for m in (w.alice, w.bob, carol, dave) if str(m.id) == s.player.user_id)
        over = w.dms(member)[-1]["content"]
        place = "you won it" if s.place == 1 else "you finished"
        assert over.startswith("🏆 Tournament #1 **Club \\*Swiss\\*** (Chess) is over: " + place), over

