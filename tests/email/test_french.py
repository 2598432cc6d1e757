"""A French game by mail (issue #44), through the real SMTP and IMAP test servers: Alice,
whose first mail says Content-Language: fr, challenges Bob; Bob accepts in French, then a
``language de`` reply makes him read German; they play to mate by replies, with an illegal
move refused and a draw offer declined. Every mail each one reads (its subject, its text,
its HTML body and the board picture's words) has no English left in their language."""

from __future__ import annotations

import re
from email.message import EmailMessage

import render
from language import language
from tests.language.leaks import english_left

from .conftest import BOT, as_proven
from .servers import reply_to_mail, text_of, write_mail
from .test_languages import in_language

ALICE, BOB = "alice@a.test", "bob@b.test"
MOVES = ["f3", "e5", "g4", "Qh4#", "Nc5", "Na3", "Nc3", "Nf3", "Nh3"]
#: what the players are called and what they type (the glossary keeps commands as typed)
OWN = ["alice", "bob", *MOVES, "accept", "decline", "draw", "takeback", "resign", "board", "moves",
       "SQUARE", "LANG", "games", "help", "language", "default", "fairypost"]
#: English words some translation in the catalogs uses as a typed word (``days 3``), which
#: english_left therefore lets through: never in a French or German mail all the same
ENGLISH_WORDS = re.compile(r"\b(days?|hours?|minutes?|left|clock|vs)\b")


def png_of(msg: EmailMessage) -> bytes:
    pictures = [p.get_content() for p in msg.walk() if p.get_content_type() == "image/png"]
    assert len(pictures) == 1
    return pictures[0]


def html_of(msg: EmailMessage) -> str:
    body = msg.get_body(preferencelist=("html",))
    return body.get_content() if body is not None and body.get_content_type() == "text/html" else ""


def everything_read(msg: EmailMessage) -> str:
    """The subject, the text and the HTML (with the picture's alt text) of a mail."""
    return "\n".join((str(msg["Subject"]), text_of(msg), html_of(msg)))


def assert_no_english(msg: EmailMessage, code: str, own: tuple[str, ...] = ()) -> None:
    assert str(msg["Content-Language"]) == code, (code, str(msg["Subject"]))
    said = everything_read(msg)
    assert english_left(said, code, own=[*OWN, *own]) == [], said
    assert ENGLISH_WORDS.findall(re.sub(r"`[^`]*`", "", said)) == [], said
    html = html_of(msg)
    if html:
        assert f'<html lang="{code}">' in html


