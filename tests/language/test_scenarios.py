"""The service's scenarios in each language (issue #44): no English sentence left in what a
player reads.

The real ``GameService`` (a real SQLite file, the real rules, an injected clock) is driven
through a whole life: challenges (open, direct, to the computer), accepting, declining and
withdrawing them, moves, an illegal move, a draw offered and declined, a takeback asked and
answered both ways, conditional moves played and dropped, a vacation, reminders and a digest
as time passes, a challenge that expires, a game lost on time, a resignation, a mate, a
tournament's start, its byes and its standings. Every notice the notifier receives is said
through the words of each front end (PLAIN, DISCORD, HTML, each ``in_language(code)``), and
so is every refusal's ``e.text``, the games' status and the tournament's standings: for
French, German and Spanish, ``english_left`` finds nothing (it also reports the English-only
words, ``leaks.ENGLISH_ONLY``, that no catalog of the language uses).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import pytest

from bot.computer import player as computer
from bot.config import Settings
from bot.delivery import events as ev
from bot.delivery.events import MemoryNotifier
from bot.domain.errors import ServiceError
from bot.operations.service import GameService
from bot.timekeeping.clock import ManualClock
from bot.tournaments.crosstable import crosstable_of, crosstable_picture
from bot.words.text import DISCORD, HTML, PLAIN, event_text, status_text
from bot.words.tournament_text import standings_text, tournament_line
from language import language
from tests.language.leaks import ENGLISH_ONLY, english_left

T0 = datetime(2025, 1, 6, 12, 0, tzinfo=UTC)  # a Monday, noon UTC
NAMES = ["Alice", "Bob", "Carol", "Dave"]
#: the players' own words: their names, a tournament's name, what they typed
OWN = [*NAMES, "Erin", "Winter cup", "fairypost level", "nochess", "xx"]
#: keywords a player types (the glossary): the games' ids a refusal lists, the options named
KEYWORDS = ["chess ganymede gigachess2 grandducal kingqueen superchess", "rated casual"]
LANGS = ("fr", "de", "es")
MARKUPS = (PLAIN, DISCORD, HTML)


@dataclass
class Life:
    """What a player read in the scenarios: the notices, the refusals, the views."""

    events: list[ev.Event] = field(default_factory=list)
    refusals: list[ServiceError] = field(default_factory=list)
    views: list = field(default_factory=list)  # GameViews, said by status_text
    tournaments: list = field(default_factory=list)  # TournamentViews


async def refused(life: Life, call) -> ServiceError:
    """Run ``call`` (an awaitable) expecting a refusal; keep it."""
    with pytest.raises(ServiceError) as caught:
        await call
    life.refusals.append(caught.value)
    return caught.value


async def _games(svc, clock, notes, life: Life) -> None:
    a, b, c, d = [await svc.player("test", n.lower(), n) for n in NAMES]
    await svc.update_settings(a.id, digest_time="08:00")

    # an open challenge, taken; a direct one declined; one withdrawn; one left to expire
    open_ = await svc.challenge(a.id, "chess", colour="white")
    await refused(life, svc.decline_challenge(open_.id, b.id))
    await refused(life, svc.accept_challenge(open_.id, a.id))
    mate_game = (await svc.accept_challenge(open_.id, b.id)).id
    declined = await svc.challenge(c.id, "chess", opponent_id=a.id)
    await svc.decline_challenge(declined.id, a.id)
    withdrawn = await svc.challenge(c.id, "chess", opponent_id=b.id, rated=False)
    await svc.cancel_challenge(withdrawn.id, c.id)
    await svc.challenge(d.id, "chess", opponent_id=c.id, days=1, colour="black")
    await refused(life, svc.challenge(a.id, "nochess", opponent_id=b.id))
    await refused(life, svc.challenge(a.id, "chess", opponent_id=a.id))
    await svc.update_settings(a.id, language="fr")
    await refused(life, svc.update_settings(a.id, language="xx"))
    assert (await svc.get_player(a.id)).settings.language == "fr"  # the refusal changed nothing

    # the mate, with an illegal move, a draw offer declined, takebacks and conditional moves
    await svc.move(mate_game, a.id, "f3")
    await refused(life, svc.move(mate_game, a.id, "e4"))  # not their move
    await refused(life, svc.move(mate_game, b.id, "e6e3"))  # no piece there
    await refused(life, svc.move(mate_game, b.id, "Ke2"))  # illegal
    await svc.offer_draw(mate_game, b.id)
    await svc.decline_draw(mate_game, a.id)
    await svc.move(mate_game, b.id, "e5")
    await svc.ask_takeback(mate_game, b.id)
    await svc.decline_takeback(mate_game, a.id)
    await svc.set_premoves(mate_game, b.id, "g4 Qh4; d4 exd4; h3 d5")
    await refused(life, svc.set_premoves(mate_game, a.id, "zz9"))
    await svc.move(mate_game, a.id, "a3")  # none of the lines expected it: dropped
    await svc.move(mate_game, b.id, "d6")
    await svc.ask_takeback(mate_game, b.id)
    await svc.accept_takeback(mate_game, a.id)
    await svc.move(mate_game, b.id, "Nc6")
    await svc.set_premoves(mate_game, b.id, "g4 Qh4")
    await svc.move(mate_game, a.id, "g4")  # answered at once: mate
    life.views.append(await svc.game(mate_game))
    await refused(life, svc.resign(mate_game, a.id))

    # against the computer (taken at once, as the front ends do), resigned after a move each
    bot, vs_computer = await computer.challenge_computer(svc, a.id, "chess", colour="black")
    await refused(life, svc.challenge(a.id, "chess", opponent_id=bot.id, rated=True))
    game = await svc.game(vs_computer.game_id)
    white, black = bot, a
    assert await svc.report_stalled_turn(game.id, bot.id, 3)  # its worker failed thrice: Alice is told
    await svc.move(game.id, white.id, "e4")
    await svc.move(game.id, black.id, "e5")
    life.views.append(await svc.resign(game.id, a.id))

    # a vacation, reminders as the clock runs, a digest, an expired challenge, a timeout
    timed = await svc.challenge(a.id, "chess", opponent_id=b.id, days=2, colour="black")
    timed_game = (await svc.accept_challenge(timed.id, b.id)).id
    await svc.move(timed_game, b.id, "d4")
    await svc.start_vacation(c.id, 2)
    await refused(life, svc.start_vacation(c.id, 1))
    await svc.end_vacation(c.id)
    for hours in (25, 14, 8, 1, 1):
        clock.advance(timedelta(hours=hours))
        await svc.sweep()
    life.views.append(await svc.game(timed_game))
    await refused(life, svc.move(timed_game, a.id, "d5"))  # over

    await svc.outbox.drain()
    life.events.extend(notes.events)


async def _tournament(svc, notes, life: Life) -> None:
    ps = [await svc.player("test", f"t{i}", n) for i, n in enumerate(NAMES[:3], 1)]
    t = await svc.create_tournament("chess", name="Winter cup", format="swiss", rounds=2, creator_id=ps[0].id)
    for p in ps:
        await svc.join_tournament(t.id, p.id)
    await refused(life, svc.join_tournament(t.id, ps[1].id))
    t = await svc.start_tournament(t.id, ps[0].id)
    life.tournaments.append(t)
    for p in t.pairings:
        if p.black is not None and p.round == 1:
            await svc.resign(p.game_id, p.black.id)
    await svc.outbox.drain()
    t = await svc.tournament(t.id)
    for p in t.pairings:
        if p.black is not None and p.round == 2 and p.result is None:
            await svc.resign(p.game_id, p.white.id)
    await svc.outbox.drain()
    life.tournaments.append(await svc.tournament(t.id))
    life.events.extend(notes.events)


async def _deadlines(svc, clock, notes, life: Life) -> None:
    """Two Swiss events with a round deadline: one leaves the games still going to its
    director, the other has the engine adjudicate them; and a round robin's start."""
    director = await svc.player("test", "director", "Dave")
    ps = [await svc.player("test", f"d{i}", n) for i, n in enumerate(NAMES[:3] + ["Erin"], 1)]
    for adjudicate in (False, True):
        t = await svc.create_tournament("chess", name="Winter cup", format="swiss", rounds=2, days="none",
                                        round_days=7, creator_id=director.id, adjudicate=adjudicate)
        for p in ps:
            await svc.join_tournament(t.id, p.id)
        life.tournaments.append(await svc.start_tournament(t.id))
    clock.advance(timedelta(days=7, seconds=1))
    await svc.sweep()
    rr = await svc.create_tournament("chess", name="Winter cup", format="round-robin", creator_id=director.id)
    for p in ps[:3]:
        await svc.join_tournament(rr.id, p.id)
    life.tournaments.append(await svc.start_tournament(rr.id))
    await svc.outbox.drain()
    life.events.extend(notes.events)


