"""The game page's defects of issue #42 (item 5), in Chromium: Analysis as a mode of its own,
a game move under an open side line, the set-up explained, the keyboard, drops from the
hand, drag and drop, choices as pictures with names, conditional moves on the page."""

from __future__ import annotations

import pytest

from . import test_browser
from .conftest import new_game
from .test_browser import click_square, new_page, pick, ready, until, url

pytestmark = test_browser.pytestmark
browser = test_browser.browser   # the fixtures: Chromium, and a page at a desk's size
page = test_browser.page


async def players(svc):
    return await svc.player("test", "a"), await svc.player("test", "b")


async def focused_square(pg) -> str | None:
    return await pg.evaluate("() => document.activeElement?.dataset?.square ?? null")


async def test_a_side_line_is_analysis_and_a_game_move_brings_the_game_back(svc, client, browser):
    """The issue's case: White's page, Black to move, e7 then e5 clicked, then Black plays c5
    from another front end."""
    view = await new_game(svc, "chess", ["e4"])
    _, bob = await players(svc)
    white, watcher = await new_page(browser), await new_page(browser, 400, 800)
    await white.goto(url(client, view.id, "w"))
    await watcher.goto(url(client, view.id))
    for pg in (white, watcher):
        await ready(pg, 1)
        assert await pg.locator("#analysis-banner").is_hidden()
        await pick(pg, "e7", "e5")
        await until(pg, "document.querySelectorAll('#line li').length === 1")
        banner = pg.locator("#analysis-banner")
        assert await banner.is_visible()
        assert "Analysis: not the game" in await banner.inner_text()
        assert await pg.get_by_role("button", name="Back to the game").is_visible()
    assert "not the game" in await white.locator("#turn-note").inner_text()
    assert (await svc.game(view.id)).ply == 1
    await svc.move(view.id, bob.id, "c5")
    # the player whose move it now is: back at the game, told why, the real position shown
    await until(white, "document.getElementById('analysis-banner').hidden")
    await white.wait_for_selector('#squares button[aria-label="c5 Black Pawn"]')
    assert await white.locator('#squares button[data-square="e5"]').get_attribute("aria-label") == "e5 empty"
    assert "c5" in await white.locator("#board-note").inner_text()
    assert await white.locator("#line li").count() == 0
    assert (await white.locator("#turn-note").inner_text()).startswith("Your move")
    await pick(white, "g1", "f3")   # into the game, not a side line
    await until(white, "document.querySelectorAll('#moves li').length === 3")
    assert (await svc.game(view.id)).moves[-1].san == "Nf3"
    # a watcher's analysis stays, the banner saying the game went on; the button goes back
    await until(watcher, "document.getElementById('analysis-news').textContent.includes('Nf3')")
    assert await watcher.locator("#analysis-banner").is_visible()
    await watcher.get_by_role("button", name="Back to the game").click()
    await until(watcher, "document.getElementById('analysis-banner').hidden")
    await ready(watcher, 3)
    assert await watcher.locator("#line li").count() == 0


async def test_analysis_entered_by_its_button_and_left_again(svc, client, page):
    view = await new_game(svc, "chess", ["e4", "e5"])
    await page.goto(url(client, view.id, "w"))
    await ready(page, 2)
    await page.get_by_role("button", name="Analyse").click()
    assert await page.locator("#analysis-banner").is_visible()
    await pick(page, "g1", "f3")    # White's turn, but in Analysis: not the game
    await until(page, "document.querySelectorAll('#line li').length === 1")
    assert (await svc.game(view.id)).ply == 2
    await page.get_by_role("button", name="Back to the game").click()
    await until(page, "document.getElementById('analysis-banner').hidden")
    await pick(page, "g1", "f3")
    await until(page, "document.querySelectorAll('#moves li').length === 3")
    assert (await svc.game(view.id)).ply == 3


async def test_the_keyboard_moves_over_the_squares_and_keeps_the_focus(svc, client, page):
    view = await new_game(svc, "chess")
    _, bob = await players(svc)
    await page.goto(url(client, view.id, "w"))
    await ready(page, 0)
    # one square in the Tab order (the others by arrow keys): the board is one Tab stop
    assert await page.locator('#squares button[tabindex="0"]').count() == 1
    await click_square(page, "d2")
    await until(page, "document.querySelectorAll('#squares button.target').length === 2")
    assert await focused_square(page) == "d2"        # the click's square keeps the focus
    await page.keyboard.press("ArrowRight")          # the board's, not the replay's
    assert await focused_square(page) == "e2"
    await page.keyboard.press("Enter")
    await until(page, "document.querySelector('#squares button.target[data-square=\"e4\"]') !== null")
    assert await focused_square(page) == "e2"
    await page.keyboard.press("ArrowUp")
    await page.keyboard.press("ArrowUp")
    assert await focused_square(page) == "e4"
    await page.keyboard.press(" ")                   # Space picks: the move is played
    await until(page, "document.querySelectorAll('#moves li').length === 1")
    assert (await svc.game(view.id)).moves[-1].san == "e4"
    assert await focused_square(page) == "e4"
    await svc.move(view.id, bob.id, "e5")            # a live update keeps the focus too
    await until(page, "document.querySelectorAll('#moves li').length === 2")
    await page.wait_for_selector('#squares button[aria-label="e5 Black Pawn"]')
    assert await focused_square(page) == "e4"
    await page.keyboard.press("ArrowLeft")
    await page.keyboard.press("ArrowDown")
    assert await focused_square(page) == "d3"
    assert await page.locator("#moves li.current").count() == 1   # the replay did not move
    # the move list is reachable: each move a button in the Tab order
    first = page.locator('#moves li[data-ply="1"] button')
    await first.focus()
    await page.keyboard.press("Enter")
    await page.wait_for_selector('#moves li.current[data-ply="1"]')


