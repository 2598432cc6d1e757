"""A French game on the site, in Chromium (issue #44): two new people sign in
through the links mailed to them (read from a real SMTP server on 127.0.0.1), one with a
French browser (Accept-Language fr), the other with a German one; the French player makes an
open challenge, the German accepts it from the Lobby, they play to mate by clicks. Everything
each of them reads, ``document.body.innerText`` of every page (home, sign-in pages, lobby,
new game, game, player page) and the mails, is in their language: ``english_left`` finds no
English. ``<html lang>`` says it; the footer's language menu switches the page and is kept."""

from __future__ import annotations

import os

import pytest

from language import language
from render.result import side_names_of
from tests.language.leaks import english_left

from .test_browser import CHROMIUM, until
from .test_site_browser import chromium, click_move, site, smtp  # noqa: F401 - the fixtures

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM) and not os.environ.get("CI"),
                                reason="no /usr/bin/chromium (CI installs it)")
ANN, BOB = "ann@example.org", "bob@example.org"


class Reader:
    """One person's browser, in ``code``: every page it reads is checked for English."""

    def __init__(self, pg, code: str, own: list[str]):
        self.pg, self.code, self.own, self.read = pg, code, own, []

    async def check(self, what: str) -> str:
        """The page as read now: in the reader's language, and saying so in <html lang>."""
        assert await self.pg.evaluate("document.documentElement.lang") == self.code, what
        text = await self.pg.evaluate("document.body.innerText")
        title = await self.pg.title()
        # what a screen reader says besides: the buttons' and squares' names, alt texts, titles
        said = await self.pg.evaluate("""[...document.querySelectorAll('[aria-label], [alt], [title]')]
            .map(e => [e.getAttribute('aria-label'), e.getAttribute('alt'), e.getAttribute('title')]
            .filter(Boolean).join(' ; ')).join(' ; ')""")
        # the footer's language names are each in its own language, on purpose
        names = await self.pg.evaluate("[...document.querySelectorAll('option[lang]')].map(o => o.textContent)")
        if self.code != "en":
            left = english_left(f"{title}\n{text}\n{said}", self.code, own=self.own + names)
            assert left == [], f"{what}: {left}"
        self.read.append(what)
        return text

    def tr(self, msgid: str, **values) -> str:
        return language(self.code).tr(msgid, **values)


async def reader(chromium, locale: str, code: str) -> Reader:  # noqa: F811 - the fixture
    ctx = await chromium.new_context(locale=locale, viewport={"width": 1300, "height": 1000},
                                     accept_downloads=True)
    pg = await ctx.new_page()
    pg.set_default_timeout(60_000)
    return Reader(pg, code, ["fairypost", "PGN", "ann", "bob", "example", "org"])


def mail_text(smtp, address: str) -> tuple[str, str, str]:  # noqa: F811
    """The last mail to ``address``: its subject, plain text and HTML (if any)."""
    mail = smtp.to(address)[-1]
    plain = mail.get_body(preferencelist=("plain",)).get_content() if mail.is_multipart() \
        else mail.get_content()
    part = mail.get_body(preferencelist=("html",)) if mail.is_multipart() else None
    return str(mail["Subject"]), plain, part.get_content() if part is not None else ""


async def choose_language(r: Reader, code: str) -> None:
    """The footer's language menu: the page comes back in ``code``."""
    footer = r.pg.locator("form:has(#page-language)")
    await footer.get_by_label(r.tr("Language")).select_option(code)
    await footer.get_by_role("button", name=r.tr("Choose")).click()
    await until(r.pg, "document.documentElement.lang === arg", code)
    r.code = code


async def sign_in_by_mail(r: Reader, site, smtp, address: str, choose: str | None = None) -> None:  # noqa: F811
    """From the home page to "Your games" through the mailed link; ``choose``: a language
    chosen in the footer's menu first (then kept on every page after)."""
    pg = r.pg
    await pg.goto(str(site.make_url("/")))
    await r.check("home, signed out")
    if choose:
        await choose_language(r, choose)
        await r.check("home, signed out, language chosen")
    await pg.get_by_role("link", name=r.tr("Sign in")).first.click()
    await pg.get_by_label(r.tr("Email address")).wait_for()
    await r.check("sign-in form")
    await pg.get_by_label(r.tr("Email address")).fill(address)
    await pg.get_by_role("button", name=r.tr("Send me a link")).click()
    await pg.get_by_text(r.tr("A sign-in link is on its way to {address}. It works once, for 15 minutes.",
                              address=address)).wait_for()
    await r.check("sign-in link sent")
    subject, plain, html = mail_text(smtp, address)
    for part in (subject, plain, html):
        assert english_left(part, r.code, own=r.own) == [], (subject, plain, html)
    assert subject == r.tr("Your fairypost sign-in link"), subject
    token = smtp.link(address)
    await pg.goto(str(site.make_url(f"/signin/{token}")))
    await r.check("sign-in confirmation")
    await pg.get_by_role("button", name=r.tr("Sign in")).click()
    await pg.get_by_role("heading", name=r.tr("Your games")).wait_for()
    await r.check("home, signed in")


