"""A tournament's page in its reader's language: by Accept-Language, by the ``lang``
cookie (which wins), each kept apart in the page cache and said so by ``Vary``; a cookie or
header that names no language of ours falls back, and the page's words are all French for
a French reader (english_left on what the browser shows)."""

import re

from bot.identity import page_tokens as tokens
from tests.language.leaks import english_left, readable

from .conftest import SECRET
from .test_lobby import smtp  # noqa: F401 - the fixture
from .test_signin import site  # noqa: F401 - the fixture

NAMES = ["Alice Martin", "Boris Petit", "Carol Durand"]
#: a game's end as the store keeps it ("resignation"): said by the words helper's REASONS,
#: which take a language at the merge (connected then; listed here until that)
PENDING = ["resignation"]
#: the tie-breaks' inventors' names, the same in every language
INVENTORS = ["Sonneborn-Berger", "Buchholz", "UTC"]  # and the time zone's name
OWN = NAMES + PENDING + INVENTORS + ["Coupe de printemps"]


def tpath(tid: int, rest: str = "") -> str:
    return f"/t/{tid}/{tokens.sign_tournament(SECRET, tid)}{rest}"


async def _event(svc, fmt="round-robin", **kw):
    people = [await svc.player("test", f"p{i}", name) for i, name in enumerate(NAMES)]
    t = await svc.create_tournament("chess", name="Coupe de printemps", format=fmt, days=3, **kw)
    for p in people:
        await svc.join_tournament(t.id, p.id)
    t = await svc.start_tournament(t.id)
    game = next(p for p in t.pairings if p.game_id is not None)
    await svc.resign(game.game_id, game.black.id)
    return people, await svc.tournament(t.id)


def _visible(html: str) -> str:
    """What the reader sees and hears: the text, and the titles, labels and alt texts."""
    body = "<body" + html.split("<body", 1)[1]
    # the footer's language names are each in its own language, on purpose
    body = re.sub(r'<option value="\w+" lang="\w+"[^>]*>[^<]*</option>', " ", body)
    said = re.findall(r'(?:title|aria-label|alt|data-gone)="([^"]*)"', body)
    head = re.findall(r"<title>(.*?)</title>", html)
    return readable(body) + "\n" + readable("\n".join(said + head))


async def test_the_page_is_french_by_accept_language(svc, client):
    for fmt, kw in (("round-robin", {}), ("swiss", {"rounds": 2, "round_days": 5})):
        _, t = await _event(svc, fmt, **kw)
        r = await client.get(tpath(t.id), headers={"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"})
        assert r.status == 200
        html = await r.text()
        assert '<html lang="fr">' in html
        assert "Accept-Language" in r.headers["Vary"] and "Cookie" in r.headers["Vary"]
        assert english_left(_visible(html), "fr", own=OWN) == [], _visible(html)
        assert "<h2 id=\"standings\">Classement</h2>" in html and "Rondes et parties" in html
        assert 'aria-label="gagné, partie ' in html


async def test_the_cookie_wins_and_each_language_is_its_own_page(svc, client):
    _, t = await _event(svc)
    english = await (await client.get(tpath(t.id))).text()
    german = await (await client.get(tpath(t.id), headers={"Cookie": "lang=de", "Accept-Language": "fr"})).text()
    spanish = await (await client.get(tpath(t.id), headers={"Accept-Language": "es"})).text()
    assert '<html lang="en">' in english and "<h2 id=\"standings\">Standings</h2>" in english
    assert '<html lang="de">' in german and "Tabelle" in german and "Classement" not in german
    assert '<html lang="es">' in spanish and "Clasificación" in spanish
    for html, code in ((german, "de"), (spanish, "es")):
        assert english_left(_visible(html), code, own=OWN) == []


async def test_bad_language_hints_fall_back_and_change_nothing(svc, client):
    _, t = await _event(svc)
    for headers in ({"Cookie": "lang=../../etc/passwd"}, {"Cookie": "lang=xx"},
                    {"Accept-Language": "x" * 100_000}, {"Accept-Language": "fr;q=abc, <script>"}):
        r = await client.get(tpath(t.id), headers=headers)
        assert r.status in (200, 400, 431), headers  # never a 500
        if r.status == 200:
            html = await r.text()
            assert '<html lang="en">' in html or '<html lang="fr">' in html
            assert "passwd" not in html and "<script>" not in html.split("</head>")[0]


