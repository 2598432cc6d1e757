"""The site in the reader's language (issue #44, web): the signed-in player's language, else
the language chosen on the page (the ``lang`` cookie), else Accept-Language, else English;
``<html lang>``, ``Vary``; the choice in every page's footer; and its abuse cases (a 100 KB
Accept-Language, a cookie naming ``../../etc``, the form posted from another site, a code we
do not have, a way back to another site)."""

from __future__ import annotations

import re

import pytest

from bot.web.reader import COOKIE as LANG
from tests.language.leaks import english_left, readable

from .test_lobby import Person, person, smtp  # noqa: F401 - the fixtures
from .test_signin import ANN, ask_link, origin, site  # noqa: F401 - the fixtures


def visible(page: str) -> str:
    """What a reader sees of a page: its <body>, tags removed (the language names of the
    choice are each in its own language, on purpose: they are left out)."""
    body = page[page.index("<body"):]
    body = re.sub(r'<option value="\w+" lang="\w+"[^>]*>[^<]*</option>', " ", body)
    return readable(body)


def title(page: str) -> str:
    return readable(re.search(r"<title>(.*?)</title>", page, re.S).group(1))


async def test_a_page_is_in_the_browsers_language_and_says_so(site):  # noqa: F811
    r = await site.get("/", headers={"Accept-Language": "fr-CH, fr;q=0.9, en;q=0.5"})
    page = await r.text()
    assert r.status == 200 and '<html lang="fr">' in page
    assert {v.strip() for v in r.headers["Vary"].split(",")} >= {"Accept-Language", "Cookie"}
    assert "Parties par correspondance de grandes variantes d’échecs" in page
    assert '<a class="button" href="/signin">Se connecter</a> avec votre adresse mail' in page
    assert english_left(visible(page), "fr") == []
    form = await (await site.get("/signin", headers={"Accept-Language": "fr"})).text()
    assert "Adresse mail" in form and "M’envoyer un lien" in form
    assert english_left(visible(form) + title(form), "fr") == []
    english = await (await site.get("/")).text()      # no header: English, as before
    assert '<html lang="en">' in english and "Correspondence play of large chess variants" in english
    for code, words in (("de", "Fernschach"), ("es", "Partidas por correspondencia")):
        page = await (await site.get("/", headers={"Accept-Language": code})).text()
        assert f'<html lang="{code}">' in page and words in page
        assert english_left(visible(page), code) == []


async def test_the_choice_on_the_page_wins_over_the_browser(site):  # noqa: F811
    page = await (await site.get("/signin", headers={"Accept-Language": "fr"})).text()
    assert 'action="/language"' in page and '<option value="de" lang="de"' in page
    assert '<option value="fr" lang="fr" selected>' in page
    assert 'name="back" value="/signin"' in page
    r = await site.post("/language", data={"lang": "de", "back": "/signin"}, headers=origin(site),
                        allow_redirects=False)
    assert r.status == 303 and r.headers["Location"] == "/signin"
    cookie = r.cookies[LANG]
    assert cookie.value == "de" and cookie["samesite"] == "Lax"
    page = await (await site.get("/signin", headers={"Accept-Language": "fr"})).text()
    assert '<html lang="de">' in page and "E-Mail-Adresse" in page
    assert english_left(visible(page), "de") == []


async def test_a_signed_in_players_choice_is_their_setting(svc, site, smtp):  # noqa: F811
    ann = await person(site, smtp, ANN)
    headers = {**ann.headers(), "Accept-Language": "de"}
    page = await (await site.get("/", headers=headers)).text()
    assert '<html lang="de">' in page                          # the browser's, until she chooses
    assert (await svc.get_player(ann.id)).settings.seen_language == "de"  # remembered for notices
    csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    r = await site.post("/language", data={"csrf": csrf, "lang": "fr", "back": "/"}, headers=headers,
                        allow_redirects=False)
    assert r.status == 303
    assert (await svc.get_player(ann.id)).settings.language == "fr"
    site.session.cookie_jar.clear()     # another browser of hers, German, no cookie: still French
    page = await (await site.get("/", headers=headers)).text()
    assert '<html lang="fr">' in page and "Vos parties" in page and "À vous de jouer" in page
    assert "Connecté en tant que <strong>" in page
    assert english_left(visible(page), "fr", own=["ann"]) == []


