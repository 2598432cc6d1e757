"""The site's pages beside the game's: home, sign in, your games, new game, lobby. Plain
HTML from Python strings; every text that comes from users is escaped here (``esc``)."""

from __future__ import annotations

from html import escape

esc = escape


def layout(title: str, body: str, *, style: str, icon: str, signed_in_as: str | None = None,
           csrf: str = "") -> str:
    """A whole page: its title, the site's header (home, lobby, new game; who is signed in
    and a form to sign out) and ``body`` (HTML, escaped by the caller)."""
    if signed_in_as is not None:
        who = (f'<span>Signed in as <strong>{esc(signed_in_as)}</strong></span> '
               f'<form method="post" action="/signout" class="inline">{hidden_csrf(csrf)}'
               f'<button>Sign out</button></form>')
        links = ('<a href="/">Your games</a> <a href="/lobby">Lobby</a> <a href="/new">New game</a> '
                 '<a href="/me">Your page</a>')
    else:
        who = '<a href="/signin">Sign in</a>'
        links = '<a href="/">Home</a>'
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{esc(title)} · fairypost</title>
<link rel="icon" href="{esc(icon)}" type="image/svg+xml">
<link rel="stylesheet" href="{esc(style)}">
</head><body class="site">
<header><nav aria-label="site">{links}</nav><div class="who">{who}</div></header>
<main>
<h1>{esc(title)}</h1>
{body}
</main></body></html>
"""


def hidden_csrf(token: str) -> str:
    return f'<input type="hidden" name="csrf" value="{esc(token)}">' if token else ""


def message(text: str, *, alert: bool = False) -> str:
    role = "alert" if alert else "status"
    return f'<p class="{"error" if alert else "note"}" role="{role}">{esc(text)}</p>'


def home_out() -> str:
    """The home page signed out: what the site is (the games loaded, a server's own too)."""
    import rules

    from .page import game_name
    names = ", ".join(game_name(g) for g in rules.variants())
    return f"""<p>Correspondence play of large chess variants: {esc(names)}. Play by mail, on
Discord, in a terminal, or here.</p>
<p><a class="button" href="/signin">Sign in</a> with your email address: the same account as
your games by mail.</p>"""


def signin_form(address: str = "", error: str = "") -> str:
    return (message(error, alert=True) if error else "") + f"""
<form method="post" action="/signin" class="stack">
<label for="address">Email address</label>
<input id="address" name="address" type="email" autocomplete="email" required maxlength="254"
 value="{esc(address)}">
<button>Send me a link</button></form>
<p class="hint">We mail you a link that signs you in. It works once, for 15 minutes.</p>"""


def link_sent(address: str) -> str:
    return message(f"A sign-in link is on its way to {address}. It works once, for 15 minutes.") + \
        '<p><a href="/signin">Send another</a></p>'


def confirm_link(token: str, who: str) -> str:
    # a button, not the link itself: a mail scanner that opens links does not spend it
    return f"""<p>Sign in as {esc(who)}?</p>
<form method="post" action="/signin/{esc(token)}"><button>Sign in</button></form>"""


def games_section(title: str, rows: list[str], empty: str, hid: str) -> str:
    body = f'<ul class="games">{"".join(rows)}</ul>' if rows else f"<p>{esc(empty)}</p>"
    return f'<section aria-labelledby="{hid}"><h3 id="{hid}">{esc(title)}</h3>{body}</section>'
