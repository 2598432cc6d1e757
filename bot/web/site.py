"""The site around the game pages: a home page, signing in by a mailed link, signing out,
and a signed-in player's own game pages without a token in the address.

Routes:

    GET  /                      home: "Sign in", or (signed in) "Your games"
    GET  /signin                the form: "Email address", "Send me a link"
    POST /signin                mails a single-use link (signin.py: 15 minutes, budgets)
    GET  /signin/<token>        "Sign in as ...?" and a button (a mail scanner opening the
                                link spends nothing)
    POST /signin/<token>        spends the link: a new session (cookie), then home
    POST /signout               ends the session
    POST /language              the footer's language choice (``lang``, ``back``): sets the
                                ``lang`` cookie, and the signed-in player's setting
    GET  /play/<id>             the signed-in player's own page of their game (404 for a
                                game that is not theirs)

Every form POST comes from this site's pages: the guard (guard.py) refuses another
site's Origin; a form also needs an Origin naming this site, or, signed in, its session's
CSRF token (a hidden field) — both, when a session is open.
"""

from __future__ import annotations

import hmac
import logging

from aiohttp import web

from language import ENGLISH, Language, T, language_names, supported

from ..identity import signing
from . import signin, site_pages
from .mailer import MailFailed
from .reach import SECRET, SERVICE, client_of, client_share
from .reader import COOKIE as LANGUAGE_COOKIE
from .reader import COOKIE_SECONDS, DEFAULT, MAX_BACK, VARY, here, language_of, safe_back

log = logging.getLogger("bot.web")

COOKIE = "fairypost_session"
SIGNINS = web.AppKey("signins", signin.SignIns)
MAILER = web.AppKey("mailer", object)
WEB_URL = web.AppKey("web_url", object)
GAME_PAGE = web.AppKey("game_page", object)   # server.game_page(request, view, role, base)
STATIC = web.AppKey("static_url", object)     # server.static_url(request, name)


def add_routes(app: web.Application, service, *, mailer=None, web_url: str | None = None,
               game_page, static_url) -> None:
    app[SIGNINS] = signins = signin.SignIns(service)
    service.add_sweeper(signins)   # the sweep prunes spent links and ended sessions

    async def stop_sweeping(_app) -> None:
        service.remove_sweeper(signins)
    app.on_cleanup.append(stop_sweeping)
    app[MAILER] = mailer
    app[WEB_URL] = web_url
    app[GAME_PAGE] = game_page
    app[STATIC] = static_url
    app.router.add_get("/", shared(home_handler))
    app.router.add_get("/signin", shared(signin_form_handler))
    app.router.add_post("/signin", shared(signin_handler), name="form:signin")
    app.router.add_get("/signin/{token}", shared(link_handler))
    app.router.add_post("/signin/{token}", shared(use_link_handler), name="form:use_link")
    app.router.add_post("/signout", shared(signout_handler), name="form:signout")
    app.router.add_get("/play/{id}", shared(play_handler))
    app.router.add_post("/language", shared(choose_language_handler), name="form:language")


def shared(handler):
    """``handler`` answered within one of the client's places, as a game page and its JSON
    are (work.Workers.per_client; 429 beyond): the site is under the same per-client limits."""
    async def within_share(request: web.Request) -> web.StreamResponse:
        with client_share(request):
            return await handler(request)
    return within_share


# --- sessions and forms -------------------------------------------------------------

async def session_of(request: web.Request) -> signin.Session | None:
    return await request.app[SIGNINS].session(request.cookies.get(COOKIE))


def csrf_for(request: web.Request, session: signin.Session | None) -> str:
    return signing.mac(request.app[SECRET], f"csrf:{session.token_hash}", 32) if session else ""


async def form_of(request: web.Request, session: signin.Session | None):
    """The form's fields, once it is shown to come from this site's own page (403 else)."""
    data = await request.post()
    if session is not None:
        token = data.get("csrf")
        if not isinstance(token, str) or not hmac.compare_digest(token, csrf_for(request, session)):
            raise web.HTTPForbidden(text=language_of(request).tr(
                "this form did not come from your page here: reload it and try again"))
    elif not request.headers.get("Origin"):
        raise web.HTTPForbidden(text=language_of(request).tr("this form did not come from a page of this site"))
    return data