async def test_a_refused_query_says_what_was_wrong_in_the_language(svc, client):
    _, t = await _event(svc)
    r = await client.get(tpath(t.id, "?page=abc"), headers={"Accept-Language": "fr"})
    assert r.status == 400
    text = await r.text()
    assert "doit être un nombre entier de 1 à" in text


async def test_a_signed_in_players_setting_wins_and_the_footer_chooses(svc, site, smtp):  # noqa: F811
    from bot.web.reader import COOKIE

    from .test_lobby import person
    from .test_signin import ANN
    ann = await person(site, smtp, ANN)
    await svc.update_settings(ann.id, language="de")
    _, t = await _event(svc)
    # her setting over the browser's French (person() sends none: add it) and any cookie
    r = await site.get(tpath(t.id), headers={**ann.headers(), "Accept-Language": "fr"})
    html = await r.text()
    assert r.status == 200 and '<html lang="de">' in html and r.headers["Content-Language"] == "de"
    assert english_left(_visible(html), "de", own=OWN) == []
    # the footer: the language form, her CSRF token in it, back to this very page
    footer = html.split("<footer>", 1)[1].split("</footer>", 1)[0]
    assert 'action="/language"' in footer and '<option value="de" lang="de" selected>' in footer
    assert f'name="back" value="{tpath(t.id)}"' in footer and 'name="csrf" value="' in footer
    csrf = re.search(r'name="csrf" value="([^"]+)"', footer).group(1)
    r = await site.post("/language", data={"csrf": csrf, "lang": "es", "back": tpath(t.id)},
                        headers=ann.headers(), allow_redirects=False)
    assert r.status == 303 and r.headers["Location"] == tpath(t.id)
    assert (await svc.get_player(ann.id)).settings.language == "es"
    site.session.cookie_jar.clear()
    html = await (await site.get(tpath(t.id), headers=ann.headers())).text()
    assert '<html lang="es">' in html and "Clasificación" in html
    # someone signed out: the footer's choice is a cookie (no CSRF token of anyone's in the page)
    html = await (await site.get(tpath(t.id), headers={"Cookie": f"{COOKIE}=fr"})).text()
    assert '<html lang="fr">' in html and 'name="csrf"' not in html and csrf not in html
    assert 'name="back" value="' + tpath(t.id) + '"' in html


async def test_a_wrong_link_is_refused_in_the_readers_language(svc, client):
    _, t = await _event(svc)
    r = await client.get(tpath(t.id + 1) + "x", headers={"Accept-Language": "fr"})
    assert r.status == 404 and await r.text() == "ce tournoi n’existe pas"
    r = await client.get(tpath(t.id, "/crosstable.png?v=old"), headers={"Accept-Language": "de"})
    assert r.status == 409 and "Turnier" in await r.text()


async def test_the_crosstable_picture_is_in_the_pages_language(svc, client):
    import html as html_module
    _, t = await _event(svc)
    pictures = {}
    for code in ("en", "fr"):
        page = await (await client.get(tpath(t.id), headers={"Accept-Language": code})).text()
        src = html_module.unescape(re.search(r'<img src="([^"]+/crosstable\.png[^"]*)"', page).group(1))
        assert src.endswith(f"&lang={code}"), src
        r = await client.get(src)
        assert r.status == 200 and r.content_type == "image/png" and "immutable" in r.headers["Cache-Control"]
        pictures[code] = await r.read()
    assert pictures["fr"] != pictures["en"]          # its headings ("Joueur", "Pts") are French
    # a language we do not have in the address: the English picture, whatever the browser says
    odd = await client.get(src.replace("&lang=fr", "&lang=../../etc"), headers={"Accept-Language": "fr"})
    assert odd.status == 200 and await odd.read() == pictures["en"]
