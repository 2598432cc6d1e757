"""A tournament by mail, through real SMTP and IMAP servers on 127.0.0.1: three players join
(by a reply to the bot's list of tournaments, by a reply to the mail that answers
``tournament join ID`` at the plain address), one leaves and joins again, a forged reply
does nothing; the server owner starts the round robin; each game's first mail names the
event and its round; the games end by mate, resignation and an agreed draw, each a reply to
a game's mail; every player gets the final standings."""

from __future__ import annotations

from .conftest import BOT
from .servers import reply_to_mail, text_of, write_mail

ALICE, BOB, CAROL = "alice@a.test", "bob@b.test", "carol@c.test"


def game_mails(servers, address: str, game_id: int) -> list:
    return [m for m in servers.sent_to(address) if str(m["Subject"]).startswith(f"fairypost game {game_id}:")]


async def entrants(bot, tid: int) -> list[str]:
    return [p.user_id for p in (await bot.service.tournament(tid)).entrants]


async def test_a_round_robin_by_mail(bot, servers):
    await bot.service.create_tournament("chess", name="Winter *cup*", format="round-robin", days=3)

    # the list, and a reply to it that joins
    await servers.deliver(write_mail(ALICE, BOT, "hi", "tournaments"))
    await bot.step()
    listing = servers.last_to(ALICE)
    assert "#1 Winter *cup* · Chess · round robin" in text_of(listing) and "open for entries" in text_of(listing)
    assert str(listing["Reply-To"]).startswith("bot+t0-p")
    await servers.deliver(reply_to_mail(ALICE, listing, "tournament join 1"))
    await bot.step()
    assert "You are in #1 Winter *cup*" in text_of(servers.last_to(ALICE))
    assert await entrants(bot, 1) == [ALICE]

    # at the plain address: nothing done, a mail to reply join to
    await servers.deliver(write_mail(BOB, BOT, "join", "tournament join 1"))
    await bot.step()
    invite = servers.last_to(BOB)
    assert "To join it, reply to this mail with join" in text_of(invite)
    assert str(invite["Reply-To"]).startswith("bot+t1-p")
    assert await entrants(bot, 1) == [ALICE]
    # someone else answering Bob's mail (a forged From, a forwarded mail): no answer, nothing done
    sent_before = len(servers.recorder.mails)
    await servers.deliver(reply_to_mail(CAROL, invite, "join"))
    await bot.step()
    assert len(servers.recorder.mails) == sent_before and await entrants(bot, 1) == [ALICE]
    await servers.deliver(reply_to_mail(BOB, invite, "join"))
    await bot.step()
    assert "You are in #1 Winter *cup*" in text_of(servers.last_to(BOB))
    assert "2 players" in text_of(servers.last_to(BOB))

    await servers.deliver(write_mail(CAROL, BOT, "join", "tournament join 1"))
    await bot.step()
    await servers.deliver(reply_to_mail(CAROL, servers.last_to(CAROL), "join"))
    await bot.step()
    await servers.deliver(reply_to_mail(CAROL, servers.last_to(CAROL), "leave"))
    await bot.step()
    assert "You left #1" in text_of(servers.last_to(CAROL)) and await entrants(bot, 1) == [ALICE, BOB]
    await servers.deliver(reply_to_mail(CAROL, servers.last_to(CAROL), "join"))
    await bot.step()
    assert await entrants(bot, 1) == [ALICE, BOB, CAROL]
    await servers.deliver(reply_to_mail(CAROL, servers.last_to(CAROL), "tournament join 7"))
    await bot.step()
    assert "There is no tournament #7" in text_of(servers.last_to(CAROL))

    # the owner starts it (as `fairypost tournament start 1`): three games, each told by mail
    view = await bot.service.start_tournament(1)
    await bot.step()
    games = [p for p in view.pairings if p.game_id is not None]
    assert len(games) == 3
    for p in games:
        for player in (p.white, p.black):
            first = game_mails(servers, player.user_id, p.game_id)
            assert len(first) == 1
            assert f"Tournament #1 Winter *cup*, round {p.round}: Game #{p.game_id} (Chess)" in text_of(first[0])

    # another event, joined by a reply to a game's mail (signed for the player too)
    await bot.service.create_tournament("chess", name="Spring", format="swiss", rounds=2)
    mate, resigned, drawn = games
    await servers.deliver(reply_to_mail(mate.white.user_id, game_mails(servers, mate.white.user_id, mate.game_id)[-1],
                                        "tournament join 2"))
    await bot.step()
    assert "You are in #2 Spring" in text_of(game_mails(servers, mate.white.user_id, mate.game_id)[-1])

    # the games, every act a reply to the game's last mail
    async def reply(player, game_id, line):
        await servers.deliver(reply_to_mail(player.user_id, game_mails(servers, player.user_id, game_id)[-1], line))
        await bot.step()

    for who, move in ((mate.white, "f3"), (mate.black, "e5"), (mate.white, "g4"), (mate.black, "Qh4#")):
        await reply(who, mate.game_id, move)
    await reply(resigned.black, resigned.game_id, "resign")
    await reply(drawn.white, drawn.game_id, "e4")
    await reply(drawn.black, drawn.game_id, "draw")
    assert "offers a draw" in text_of(game_mails(servers, drawn.white.user_id, drawn.game_id)[-1])
    assert (await bot.service.tournament(1)).status == "running"
    await reply(drawn.white, drawn.game_id, "draw")

    t = await bot.service.tournament(1)
    assert t.status == "finished"
    points = {s.player.user_id: s.points for s in t.standings}
    expected = {p: 0.0 for p in (ALICE, BOB, CAROL)}
    expected[mate.black.user_id] += 1
    expected[resigned.white.user_id] += 1
    expected[drawn.white.user_id] += 0.5
    expected[drawn.black.user_id] += 0.5
    assert points == expected
    winner = t.standings[0]
    for s in t.standings:
        over = servers.last_to(s.player.user_id)
        assert str(over["Subject"]) == "fairypost tournament 1: Winter *cup* is over"
        body = text_of(over)
        place = "you won it" if s.place == 1 else f"you finished {'2nd' if s.place == 2 else '3rd'}"
        assert f"is over: {place} of 3" in body
        assert "Standings (points · SB):" in body and f"1. {winner.player.name} · " in body
        assert str(over["Reply-To"]).startswith("bot+t1-p")
        pictures = [part for part in over.walk() if part.get_content_type() == "image/png"]
        assert [p.get_filename() for p in pictures] == ["crosstable.png"]  # drawn like the boards
        assert pictures[0].get_payload(decode=True).startswith(b"\x89PNG\r\n\x1a\n")
    # a reply to the end's mail reads the standings
    await servers.deliver(reply_to_mail(ALICE, servers.last_to(ALICE), "show"))
    await bot.step()
    assert "Winter *cup* · Chess · round robin · 3 days per move · casual · 3 players · over" in text_of(
        servers.last_to(ALICE))