async def test_a_french_and_a_german_player_meet_and_play_to_mate(svc, site, smtp, chromium):  # noqa: F811
    ann = await reader(chromium, "fr-FR", "fr")      # her browser's Accept-Language: French
    bob = await reader(chromium, "en-US", "en")      # an English browser: he chooses German
    await sign_in_by_mail(ann, site, smtp, ANN)
    await sign_in_by_mail(bob, site, smtp, BOB, choose="de")

    # Ann makes an open challenge (White, chess) in French; Bob accepts it from the Lobby
    await ann.pg.get_by_role("link", name=ann.tr("New game")).first.click()
    await ann.pg.get_by_label(ann.tr("Game"), exact=True).wait_for()
    await ann.check("new game form")
    await ann.pg.get_by_label(ann.tr("Game"), exact=True).select_option("chess")
    await ann.pg.get_by_label(ann.tr("Colour")).select_option("white")
    await ann.pg.get_by_role("button", name=ann.tr("Create")).click()
    await ann.pg.get_by_role("heading", name=ann.tr("Lobby")).wait_for()
    await ann.check("lobby, her challenge made")
    await bob.pg.get_by_role("link", name=bob.tr("Lobby")).first.click()
    await bob.check("lobby")
    await bob.pg.get_by_role("button", name=bob.tr("Accept")).click()
    await bob.pg.wait_for_selector("#squares button")
    game_id = int(bob.pg.url.rsplit("/", 1)[1])
    view = await svc.game(game_id)
    white, black = side_names_of(view.game)
    # what each browser names is remembered (for notices elsewhere); neither chose a setting
    assert (await svc.get_player(view.white.id)).settings.seen_language == "fr"
    assert (await svc.get_player(view.black.id)).settings.seen_language == "de"
    assert (await svc.get_player(view.black.id)).settings.language is None
    assert await bob.pg.locator("#play h2").inner_text() == \
        bob.tr("You play {side}", side=language("de").data(black))
    await bob.check("game, his first look")
    await ann.pg.goto(str(site.make_url("/")))
    await ann.check("home, a game to play")
    await ann.pg.locator(f'a[href="/play/{game_id}"]').first.click()
    await ann.pg.wait_for_selector("#squares button")
    assert await ann.pg.locator("#play h2").inner_text() == \
        ann.tr("You play {side}", side=language("fr").data(white))
    await until(ann.pg, "document.querySelectorAll('#figures image').length > 0")
    text = await ann.check("game, her first look")
    assert "À vous de jouer : cliquez sur une pièce" in text

    async def both_see(n: int) -> None:
        for r in (ann, bob):
            await until(r.pg, "document.querySelectorAll('#moves li').length === arg", n)
            await r.check(f"game after {n} moves")
    await click_move(ann.pg, "f2", "f3")
    await both_see(1)
    await click_move(bob.pg, "e7", "e5")
    await both_see(2)
    await click_move(ann.pg, "g2", "g4")
    await both_see(3)
    await click_move(bob.pg, "d8", "h4")
    await both_see(4)
    assert (await svc.game(game_id)).result == "0-1"
    for r in (ann, bob):
        mate = r.tr("Checkmate \u2014 {side} wins", side=language(r.code).data(black))
        await until(r.pg, "document.getElementById('banner').textContent === arg", mate)
        await r.check("game over")

    # both find it among the finished games, on the home page and on their own page
    for r in (ann, bob):
        await r.pg.goto(str(site.make_url("/")))
        finished = r.pg.locator('section[aria-labelledby="finished"]')
        assert await finished.locator(f'a[href="/play/{game_id}"]').count() == 1
        await r.check("home, the game finished")
        await r.pg.get_by_role("link", name=r.tr("Your page")).click()
        await r.pg.get_by_role("heading", name=r.tr("Finished games")).wait_for()
        assert await r.pg.locator(f'a[href="/play/{game_id}"]').count() == 1
        await r.check("player page")
    for r in (ann, bob):    # every kind of page each read, checked
        assert {"home, signed out", "sign-in form", "sign-in link sent", "sign-in confirmation",
                "home, signed in", "game after 4 moves", "game over", "player page"} <= set(r.read)
    assert {"new game form", "lobby, her challenge made"} <= set(ann.read) and "lobby" in bob.read

    # Bob, signed in, chooses French in the footer: his setting, kept on every page after
    await choose_language(bob, "fr")
    assert (await svc.get_player(view.black.id)).settings.language == "fr"
    await bob.check("player page, French chosen")
    await bob.pg.goto(str(site.make_url("/lobby")))
    await bob.check("lobby in French")
    await bob.pg.goto(str(site.make_url(f"/play/{game_id}")))
    await bob.pg.wait_for_selector("#squares button")
    text = await bob.check("the game in French")
    assert language("fr").tr("Checkmate \u2014 {side} wins", side=language("fr").data(black)) in text
