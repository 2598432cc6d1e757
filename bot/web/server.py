"""The web adapter: an aiohttp app on the game service.

Routes (``<base>`` is ``/g/<id>/<token>``: every page needs its signed token; a forged or
altered one gets 404 and nothing of the game. A public game (``GameService.is_public``) is also
``/g/<id>/public``, and its plain ``/g/<id>`` leads there):

    GET /g/<id>                a public game's page (redirect), else 404

    GET <base>                 the page
    GET <base>/state.json      the game: moves in SAN, whose move, clocks, result
    GET <base>/board.png       ?ply=N&line=LAN+LAN&flip=0|1&sel=SQUARE   the board drawn by render
    GET <base>/layout.json     ?ply&line&flip   each square's pixel box in that picture
    GET <base>/moves.json      ?ply&line&square=SQ   a square's legal moves; the side line's SAN
    GET <base>/eval.json       ?ply&line   the computer's evaluation and best line (ai/)
    GET <base>/events          server-sent events: "update" after every change of the game
    GET /static/...            the page's script and style
"""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path

from aiohttp import web

import render
from bot.errors import NotFound

from . import analysis, page, tokens
from .evaluation import Evaluator

log = logging.getLogger("bot.web")

STATIC = Path(__file__).parent / "static"
SQUARE_PX = 56  # ~900-1100 px for the large boards: crisp when CSS scales it to a phone
# A live page is woken by the service's commits in this process; a move made by another
# process on the same database (``fairypost web`` beside ``fairypost run``) is seen by a
# re-read this often, which doubles as the keep-alive for proxies.
POLL_SECONDS = 10.0

SERVICE = web.AppKey("service", object)
SECRET = web.AppKey("secret", bytes)
CACHE = web.AppKey("cache", analysis.PositionCache)
WAKERS = web.AppKey("wakers", set)
EVALUATOR = web.AppKey("evaluator", Evaluator)
PUBLIC_TOKEN = "public"


def make_app(service, secret: bytes) -> web.Application:
    """The app, listening to the service's commits to wake the live pages."""
    app = web.Application()
    app[SERVICE] = service
    app[SECRET] = secret
    app[CACHE] = analysis.PositionCache()
    app[WAKERS] = set()
    app[EVALUATOR] = Evaluator()

    def wake() -> None:  # called by the service after every commit, on the loop's thread
        for event in list(app[WAKERS]):
            event.set()

    async def listen(app: web.Application):
        service.add_listener(wake)
        yield
        service.remove_listener(wake)
        app[EVALUATOR].close()
        for event in list(app[WAKERS]):
            app[WAKERS].discard(event)
            event.set()  # open streams see the stop and end

    app.cleanup_ctx.append(listen)
    app.router.add_get("/g/{id}", plain_handler)
    app.router.add_get("/g/{id}/{token}", page_handler)
    app.router.add_get("/g/{id}/{token}/state.json", state_handler)
    app.router.add_get("/g/{id}/{token}/board.png", board_handler)
    app.router.add_get("/g/{id}/{token}/layout.json", layout_handler)
    app.router.add_get("/g/{id}/{token}/moves.json", moves_handler)
    app.router.add_get("/g/{id}/{token}/eval.json", eval_handler)
    app.router.add_get("/g/{id}/{token}/events", events_handler)
    app.router.add_static("/static/", STATIC, append_version=False)
    return app


# --- reaching a game ----------------------------------------------------------------

async def _game(request: web.Request):
    """The game the signed path names; 404 (the same answer for a forged token and for
    a game that does not exist) otherwise."""
    text, token = request.match_info["id"], request.match_info["token"]
    if not (text.isascii() and text.isdigit()) or len(text) > 18:
        raise web.HTTPNotFound(text="no such game")
    game_id = int(text)
    if token == PUBLIC_TOKEN:
        if not await request.app[SERVICE].is_public(game_id):
            raise web.HTTPNotFound(text="no such game")
    elif not tokens.verify(request.app[SECRET], game_id, token):
        raise web.HTTPNotFound(text="no such game")
    try:
        return await request.app[SERVICE].game(game_id)
    except NotFound:
        raise web.HTTPNotFound(text="no such game") from None


def _base(view, request: web.Request) -> str:
    return f"/g/{view.id}/{request.match_info['token']}"


def _position(request: web.Request, view):
    """The position at ``ply`` of the game then the side line ``line``."""
    q = request.query
    try:
        ply = analysis.parse_ply(q.get("ply"), view.ply)
        line = analysis.parse_line(q.get("line"))
        lans = tuple(m.lan for m in view.moves[:ply]) + line
        return request.app[CACHE].get(view.game, view.start_vfen, lans), ply, line
    except analysis.BadRequest as e:
        raise web.HTTPBadRequest(text=str(e)) from None


def _flip(request: web.Request) -> bool:
    return request.query.get("flip", "0") in ("1", "true", "yes")


def _json(data, status: int = 200) -> web.Response:
    return web.Response(text=json.dumps(data), status=status, content_type="application/json",
                        headers={"Cache-Control": "no-store"})


# --- handlers -----------------------------------------------------------------------

async def plain_handler(request: web.Request) -> web.Response:
    text = request.match_info["id"]
    if text.isascii() and text.isdigit() and len(text) <= 18 and \
            await request.app[SERVICE].is_public(int(text)):
        raise web.HTTPFound(f"/g/{int(text)}/{PUBLIC_TOKEN}")
    raise web.HTTPNotFound(text="no such game")