def field(data, name: str, limit: int, lang: Language = ENGLISH) -> str:
    value = data.get(name, "")
    if not isinstance(value, str):
        raise web.HTTPBadRequest(text=lang.tr("{name}: text, please", name=name))
    if len(value) > limit:
        raise web.HTTPBadRequest(text=lang.tr("{name}: at most {limit} characters",
                                                   name=name, limit=limit))
    return value


def html(request: web.Request, title: str, body: str, session: signin.Session | None = None,
         name: str | None = None, status: int = 200, lang: Language = ENGLISH) -> web.Response:
    """The page in ``lang`` (``title`` and ``body`` in it already: reader_of gives it)."""
    static = request.app[STATIC]
    text = site_pages.layout(title, body, style=static(request, "site.css"),
                             icon=static(request, "favicon.svg"), signed_in_as=name,
                             csrf=csrf_for(request, session), lang=lang, path=request.path_qs)
    return web.Response(text=text, content_type="text/html", status=status,
                        headers={"Referrer-Policy": "same-origin", "Vary": VARY,
                                 "Content-Language": lang.code})


async def reader_of(request: web.Request):
    """The request's session, its player and the page's language (the player's, else this
    browser's); what this browser names (the language chosen on the page, else its
    Accept-Language) is remembered as the player's seen language, for notices elsewhere."""
    session = await session_of(request)
    if session is None:
        return None, None, language_of(request)
    service = request.app[SERVICE]
    me = await service.get_player(session.player_id)
    seen = here(request)
    if seen and seen != me.settings.seen_language:
        await service.saw_language(me.id, seen)
    return session, me, language_of(request, me)


async def page_for(request: web.Request, title, body, status: int = 200) -> web.Response:
    """``title`` a Text, ``body(lang)`` the page's HTML in the reader's language."""
    session, me, lang = await reader_of(request)
    return html(request, lang.say(title), body(lang), session, me.name if me else None, status, lang)


def see_other(where: str) -> web.Response:
    """A redirect after a form (returned, not raised: its cookies go with it)."""
    return web.Response(status=303, headers={"Location": where})


def public_base(request: web.Request) -> str:
    """The site's address for a link that leaves it (a mail): ``FAIRYPOST_WEB_URL``, else the
    address the server was reached on (its socket's), never the request's ``Host`` header:
    anyone may name their own host there, and a mailed link to it hands them the token."""
    configured = request.app[WEB_URL]
    if configured:
        return configured.rstrip("/")
    sockname = request.transport.get_extra_info("sockname") if request.transport else None
    if not sockname or not isinstance(sockname, tuple):
        raise web.HTTPServiceUnavailable(text="set FAIRYPOST_WEB_URL: this site does not know its address")
    host, port = sockname[0], sockname[1]
    host = f"[{host}]" if ":" in host else host
    return f"{'https' if request.secure else 'http'}://{host}:{port}"


def secure(request: web.Request) -> bool:
    configured = request.app[WEB_URL] or ""
    return request.secure or configured.startswith("https://")


# --- handlers -------------------------------------------------------------------------

SIGN_IN = T("Sign in")


async def home_handler(request: web.Request) -> web.Response:
    session, me, lang = await reader_of(request)
    if session is None:
        return html(request, "fairypost", site_pages.home_out(lang), lang=lang)
    from .home import your_games
    return html(request, "fairypost", await your_games(request.app[SERVICE], me, lang), session, me.name,
                lang=lang)


async def signin_form_handler(request: web.Request) -> web.Response:
    return await page_for(request, SIGN_IN, lambda lang: site_pages.signin_form(lang=lang))


async def signin_handler(request: web.Request) -> web.Response:
    data = await form_of(request, None)
    lang = language_of(request)
    text = field(data, "address", 1000, lang)

    def again(address: str, why, status: int) -> web.Response:
        return html(request, lang.say(SIGN_IN), site_pages.signin_form(address, lang.say(why), lang),
                    status=status, lang=lang)
    try:
        address = signin.normal_address(text)
    except signin.BadAddress as e:
        return again(text[:254], e.args[0], 400)
    mailer = request.app[MAILER]
    if mailer is None:
        return again(address, T("this site sends no mail (FAIRYPOST_SMTP_URL is not set): sign in by "
                                "{command} on Discord", command="/settings web"), 503)
    try:
        token = await request.app[SIGNINS].new_link(client_of(request), address=address)
    except signin.TooMany as e:
        return again(address, e.args[0], 429)
    link = f"{public_base(request)}/signin/{token}"
    try:
        await mailer.send(address, lang.tr("Your fairypost sign-in link"),
                          lang.tr("Sign in to fairypost:\n\n{link}\n\nThe link works once, for 15 minutes. "
                                  "If you did not ask for it, do nothing: nobody is signed in.\n", link=link),
                          language=lang.code)
    except MailFailed as e:
        log.warning("a sign-in mail to %s failed: %s", address, e)
        return again(address, T("the mail could not be sent just now: try again in a few minutes"), 503)
    return html(request, lang.tr("Check your mail"), site_pages.link_sent(address, lang), lang=lang)