async def test_a_piece_in_hand_is_dropped_by_its_picture_and_by_dragging(svc, client, page):
    view = await new_game(svc, "kingqueen", ["e2f3", "f7f1=+C", "d1f1=+C"])
    await page.goto(url(client, view.id, "b"))
    await ready(page, 3)
    hand = page.locator('#hand button[data-piece="N"]')
    await hand.wait_for()
    assert "Knight" in await hand.get_attribute("aria-label")
    # the text button beside the board shows the piece's picture and name too
    assert await page.locator('#drops button[data-piece="N"] svg image').count() == 1
    assert "Knight" in await page.locator('#drops button[data-piece="N"]').inner_text()
    await hand.drag_to(page.locator('#squares button[data-square="d6"]'))
    await until(page, "document.querySelectorAll('#moves li').length === 4")
    assert (await svc.game(view.id)).moves[-1].lan == "N@d6"


async def test_a_piece_is_dragged_to_its_square(svc, client, page):
    view = await new_game(svc, "chess")
    await page.goto(url(client, view.id, "w"))
    await ready(page, 0)
    await page.locator('#squares button[data-square="g1"]').drag_to(
        page.locator('#squares button[data-square="f3"]'))
    await until(page, "document.querySelectorAll('#moves li').length === 1")
    assert (await svc.game(view.id)).moves[-1].san == "Nf3"


@pytest.mark.parametrize("game,before,side,frm,to,names,title", [
    ("superchess", [], "w", "d1", "d3",
     ["Cyclops facing north", "Cyclops facing north-east", "Cyclops facing east"], "faces"),
    ("chess", ["a4", "b5", "axb5", "a6", "bxa6", "Bb7", "axb7", "Nc6"], "w", "b7", "a8",
     ["Queen", "Rook", "Bishop", "Knight"], "becomes"),
], ids=["facing", "promotion"])
async def test_choices_are_pictures_with_their_names(svc, client, page, game, before, side, frm,
                                                    to, names, title):
    view = await new_game(svc, game, before)
    await page.goto(url(client, view.id, side))
    await ready(page, len(before))
    await pick(page, frm, to)
    await page.wait_for_selector("#choices button")
    assert title in await page.locator("#choices .choose").inner_text()
    buttons = page.locator("#choices button")
    shown = await buttons.all_inner_texts()
    assert all(n in shown for n in names), shown
    assert await page.locator("#choices button svg image").count() == await buttons.count()
    await page.locator("#choices").get_by_role("button", name=names[-1]).click()
    await until(page, "document.querySelectorAll('#moves li').length === arg", len(before) + 1)


async def test_the_set_up_phase_is_explained_and_its_squares_shown(svc, client, page):
    alice, bob = await players(svc)
    ch = await svc.challenge(alice.id, "superchess", opponent_id=bob.id, days=3, colour="white",
                             setup="players")
    view = await svc.accept_challenge(ch.id, bob.id)
    await page.goto(url(client, view.id, "w"))
    await ready(page, 0)
    note = page.locator("#setup-note")
    await note.wait_for()
    text = await note.inner_text()
    assert "Set-up" in text and "your turn" in text.lower()
    # where a piece may go is marked before any click
    await until(page, "document.querySelectorAll('#squares button.place').length > 0")


async def test_a_piece_without_a_move_says_so(svc, client, page):
    view = await new_game(svc, "chess")
    await page.goto(url(client, view.id, "w"))
    await ready(page, 0)
    await click_square(page, "a1")
    await until(page, "document.getElementById('board-note').textContent.includes('no legal move')")