@pytest.fixture
async def life(tmp_path) -> Life:
    clock, notes = ManualClock(T0), MemoryNotifier()
    svc = await GameService.open(Settings(db_path=str(tmp_path / "games.db"), command_rate_per_minute=0,
                                          challenge_days=2),
                                 clock=clock, notifier=notes, rng=random.Random(7))
    lived = Life()
    try:
        await _games(svc, clock, notes, lived)
        notes.clear()
        await _tournament(svc, notes, lived)
        notes.clear()
        await _deadlines(svc, clock, notes, lived)
    finally:
        await svc.close()
    return lived


def said(life: Life, code: str) -> list[str]:
    """Everything the players read, in ``code``, through each front end's words."""
    out = []
    for markup in MARKUPS:
        m = markup.in_language(code)
        out += [t for e in life.events if (t := event_text(e, m)) is not None]
        out += [m.say(e.text) for e in life.refusals]
        out += [status_text(v, m) for v in life.views]
        out += [tournament_line(t, m) for t in life.tournaments]
        out += [standings_text(t, m, games=True) for t in life.tournaments]
        out += [crosstable_of(t, m).subtitle for t in life.tournaments]
    return out


def test_the_scenarios_reach_every_kind_of_notice(life):
    kinds = {type(e) for e in life.events}
    for kind in (ev.ChallengeReceived, ev.ChallengeClosed, ev.GameStarted, ev.YourMove, ev.GameOver,
                 ev.DrawOffered, ev.DrawDeclined, ev.TakebackAsked, ev.TakebackAnswered, ev.PremovePlayed,
                 ev.PremovesDropped, ev.TimeWarning, ev.Digest, ev.TournamentBye, ev.TournamentOver,
                 ev.TournamentDeadline, ev.ComputerStalled):
        assert kind in kinds, kind.__name__
    hows = {e.how for e in life.events if isinstance(e, ev.ChallengeClosed)}
    assert hows == {"declined", "cancelled", "expired"}
    reasons = {e.reason for e in life.events if isinstance(e, ev.GameOver)}
    assert {"checkmate", "resignation", "time", "adjudication"} <= reasons
    assert {e.adjudicated for e in life.events if isinstance(e, ev.TournamentDeadline)} == {False, True}
    assert len(life.refusals) == 14


