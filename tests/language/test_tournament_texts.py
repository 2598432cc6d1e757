"""Tournaments in French, German and Spanish: the standings, the games and their results
(decided ones with who and why), the one-line summaries, the directors' replies, the
refusals the service gives, and Discord's tournament commands' descriptions. Everything is
made through the real service on a real SQLite file, with a clock the test moves."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

import rules
from bot.config import Settings
from bot.delivery.events import MemoryNotifier
from bot.domain.errors import ServiceError
from bot.operations.service import GameService
from bot.timekeeping.clock import ManualClock
from bot.tournaments.acts import ACTS, run_act
from bot.tournaments.director_tables import WITHDRAWAL_RULES  # typed keywords
from bot.words.grammar import GrammarError
from bot.words.text import DISCORD, HTML, PLAIN
from bot.words.tournament_text import tournament_line, tournament_text
from language import language
from tests.language.leaks import english_left

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
NAMES = ["Ana Lopez", "Bea Kraus", "Cid Martin", "Dora Petit"]
OWN = [*NAMES, "Spring cup", "Autumn open", "agreed by mail"]  # names, and a reason typed
LANGS = ("fr", "de", "es")
#: the typed commands' keywords, which stay as the player types them
TYPED = ["tournament", *ACTS, "--round-days round_days"]


@pytest.fixture
async def svc(tmp_path):
    service = await GameService.open(Settings(db_path=str(tmp_path / "games.db"), command_rate_per_minute=0),
                                     clock=ManualClock(T0), notifier=MemoryNotifier())
    yield service
    await service.close()


async def _players(svc, n=4):
    return [await svc.player("test", f"p{i}", name) for i, name in enumerate(NAMES[:n], 1)]


async def _round_robin(svc):
    """A round robin of four under way: one game resigned, one decided by a director, one
    player withdrawn (their unplayed games decided by the rules)."""
    ps = await _players(svc)
    t = await svc.create_tournament("chess", name="Spring cup", format="round-robin", creator_id=ps[0].id,
                                    withdrawal="keep")
    for p in ps:
        await svc.join_tournament(t.id, p.id)
    t = await svc.start_tournament(t.id, ps[0].id)
    first = next(p for p in t.pairings if p.round == 1 and p.black is not None)
    await svc.resign(first.game_id, first.white.id)
    second = next(p for p in t.pairings if p.round == 1 and p.black is not None and p.game_id != first.game_id)
    await svc.set_tournament_result(t.id, second.game_id, "1/2-1/2", "agreed by mail", ps[0].id)
    await svc.withdraw_from_tournament(t.id, ps[3].id)
    return ps, await svc.tournament(t.id)


async def _swiss(svc):
    ps = await _players(svc, 3)
    t = await svc.create_tournament("chess", name="Autumn open", format="swiss", rounds=3, creator_id=ps[0].id)
    for p in ps:
        await svc.join_tournament(t.id, p.id)
    return ps, await svc.start_tournament(t.id, ps[0].id)


@pytest.mark.parametrize("code", LANGS)
async def test_standings_and_games_have_no_english_left(svc, code):
    _, rr = await _round_robin(svc)
    _, swiss = await _swiss(svc)
    for markup in (PLAIN, DISCORD, HTML):
        m = markup.in_language(code)
        for t in (rr, swiss):
            text = tournament_text(t, m)
            assert english_left(text, code, own=OWN) == [], text


async def test_french_standings_read_as_french(svc):
    _, rr = await _round_robin(svc)
    _, swiss = await _swiss(svc)
    fr = PLAIN.in_language("fr")
    text = tournament_text(rr, fr)
    assert "toutes rondes" in text and "4 joueurs" in text and "Classement (points · SB) :" in text
    assert "Dora Petit (retiré)" in text
    assert "décidé par Ana Lopez : agreed by mail" in text  # the director's reason, as typed
    assert "décidé par Dora Petit : Dora Petit s'est retiré" in text  # the bot's own reason, translated
    assert "Parties :" in text and "ronde 1 : " in text
    line = tournament_line(swiss, fr)
    assert "système suisse, 3 rondes" in line and "en cours" in line
    assert "Ronde 1 sur 3." in tournament_text(swiss, fr)


async def test_english_is_as_before(svc):
    _, swiss = await _swiss(svc)
    line = tournament_line(swiss, PLAIN)
    assert line == (f"#{swiss.id} Autumn open · Chess · Swiss, 3 rounds · 3 days per move · casual · "
                    "3 players · under way")
    assert "Round 1 of 3." in tournament_text(swiss, PLAIN)


async def test_two_readers_of_one_event_each_get_their_own(svc):
    _, rr = await _round_robin(svc)
    fr, de = tournament_text(rr, DISCORD.in_language("fr")), tournament_text(rr, DISCORD.in_language("de"))
    assert "Classement" in fr and "Tabelle" not in fr
    assert "Tabelle (Punkte · SB):" in de and "Classement" not in de
    assert "Dora Petit (zurückgezogen)" in de


@pytest.mark.parametrize("code", LANGS)
async def test_directors_replies_have_no_english_left(svc, code):
    ps = await _players(svc)
    t = await svc.create_tournament("chess", name="Spring cup", format="round-robin", creator_id=ps[0].id)
    for p in ps[:3]:
        await svc.join_tournament(t.id, p.id)
    m = PLAIN.in_language(code)
    replies = [await run_act(svc, ps[0].id, "start", t.id, None, m, None)]
    t = await svc.tournament(t.id)
    game = next(p.game_id for p in t.pairings if p.game_id is not None)
    replies.append(await run_act(svc, ps[0].id, "extend", t.id, f"{game} 2", m, None))
    replies.append(await run_act(svc, ps[0].id, "result", t.id, f"{game} 1-0 no show", m, None))
    replies.append(await run_act(svc, ps[0].id, "pause", t.id, None, m, None))
    for reply in replies:
        assert english_left(reply, code, own=OWN + ["no show"]) == [], reply
    if code == "fr":
        assert replies[1].startswith(f"La partie #{game} de Spring cup a 2 jours de plus.")
        assert replies[3].startswith("En pause : ")


async def _refusals(svc):
    """Refusals made to happen through the service (and the typed acts); each (error, the
    values that must still be in what the player reads)."""
    ps = await _players(svc)
    t = await svc.create_tournament("chess", name="Spring cup", format="round-robin", creator_id=ps[0].id)
    await svc.join_tournament(t.id, ps[0].id)
    tries = [
        (lambda: svc.create_tournament("nochess", name="x", format="swiss", rounds=3), ["nochess"]),
        (lambda: svc.create_tournament("chess", name=" ", format="swiss", rounds=3), []),
        (lambda: svc.create_tournament("chess", name="x" * 200, format="swiss", rounds=3), ["200"]),
        (lambda: svc.create_tournament("chess", name="x", format="knockout"), ["knockout"]),
        (lambda: svc.create_tournament("chess", name="x", format="swiss", double=True, rounds=3), []),
        (lambda: svc.create_tournament("chess", name="x", format="swiss"), []),
        (lambda: svc.create_tournament("chess", name="x", format="swiss", rounds=99), ["99"]),
        (lambda: svc.create_tournament("chess", name="x", format="round-robin", rounds=3), []),
        (lambda: svc.create_tournament("chess", name="x", format="swiss", rounds=3, min_rating="lots"), ["lots"]),
        (lambda: svc.create_tournament("chess", name="x", format="swiss", rounds=3, min_rating=1800,
                                       max_rating=1200), []),
        (lambda: svc.create_tournament("chess", name="x", format="swiss", rounds=3, withdrawal="never"), ["never"]),
        (lambda: svc.create_tournament("chess", name="x", format="round-robin", adjudicate=True), []),
        (lambda: svc.join_tournament(t.id, ps[0].id), ["Spring cup"]),
        (lambda: svc.leave_tournament(t.id, ps[1].id), ["Spring cup"]),
        (lambda: svc.start_tournament(t.id, ps[0].id), ["Spring cup"]),
        (lambda: svc.pause_tournament(t.id, ps[0].id), ["Spring cup"]),
        (lambda: svc.resume_tournament(t.id, ps[0].id), ["Spring cup"]),
        (lambda: svc.start_tournament(t.id, ps[2].id), ["Spring cup"]),
        (lambda: svc.tournament(9999), ["9999"]),
        (lambda: svc.set_tournament_result(t.id, 1, "2-0", "why", ps[0].id), ["2-0"]),
        (lambda: svc.set_tournament_result(t.id, 1, "1-0", " ", ps[0].id), []),
        (lambda: svc.extend_tournament_game(t.id, 1, 99, ps[0].id), ["99"]),
        (lambda: svc.extend_tournament_game(t.id, 1, 2, ps[0].id), ["Spring cup"]),
        (lambda: svc.remove_tournament_director(t.id, ps[0].id, ps[0].id), []),
        (lambda: svc.remove_tournament_director(t.id, ps[2].id), ["Player", "Spring cup"][1:]),
        (lambda: svc.add_tournament_director(t.id, ps[0].id), ["Ana Lopez", "Spring cup"]),
        (lambda: run_act(svc, ps[0].id, "result", t.id, "x 9-9 why", PLAIN, None), ["9-9"]),
        (lambda: run_act(svc, ps[0].id, "extend", t.id, "abc 2", PLAIN, None), ["abc"]),
        (lambda: run_act(svc, ps[0].id, "start", t.id, "now please", PLAIN, None), ["now please"]),
        (lambda: run_act(svc, ps[0].id, "director", t.id, "promote Bea", PLAIN, None), ["promote"]),
        (lambda: run_act(svc, ps[0].id, "remove", t.id, "Nobody", PLAIN, None), ["Nobody"]),
    ]
    out = []
    for attempt, values in tries:
        with pytest.raises((ServiceError, GrammarError)) as e:
            await attempt()
        out.append((e.value, values))
    return out


def _said(error, code: str) -> str:
    return language(code).say(error.text)  # a GrammarError's ``text`` too (its ``problem`` is English)


@pytest.mark.parametrize("code", LANGS)
async def test_refusals_are_said_in_the_language_with_their_values(svc, code):
    refusals = await _refusals(svc)
    assert len(refusals) >= 30
    for error, values in refusals:
        said = _said(error, code)
        assert said != str(error) or not any(c.isalpha() for c in said), said  # not English
        # what the player typed stays as typed; the games' list and game names are data
        typed = values + rules.variants() + list(WITHDRAWAL_RULES) + TYPED
        assert english_left(said, code, own=OWN + typed) == [], said
        for value in values:
            assert value in said, (value, said)


async def test_a_french_refusal_reads_as_french(svc):
    refusals = await _refusals(svc)
    said = [_said(e, "fr") for e, _ in refusals]
    assert "un tournoi a besoin d'un nom" in said
    assert any(s.startswith("vous participez déjà à Spring cup (#") for s in said)
    # English stays as it was (str(e), the logs, the old callers)
    assert "a tournament needs a name" in [str(e) for e, _ in refusals]


def test_discord_tournament_commands_carry_extractable_strings():
    """Every description, option description and choice name of /tournament is a
    locale_str whose message the French, German and Spanish catalogs translate."""
    from discord.app_commands import locale_str

    from bot.discord_bot import tournament_commands  # noqa: F401 - registers the group's commands
    from bot.discord_bot.commands import DAY_CHOICES, tournament

    games = {rules.game(v).name for v in rules.variants()}
    seen = 0
    for command in tournament.commands:
        strings = [command._locale_description]
        for p in command._params.values():
            strings.append(p.description)
            # the results (1-0, +/-) are no words; the games' names are data (phase B)
            strings += [c._locale_name for c in (p.choices or []) if c.name[:1] not in "01+-" and c.name not in games
                        and c not in DAY_CHOICES]  # the discord helper's, translated there
        for s in strings:
            assert isinstance(s, locale_str), (command.name, s)
            for code in LANGS:
                said = language(code).tr(s.message)
                assert said != s.message, (code, s.message)
            seen += 1
    assert seen > 40