async def test_conditional_moves_set_on_the_page_while_the_opponent_thinks(svc, client, page):
    view = await new_game(svc, "chess", ["e4"])
    alice, bob = await players(svc)
    await page.goto(url(client, view.id, "w"))
    await ready(page, 1)
    section = page.locator("#premoves")
    await section.wait_for(state="visible")
    box = page.get_by_role("textbox", name="Conditional moves")
    await box.fill("c5 Nf3; e5 Nf3")
    await box.press("Enter")
    await until(page, "document.getElementById('premove-now').textContent.includes('c5 Nf3')")
    assert (await svc.premoves(view.id, alice.id)).text() == "c5 Nf3; e5 Nf3"
    # a bad line: the reason shown, the lines kept
    await box.fill("c5 Ke3")
    await box.press("Enter")
    await until(page, "document.getElementById('premove-error').textContent.length > 0")
    assert (await svc.premoves(view.id, alice.id)).count == 2
    await svc.move(view.id, bob.id, "c5")      # the answer is played at once
    await until(page, "document.querySelectorAll('#moves li').length === 3")
    assert (await svc.game(view.id)).moves[-1].san == "Nf3"
    left = (await svc.premoves(view.id, alice.id)).text() or "None set."
    await until(page, "document.getElementById('premove-now').textContent.endsWith(arg)", left)


async def test_an_analysis_line_kept_as_conditional_moves(svc, client, page):
    view = await new_game(svc, "chess", ["e4"])
    alice, _ = await players(svc)
    await page.goto(url(client, view.id, "w"))
    await ready(page, 1)
    await pick(page, "e7", "e5")
    await until(page, "document.querySelectorAll('#line li').length === 1")
    await pick(page, "g1", "f3")
    await until(page, "document.querySelectorAll('#line li').length === 2")
    await page.get_by_role("button", name="keep the analysis line as conditional moves").click()
    await until(page, "document.getElementById('premove-now').textContent.includes('e5 Nf3')")
    assert (await svc.premoves(view.id, alice.id)).text() == "e5 Nf3"
    await page.get_by_role("button", name="cancel them").click()
    await until(page, "document.getElementById('premove-now').textContent === 'None set.'")
    assert (await svc.premoves(view.id, alice.id)).count == 0


async def test_a_large_board_on_a_phone_keeps_squares_a_finger_can_take(svc, client, browser):
    """Gigachess II (14 x 14) on a phone: 24 px squares before; now at least 40 px, the
    board scrolling sideways, the buttons still over their squares, a tap still plays."""
    view = await new_game(svc, "gigachess2")
    pg = await new_page(browser, 390, 844)
    await pg.goto(url(client, view.id, "w"))
    await ready(pg, 0)
    await until(pg, "document.getElementById('board').complete && "
                    "document.getElementById('board-wrap').classList.contains('scrolls')")
    square = await pg.locator('#squares button[data-square="a3"]').bounding_box()
    assert square["width"] >= 39.5 and square["height"] >= 39.5
    board = await pg.locator("#board").bounding_box()
    box = await pg.locator("#board-box").bounding_box()
    assert abs(board["width"] - box["width"]) < 2 and abs(board["height"] - box["height"]) < 2
    await pg.locator('#squares button[data-square="a3"]').scroll_into_view_if_needed()
    await pick(pg, "a3", "a4")
    await until(pg, "document.querySelectorAll('#moves li').length === 1")
    # at a desk the same board is whole, not scrolled
    desk = await new_page(browser)
    await desk.goto(url(client, view.id, "b"))
    await ready(desk, 1)
    assert not await desk.evaluate("() => document.getElementById('board-wrap').classList.contains('scrolls')")


async def test_the_mail_stopped_note_is_in_the_players_language(svc):
    """The note a player whose mail bounced reads on their game page (tests/email's
    test_mail_stopped_page drives the bounces): in their language, its values kept."""
    from datetime import UTC, datetime

    from bot.delivery.mail_status import StoppedMail
    from bot.web.page import mail_stopped_notes
    from language import language
    from tests.language.leaks import english_left
    bob = await svc.player("email", "bob@example.org", "Bob")
    stopped = [StoppedMail("bob@example.org", 3, datetime(2026, 2, 1, 9, tzinfo=UTC))]
    english = mail_stopped_notes(bob, stopped)
    assert "The bot no longer mails you at bob@example.org." in english
    for code in ("fr", "de", "es"):
        said = mail_stopped_notes(bob, stopped, language(code))
        assert said != english and "bob@example.org" in said and "3" in said
        assert english_left(said, code) == [], said


async def test_players_named_after_their_sides_are_named_in_the_readers_language(svc):
    """Two players at one keyboard are named after their sides ("White", "Black"); their game's
    page names them as the reader's language names the sides (before: "White – Black", and
    "Blancs : au trait (White)" in French). Other names are shown as they are."""
    from bot.web.page import shown_name, status_text
    from language import language
    white = await svc.player("terminal", "White", "White")
    black = await svc.player("terminal", "Black", "Black")
    ch = await svc.challenge(white.id, "chess", opponent_id=black.id, days=3, colour="white")
    view = await svc.accept_challenge(ch.id, black.id)
    fr = language("fr")
    assert (shown_name(view, "w", fr), shown_name(view, "b", fr)) == ("Blancs", "Noirs")
    assert status_text(view, fr).startswith("Blancs : au trait") and "White" not in status_text(view, fr)
    assert status_text(view).startswith("White to move")  # English as before
    other = await new_game(svc, "chess")
    assert shown_name(other, "w", fr) == "Alice <b>&"
