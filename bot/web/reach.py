"""Reaching a game from a request: the app's keys, the signed path and what it lets its
holder do, the query's ply and side line, work in a worker process, JSON answers. Every
module of routes uses it (server.py, boardparts.py)."""

from __future__ import annotations

import json
from contextlib import contextmanager

from aiohttp import web

from bot.domain.errors import NotFound

from ..identity import page_tokens as tokens
from . import analysis
from .evaluation import Evaluator
from .live import Hub, StreamSlots, Views
from .reader import language_of, script_language
from .work import Busy, Pictures, Turns, Workers

SERVICE = web.AppKey("service", object)
SECRET = web.AppKey("secret", bytes)
CACHE = web.AppKey("cache", analysis.PositionCache)
HUB = web.AppKey("hub", Hub)
VIEWS = web.AppKey("views", Views)
EVALUATOR = web.AppKey("evaluator", Evaluator)
PICTURES = web.AppKey("pictures", Pictures)
WORKERS = web.AppKey("workers", Workers)
STREAMS = web.AppKey("streams", StreamSlots)
TURNS = web.AppKey("turns", Turns)
PUBLIC_TOKEN = "public"


def client_of(request: web.Request) -> str:
    """The client as the per-client limits count it (server's middleware: clients.py)."""
    return request.remote or "?"


@contextmanager
def client_share(request: web.Request):
    """One of the client's places (work.Workers.per_client, the same as its JSON's) held
    while the request is answered; 429 if it has none left."""
    try:
        with request.app[WORKERS].share(client_of(request)):
            yield
    except Busy as e:
        raise web.HTTPTooManyRequests(text=refusal(request, e), headers={"Retry-After": "2"}) from None


async def access(request: web.Request, *, turn: bool = True):
    """The game the signed path names and what the link lets its holder do: ("w"/"b":
    play that side, "": watch); 404 (the same answer for a forged token and for a game
    that does not exist) otherwise. Returned in the request's turn (work.Turns) unless
    ``turn`` is False (an event stream subscribes first, then takes its turn)."""
    text, token = request.match_info["id"], request.match_info["token"]
    if not (text.isascii() and text.isdigit()) or len(text) > 18:
        raise web.HTTPNotFound(text=language_of(request).tr("no such game"))
    game_id = int(text)
    views = request.app[VIEWS]
    if token == PUBLIC_TOKEN:
        if not await views.is_public(game_id):
            raise web.HTTPNotFound(text=language_of(request).tr("no such game"))
        role = ""
    else:
        role = tokens.role(request.app[SECRET], game_id, token)
        if role is None:
            raise web.HTTPNotFound(text=language_of(request).tr("no such game"))
    try:
        view = await views.game(game_id)
    except NotFound:
        raise web.HTTPNotFound(text=language_of(request).tr("no such game")) from None
    # the hundreds of requests that waited on one read of their game wake together: each
    # goes on in its turn, a few per pass of the loop (all at once: 316 answers, 36 ms)
    if turn:
        await request.app[TURNS].turn(game_id)
    return view, role


async def game_of(request: web.Request, *, turn: bool = True):
    return (await access(request, turn=turn))[0]


def base(view, request: web.Request) -> str:
    return f"/g/{view.id}/{request.match_info['token']}"


def ply_and_line(request: web.Request, view) -> tuple[int, tuple[str, ...]]:
    try:
        return (analysis.parse_ply(request.query.get("ply"), view.ply),
                analysis.parse_line(request.query.get("line")))
    except analysis.BadRequest as e:
        raise web.HTTPBadRequest(text=refusal(request, e)) from None


async def work_for(request: web.Request, fn, *args):
    """``fn(*args)`` in a worker process, within this client's share and the game's turn;
    its BadRequest a 400."""
    try:
        return await request.app[WORKERS].run(client_of(request), request.match_info["id"], fn, *args)
    except analysis.BadRequest as e:
        raise web.HTTPBadRequest(text=refusal(request, e)) from None
    except Busy as e:
        raise web.HTTPTooManyRequests(text=refusal(request, e), headers={"Retry-After": "2"}) from None


def flip_of(request: web.Request) -> bool:
    return request.query.get("flip", "0") in ("1", "true", "yes")


def json_answer(data, status: int = 200) -> web.Response:
    return web.Response(text=json.dumps(data), status=status, content_type="application/json",
                        headers={"Cache-Control": "no-store"})


def refusal(request: web.Request, e: Exception) -> str:
    """A Busy's or BadRequest's words (a Text) in the language of the page asking."""
    return script_language(request).say(e.args[0] if e.args else str(e))
