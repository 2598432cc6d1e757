"""The service's refusals in the reader's language (issue #44, the "ops" area).

Each refusal is made to happen through the real service (a real SQLite file, the real rules
of orthodox chess, an injected clock), then its ``e.text`` is said in French, German and
Spanish: no English left, the values it names (ids, names, what was typed) still there, and
``str(e)`` the English of before. A refusal whose words come from the rules engine (an
illegal move's reason) is the "rules" area's and is not in this sample."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from bot.computer import player as computer
from bot.config import Settings
from bot.delivery.events import MemoryNotifier
from bot.domain.errors import ServiceError
from bot.identity.account_links import CodeMailBudget, link_step
from bot.identity.web_links import signin_url
from bot.operations.service import GameService
from bot.timekeeping.clock import ManualClock
from language import Text, language
from tests.language.leaks import english_left

T0 = datetime(2025, 1, 6, 12, 0, tzinfo=UTC)
NAMES = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank"]  # the players' own names
#: what the players typed (bad values, shown back as typed)
TYPED = ["nochess", "green", "odd", "maybe", "Mars/Olympus"]
#: words a player types, never translated (the glossary): the keywords a refusal lists as the
#: choices (games' ids, colours, set-ups, confirmations, days), and settings' variable names
KEYWORDS = ["chess ganymede gigachess2 grandducal kingqueen superchess", "white black random",
            "default players", "none", "off typed all", "rated", "FAIRYPOST_EMAIL_ADDRESS FAIRYPOST_WEB_URL"]


class Refusals:
    """Every refusal made, by a short name: (the exception, the values it must still show)."""

    def __init__(self):
        self.seen: dict[str, tuple[ServiceError, tuple[str, ...]]] = {}

    async def expect(self, name: str, call, *shown: str) -> None:
        try:
            await call() if callable(call) else await call
        except ServiceError as e:
            self.seen[name] = (e, shown)
            return
        raise AssertionError(f"{name}: not refused")


async def _sync(f, *args, **kw):
    return f(*args, **kw)


async def _make_refusals(tmp_path) -> dict[str, tuple[ServiceError, tuple[str, ...]]]:
    clock = ManualClock(T0)
    settings = Settings(db_path=str(tmp_path / "games.db"), vacation_days_per_year=14, max_open_challenges=3,
                        command_rate_per_minute=0)
    svc = await GameService.open(settings, clock=clock, notifier=MemoryNotifier(), rng=random.Random(7))
    r = Refusals()
    try:
        a, b, c, d, e, f = [await svc.player("test", n.lower(), n) for n in NAMES]
        # --- players and settings
        await r.expect("no platform", svc.player("", "1"))
        await r.expect("unstorable", svc.player("test", "\udcff"))
        await r.expect("no player", svc.get_player(999), "#999")
        await r.expect("too big a number", svc.game(2**70), str(2**70))
        await r.expect("time zone", svc.update_settings(a.id, timezone="Mars/Olympus"), "Mars/Olympus")
        await r.expect("quiet hours", svc.update_settings(a.id, quiet_hours=("22:00",)), "22:00-07:00")
        await r.expect("time of day", svc.update_settings(a.id, digest_time="25:61"), "25:61")
        await r.expect("confirmation", svc.update_settings(a.id, confirm_moves="maybe"), "maybe")
        await r.expect("language", svc.update_settings(a.id, language="xx"), "xx", "fr")
        await r.expect("too long", svc.update_settings(a.id, timezone="x" * 5000), "5000")
        # --- challenges
        await r.expect("no game", svc.challenge(a.id, "nochess", opponent_id=b.id), "nochess", "chess")
        await r.expect("days", svc.challenge(a.id, "chess", opponent_id=b.id, days=4), "4", "14")
        await r.expect("colour", svc.challenge(a.id, "chess", opponent_id=b.id, colour="green"), "green")
        await r.expect("set-up kind", svc.challenge(a.id, "chess", opponent_id=b.id, setup="odd"), "odd")
        await r.expect("no set-up", svc.challenge(a.id, "chess", opponent_id=b.id, setup="players"), "chess")
        await r.expect("yourself", svc.challenge(a.id, "chess", opponent_id=a.id))
        await r.expect("no opponent", svc.challenge(a.id, "chess", opponent_id=999), "#999")
        await r.expect("rated word", svc.challenge(a.id, "chess", opponent_id=b.id, rated="maybe"), "maybe")
        bot = await computer.computer_player(svc)
        await r.expect("rated computer", svc.challenge(a.id, "chess", opponent_id=bot.id, rated=True))
        await r.expect("computer level", computer.computer_player(svc, 99), "99")
        await svc.block(c.id, e.id)
        await r.expect("blocked by them", svc.challenge(e.id, "chess", opponent_id=c.id))
        await r.expect("blocked by you", svc.challenge(c.id, "chess", opponent_id=e.id), "Erin")
        await r.expect("block yourself", svc.block(a.id, a.id))
        await r.expect("not blocked", svc.unblock(a.id, d.id), "Dave")
        for _ in range(3):
            await svc.challenge(d.id, "chess", opponent_id=e.id)
        await r.expect("budget open", svc.challenge(d.id, "chess", opponent_id=e.id), "Erin", "3")
        for _ in range(2):
            await svc.cancel_challenge((await svc.challenge(f.id, "chess", opponent_id=e.id)).id, f.id)
        last = await svc.challenge(f.id, "chess", opponent_id=e.id)
        await r.expect("budget withdrawn", svc.challenge(f.id, "chess", opponent_id=e.id), "Erin", "24")
        opened = [await svc.challenge(b.id, "chess") for _ in range(3)]
        await r.expect("most open", svc.challenge(b.id, "chess"), "3", "7")
        await r.expect("own challenge", svc.accept_challenge(opened[0].id, b.id))
        await r.expect("open decline", svc.decline_challenge(opened[0].id, a.id))
        await r.expect("someone else's", svc.accept_challenge(last.id, a.id))
        await r.expect("decline not yours", svc.decline_challenge(last.id, a.id))
        await r.expect("cancel not yours", svc.cancel_challenge(last.id, e.id))
        await r.expect("no challenge", svc.accept_challenge(999, a.id), "#999")
        await svc.cancel_challenge(opened[1].id, b.id)
        await r.expect("cancelled", svc.accept_challenge(opened[1].id, a.id))
        await r.expect("blocked accept", svc.accept_challenge(
            (await svc.challenge(e.id, "chess")).id, c.id))
        # --- a game: moves, offers, takebacks, conditional moves
        ch = await svc.challenge(a.id, "chess", opponent_id=b.id, colour="white", days=3)
        gid = (await svc.accept_challenge(ch.id, b.id)).id
        await r.expect("not your turn", svc.move(gid, b.id, "e5"), "Alice")
        await r.expect("not a player", svc.move(gid, c.id, "e4"))
        await r.expect("game changed", svc.move(gid, a.id, "e4", expected_ply=5))
        await r.expect("no game id", svc.game(999), "#999")
        await r.expect("premove on your move", svc.set_premoves(gid, a.id, "e5 Nf3"), "Bob")
        await svc.move(gid, a.id, "e4")
        await r.expect("premove empty", svc.set_premoves(gid, a.id, " "), "Nf6 e5; Nc6 d4")
        await r.expect("premove odd line", svc.set_premoves(gid, a.id, "e5 Nf3; d5"), "d5")
        await r.expect("premove two answers", svc.set_premoves(gid, a.id, "e5 Nf3; e5 Nc3"), "Nf3", "Nc3")
        await r.expect("premove too much", svc.set_premoves(gid, a.id, "e5 " * 2000), "6000")
        await r.expect("premove too many", svc.set_premoves(gid, a.id, "; ".join(["e5 Nf3"] * 300)))
        await r.expect("take back theirs", svc.ask_takeback(gid, b.id))
        await svc.ask_takeback(gid, a.id)
        await r.expect("asked already", svc.ask_takeback(gid, a.id))
        await r.expect("no takeback", svc.accept_takeback(gid, a.id))
        await svc.decline_takeback(gid, b.id)
        await svc.offer_draw(gid, a.id)
        await r.expect("offered already", svc.offer_draw(gid, a.id))
        await r.expect("no draw to accept", svc.accept_draw(gid, a.id))
        await r.expect("no draw to decline", svc.decline_draw(gid, a.id))
        await svc.move(gid, b.id, "e5")
        await r.expect("abort late", svc.abort(gid, a.id))
        view = await svc.game(gid)
        await r.expect("engine help", svc.check_engine_help(view))
        await r.expect("hint between people", _sync(computer.check_hint, view, a.id))
        await r.expect("review too soon", _sync(computer.check_review, view))
        await svc.resign(gid, b.id)
        await r.expect("over", svc.move(gid, b.id, "Nc6"), "1-0")
        aborted = await svc.accept_challenge((await svc.challenge(c.id, "chess", opponent_id=d.id)).id, d.id)
        await svc.abort(aborted.id, c.id)
        await r.expect("aborted", svc.move(aborted.id, c.id, "e4"))
        timed = await svc.accept_challenge(
            (await svc.challenge(c.id, "chess", opponent_id=f.id, colour="white", days=1)).id, f.id)
        clock.advance(timedelta(days=2))
        await r.expect("out of time", svc.move(timed.id, c.id, "e4"), "Carol")
        # --- vacations
        await r.expect("vacation days", svc.start_vacation(a.id, 0))
        await r.expect("not on vacation", svc.end_vacation(a.id))
        await svc.start_vacation(a.id, 2)
        await r.expect("on vacation", svc.start_vacation(a.id, 2), "UTC")
        # --- budgets, links, the clock
        with pytest.raises(ServiceError):
            for _ in range(1000):
                await svc.budget_read(a.id)
        await r.expect("reading too fast", svc.budget_read(a.id))
        codes = CodeMailBudget(resend_minutes=60, per_hour=1)
        codes.take(a.id, "alice@example.org", 0.0)
        await r.expect("code again", _sync(codes.take, a.id, "alice@example.org", 60.0), "alice@example.org", "59")
        await r.expect("codes per hour", _sync(codes.take, a.id, "alice2@example.org", 60.0), "59")
        await r.expect("no mail", link_step(svc, a.id, "alice@example.org", None), "FAIRYPOST_EMAIL_ADDRESS")
        await r.expect("no web", signin_url(svc, a.id, "web"), "FAIRYPOST_WEB_URL")
        clock.set(datetime(9995, 1, 1, tzinfo=UTC))
        await r.expect("clock", svc.move(gid, a.id, "Nf3"), "9995")
    finally:
        await svc.close()
    return r.seen


@pytest.fixture(scope="module")
def refusals(tmp_path_factory):
    import asyncio
    return asyncio.run(_make_refusals(tmp_path_factory.mktemp("refusals")))


def test_at_least_40_distinct_refusals_each_a_text(refusals):
    assert len(refusals) >= 40
    english = {str(e) for e, _ in refusals.values()}
    assert len(english) >= 40  # distinct sentences, not one refusal many times
    for name, (e, _) in refusals.items():
        assert isinstance(e.text, Text), f"{name}: {e.text!r} is English only"
        assert str(e) == e.text.english(), name


@pytest.mark.parametrize("code", ["fr", "de", "es"])
def test_each_refusal_in_the_language_keeps_its_values(refusals, code):
    lang = language(code)
    left = {}
    for name, (e, shown) in refusals.items():
        said = lang.say(e.text)
        assert said != str(e), f"{name} is not translated: {said!r}"
        for value in shown:
            assert value in said, f"{name}: {value!r} lost in {said!r}"
        words = english_left(said, code, own=NAMES + TYPED + KEYWORDS)
        if words:
            left[name] = words
    assert left == {}


def test_some_refusals_in_french_exactly(refusals):
    fr = language("fr")
    assert fr.say(refusals["no player"][0].text) == "il n'y a pas de joueur #999"
    assert fr.say(refusals["not your turn"][0].text) == "ce n'est pas à vous de jouer : Alice a le trait"
    assert fr.say(refusals["vacation days"][0].text) == "des congés durent un nombre entier de jours, au moins 1"
    budget = fr.say(refusals["budget open"][0].text)
    assert "Erin" in budget and "24 heures" in budget and "7 jours" in budget


def test_english_is_as_before(refusals):
    assert str(refusals["no player"][0]) == "there is no player #999"
    assert str(refusals["not your turn"][0]) == "it is not your turn: Alice is to move"
    assert str(refusals["cancelled"][0]) == "that challenge is no longer open (it was cancelled)"
    assert str(refusals["reading too fast"][0]).startswith("you're looking at games too fast; try again in ")
    assert str(refusals["budget open"][0]) == (
        "you already have 3 open challenges to Erin, the most allowed: wait for an answer. A withdrawn "
        "challenge still counts for 24 hours, a declined one for 7 days. You can challenge Erin again "
        "in 7 days (at 2025-01-13 12:00 UTC), or sooner if they accept one")


def test_a_reason_from_below_is_passed_on_as_its_text():
    """The rules' exceptions carry ``.text`` (the "rules" area); a ValueError of the settings
    carries a Text as its argument: a refusal passes either on, to be said in the reader's
    language, and is English otherwise."""
    from bot.domain.errors import IllegalMove, text_of
    from language import T
    from rules.errors import RulesError

    reason = T("there is no piece on {square}", square="e5")
    carried = RulesError(str(reason))
    carried.text = reason
    assert text_of(carried) is reason and IllegalMove(text_of(carried)).text is reason
    assert text_of(ValueError(reason)) is reason
    assert text_of(RulesError("no such square z9")) == "no such square z9"
    assert str(IllegalMove(text_of(carried))) == "there is no piece on e5"


async def test_an_illegal_move_through_the_service_keeps_the_rules_words(tmp_path):
    from bot.domain.errors import IllegalMove
    settings = Settings(db_path=str(tmp_path / "games.db"))
    svc = await GameService.open(settings, clock=ManualClock(T0), notifier=MemoryNotifier(), rng=random.Random(7))
    try:
        a, b = await svc.player("test", "a", "Alice"), await svc.player("test", "b", "Bob")
        c = await svc.challenge(a.id, "chess", opponent_id=b.id, colour="white")
        gid = (await svc.accept_challenge(c.id, b.id)).id
        with pytest.raises(IllegalMove) as refused:
            await svc.move(gid, a.id, "e5")
        assert str(refused.value) and str(refused.value) == str(refused.value.text)
    finally:
        await svc.close()
