"""Mail in the reader's language (issue #44), through the real SMTP and IMAP test servers:
a player's first mail that says its language (Content-Language) makes it theirs, a later
mail's header changes nothing, a chosen language wins, two players of one game each get
their own, and nothing English is left in what a French reader reads."""

from __future__ import annotations

from email.message import EmailMessage
from html import escape

import pytest

from bot.email.parse import read_mail
from language import language
from tests.language.leaks import english_left

from .conftest import BOT, as_proven
from .servers import reply_to_mail, text_of, write_mail

ALICE, BOB = "alice@a.test", "bob@b.test"
#: the commands a player types stay as typed in every language (the glossary)
TYPED = ["accept", "decline", "draw", "takeback", "resign", "board", "moves", "SQUARE", "games", "help",
         "vacation", "block", "alice", "bob"]


def in_language(raw: bytes, header: str, *, in_body_part: bool = False) -> bytes:
    """The mail with a Content-Language: at the top, or (as Thunderbird writes it) on its
    text part."""
    head, _, body = raw.partition(b"\n\n")
    if in_body_part:
        return raw.replace(b"Content-Type: text/plain", f"Content-Language: {header}\nContent-Type: text/plain"
                           .encode(), 1)
    return head + f"\nContent-Language: {header}".encode() + b"\n\n" + body


def text(msg: EmailMessage) -> str:
    return text_of(msg).replace("\r\n", "\n")


def read(msg: EmailMessage) -> str:
    """What the reader sees: the subject and the text."""
    return str(msg["Subject"]) + "\n" + text(msg)


async def seen(bot, address: str) -> str | None:
    player = await bot.adapter.accounts.player_of(address)
    return player.settings.seen_language


async def test_the_first_mail_says_the_language_and_a_later_one_does_not_change_it(bot, servers):
    await as_proven(bot.adapter, ALICE)
    await servers.deliver(in_language(write_mail(ALICE, BOT, "hi", "vacation 5"), "fr-FR"))
    await bot.step()
    answer = servers.last_to(ALICE)
    assert str(answer["Subject"]) == "fairypost: la réponse à votre courriel"
    assert str(answer["Content-Language"]) == "fr"
    said = text(answer)
    assert said.startswith("J'ai lu : `vacation 5`\n")
    assert "vacation agit en votre nom" in said
    assert english_left(read(answer), "fr", own=TYPED) == []
    assert await seen(bot, ALICE) == "fr"
    # a later mail in German: its header changes nothing, the answer is French still
    await servers.deliver(in_language(write_mail(ALICE, BOT, "hi", "block bob"), "de"))
    await bot.step()
    answer = servers.last_to(ALICE)
    assert await seen(bot, ALICE) == "fr"
    assert "block agit en votre nom" in text(answer)
    assert english_left(read(answer), "fr", own=TYPED) == []


async def test_content_language_on_the_text_part_counts_too(bot, servers):
    await as_proven(bot.adapter, ALICE)
    raw = in_language(write_mail(ALICE, BOT, "hi", "vacation 5"), "es", in_body_part=True)
    assert read_mail(raw).content_language == "es"
    await servers.deliver(raw)
    await bot.step()
    assert await seen(bot, ALICE) == "es"
    assert "vacation actúa en tu nombre" in text(servers.last_to(ALICE))


async def test_a_language_we_do_not_have_or_garbage_changes_nothing(bot, servers):
    await as_proven(bot.adapter, ALICE)
    for header in ("xx", "tlh-Latn", "../../etc", "fr" * 5000, ";;;,,,"):
        await servers.deliver(in_language(write_mail(ALICE, BOT, "hi", "vacation 5"), header))
        await bot.step()
        assert await seen(bot, ALICE) is None
        assert "vacation acts for you" in text(servers.last_to(ALICE))
        assert "Content-Language" not in servers.last_to(ALICE) or \
            str(servers.last_to(ALICE)["Content-Language"]) == "en"
    # the first mail that does say one of ours is the one that counts
    await servers.deliver(in_language(write_mail(ALICE, BOT, "hi", "vacation 5"), "xx, de-AT"))
    await bot.step()
    assert await seen(bot, ALICE) == "de"
    assert "vacation" in text(servers.last_to(ALICE)) and "für dich" in text(servers.last_to(ALICE))