@pytest.mark.parametrize("code", LANGS)
def test_no_english_left_in_any_language(life, code):
    english = said(life, "en")
    texts = said(life, code)
    assert len(texts) == len(english) > 100
    leaks = {text: left for text in texts if (left := english_left(text, code, own=OWN + KEYWORDS))}
    assert leaks == {}
    for text, before in zip(texts, english, strict=True):
        if any(w in ENGLISH_ONLY for w in before.lower().split()):
            assert text != before  # a sentence that was English is said anew


def test_a_few_sentences_exactly(life):
    fr, de, es = (PLAIN.in_language(code) for code in LANGS)
    started = next(e for e in life.events if isinstance(e, ev.GameStarted) and e.tournament_id and not e.your_move)
    assert event_text(started, PLAIN).startswith(f"Tournament #{started.tournament_id} Winter cup, round 1: Game #")
    assert event_text(started, fr).startswith(f"Tournoi #{started.tournament_id} Winter cup, ronde 1. La partie #")
    assert event_text(started, de).startswith(f"Turnier #{started.tournament_id} Winter cup, Runde 1: Partie #")
    assert event_text(started, es).startswith(f"Torneo #{started.tournament_id} Winter cup, ronda 1. La partida #")
    swiss = life.tournaments[0]
    assert crosstable_of(swiss).subtitle == "Chess · Swiss · round 1 of 2 · 3 days per move"  # as before
    assert crosstable_of(swiss, fr).subtitle.endswith(" · système suisse · ronde 1 sur 2 · 3 jours par coup")
    assert crosstable_of(swiss, de).subtitle.endswith(" · Schweizer System · Runde 1 von 2 · 3 Tage pro Zug")
    assert crosstable_of(swiss, es).subtitle.endswith(" · sistema suizo · ronda 1 de 2 · 3 días por jugada")


def test_the_crosstable_picture_in_the_readers_language(life):
    over = life.tournaments[-1]
    english = crosstable_picture(over)
    assert english == crosstable_picture(over, language("en"))
    for code in LANGS:
        picture = crosstable_picture(over, language(code))
        assert picture.startswith(b"\x89PNG") and picture != english  # its headings and subtitle said anew


# --- the same life typed (Discord's thread, a mail's reply): every reply and refusal --------

