"""A French game by mail (issue #44), through the real SMTP and IMAP test servers: Alice,
whose first mail says Content-Language: fr, challenges Bob; Bob accepts in French, then a
``language de`` reply makes him read German; they play to mate by replies, with an illegal
move refused and a draw offer declined. Every mail each one reads (its subject, its text,
its HTML body and the board picture's words) has no English left in their language."""

from __future__ import annotations

import re
from email.message import EmailMessage

from tests.language.leaks import english_left

from .conftest import BOT, as_proven
from .servers import reply_to_mail, text_of, write_mail
from .test_languages import in_language

ALICE, BOB = "alice@a.test", "bob@b.test"
MOVES = ["f3", "e5", "g4", "Qh4#", "Nc5", "Na3", "Nc3", "Nf3", "Nh3"]
#: what the players are called and what they type (the glossary keeps commands as typed)
OWN = ["alice", "bob", *MOVES, "accept", "decline", "draw", "takeback", "resign", "board", "moves",
       "SQUARE", "games", "help", "language", "fairypost"]
#: PHASE B: the game's, its pieces' and its sides' names come from data/variants, translated
#: when the data catalogs land
DATA = ["Chess", "White", "Black", "Knight", "Queen"]
#: English words some translation in the catalogs uses as a typed word (``days 3``), which
#: english_left therefore lets through: never in a French or German mail all the same
ENGLISH_WORDS = re.compile(r"\b(days?|hours?|minutes?|left|clock|vs)\b")


def html_of(msg: EmailMessage) -> str:
    body = msg.get_body(preferencelist=("html",))
    return body.get_content() if body is not None and body.get_content_type() == "text/html" else ""


def everything_read(msg: EmailMessage) -> str:
    """The subject, the text and the HTML (with the picture's alt text) of a mail."""
    return "\n".join((str(msg["Subject"]), text_of(msg), html_of(msg)))


def assert_no_english(msg: EmailMessage, code: str) -> None:
    assert str(msg["Content-Language"]) == code, (code, str(msg["Subject"]))
    said = everything_read(msg)
    assert english_left(said, code, own=OWN + DATA) == [], said
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
    # every mail was read in its reader's language, subjects included
    assert all(str(m["Content-Language"]) == "fr" for m in servers.sent_to(ALICE))
    bob_langs = [str(m["Content-Language"]) for m in servers.sent_to(BOB)[1:]]
    assert set(bob_langs[:in_french - 1]) == {"fr"} and set(bob_langs[in_french - 1:]) == {"de"}, bob_langs
    assert len(servers.sent_to(ALICE)) >= 6 and len(servers.sent_to(BOB)) >= 6
