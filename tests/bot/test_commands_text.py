"""Typed commands run for one player (bot/commands/run.py), as the email adapter will run
them: players named by address, replies in HTML with user text escaped, refusals that say
what was wrong and change nothing."""

from __future__ import annotations

import random

import pytest

from bot.commands.run import Context, execute
from bot.domain.errors import ServiceError
from bot.operations.service import GameService
from bot.words import text
from bot.words.grammar import GrammarError, parse
from bot.words.text import HTML, PLAIN


@pytest.fixture
async def service(settings, clock, notifier):
    s = await GameService.open(settings, clock=clock, notifier=notifier, rng=random.Random(1))
    yield s
    await s.close()


async def test_challenge_accept_and_play_by_typed_lines(service, notifier):
    ann = await service.player("email", "ann@example.org", "Ann <b>")
    bob = await service.player("email", "bob@example.org", "Bob")

    async def by_address(who: str):
        for p in (ann, bob):
            if p.user_id == who.lower():
                return p
        return None

    def ctx(player, game_id=None, markup=HTML):
        return Context(service, player, markup, game_id, find_player=by_address)

    r = await execute(parse("challenge grandducal BOB@example.org days 3", in_game=False), ctx(ann))
    # the challenger's own confirmation, not the opponent's text (issue 29)
    assert r.text == ("Challenge #1 sent to <b>Bob</b>: <b>Grand Ducal Chess</b> · rated · 3 days "
                      "per move · colours by lot · open until Mon 13 Jan 2025 12:00 UTC.")
    c2 = await service.challenge(bob.id, "chess", opponent_id=ann.id, colour="white", days=None)
    assert text.challenge_sent_text(c2, HTML) == (
        "Challenge #2 sent to <b>Ann &lt;b&gt;</b>: <b>Chess</b> · rated · no clock · you play White "
        "· open until Mon 13 Jan 2025 12:00 UTC.")
    assert text.challenge_text(c2, PLAIN).startswith(
        "Ann <b>, Bob challenges you (#2): Chess · rated · no clock · Bob plays White")
    await service.cancel_challenge(c2.id, bob.id)
    with pytest.raises(ServiceError, match="no player 'carol@x' here"):
        await execute(parse("challenge chess carol@x", in_game=False), ctx(ann))

    r = await execute(parse("accept", in_game=False), ctx(bob))
    game = r.game
    assert r.changed and "The game begins." in r.text and game.days == 3
    white = ann if game.white.id == ann.id else bob

    r = await execute(parse("moves e2"), ctx(white, game.id))
    assert r.text == "2 moves of the Pawn on e2: e3 e4"
    r = await execute(parse("e4"), ctx(white, game.id, PLAIN))
    assert r.changed and r.text.startswith(f"You played e4 in game #{game.id}.")
    r = await execute(parse("games", in_game=False), ctx(ann, markup=PLAIN))
    assert f"#{game.id} Grand Ducal Chess vs Bob" in r.text


async def test_refusals_change_nothing(service):
    ann = await service.player("email", "ann@example.org", "Ann")
    with pytest.raises(GrammarError, match="draw is about one game: say which"):
        await execute(parse("draw", in_game=False), Context(service, ann, PLAIN))
    with pytest.raises(ServiceError, match="no challenge is open to you"):
        await execute(parse("decline", in_game=False), Context(service, ann, PLAIN))
    r = await execute(parse("vacation", in_game=False), Context(service, ann, PLAIN))
    assert r.text == "You are not on vacation; 14 days of vacation left this year."
    r = await execute(parse("vacation 2", in_game=False), Context(service, ann, PLAIN))
    assert r.text.startswith("You are on vacation until Wed 08 Jan 2025 12:00 UTC: your clocks are stopped.")
    r = await execute(parse("vacation end", in_game=False), Context(service, ann, PLAIN))
    assert r.text.startswith("You are not on vacation")
    assert await service.list_challenges(ann.id) == []


async def test_conditional_lines_and_the_next_game(service):
    ann = await service.player("email", "ann@example.org", "Ann")
    bob = await service.player("email", "bob@example.org", "Bob")
    c = await service.challenge(ann.id, "chess", opponent_id=bob.id, colour="white")
    game = await service.accept_challenge(c.id, bob.id)
    await service.move(game.id, ann.id, "e4")
    r = await execute(parse("next", in_game=False), Context(service, bob, PLAIN))
    assert r.game.id == game.id and r.text.startswith("Game #1 · Chess · Ann 1500? (White) vs Bob 1500? (Black)\n"
                                                       "Your most urgent game:")
    await service.move(game.id, bob.id, "e5")
    r = await execute(parse("premove Nf3 Nc6; d4 exd4"), Context(service, bob, HTML, game.id))
    assert r.text == ("Your conditional lines in game #1 (their move, your answer, ...):<br>\n"
                      "<ul><li>Nf3 Nc6</li><li>d4 exd4</li></ul>")
    r = await execute(parse("premove cancel"), Context(service, bob, PLAIN, game.id))
    assert r.text == "Your 2 conditional lines in game #1 dropped."
    r = await execute(parse("premove"), Context(service, bob, PLAIN, game.id))
    assert r.text.startswith("You have no conditional lines in game #1.")


