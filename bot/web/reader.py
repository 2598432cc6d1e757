"""The page's language, and the choice of it on every page.

A page is in the signed-in player's language (``player.reads``: their setting, else what this
browser names), else the language chosen on the page (the ``lang`` cookie), else the browser's
``Accept-Language``, else English. Pages whose language depends on those say so:
``Vary: Accept-Language, Cookie``.

The footer's form posts to ``POST /language`` (site.py): ``lang`` and ``back``.
"""

from __future__ import annotations

from html import escape

from aiohttp import web

from language import ENGLISH, Language, from_accept_language, language, language_names, supported

COOKIE = "lang"
VARY = "Accept-Language, Cookie"
COOKIE_SECONDS = 365 * 86400
DEFAULT = "default"  # the choice that forgets one: the browser's language again
MAX_BACK = 2000


def here(request: web.Request) -> str | None:
    """What this browser names: the chosen ``lang`` cookie, else ``Accept-Language``
    (both read only as far as a tag of ours: ``../../etc`` or 100 KB name none)."""
    cookie = request.cookies.get(COOKIE)
    chosen = supported(cookie) if cookie and len(cookie) <= 16 else None
    return chosen or from_accept_language(request.headers.get("Accept-Language"))


def language_of(request: web.Request, player=None) -> Language:
    """The page's language for ``player`` (signed in), or for whoever asks."""
    code = here(request)
    return language(player.reads(code) if player is not None else code)


def script_language(request: web.Request) -> Language:
    """The language of a game page's script asking: the page hands it its own (``?lang=``),
    else the asker's cookie and Accept-Language."""
    return language(supported(request.query.get("lang")) or language_of(request).code)


def safe_back(text: str | None) -> str:
    """A path of this site to go back to (never another site's: ``//evil``, ``https:``)."""
    if not isinstance(text, str) or not text.startswith("/") or text.startswith("//") \
            or len(text) > MAX_BACK or "\\" in text or any(ord(c) < 32 for c in text):
        return "/"
    return text


def choice_form(lang: Language, back: str, csrf: str = "", *, default: str | None = None,
                chosen: str | None = None, form_id: str = "page-language") -> str:
    """The small form that chooses the page's language (each language in its own name);
    ``default``: the label of an option forgetting the choice (one's own page has it),
    ``chosen`` the option selected (else the page's language)."""
    selected = chosen or lang.code
    forget = (f'<option value="{DEFAULT}"{" selected" if selected == DEFAULT else ""}>{escape(default)}</option>'
              if default else "")
    options = forget + "".join(
        f'<option value="{code}" lang="{code}"{" selected" if code == selected else ""}>{escape(name)}</option>'
        for code, name in sorted(language_names().items()))
    label, choose = escape(lang.tr("Language")), escape(lang.tr("Choose"))
    token = f'<input type="hidden" name="csrf" value="{escape(csrf)}">' if csrf else ""
    return (f'<form method="post" action="/language" class="inline language-choice">{token}'
            f'<input type="hidden" name="back" value="{escape(safe_back(back))}">'
            f'<label for="{form_id}">{label}</label> '
            f'<select id="{form_id}" name="lang">{options}</select> '
            f'<button>{choose}</button></form>')


__all__ = ["COOKIE", "ENGLISH", "VARY", "choice_form", "here", "language_of", "script_language"]