async def test_a_chosen_language_wins_over_the_mail_header(bot, servers):
    await as_proven(bot.adapter, ALICE)
    player = await bot.adapter.accounts.player_of(ALICE)
    await bot.service.update_settings(player.id, language="de")
    await servers.deliver(in_language(write_mail(ALICE, BOT, "hi", "vacation 5"), "fr"))
    await bot.step()
    assert str(servers.last_to(ALICE)["Subject"]) == "fairypost: die Antwort auf deine Mail"


async def test_a_stranger_is_answered_in_the_language_their_mail_says_and_no_player_is_made(bot, servers):
    await servers.deliver(in_language(write_mail("eve@e.test", BOT, "hi", "vacation 5"), "fr"))
    await bot.step()
    answer = servers.last_to("eve@e.test")
    assert "vacation se fait en réponse à l'un de vos courriels de partie" in text(answer)
    assert "Écrivez help pour la liste des commandes." in text(answer)
    assert english_left(read(answer), "fr", own=TYPED) == []
    assert await bot.adapter.accounts.player_of("eve@e.test") is None


async def start_game(bot, servers, alice_says: str, bob_says: str) -> dict[str, str]:
    """Alice (writing in ``alice_says``) challenges Bob, who accepts in ``bob_says``:
    side -> address."""
    await as_proven(bot.adapter, ALICE)
    await servers.deliver(in_language(write_mail(ALICE, BOT, "défi", "challenge chess bob@b.test days 3"),
                                      alice_says))
    await bot.step()
    invitation = servers.last_to(BOB)
    await servers.deliver(in_language(reply_to_mail(BOB, invitation, "accept"), bob_says))
    await bot.step()
    view = await bot.service.game(1)
    return {"w": view.white.user_id, "b": view.black.user_id}


async def test_two_players_of_one_game_each_read_their_own_language(bot, servers):
    side = await start_game(bot, servers, "fr", "de")
    assert await seen(bot, ALICE) == "fr" and await seen(bot, BOB) == "de"
    white = side["w"]
    board_mail = servers.last_to(white, "")
    await servers.deliver(reply_to_mail(white, board_mail, "e4"))
    await bot.step()
    to_french, to_german = servers.last_to(ALICE), servers.last_to(BOB)
    assert str(to_french["Content-Language"]) == "fr" and str(to_german["Content-Language"]) == "de"
    assert str(to_french["Subject"]).startswith("fairypost partie 1 : ")
    assert str(to_german["Subject"]).startswith("fairypost Partie 1: ")
    # Black is told it is their move; White, who moved, that a mail will say when it is
    to_move = {"fr": "Répondez à ce courriel avec votre coup sur la première ligne",
               "de": "Antworte auf diese Mail mit deinem Zug in der ersten Zeile"}
    waits = {"fr": "Vous recevrez un courriel quand ce sera à vous de jouer.",
             "de": "Du bekommst eine Mail, sobald du am Zug bist."}
    for address, mail, code in ((ALICE, to_french, "fr"), (BOB, to_german, "de")):
        expected = to_move[code] if address == side["b"] else waits[code]
        assert expected in text(mail), (address, code)
    assert "Coups :\n1. e4" in text(to_french).replace("\r\n", "\n")
    assert "Züge:\n1. e4" in text(to_german).replace("\r\n", "\n")
    html = to_french.get_body(preferencelist=("html",)).get_content()
    # the board's alt text is the catalog's
    alt = escape(language("fr").tr("the board"))
    assert alt.startswith("l") and "échiquier" in alt
    assert '<html lang="fr">' in html and f'alt="{alt}"' in html