async def test_two_players_each_read_their_own(svc, site, smtp):  # noqa: F811
    ann = await person(site, smtp, ANN)
    bob = await person(site, smtp, "bob@example.org")
    await svc.update_settings(ann.id, language="fr")
    await svc.update_settings(bob.id, language="es")
    challenge = await svc.challenge(ann.id, "chess", opponent_id=bob.id, days=3, colour="white")
    ann_lobby = await (await ann.get("/lobby")).text()
    bob_lobby = await (await bob.get("/lobby")).text()
    assert f"#{challenge.id} " in ann_lobby and "3 jours par coup" in ann_lobby and "Retirer" in ann_lobby
    assert "3 días por jugada" in bob_lobby and "Aceptar" in bob_lobby and "Rechazar" in bob_lobby
    own = ["ann", "bob"]
    assert english_left(visible(ann_lobby), "fr", own=own) == []
    assert english_left(visible(bob_lobby), "es", own=own) == []
    await svc.accept_challenge(challenge.id, bob.id)
    ann_home = await (await ann.get("/")).text()
    bob_home = await (await bob.get("/")).text()
    assert "à vous de jouer, il reste 3 j 0 h" in ann_home and "contre bob" in ann_home
    assert english_left(visible(ann_home), "fr", own=own) == []
    assert english_left(visible(bob_home), "es", own=own) == []
    new = await (await ann.get("/new")).text()
    assert "Jouer contre l" in new and "ordinateur" in new and english_left(visible(new), "fr", own=own) == []
    me = await (await site.get(f"/player/{ann.id}", headers=ann.headers())).text()
    assert "Parties terminées" in me and english_left(visible(me), "fr", own=own) == []


async def test_refusals_and_the_sign_in_mail_are_in_the_page_language(svc, site, smtp):  # noqa: F811
    fr = {"Accept-Language": "fr", **origin(site)}
    r = await site.post("/signin", data={"address": "not an address"}, headers=fr)
    page = await r.text()
    assert r.status == 400 and "ce n’est pas une adresse mail (comme ann@example.org)" in page
    assert english_left(visible(page), "fr") == []
    r = await site.post("/signin", data={"address": ANN}, headers=fr)
    assert r.status == 200 and "Un lien de connexion part vers ann@example.org" in await r.text()
    mail = smtp.to(ANN)[-1]
    assert mail["Subject"] == "Votre lien de connexion à fairypost" and mail["Content-Language"] == "fr"
    assert english_left(mail["Subject"] + " " + mail.get_content(), "fr") == []
    r = await site.get("/signin/nothing-of-ours", headers=fr)
    page = await r.text()
    assert r.status == 410 and "ce lien de connexion ne vient pas de nous" in page
    assert english_left(visible(page), "fr") == []
    r = await site.get("/player/12345", headers={"Accept-Language": "fr"}, allow_redirects=False)
    assert r.status == 303      # signed out: to sign in first


async def test_abuse_changes_nothing(svc, site, smtp):  # noqa: F811
    # a 100 KB Accept-Language: aiohttp's parser refuses it (400) before any handler
    r = await site.get("/", headers={"Accept-Language": "xx-" + "a," * 50_000 + "fr"})
    assert r.status == 400
    # one under that limit (8 KB): read only so far (4 KB), "fr" at its end is not seen
    r = await site.get("/", headers={"Accept-Language": "a," * 4_000 + "fr"})
    assert r.status == 200 and '<html lang="en">' in await r.text()
    # a cookie naming a path, or 100 KB: no language, the browser's header then
    for bad in ("../../etc", "fr/../../etc/passwd", "x" * 3_000, "..%2F..%2Fetc", "fr-..-..-etc"):
        r = await site.get("/", headers={"Cookie": f"{LANG}={bad}", "Accept-Language": "es"})
        assert r.status in (200, 400), bad
        if r.status == 200:
            assert '<html lang="es">' in await r.text()
    ann = await person(site, smtp, ANN)
    csrf = await ann.csrf()
    # posted from another site: refused by the guard, no cookie, no setting
    r = await site.post("/language", data={"csrf": csrf, "lang": "fr", "back": "/"},
                        headers={**ann.headers(), "Origin": "https://evil.example"}, allow_redirects=False)
    assert r.status == 403 and LANG not in r.cookies
    r = await site.post("/language", data={"lang": "fr", "back": "/"}, allow_redirects=False,
                        headers={"Origin": "https://evil.example", "Accept-Language": "fr"})
    assert r.status == 403 and await r.text() == "une page d’un autre site ne peut pas jouer ici"
    assert LANG not in r.cookies
    # without the page's CSRF token (another site's form, Origin stripped): refused
    r = await site.post("/language", data={"lang": "fr", "back": "/"},
                        headers={"Cookie": ann.headers()["Cookie"]}, allow_redirects=False)
    assert r.status == 403 and LANG not in r.cookies
    assert (await svc.get_player(ann.id)).settings.language is None
    # a code we do not have: said clearly, in the page's language, nothing changes
    r = await ann.post("/language", {"lang": "xx", "back": "/"})
    text = await r.text()
    assert r.status == 400 and "there is no language xx here (choose one of de, en, es, fr)" in text
    assert LANG not in r.cookies and (await svc.get_player(ann.id)).settings.language is None
    r = await site.post("/language", data={"lang": "../../etc", "back": "/"},
                        headers={"Accept-Language": "fr", **origin(site)}, allow_redirects=False)
    assert r.status == 400 and "pas de langue ../../etc ici" in await r.text()
    # the way back is this site's, never another's
    for back in ("//evil.example/", "https://evil.example/", "/\\evil.example", "javascript:alert(1)"):
        r = await site.post("/language", data={"lang": "de", "back": back}, headers=origin(site),
                            allow_redirects=False)
        assert r.status == 303 and r.headers["Location"] == "/", back
    r = await site.post("/language", data={"lang": "de", "back": "/" + "x" * 3_000}, headers=origin(site),
                        allow_redirects=False)
    assert r.status == 400


