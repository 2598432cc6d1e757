"""What a page on another site, or a broken client, must not get from the server.

- A POST is a player's command: it must say ``Content-Type: application/json`` (a plain
  HTML form or a no-cors ``fetch`` cannot; only the site's own forms, routes named
  ``form:...``, take a form, and site.py checks their Origin or CSRF token) and, if the
  browser names its ``Origin``, come from this server's own pages (the request's host, or
  ``FAIRYPOST_WEB_URL``'s). Else 415 or 403, and nothing is done.
- Its body is read as JSON only when nested at most ``MAX_JSON_DEPTH`` deep: a 400 before
  the parser's recursion, not a 500.
- Every answer has the safety headers (``protect``), aiohttp's own answers to a request it
  cannot read included (a line too long, a garbage request line: ``serving_server``), and
  names no server version.
"""

from __future__ import annotations

import json
import re
from urllib.parse import urlsplit

from aiohttp import web
from aiohttp.web_protocol import RequestHandler

from language import T

from .reader import language_of

# Everything the page loads is its own: no inline script, no other site, no framing.
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
       "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
FORM_ROUTES = "form:"  # a route named so takes an HTML form (site.py checks where it came from)
FORM_TYPE = "application/x-www-form-urlencoded"
MAX_JSON_DEPTH = 8  # a command is a flat object: {"text": ..., "ply": ...}
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)  # one JSON string: no backtracking between choices
_BRACKET = re.compile(r"[\[\]{}]")


def protect(headers) -> None:
    """The headers every answer has."""
    headers["Server"] = "fairypost"
    headers["X-Content-Type-Options"] = "nosniff"
    headers["Content-Security-Policy"] = CSP
    headers["X-Frame-Options"] = "DENY"
    # (the site's pages with forms say "same-origin": with "no-referrer" a browser posts a
    # form with "Origin: null", which the form check must refuse)
    headers.setdefault("Referrer-Policy", "no-referrer")
    headers.setdefault("Cache-Control", "no-store")


def origin_of(url: str | None) -> str | None:
    """``scheme://host[:port]`` of a URL, lower-cased; None if it has none."""
    if not url:
        return None
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return None
    return f"{parts.scheme}://{parts.netloc}".lower()


#: the refusals' message ids (said in the asker's language by the middleware)
ELSEWHERE = T("a page on another site cannot play here").msgid
ONE_ORIGIN = T("one Origin, please").msgid


def from_elsewhere(request: web.Request, own_origin: str | None) -> str | None:
    """Why a POST is refused as sent by another site's page, or None. Browsers send
    ``Origin`` with every POST (a form's, a no-cors fetch's); a client that is not a
    browser sends none and is not a page elsewhere."""
    if request.headers.get("Sec-Fetch-Site", "").lower() == "cross-site":
        return ELSEWHERE
    origins = request.headers.getall("Origin", [])
    if not origins:
        return None
    if len(origins) > 1:
        return ONE_ORIGIN
    said = origin_of(origins[0])  # "null" (a sandboxed frame, a file) is no origin: refused
    if said is not None and (said == own_origin or
                             urlsplit(said).netloc == request.host.lower()):
        return None
    return ELSEWHERE


def make_refusing_elsewhere(own_url: str | None):
    """The middleware refusing a POST sent from elsewhere (403) or not as JSON (415)."""
    own_origin = origin_of(own_url)

    @web.middleware
    async def refuse_from_elsewhere(request: web.Request, handler) -> web.StreamResponse:
        # (a route that does not exist, or takes no POST, says so: 404, 405)
        if request.method not in SAFE_METHODS and request.match_info.http_exception is None:
            why = from_elsewhere(request, own_origin)
            if why:
                raise web.HTTPForbidden(text=language_of(request).tr(why))
            route = request.match_info.route.name or ""
            if request.content_type == FORM_TYPE and route.startswith(FORM_ROUTES):
                return await handler(request)
            if request.content_type != "application/json":
                raise web.HTTPUnsupportedMediaType(
                    text="send the command as JSON (Content-Type: application/json)")
        return await handler(request)
    return refuse_from_elsewhere


def depth_of(text: str) -> int:
    """How deep the JSON ``text`` nests its arrays and objects (brackets in strings not
    counted); linear in the text."""
    depth = deepest = 0
    for m in _BRACKET.finditer(_STRING.sub("", text)):
        if m.group() in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


async def json_body(request: web.Request):
    """The request's body as JSON; 400 (and why) if it is not JSON or nests too deep."""
    try:
        text = await request.text()
    except UnicodeDecodeError:
        raise web.HTTPBadRequest(text="the request is not JSON (not UTF-8 text)") from None
    if depth_of(text) > MAX_JSON_DEPTH:
        raise web.HTTPBadRequest(text=f"the request nests deeper than {MAX_JSON_DEPTH} levels")
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise web.HTTPBadRequest(text="the request is not JSON") from None


class _ProtectedHandler(RequestHandler):
    """aiohttp's connection handler, its own error answers (a request it cannot read) with
    the safety headers: they never reach the app's response hook. A request it cannot
    read is the client's fault: logged at debug level, not as an error with its traceback
    (anyone may send garbage by the thousand)."""

    _clients_fault = False

    def handle_error(self, request, status: int = 500, exc=None, message=None):
        self._clients_fault = status < 500
        try:
            response = super().handle_error(request, status, exc, message)
        finally:
            self._clients_fault = False
        protect(response.headers)
        return response

    def log_exception(self, *args, **kw) -> None:
        if self._clients_fault:
            self.log_debug(*args, **kw)
        else:
            super().log_exception(*args, **kw)


class _ProtectedServer(web.Server):
    def __call__(self) -> RequestHandler:
        return _ProtectedHandler(self, loop=self._loop, **self._kwargs)


def serving_server(server: web.Server) -> None:
    """Make ``server`` (a runner's) answer what it cannot read with the safety headers."""
    server.__class__ = _ProtectedServer