async def test_a_refused_move_and_an_empty_reply_are_answered_in_french(bot, servers):
    side = await start_game(bot, servers, "fr", "fr")
    white = side["w"]
    board_mail = servers.last_to(white)
    await servers.deliver(reply_to_mail(white, board_mail, "", quote=True))
    await bot.step()
    said = text(servers.last_to(white))
    assert said.startswith("Votre courriel ne contient aucun texte de votre main, donc rien n'a été fait : "
                           "écrivez un coup ou une commande (help les liste) sur sa première ligne.")
    assert english_left(read(servers.last_to(white)), "fr", own=TYPED) == []
    await servers.deliver(reply_to_mail(white, board_mail, "Nc5"))
    await bot.step()
    said = text(servers.last_to(white))
    assert "Aucun coup n'a été joué." in said
    # the piece's name is data, from the catalog
    assert "4 coups de votre pièce Cavalier (N) : Na3 Nc3 Nf3 Nh3" in said



async def test_the_digest_subject_says_its_day_as_the_readers_language_writes_a_date(bot, servers):
    from bot.delivery import events as ev
    await as_proven(bot.adapter, ALICE, BOB)
    for address, code in ((ALICE, "fr"), (BOB, "de")):
        player = await bot.adapter.accounts.player_of(address)
        await bot.service.update_settings(player.id, language=code)
        await bot.adapter.notify(ev.Digest(recipient=ev.ref(player), event_id=100 + player.id,
                                           day="2025-01-06",
                                           games=(ev.DigestEntry(game_id=1, game="chess", opponent="eve",
                                                                 deadline=None, seconds_left=None),)))
    await bot.adapter.mailer.drain()
    assert str(servers.last_to(ALICE)["Subject"]) == "fairypost: vos coups du 6 janv. 2025"
    assert str(servers.last_to(BOB)["Subject"]) == "fairypost: deine Züge am 06.01.2025"


async def test_the_link_code_mail_and_the_link_refusals_are_in_the_players_language(bot, servers):
    """A Discord player who reads French asks for a link code: the mail is French; a wrong
    code is refused in French and links nothing."""
    from bot.domain.errors import SettingsError
    from bot.words.text import PLAIN
    player = await bot.service.player("discord", "4242", "Zoé")
    await bot.service.update_settings(player.id, language="fr")
    await bot.adapter.link_address(player.id, "zoe@z.test")
    await bot.adapter.mailer.drain()
    mail = servers.last_to("zoe@z.test")
    assert str(mail["Subject"]) == "fairypost: votre code de liaison"
    code = text(mail).split("Votre code est ")[1][:6]
    assert code.isdigit()
    assert "tapez dans Discord : /settings email_code:" + code in text(mail)
    assert english_left(read(mail), "fr", own=["/settings email_code", "Discord", "fairypost"]) == []
    fr = PLAIN.in_language("fr")
    wrong = "000000" if code != "000000" else "111111"
    with pytest.raises(SettingsError) as refused:
        await bot.adapter.confirm_address(player.id, wrong)
    assert fr.say(refused.value.text) == ("ce n'est pas le code qui vous a été envoyé (ou il a expiré) : "
                                          "vérifiez-le, ou demandez-en un nouveau avec /settings email ADDRESS")
    assert await bot.adapter.accounts.player_of("zoe@z.test") is None
    with pytest.raises(SettingsError) as refused:
        await bot.adapter.link_address(player.id, "not an address")
    assert fr.say(refused.value.text) == "'not an address' n'est pas une adresse électronique (comme ann@example.org)"


async def test_joining_a_tournament_at_the_plain_address_is_explained_in_spanish(bot, servers):
    """``tournament join 1`` at the plain address from a Spanish writer: nothing done, the
    way to do it (a reply to this mail) said in Spanish; the reply joins."""
    await bot.service.create_tournament("chess", name="Copa", format="round-robin", days=3)
    await servers.deliver(in_language(write_mail(BOB, BOT, "join", "tournament join 1"), "es-ES"))
    await bot.step()
    invite = servers.last_to(BOB)
    assert str(invite["Subject"]) == "fairypost: la respuesta a tu correo"
    said = text(invite)
    assert said.startswith("He leído: `tournament join 1`\n")
    assert ("Para inscribirte, responde a este correo con join en la primera línea. (Un correo a la "
            "dirección del propio bot podría venir de cualquiera") in said
    assert list((await bot.service.tournament(1)).entrants) == []
    await servers.deliver(reply_to_mail(BOB, invite, "join"))
    await bot.step()
    assert [p.user_id for p in (await bot.service.tournament(1)).entrants] == [BOB]