@pytest.mark.parametrize("code", ["fr", "de", "es"])
async def test_every_site_text_of_ours_is_translated(code):
    """Each message id of bot/web (tournament_page aside: the tournaments' own) has a
    translation in the language."""
    from language.checks import read_catalog
    from language.tool import template as extracted
    template = extracted()       # the message ids of the code as it is (Babel's extraction)
    ours = {m.id for m in template if m.id and
            any("bot/web/" in path and "tournament_page" not in path for path, _ in m.locations)}
    assert len(ours) > 100
    catalog = read_catalog(code)
    translated = {m.id for m in catalog if m.id and not m.fuzzy and
                  all(m.string if isinstance(m.string, tuple) else (m.string,))}
    assert sorted(map(str, ours - translated)) == []


async def test_the_game_page_and_its_script_words_in_the_players_language(svc, site):  # noqa: F811
    import json

    from bot.identity import page_tokens as tokens

    from .conftest import SECRET, new_game
    view = await new_game(svc, "chess", ["e4"])                 # Alice (White) - Bob, Black to move
    await svc.update_settings(view.black.id, language="fr")
    bob = f"/g/{view.id}/{tokens.sign_side(SECRET, view.id, 'b')}"
    r = await site.get(bob, headers={"Accept-Language": "de"})  # his setting wins over the browser
    page = await r.text()
    assert r.status == 200 and '<html lang="fr">' in page and "Accept-Language" in r.headers["Vary"]
    assert "Télécharger le PGN" in page and "proposer la nulle" in page and "Coups conditionnels" in page
    data = json.loads(re.search(r'<script id="game-data" type="application/json">(.*?)</script>',
                                page, re.S).group(1))
    words = data["words"]
    assert words["yourMove"].startswith("À vous de jouer : cliquez sur une pièce")
    assert words["noLegalMove"] == "{piece} en {square} n’a pas de coup légal ici."
    shown = visible(page.split('<script id="game-data"')[0]) + " " + " ".join(words.values())
    own = ["Alice", "Bob", "PGN", "fairypost"]
    assert english_left(shown, "fr", own=own + ["White", "Black"]) == []
    # the live state in the page's own language (its script asks with ?lang=)
    state = await (await site.get(f"{bob}/state.json?lang=fr")).json()
    assert "au trait (Bob)" in state["statusText"]
    english = await (await site.get(f"{bob}/state.json")).json()   # no ?lang=, no header: English
    assert english["statusText"].startswith("Black to move (Bob)")
    # the script's refusals too: a watching link posting a move, from a French page
    r = await site.post(f"/g/{view.id}/{tokens.sign(SECRET, view.id)}/move?lang=fr", json={"text": "e5"})
    assert r.status == 403 and await r.text() == "ce lien vous permet de suivre la partie, pas de la jouer"
    # Alice, watching through the public-less white link, reads English still
    alice = await (await site.get(f"/g/{view.id}/{tokens.sign_side(SECRET, view.id, 'w')}")).text()
    assert '<html lang="en">' in alice and "Download PGN" in alice
    assert re.search(r'"yourMove": "Your move: click a piece', alice)


async def test_ones_own_page_shows_the_language_and_may_forget_it(svc, site, smtp):  # noqa: F811
    ann = await person(site, smtp, ANN)
    await svc.update_settings(ann.id, language="es")
    page = await (await ann.get(f"/player/{ann.id}")).text()
    assert "Tu idioma: Español." in page and '<select id="my-language" name="lang">' in page
    assert '<option value="es" lang="es" selected>' in page.split('id="my-language"')[1]
    assert english_left(visible(page), "es", own=["ann"]) == []
    r = await ann.post("/language", {"lang": "default", "back": f"/player/{ann.id}"})
    assert r.status == 303 and r.headers["Location"] == f"/player/{ann.id}"
    assert (await svc.get_player(ann.id)).settings.language is None
    page = await (await site.get(f"/player/{ann.id}", headers={**ann.headers(), "Accept-Language": "fr"})).text()
    assert '<html lang="fr">' in page and "Vous n’avez pas choisi de langue" in page
    bob = await person(site, smtp, "bob@example.org")       # another's page: no such section
    assert 'id="my-language"' not in await (await bob.get(f"/player/{ann.id}")).text()