async def page_handler(request: web.Request) -> web.Response:
    view = await _game(request)
    pos, _, _ = _position(request, view)
    lay = render.board_layout(pos, flip=False, square=SQUARE_PX)
    html = page.render_page(view, _base(view, request), (lay.width, lay.height))
    return web.Response(text=html, content_type="text/html",
                        headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer",
                                 "X-Content-Type-Options": "nosniff"})


async def state_handler(request: web.Request) -> web.Response:
    return _json(page.state(await _game(request)))


async def board_handler(request: web.Request) -> web.Response:
    view = await _game(request)
    pos, ply, line = _position(request, view)
    sel = request.query.get("sel") or None
    if sel is not None:
        try:
            analysis.square_moves(pos, sel)  # a square that is not on the board: 400
        except analysis.BadRequest as e:
            raise web.HTTPBadRequest(text=str(e)) from None
    at_end = ply == view.ply and not line
    result = None
    if at_end and view.result:  # the stored result (resignation, time) as the banner
        result = render.result_text(pos.game, view.result, view.reason) or ""
    png = await asyncio.get_running_loop().run_in_executor(
        None, lambda: render.board_png(pos, flip=_flip(request), highlight=sel,
                                       square=SQUARE_PX, result=result))
    return web.Response(body=png, content_type="image/png",
                        headers={"Cache-Control": "private, max-age=60"})


async def layout_handler(request: web.Request) -> web.Response:
    view = await _game(request)
    pos, ply, line = _position(request, view)
    result = None
    if ply == view.ply and not line and view.result:
        result = render.result_text(pos.game, view.result, view.reason) or ""
    lay = render.board_layout(pos, flip=_flip(request), square=SQUARE_PX, result=result)
    return _json({"width": lay.width, "height": lay.height,
                  "squares": {name: lay.box(name) for name in lay.squares()}})


async def moves_handler(request: web.Request) -> web.Response:
    view = await _game(request)
    pos, ply, line = _position(request, view)
    cache = request.app[CACHE]
    before = tuple(m.lan for m in view.moves[:ply])
    out = {"ply": ply, "turn": pos.turn, "line": analysis.line_sans(
        lambda lans: cache.get(view.game, view.start_vfen, before + lans), line),
        "drops": analysis.drop_moves(pos), "over": pos.outcome() is not None}
    if request.query.get("square"):
        try:
            out.update(analysis.square_moves(pos, request.query["square"]))
        except analysis.BadRequest as e:
            raise web.HTTPBadRequest(text=str(e)) from None
    return _json(out)


async def eval_handler(request: web.Request) -> web.Response:
    view = await _game(request)
    _, ply, line = _position(request, view)  # a bad ply or line: 400 before any search
    lans = tuple(m.lan for m in view.moves[:ply]) + line
    return _json(await request.app[EVALUATOR].evaluate(view.game, view.start_vfen, lans))


async def events_handler(request: web.Request) -> web.StreamResponse:
    """Server-sent events: an ``update`` (the state as JSON) whenever the game's state
    changes; a comment line when nothing did keeps proxies from closing the stream."""
    view = await _game(request)
    resp = web.StreamResponse(headers={"Content-Type": "text/event-stream",
                                       "Cache-Control": "no-store", "X-Accel-Buffering": "no"})
    await resp.prepare(request)
    wakers = request.app[WAKERS]
    event = asyncio.Event()
    wakers.add(event)
    seen = json.dumps(page.state(view))
    try:
        await resp.write(b": live\n\n")
        while True:
            try:
                await asyncio.wait_for(event.wait(), POLL_SECONDS)
            except TimeoutError:
                pass
            event.clear()
            if event not in wakers:  # the app is stopping
                break
            now = json.dumps(page.state(await request.app[SERVICE].game(view.id)))
            if now != seen:
                seen = now
                await resp.write(f"event: update\ndata: {now}\n\n".encode())
            else:
                await resp.write(b": still here\n\n")
    except (ConnectionResetError, asyncio.CancelledError):
        pass
    finally:
        wakers.discard(event)
    return resp


# --- serving ------------------------------------------------------------------------

async def start(service, settings, *, port: int | None = None) -> web.AppRunner:
    """Serve the pages on settings.web_host:port (or web_port, else 8080); the runner
    to clean up when done."""
    secret = tokens.load_secret(settings.web_secret, settings.db_path)
    runner = web.AppRunner(make_app(service, secret), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, settings.web_host, port or settings.web_port or 8080)
    await site.start()
    log.info("game pages on http://%s:%s", settings.web_host, port or settings.web_port or 8080)
    return runner


async def serve(settings) -> int:
    """``fairypost web``: the pages alone, until stopped."""
    from bot.service import GameService
    service = await GameService.open(settings)
    try:
        runner = await start(service, settings)
    except OSError as e:
        await service.close()
        print(f"fairypost web: cannot listen on {settings.web_host}:{settings.web_port or 8080}: "
              f"{e.strerror or e}")
        return 1
    print(f"fairypost web: serving game pages on http://{settings.web_host}:"
          f"{settings.web_port or 8080}/ (Ctrl-C stops)", flush=True)
    try:
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()
        await service.close()
    return 0