async def test_tournament_mails_that_do_nothing_say_why(bot, servers):
    svc = bot.service
    await svc.create_tournament("chess", name="Open", format="swiss", rounds=2)
    server_owner = await svc.player("discord", "42", "Host")
    await svc.create_tournament("chess", name="Club only", format="swiss", rounds=2, creator_id=server_owner.id,
                                scope="discord:guild:1")

    async def ask(line: str, to=BOT, reply_to=None) -> str:
        bot.clock.advance(minutes=7)  # (under the loop breaker's answers an hour)
        mail = reply_to_mail(ALICE, reply_to, line) if reply_to is not None else write_mail(ALICE, to, "t", line)
        await servers.deliver(mail)
        await bot.step()
        return text_of(servers.last_to(ALICE))

    listing = await ask("tournaments")
    assert "#1 Open" in listing and "Club only" not in listing  # a Discord server's own event
    assert "which tournament? Give its number" in await ask("tournament join")
    assert "There is no tournament #2 here" in await ask("tournament join 2")
    assert "There is no tournament #9" in await ask("tournament leave 9")
    assert "'now' is not a number" in await ask("tournament join now")
    # an error, to a player's address: its reply address is signed for them (t0), so the
    # command put right in a reply to it acts (issue #41 item 3)
    assert str(servers.last_to(ALICE)["Reply-To"]).startswith("bot+t0-p")
    assert "You are not in Open (#1)" in await ask("leave", reply_to=(await _invite(ask, servers, "leave 1")))
    assert "Mail help for the commands" in await ask("jion", reply_to=servers.last_to(ALICE))
    assert (await svc.tournament(1)).entrants == []
    await svc.join_tournament(1, (await bot.adapter.accounts.player_of(ALICE)).id)
    await svc.join_tournament(1, (await svc.player("email", BOB, "bob")).id)
    await svc.start_tournament(1)
    assert "Open (#1) has begun: it takes no more players" in await ask("tournament join 1")
    assert "which tournament?" in await ask("leave", reply_to=await _invite(ask, servers, "tournaments"))
    assert "has begun: to leave it now, tournament withdraw 1" in await ask(
        "leave", reply_to=await _invite(ask, servers, "leave 1"))
    assert [p.user_id for p in (await svc.tournament(1)).entrants] == [ALICE, BOB]


async def _invite(ask, servers, line: str):
    """The bot's signed answer to a plain mail (the list, or the way to join or leave)."""
    await ask(line if line == "tournaments" else f"tournament {line}")
    return servers.last_to(ALICE)


async def test_a_swiss_bye_is_mailed(bot, servers):
    svc = bot.service
    await svc.create_tournament("chess", name="Odd", format="swiss", rounds=2)
    for address in (ALICE, BOB, CAROL):
        await svc.join_tournament(1, (await bot.adapter.accounts.player_for(address)).id)
    t = await svc.start_tournament(1)
    await bot.step()
    (bye,) = [p for p in t.pairings if p.black is None]
    mail = servers.last_to(bye.white.user_id)
    assert str(mail["Subject"]) == "fairypost tournament 1: round 1"
    assert "Tournament #1 Odd, round 1: you have a bye this round (1 point), no game." in text_of(mail)
    assert str(mail["Reply-To"]).startswith("bot+t1-p")
    (game,) = [p for p in t.pairings if p.black is not None]
    assert "Tournament #1 Odd, round 1: Game #1" in text_of(servers.last_to(game.white.user_id))
