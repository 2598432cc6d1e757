"""The site's pages beside the game's: home, sign in, your games, new game, lobby. Plain
HTML from Python strings; every text that comes from users is escaped here (``esc``). Every
word a player reads is in the page's language (``lang``: reader.py chooses it)."""

from __future__ import annotations

from html import escape

from language import ENGLISH, Language

from .reader import choice_form

esc = escape


def layout(title: str, body: str, *, style: str, icon: str, signed_in_as: str | None = None,
           csrf: str = "", lang: Language = ENGLISH, path: str = "/") -> str:
    """A whole page: its title, the site's header (home, lobby, new game; who is signed in
    and a form to sign out), ``body`` (HTML, escaped by the caller) and a footer choosing
    the language (``path``: the page to come back to)."""
    tr = lang.tr
    if signed_in_as is not None:
        strong = f"<strong>{esc(signed_in_as)}</strong>"
        signed = tr("Signed in as {name}", name=strong)
        sign_out = esc(tr("Sign out"))
        who = (f'<span>{signed}</span> <form method="post" action="/signout" class="inline">'
               f'{hidden_csrf(csrf)}<button>{sign_out}</button></form>')
        places = [("/", tr("Your games")), ("/lobby", tr("Lobby")), ("/new", tr("New game")),
                  ("/me", tr("Your page"))]
    else:
        sign_in = esc(tr("Sign in"))
        who = f'<a href="/signin">{sign_in}</a>'
        places = [("/", tr("Home"))]
    links = " ".join(f'<a href="{where}">{esc(label)}</a>' for where, label in places)
    site = esc(tr("site"))
    return f"""<!doctype html>
<html lang="{esc(lang.code)}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{esc(title)} · fairypost</title>
<link rel="icon" href="{esc(icon)}" type="image/svg+xml">
<link rel="stylesheet" href="{esc(style)}">
</head><body class="site">
<header><nav aria-label="{site}">{links}</nav><div class="who">{who}</div></header>
<main>
<h1>{esc(title)}</h1>
{body}
</main>
<footer>{choice_form(lang, path, csrf)}</footer></body></html>
"""


def hidden_csrf(token: str) -> str:
    return f'<input type="hidden" name="csrf" value="{esc(token)}">' if token else ""


def message(text: str, *, alert: bool = False) -> str:
    role = "alert" if alert else "status"
    return f'<p class="{"error" if alert else "note"}" role="{role}">{esc(text)}</p>'


def home_out(lang: Language = ENGLISH) -> str:
    """The home page signed out: what the site is (the games loaded, a server's own too)."""
    import rules

    from .page import game_name
    names = ", ".join(game_name(g, lang) for g in rules.variants())
    what = lang.tr("Correspondence play of large chess variants: {games}. Play by mail, on Discord, "
                   "in a terminal, or here.", games=names)
    sign_in = esc(lang.tr("Sign in"))
    sign_in = f'<a class="button" href="/signin">{sign_in}</a>'
    how = lang.tr("{sign_in} with your email address: the same account as your games by mail.",
                  sign_in=sign_in)
    return f"<p>{esc(what)}</p>\n<p>{how}</p>"


def signin_form(address: str = "", error: str = "", lang: Language = ENGLISH) -> str:
    label, send = esc(lang.tr("Email address")), esc(lang.tr("Send me a link"))
    hint = esc(lang.tr("We mail you a link that signs you in. It works once, for 15 minutes."))
    return (message(error, alert=True) if error else "") + f"""
<form method="post" action="/signin" class="stack">
<label for="address">{label}</label>
<input id="address" name="address" type="email" autocomplete="email" required maxlength="254"
 value="{esc(address)}">
<button>{send}</button></form>
<p class="hint">{hint}</p>"""


def link_sent(address: str, lang: Language = ENGLISH) -> str:
    again = esc(lang.tr("Send another"))
    return message(lang.tr("A sign-in link is on its way to {address}. It works once, for 15 minutes.",
                           address=address)) + f'<p><a href="/signin">{again}</a></p>'


def confirm_link(token: str, who: str, lang: Language = ENGLISH) -> str:
    # a button, not the link itself: a mail scanner that opens links does not spend it
    question, button = esc(lang.tr("Sign in as {who}?", who=who)), esc(lang.tr("Sign in"))
    return f"""<p>{question}</p>
<form method="post" action="/signin/{esc(token)}"><button>{button}</button></form>"""


def games_section(title: str, rows: list[str], empty: str, hid: str) -> str:
    body = f'<ul class="games">{"".join(rows)}</ul>' if rows else f"<p>{esc(empty)}</p>"
    return f'<section aria-labelledby="{hid}"><h3 id="{hid}">{esc(title)}</h3>{body}</section>'