async def test_a_french_game_by_mail_to_mate_with_a_german_opponent(bot, servers):
    await as_proven(bot.adapter, ALICE)
    await servers.deliver(in_language(write_mail(ALICE, BOT, "défi", "challenge chess bob@b.test days 3"), "fr"))
    await bot.step()
    sent = servers.last_to(ALICE)
    assert str(sent["Subject"]) == "fairypost: la réponse à votre courriel"
    assert_no_english(sent, "fr")
    # Bob has never written: his invitation is in English; his French accept makes him a French reader
    invitation = servers.last_to(BOB)
    await servers.deliver(in_language(reply_to_mail(BOB, invitation, "accept"), "fr-FR"))
    await bot.step()
    view = await bot.service.game(1)
    white, black = view.white.user_id, view.black.user_id
    reads = {ALICE: "fr", BOB: "fr"}
    checked = {ALICE: 1, BOB: 1}  # how many of each one's mails are checked already

    def check_new_mails() -> None:
        for address in (ALICE, BOB):
            mails = servers.sent_to(address)
            for msg in mails[checked[address]:]:
                assert_no_english(msg, reads[address])
            checked[address] = len(mails)

    check_new_mails()
    started = servers.last_to(BOB)
    assert str(started["Subject"]).startswith("fairypost partie 1 : ")

    # an illegal move is refused in French, and changes nothing
    await servers.deliver(reply_to_mail(white, servers.last_to(white), "Nc5"))
    await bot.step()
    refused = text_of(servers.last_to(white))
    assert "Aucun coup n'a été joué." in refused
    assert (await bot.service.game(1)).ply == 0
    assert "il reste 3\u00a0jours." in text_of(servers.last_to(ALICE, "Coups"))
    check_new_mails()

    # Bob chooses German by a reply to his game's mail: the answer is German already
    await servers.deliver(reply_to_mail(BOB, servers.last_to(BOB), "language de"))
    await bot.step()
    reads[BOB] = "de"
    in_french = len(servers.sent_to(BOB)) - 1  # Bob's mails before this answer
    switched = servers.last_to(BOB)
    assert "Ab jetzt liest du **Deutsch**." in text_of(switched) or "Ab jetzt liest du Deutsch." in text_of(switched)
    assert str(switched["Subject"]).startswith("fairypost Partie 1: ")
    check_new_mails()
    assert (await bot.adapter.accounts.player_of(BOB)).settings.language == "de"

    # White offers a draw with the first move; Black declines it, then they play to mate
    await servers.deliver(reply_to_mail(white, servers.last_to(white), "f3"))
    await bot.step()
    check_new_mails()
    await servers.deliver(reply_to_mail(white, servers.last_to(white), "draw"))
    await bot.step()
    check_new_mails()
    await servers.deliver(reply_to_mail(black, servers.last_to(black), "decline"))
    await bot.step()
    check_new_mails()
    for mover, move in ((black, "e5"), (white, "g4"), (black, "Qh4#")):
        await servers.deliver(reply_to_mail(mover, servers.last_to(mover), move))
        await bot.step()
        check_new_mails()
    view = await bot.service.game(1)
    assert (view.status, view.result, view.reason) == ("finished", "0-1", "checkmate")
    over = {ALICE: text_of(servers.last_to(ALICE)), BOB: text_of(servers.last_to(BOB))}
    assert "Coups :\n1. f3 e5 2. g4 Qh4#" in over[ALICE].replace("\r\n", "\n")
    assert "Züge:\n1. f3 e5 2. g4 Qh4#" in over[BOB].replace("\r\n", "\n")
    # the board's picture (its result banner, its words) is drawn in each one's language
    pos = await bot.service.position(1)

    def drawn(lang, flip: bool) -> bytes:
        banner = render.result_text(pos.game, "0-1", "checkmate", lang=lang)
        return render.board_png(pos, flip=flip, show_last_move=True, result=banner, lang=lang)
    for address, code in ((ALICE, "fr"), (BOB, "de")):
        flip = address == black
        assert png_of(servers.last_to(address)) == drawn(language(code), flip) != drawn(language("en"), flip), code
    # every mail was read in its reader's language, subjects included
    assert all(str(m["Content-Language"]) == "fr" for m in servers.sent_to(ALICE))
    bob_langs = [str(m["Content-Language"]) for m in servers.sent_to(BOB)[1:]]
    assert set(bob_langs[:in_french - 1]) == {"fr"} and set(bob_langs[in_french - 1:]) == {"de"}, bob_langs
    assert len(servers.sent_to(ALICE)) >= 6 and len(servers.sent_to(BOB)) >= 6


async def test_the_tournament_end_mail_and_its_crosstable_are_in_the_readers_language(bot, servers):
    from bot.delivery import events as ev
    from bot.tournaments.crosstable import crosstable_picture
    await as_proven(bot.adapter, ALICE)
    player = await bot.adapter.accounts.player_of(ALICE)
    await bot.service.update_settings(player.id, language="fr")
    await bot.service.create_tournament("chess", name="Coupe", format="round-robin", days=3)
    await bot.adapter.notify(ev.TournamentOver(recipient=ev.ref(player), event_id=7, tournament_id=1,
                                               name="Coupe", game="chess", place=1, players=1, points=0.0,
                                               winner=ev.ref(player)))
    await bot.adapter.mailer.drain()
    mail = servers.last_to(ALICE)
    assert str(mail["Subject"]) == "fairypost tournoi 1 : Coupe est terminé"
    assert_no_english(mail, "fr", own=("Coupe",))
    view = await bot.service.tournament(1)
    assert png_of(mail) == crosstable_picture(view, language("fr")) != crosstable_picture(view)
    assert 'alt="' + language("fr").tr("the crosstable") in html_of(mail)