def refused_link(e: signin.LinkRefused):
    """The page for a link that does not work (``e`` says why), in the reader's language."""
    def body(lang: Language) -> str:
        new = site_pages.esc(lang.tr("Get a new link"))
        return site_pages.message(lang.say(e.args[0]), alert=True) + f'<p><a href="/signin">{new}</a></p>'
    return body


async def link_handler(request: web.Request) -> web.Response:
    token = request.match_info["token"]
    try:
        address, player_id = await request.app[SIGNINS].link_for(token)
    except signin.LinkRefused as e:
        return await page_for(request, SIGN_IN, refused_link(e), 410)
    who = address or (await request.app[SERVICE].get_player(player_id)).name
    return await page_for(request, SIGN_IN, lambda lang: site_pages.confirm_link(token, who, lang))


async def use_link_handler(request: web.Request) -> web.Response:
    await form_of(request, None)
    try:
        session, _ = await request.app[SIGNINS].use_link(request.match_info["token"])
    except signin.LinkRefused as e:
        return await page_for(request, SIGN_IN, refused_link(e), 410)
    old = await session_of(request)
    if old is not None:  # the browser's session before: ended, never carried on
        await request.app[SIGNINS].end(old)
    response = see_other("/")
    response.set_cookie(COOKIE, session, max_age=signin.SESSION_SECONDS, path="/", httponly=True,
                        samesite="Lax", secure=secure(request))
    return response


async def signout_handler(request: web.Request) -> web.Response:
    session = await session_of(request)
    if session is not None:
        await form_of(request, session)
        await request.app[SIGNINS].end(session)
    response = see_other("/")
    response.del_cookie(COOKIE, path="/")
    return response


async def signed_in(request: web.Request) -> signin.Session:
    """The request's session; else a redirect to the sign-in page."""
    session = await session_of(request)
    if session is None:
        raise web.HTTPSeeOther("/signin")
    return session


async def play_handler(request: web.Request) -> web.Response:
    from bot.domain.errors import NotFound

    from ..identity import page_tokens as tokens
    session = await signed_in(request)
    text = request.match_info["id"]
    if not (text.isascii() and text.isdigit()) or len(text) > 18:
        raise web.HTTPNotFound(text=language_of(request).tr("no such game"))
    try:
        view = await request.app[SERVICE].game(int(text))
    except NotFound:
        raise web.HTTPNotFound(text=language_of(request).tr("no such game")) from None
    role = "w" if view.white.id == session.player_id else "b" if view.black.id == session.player_id else ""
    if not role:   # someone else's game: the same answer as for one that does not exist
        raise web.HTTPNotFound(text=language_of(request).tr("no such game"))
    base = f"/g/{view.id}/{tokens.sign_side(request.app[SECRET], view.id, role)}"
    return await request.app[GAME_PAGE](request, view, role, base)


async def choose_language_handler(request: web.Request) -> web.Response:
    """The language chosen in a page's footer (or on one's own page): the cookie, and the
    player's setting when signed in; ``default`` forgets both (the browser's again); a code
    we do not have is refused (400) and changes nothing."""
    session = await session_of(request)
    data = await form_of(request, session)
    lang = language_of(request)
    text = field(data, "lang", 64, lang)
    code = None if text == DEFAULT else supported(text)
    if code is None and text != DEFAULT:
        raise web.HTTPBadRequest(text=lang.tr("there is no language {code} here (choose one of {codes})",
                                              code=text, codes=", ".join(sorted(language_names()))))
    back = safe_back(field(data, "back", MAX_BACK, lang))
    if session is not None:
        await request.app[SERVICE].update_settings(session.player_id, language=code)
    response = see_other(back)
    if code is None:
        response.del_cookie(LANGUAGE_COOKIE, path="/")
    else:
        response.set_cookie(LANGUAGE_COOKIE, code, max_age=COOKIE_SECONDS, path="/", samesite="Lax",
                            secure=secure(request))
    return response