async def test_help_lists_only_what_can_be_typed_here(service):
    ann = await service.player("email", "ann@example.org", "Ann")
    r = await execute(parse("help", in_game=False), Context(service, ann, PLAIN))
    assert "challenge GAME OPPONENT [days N]" in r.text and "premove [cancel|LINES]" in r.text
    assert "rules [GAME]" in r.text and "piece CODE|NAME" in r.text and "hint" in r.text
    assert "legend" not in r.text and "quit" not in r.text  # the terminal's own
    r = await execute(parse("help hint", in_game=False), Context(service, ann, PLAIN))
    assert r.text == "hint: the move the computer would play (only in games against the computer)"
    with pytest.raises(GrammarError, match="there is no command 'legend'"):
        await execute(parse("help legend", in_game=False), Context(service, ann, PLAIN))


async def test_the_begun_notice_says_rated_or_casual_and_games_show_ratings(service, notifier):
    from bot.delivery import events as ev
    from bot.words.text import DISCORD, event_text
    ann = await service.player("email", "ann@example.org", "Ann")
    bob = await service.player("email", "bob@example.org", "Bob")
    rated = await service.accept_challenge(
        (await service.challenge(ann.id, "chess", opponent_id=bob.id, colour="white")).id, bob.id)
    casual = await service.accept_challenge(
        (await service.challenge(ann.id, "chess", opponent_id=bob.id, colour="white", rated=False)).id, bob.id)
    await service.outbox.drain()
    begun = {e.game_id: event_text(e, PLAIN) for e in notifier.of(ev.GameStarted, bob.id)}
    assert begun[rated.id].endswith("you play Black, 3 days per move, a rated game.")
    assert begun[casual.id].endswith("you play Black, 3 days per move, a casual game.")
    # Ann wins the rated game: the list shows the ratings as they now stand
    await service.move(rated.id, ann.id, "e4")
    await service.resign(rated.id, bob.id)
    after = (await service.game(casual.id))
    r = await execute(parse("games", in_game=False), Context(service, bob, DISCORD))
    assert f"#{casual.id} Chess vs Ann {after.white_rating}: Ann to move" in r.text
    assert after.white_rating != "1500?" and after.black_rating != after.white_rating


async def test_rules_piece_confirm_and_the_computer_refused_by_typed_lines(service):
    ann = await service.player("email", "ann@example.org", "Ann")
    bob = await service.player("email", "bob@example.org", "Bob")
    game = await service.accept_challenge(
        (await service.challenge(ann.id, "grandducal", opponent_id=bob.id, colour="white")).id, bob.id)

    def ctx(player, markup=HTML, game_id=game.id):
        return Context(service, player, markup, game_id)

    r = await execute(parse("rules"), ctx(ann))  # this game's, in HTML for mail
    assert r.text.startswith("Grand Ducal Chess (grandducal): 12 x 8 board") and "<b>Special rules</b>:" in r.text
    r = await execute(parse("rules kingqueen", in_game=False), ctx(ann, PLAIN, None))
    assert r.text.startswith("King and Queen")
    with pytest.raises(GrammarError, match="rules: which game?"):
        await execute(parse("rules", in_game=False), ctx(ann, PLAIN, None))
    r = await execute(parse("piece k"), ctx(bob, PLAIN))
    assert r.text.startswith("K King (Grand Ducal Chess)\n")
    with pytest.raises(ServiceError, match=r"Grand Ducal Chess has no piece '<b>x'\. Its pieces: K King"):
        await execute(parse("piece <b>x"), ctx(bob))

    r = await execute(parse("confirm on", in_game=False), ctx(ann, PLAIN, None))
    assert r.text == 'Moves you type are asked about ("Play Nf3?") before they are played.'
    assert (await service.get_player(ann.id)).settings.confirm_moves == "typed"
    await service.update_settings(bob.id, confirm_moves="all")
    await execute(parse("confirm on", in_game=False), ctx(bob, PLAIN, None))
    assert (await service.get_player(bob.id)).settings.confirm_moves == "all"  # kept: every move asked
    r = await execute(parse("confirm off", in_game=False), ctx(bob, PLAIN, None))
    assert r.text == "Moves you type are played as typed."
    assert (await service.get_player(bob.id)).settings.confirm_moves == "off"

    with pytest.raises(ServiceError, match="hints are only for games against the computer"):
        await execute(parse("hint"), ctx(ann))
    with pytest.raises(ServiceError, match="a review is for a finished game"):
        await execute(parse("review"), ctx(ann))
    await service.resign(game.id, bob.id)
    with pytest.raises(ServiceError, match="the computer is not playing here just now"):
        await execute(parse("review"), ctx(ann))  # no computer wired to this adapter


async def test_tournament_show_gives_the_page_when_the_bot_has_a_public_address(settings, clock, notifier):
    from dataclasses import replace

    from bot.identity import page_tokens as tokens
    for web_url, page in ((None, None), ("https://chess.example", "Tournament page: <https://chess.example/t/1/")):
        s = replace(settings, web_url=web_url, web_secret="s3cret", db_path=settings.db_path + f".{bool(web_url)}")
        svc = await GameService.open(s, clock=clock, notifier=notifier)
        try:
            ann = await svc.player("email", "ann@example.org", "Ann")
            await svc.create_tournament("chess", name="Cup", format="round-robin")
            r = await execute(parse("tournament show 1", in_game=False), Context(svc, ann, PLAIN))
            assert r.text.startswith("#1 Cup · Chess · round robin")
            if page is None:
                assert "Tournament page" not in r.text
            else:
                assert r.text.endswith(page + tokens.sign_tournament(b"s3cret", 1) + ">")
        finally:
            await svc.close()