async def test_language_by_mail_without_a_game_and_a_bad_code_refused_in_french(bot, servers):
    """A French player with no game: ``language de`` at the plain address is not done (its
    From proves nothing) and says how; the reply to that answer does it, answered in German;
    a language we do not have is refused clearly (in the reader's language) and changes
    nothing."""
    await as_proven(bot.adapter, ALICE)
    await servers.deliver(in_language(write_mail(ALICE, BOT, "langue", "language de"), "fr"))
    await bot.step()
    answer = servers.last_to(ALICE)
    assert "language agit en votre nom" in text_of(answer)
    assert_no_english(answer, "fr")
    player = await bot.adapter.accounts.player_of(ALICE)
    assert player.settings.language is None and player.reads() == "fr"

    await servers.deliver(reply_to_mail(ALICE, answer, "language xx"))
    await bot.step()
    refused = servers.last_to(ALICE)
    assert_no_english(refused, "fr", own=("xx",))
    assert "xx" in text_of(refused)
    assert (await bot.adapter.accounts.player_of(ALICE)).settings.language is None

    await servers.deliver(reply_to_mail(ALICE, answer, "language de"))
    await bot.step()
    chosen = servers.last_to(ALICE)
    assert "Ab jetzt liest du" in text_of(chosen) and "Deutsch" in text_of(chosen)
    # a signed reply's answer keeps the player's own subject ("Re: " + what they wrote)
    assert str(chosen["Subject"]) == "Re: fairypost: la réponse à votre courriel"
    assert_no_english(chosen, "de", own=(str(chosen["Subject"]),))
    assert (await bot.adapter.accounts.player_of(ALICE)).settings.language == "de"
    # later mails are German, whatever the mail's own header says
    await servers.deliver(in_language(write_mail(ALICE, BOT, "hilfe", "games"), "fr"))
    await bot.step()
    assert str(servers.last_to(ALICE)["Subject"]) == "fairypost: die Antwort auf deine Mail"
    assert_no_english(servers.last_to(ALICE), "de")
    # language default: back to the language her first mail said
    await servers.deliver(reply_to_mail(ALICE, answer, "language default"))
    await bot.step()
    assert "Aucune langue choisie" in text_of(servers.last_to(ALICE))
    assert_no_english(servers.last_to(ALICE), "fr")
    assert (await bot.adapter.accounts.player_of(ALICE)).reads() == "fr"


async def test_a_declined_challenge_a_takeback_a_clock_warning_and_a_timeout_in_french(bot, servers, clock):
    """Two French readers: every mail of a declined challenge, a takeback, the clock's
    warning and the loss on time is French (the time left too)."""
    from datetime import timedelta
    await as_proven(bot.adapter, ALICE, BOB)
    for address in (ALICE, BOB):
        player = await bot.adapter.accounts.player_of(address)
        await bot.service.update_settings(player.id, language="fr")
    checked = {ALICE: 0, BOB: 0}

    def check_new_mails() -> list[str]:
        texts = []
        for address in (ALICE, BOB):
            for msg in servers.sent_to(address)[checked[address]:]:
                assert_no_english(msg, "fr")
                texts.append(text_of(msg))
            checked[address] = len(servers.sent_to(address))
        return texts

    async def mailed(sender: str, line: str, to=None) -> list[str]:
        raw = write_mail(sender, BOT, "x", line) if to is None else reply_to_mail(sender, servers.last_to(to), line)
        await servers.deliver(raw)
        await bot.step()
        await bot.adapter.mailer.drain()
        return check_new_mails()

    await mailed(ALICE, "challenge chess bob@b.test days 1")
    # French elides "de alice": the sentences are written so that no name needs it
    assert str(servers.last_to(BOB)["Subject"]) == "fairypost défi 1 : Échecs, lancé par alice"
    assert "bob a refusé votre défi #1." in "\n".join(await mailed(BOB, "decline", to=BOB))
    await mailed(ALICE, "challenge chess bob@b.test days 1")
    await mailed(BOB, "accept", to=BOB)
    view = await bot.service.game(1)
    white, black = view.white.user_id, view.black.user_id
    moved = "\n".join(await mailed(white, "e4", to=white))
    assert "C'est à alice de jouer" in moved or "C'est à bob de jouer" in moved
    assert any("demande à reprendre e4" in t for t in await mailed(white, "takeback", to=white))
    await mailed(black, "accept", to=black)
    assert (await bot.service.game(1)).ply == 0
    await mailed(white, "d4", to=white)
    clock.advance(timedelta(hours=20))
    await bot.service.sweep()
    await bot.adapter.mailer.drain()
    warned = "\n".join(check_new_mails())
    assert "il vous reste 4\u00a0heures pour jouer" in warned and "il reste 4\u00a0heures." in warned
    clock.advance(timedelta(hours=5))
    await bot.service.sweep()
    await bot.adapter.mailer.drain()
    over = check_new_mails()
    assert len(over) == 2 and all("gagne au temps." in t for t in over)