#: (who types: "w"/"b", White and Black of the game once made, Alice and Bob before; the line;
#: the game it is about: "mate" or None); a refusal is expected where the line begins with "!"
TYPED_LIFE = [
    ("w", "challenge chess Bob", None), ("b", "challenges", None), ("b", "accept", None),
    ("b", "games", None), ("w", "next", None), ("w", "board", "mate"), ("w", "moves e2", "mate"),
    ("w", "move f3", "mate"), ("w", "!move e4", "mate"), ("b", "!move Ke2", "mate"), ("b", "draw", "mate"),
    ("w", "draw decline", "mate"), ("b", "move e5", "mate"), ("b", "takeback", "mate"),
    ("w", "takeback decline", "mate"), ("b", "premove g4 Qh4; d4 exd4", "mate"), ("b", "premove", "mate"),
    ("w", "!premove zz9", "mate"), ("b", "vacation", None), ("b", "vacation 2", None), ("b", "!vacation 2", None),
    ("b", "vacation end", None), ("w", "!challenge nochess Bob", None), ("w", "!language xx", None),
    ("w", "move g4", "mate"), ("w", "!resign", "mate"), ("w", "games", None), ("w", "ratings chess", None),
    ("w", "record", "mate"), ("w", "!accept 99", None), ("w", "help", None), ("w", "help premove", None),
    ("w", "tournaments", None),
]


async def _typed(tmp_path, reads: dict[str, str], markup=DISCORD) -> list[tuple[str, str]]:
    """Alice and Bob type the life above, each reading the language ``reads`` gives for
    their name in ``markup``; what they read (every reply, and each refusal as their front
    end says it), with the language each read it in."""
    from bot.commands.run import Context, execute
    from bot.words.grammar import GrammarError, parse
    svc = await GameService.open(Settings(db_path=str(tmp_path / "typed.db"), command_rate_per_minute=0),
                                 clock=ManualClock(T0), notifier=MemoryNotifier(), rng=random.Random(7))
    read = []
    try:
        players = {k: await svc.player("test", k, n) for k, n in (("w", "Alice"), ("b", "Bob"))}
        by_name = {p.name: p for p in players.values()}

        async def find(word: str):
            return by_name.get(word)
        mate = None
        for who, line, about in TYPED_LIFE:
            refusal = line.startswith("!")
            game = mate if about == "mate" else None
            code = reads[players[who].name]
            m = markup.in_language(code)
            ctx = Context(svc, await svc.get_player(players[who].id), m, game_id=game, find_player=find)
            try:
                reply = await execute(parse(line.lstrip("!")), ctx)
            except GrammarError as e:
                assert refusal, (line, str(e))
                read.append((code, e.said(m)))
                continue
            except ServiceError as e:
                assert refusal, (line, str(e))
                read.append((code, m.say(e.text)))
                continue
            assert not refusal, line
            read.append((code, reply.text))
            if mate is None and reply.game is not None:
                mate = reply.game.id
                players = {"w": by_name[reply.game.white.name], "b": by_name[reply.game.black.name]}
    finally:
        await svc.close()
    return read


def _typed_leaks(read: list[tuple[str, str]]) -> dict[str, list[str]]:
    """The English left in what was read (the record, a PGN, is the same in every language)."""
    from bot.words.grammar import GRAMMAR
    pgn = read.pop([line for _, line, _ in TYPED_LIFE].index("record"))[1]
    assert "[Termination" in pgn.replace("\\", "")
    # what they typed, shown back as typed; the commands' names and other spellings (help)
    typed = [line.lstrip("!") for _, line, _ in TYPED_LIFE] + [" ".join(s.aliases) for s in GRAMMAR]
    return {text: left for code, text in read if (left := english_left(text, code, own=OWN + KEYWORDS + typed))}


@pytest.mark.parametrize("code", LANGS)
@pytest.mark.parametrize("markup", [DISCORD, HTML], ids=["discord", "html"])
async def test_typed_commands_leave_no_english(tmp_path, code, markup):
    read = await _typed(tmp_path, {"Alice": code, "Bob": code}, markup)
    assert len(read) == len(TYPED_LIFE)
    assert _typed_leaks(read) == {}


async def test_two_players_of_one_game_each_read_their_own(tmp_path):
    read = await _typed(tmp_path, {"Alice": "fr", "Bob": "de"})
    assert {code for code, _ in read} == {"fr", "de"}
    assert _typed_leaks(read) == {}
    said = [text for _, text in read]
    # each move's reply in its mover's language (the colours are drawn: either may be White,
    # who makes two of the three moves)
    french, german = (sum(t.startswith(w) for t in said) for w in ("Vous avez joué **", "Du hast **"))
    assert {french, german} == {1, 2}


async def test_typed_replies_in_french_exactly(tmp_path):
    read = [text for _, text in await _typed(tmp_path, {"Alice": "fr", "Bob": "fr"})]
    assert "Vous n'êtes pas en congés ; il vous reste 30\xa0jours de congés cette année." in read  # Babel's unit
    ratings = next(t for t in read if t.startswith("Classements, Échecs :"))
    assert "(1 partie classée)" in ratings and "rated" not in ratings
