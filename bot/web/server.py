"""The web adapter: an aiohttp app on the game service.

Routes (``<base>`` is ``/g/<id>/<token>``: every page needs its signed token; a forged or
altered one gets 404 and nothing of the game. A player's own token (tokens.sign_side) also
lets its holder play that side. A public game (``GameService.is_public``) is also
``/g/<id>/public``, and its plain ``/g/<id>`` leads there):

    GET  /g/<id>                a public game's page (redirect), else 404

    GET  <base>                 the page
    GET  <base>/state.json      the game: moves in SAN, whose move, clocks, offers, result, version
    GET  <base>/board.png       ?v=VERSION&ply=N&line=LAN+LAN&flip=0|1   the board drawn by render
                                (no banner: the page shows the result). With the game's
                                version it is kept for good (the address changes with the
                                game); an old version: 409
    GET  <base>/position.json   ?ply&line&flip   the picture's squares and pieces, the side
                                line's SAN, drops and set-up placements
    GET  <base>/moves.json      ?ply&line&square=SQ   a square's legal moves
    GET  <base>/eval.json       ?ply&line   the computer's evaluation and best line (ai/); 403 in a
                                game between people while it is played (operations/fair_play.py)
    GET  <base>/events          server-sent events: "update" (the state) after every change
                                of the game in any process; "closed" when the link stops working
    POST <base>/move            {"text", "ply"}   a player's move, through GameService.move
    POST <base>/action          {"action", "ply"}   draw, takeback (ask, accept, decline), resign
    GET  <base>/record.pgn      the game's record as PGN (GameService.record), to download
    GET  <base>/premoves.json   the player's own conditional moves ({"text", "lines"})
    POST <base>/premoves        {"text", "ply"}   conditional moves set ("Nf6 e5; Nc6 d4"),
                                through GameService.set_premoves; an empty text cancels them
    GET  /t/<id>/<token>...     a tournament's page, crosstable picture and version (tournament_page.py)
    GET  /static/...            the page's script, style and icon (versioned addresses)
    GET  /, /signin, /play/<id>... the site: home, signing in, a player's games (site.py)
    GET  <base>/board.json, /board/<game>/...   the board the page draws itself (boardparts)
"""

from __future__ import annotations

import asyncio
import gc
import logging
import signal
from pathlib import Path

from aiohttp import web
from yarl import URL

import render
from bot.delivery import mail_status
from bot.domain.errors import DatabaseUnavailable, RateLimited, ServiceError
from language import language

from ..identity import page_tokens as tokens
from . import analysis, boardparts, evaluation, lobby, page, player_page, site, tournament_page, work
from .clients import Clients
from .collector import FullCollections
from .evaluation import Evaluator
from .guard import json_body, make_refusing_elsewhere, protect, serving_server
from .live import CLOSED, Hub, StreamSlots, Views
from .mailer import Mailer
from .reach import (
    CACHE,
    EVALUATOR,
    HUB,
    PICTURES,
    PUBLIC_TOKEN,
    SECRET,
    SERVICE,
    STREAMS,
    TURNS,
    VIEWS,
    WORKERS,
    access,
    base,
    client_of,
    client_share,
    flip_of,
    game_of,
    json_answer,
    ply_and_line,
    refusal,
    work_for,
)
from .reader import VARY, choice_form, language_of, script_language
from .work import Busy, Pictures, Turns, Workers

log = logging.getLogger("bot.web")

STATIC = Path(__file__).parent / "static"
SQUARE_PX = 56  # ~900-1100 px for the large boards: crisp when CSS scales it to a phone
MAX_STREAMS_PER_CLIENT = 32
QUIET_CONNECTIONS = 100  # open connections at most for the collector's thaw to be short
MAX_STREAMS = 2000  # open event streams in all (settings.web_max_streams)
STREAMS_RETRY_AFTER = 30  # seconds a page refused its stream for the server's cap waits
# How the app is served (start, the bench, the tests). A handler whose client goes away is
# cancelled at once (aiohttp's handler_cancellation): a closed page's event stream ends and
# gives its slot back then, not at its next write (the 15 s keep-alive), and an abandoned
# request gives back its share of the work; what must not stop halfway (a move) is shielded.
# An idle keep-alive connection is closed after 75 s (run_app's default; the runner's own is
# an hour), each holding its last request and answer.
RUNNER_OPTIONS = {"access_log": None, "handler_cancellation": True, "keepalive_timeout": 75.0}
SHORT_CACHE = "no-cache"  # a static file asked for by another version than its own: looked at again

MAX_PREMOVES_TEXT = 2000  # conditional lines typed or made on the page: many, but not a book
ACTIONS = {"offer_draw", "accept_draw", "decline_draw", "ask_takeback", "accept_takeback",
           "decline_takeback", "resign"}


def make_app(service, secret: bytes, *, max_streams: int = MAX_STREAMS, web_url: str | None = None,
             trusted_proxies: tuple[str, ...] = (), mailer=None) -> web.Application:
    """The app, listening to the service's commits (and other processes') to wake the live
    pages, at most ``max_streams`` of them open at once. ``web_url``: the pages' public
    address (its origin may post, beside the request's own host); ``trusted_proxies``:
    the reverse proxies whose X-Forwarded-For names the client (clients.py); ``mailer``:
    what mails the sign-in links (mailer.Mailer; None: no sign-in by mail)."""
    app = web.Application(client_max_size=64 * 1024, middlewares=[
        _answered_not_raised, _seen_as_the_client(Clients(trusted_proxies)),
        make_refusing_elsewhere(web_url)])
    app[SERVICE] = service
    app[SECRET] = secret
    app[CACHE] = analysis.PositionCache()
    app[HUB] = Hub(service.game, service.is_public, page_state)
    app[VIEWS] = Views(service.game, service.is_public)
    app[EVALUATOR] = Evaluator()
    app[PICTURES] = Pictures()
    app[WORKERS] = Workers()
    app[STREAMS] = StreamSlots(MAX_STREAMS_PER_CLIENT, max_streams)
    app[TURNS] = Turns()

    def changed() -> None:  # a commit here, or another process's: what pages read is old
        app[VIEWS].forget()
        app[HUB].wake()

    async def listen(app: web.Application):
        hub = app[HUB]
        service.add_listener(changed)
        service.watch_others()
        yield
        service.remove_listener(changed)
        hub.stop()  # open streams see CLOSED and end
        app[EVALUATOR].close()
        app[WORKERS].close()

    app.cleanup_ctx.append(listen)
    app.on_response_prepare.append(_headers)
    app.router.add_get("/favicon.ico", favicon_handler)
    app.router.add_get("/g/{id}", plain_handler)
    app.router.add_get("/g/{id}/{token}", page_handler)
    app.router.add_get("/g/{id}/{token}/state.json", state_handler)
    app.router.add_get("/g/{id}/{token}/board.png", board_handler)
    app.router.add_get("/g/{id}/{token}/position.json", position_handler)
    app.router.add_get("/g/{id}/{token}/moves.json", moves_handler)
    app.router.add_get("/g/{id}/{token}/eval.json", eval_handler)
    app.router.add_get("/g/{id}/{token}/events", events_handler)
    app.router.add_post("/g/{id}/{token}/move", move_handler)
    app.router.add_post("/g/{id}/{token}/action", action_handler)
    app.router.add_get("/g/{id}/{token}/premoves.json", premoves_handler)
    app.router.add_get("/g/{id}/{token}/record.pgn", record_handler)
    app.router.add_post("/g/{id}/{token}/premoves", set_premoves_handler)
    boardparts.add_routes(app, SQUARE_PX)
    app.router.add_static("/static/", STATIC, append_version=True, name="static")
    tournament_page.add_routes(app, service, secret, workers=WORKERS, pictures=PICTURES)
    site.add_routes(app, service, mailer=mailer, web_url=web_url, game_page=game_page,
                    static_url=static_url)
    lobby.add_routes(app)
    player_page.add_routes(app)
    return app


@web.middleware
async def _answered_not_raised(request: web.Request, handler) -> web.StreamResponse:
    """A refusal (404, 409, 429, a redirect...) as a plain answer. aiohttp keeps the raised
    one in a local of a frame its own traceback holds: a cycle of the request, its frames and
    everything they hold (about 27 objects), which only a full garbage collection frees;
    a flood's hundreds of refusals made those collections 2-3 times as long (bench/webflood.py)."""
    try:
        return await handler(request)
    except web.HTTPException as e:
        return web.Response(status=e.status, reason=e.reason, body=e.body, headers=e.headers)
    except DatabaseUnavailable as e:  # a restart, a failover: nothing was done, try again soon
        answer = json_answer({"error": str(e)}, status=503)
        answer.headers["Retry-After"] = str(e.retry_after)
        return answer


def _seen_as_the_client(clients: Clients):
    """The middleware making ``request.remote`` the client as the per-client limits count
    it (clients.py): the forwarded one behind a trusted proxy, an IPv6 client's /64."""
    @web.middleware
    async def seen_as_the_client(request: web.Request, handler) -> web.StreamResponse:
        forwarded = request.headers.getall("X-Forwarded-For", []) if clients.proxies else []
        client = clients.client(request.remote, forwarded)
        if client != request.remote:
            request = request.clone(remote=client)
        return await handler(request)
    return seen_as_the_client


async def _headers(request: web.Request, response: web.StreamResponse) -> None:
    """On every response, errors and static files included (aiohttp's own errors: guard.py)."""
    h = response.headers
    if request.path.startswith("/static/") and response.status in (200, 304):
        name = request.path[len("/static/"):]
        # only the file's current address is kept for good; any other ?v= is looked at again
        h["Cache-Control"] = "public, max-age=31536000, immutable" \
            if request.query.get("v") == _static_version(request, name) else SHORT_CACHE
    protect(h)


def static_url(request: web.Request, name: str) -> str:
    """The static file's current address: its ``?v=`` is aiohttp's hash of its bytes, worked
    out again only when the file changes (not read and hashed at every page's request)."""
    try:
        st = (STATIC / name).stat()
    except (OSError, ValueError):
        return str(request.app.router["static"].url_for(filename=name))
    key = (name, st.st_mtime_ns, st.st_size)
    if key not in _urls:
        if len(_urls) > 64:
            _urls.clear()
        _urls[key] = str(request.app.router["static"].url_for(filename=name))
    return _urls[key]


_urls: dict[tuple, str] = {}


def _static_version(request: web.Request, name: str) -> str | None:
    """The ``?v=`` of the static file ``name`` as it is now."""
    try:
        return URL(static_url(request, name)).query.get("v")
    except ValueError:  # not a file of the folder
        return None


def page_state(view, code: str = "en") -> dict:
    """The game's state for a page in the language ``code`` (the live streams' and state.json's)."""
    return page.state(view, language(code))


# --- handlers -----------------------------------------------------------------------

async def favicon_handler(request: web.Request) -> web.Response:
    raise web.HTTPMovedPermanently(static_url(request, "favicon.svg"))


async def plain_handler(request: web.Request) -> web.Response:
    text = request.match_info["id"]
    if text.isascii() and text.isdigit() and len(text) <= 18 and \
            await request.app[VIEWS].is_public(int(text)):
        raise web.HTTPFound(f"/g/{int(text)}/{PUBLIC_TOKEN}")
    raise web.HTTPNotFound(text=script_language(request).tr("no such game"))


async def page_handler(request: web.Request) -> web.Response:
    with client_share(request):  # the page is under the client's share, as its JSON is
        return await _page(request)


async def _page(request: web.Request) -> web.Response:
    view, role = await access(request)
    return await game_page(request, view, role, base(view, request))


async def game_page(request: web.Request, view, role: str, path: str) -> web.Response:
    """The game's page for a link's holder (``role``: "w", "b" or "" to watch); ``path``
    the game's signed path its script asks (``/g/<id>/<token>``)."""
    lay = render.board_layout(request.app[CACHE].get(view.game, view.start_vfen, ()),
                              flip=role == "b", square=SQUARE_PX, result="")
    player = view.white if role == "w" else view.black if role == "b" else None
    # the link's player reads their own language; someone watching, their browser's
    lang = language_of(request, await request.app[SERVICE].get_player(player.id) if player else None)
    # a player the bot mails no more is told here: for a mail player the only other route
    notes = page.mail_stopped_notes(player, await mail_status.stopped_mail(
        request.app[SERVICE].store, player.id), lang) if player else ""
    session = await site.session_of(request)
    html = page.render_page(view, path, (lay.width, lay.height), role=role,
                            mail_stopped=notes, script=static_url(request, "game.js"),
                            style=static_url(request, "game.css"),
                            icon=static_url(request, "favicon.svg"), lang=lang,
                            choice=choice_form(lang, request.path_qs, site.csrf_for(request, session)))
    return web.Response(text=html, content_type="text/html",
                        headers={"Vary": VARY, "Content-Language": lang.code})


async def state_handler(request: web.Request) -> web.Response:
    view = await game_of(request)  # its JSON made once per read of the game, as the streams' is
    return web.Response(text=request.app[HUB].state_json(view, script_language(request).code),
                        content_type="application/json", headers={"Cache-Control": "no-store", "Vary": VARY})


async def board_handler(request: web.Request) -> web.Response:
    view = await game_of(request)
    version = request.query.get("v")
    if version is not None and version != str(view.version):
        raise web.HTTPConflict(text=script_language(request).tr("the game has changed since: look again"))
    ply, line = ply_and_line(request, view)
    key = (view.game, view.start_vfen, tuple(m.lan for m in view.moves[:ply]) + line, flip_of(request))

    async def paint():  # only a picture not kept yet costs the client's share and a rendering
        return await request.app[WORKERS].run(client_of(request), request.match_info["id"],
                                               work.render_board, *key, SQUARE_PX)
    try:
        png = await request.app[PICTURES].get(key, paint)
    except analysis.BadRequest as e:
        raise web.HTTPBadRequest(text=refusal(request, e)) from None
    except Busy as e:
        raise web.HTTPTooManyRequests(text=refusal(request, e), headers={"Retry-After": "2"}) from None
    # a picture is a large write: 300 requests for one board are answered a few per pass
    await request.app[TURNS].turn(view.id)
    # an address with the version shows one state of the game for good; without, it may change
    cache = "private, max-age=31536000, immutable" if version is not None else "no-store"
    return web.Response(body=png, content_type="image/png", headers={"Cache-Control": cache})


async def position_handler(request: web.Request) -> web.Response:
    view = await game_of(request)
    ply, line = ply_and_line(request, view)
    before = tuple(m.lan for m in view.moves[:ply])
    got = await work_for(request, work.position_json, view.game, view.start_vfen, before, line,
                      flip_of(request), SQUARE_PX, script_language(request).code)
    return json_answer({"ply": ply, **got})


async def moves_handler(request: web.Request) -> web.Response:
    view = await game_of(request)
    ply, line = ply_and_line(request, view)
    lans = tuple(m.lan for m in view.moves[:ply]) + line
    return json_answer(await work_for(request, work.square_json, view.game, view.start_vfen, lans,
                                      request.query.get("square", ""), flip_of(request), SQUARE_PX,
                                      script_language(request).code))


async def eval_handler(request: web.Request) -> web.Response:
    view = await game_of(request)
    try:  # the service's fair-play rule, as for a hint on any front end
        await request.app[SERVICE].check_engine_help(view)
    except ServiceError as e:
        raise web.HTTPForbidden(text=script_language(request).say(e.text)) from None
    ply, line = ply_and_line(request, view)
    lans = tuple(m.lan for m in view.moves[:ply]) + line
    try:
        got = await request.app[EVALUATOR].evaluate(view.game, view.start_vfen, lans,
                                                    queue=view.id, client=client_of(request))
        return json_answer(evaluation.said(got, view.game, script_language(request)))
    except analysis.BadRequest as e:  # a side line that cannot be played: found by the worker
        raise web.HTTPBadRequest(text=refusal(request, e)) from None
    except Busy as e:
        raise web.HTTPServiceUnavailable(text=refusal(request, e), headers={"Retry-After": "10"}) from None


async def events_handler(request: web.Request) -> web.StreamResponse:
    """Server-sent events: an ``update`` (the state as JSON) whenever the game's state
    changes, in this process or another; ``closed`` (and the end) when the link that
    opened the page stops working; a comment line when nothing happened keeps proxies
    from closing the stream."""
    view = await game_of(request, turn=False)  # its turn once subscribed (below)
    client, slots = client_of(request), request.app[STREAMS]
    try:
        slots.take(client)
    except Busy as e:  # the server's cap: the page reads the game now and then, tries again later
        if e.everyone:
            raise web.HTTPServiceUnavailable(text=refusal(request, e), headers={
                "Retry-After": str(STREAMS_RETRY_AFTER)}) from None
        raise web.HTTPTooManyRequests(text=refusal(request, e)) from None
    hub, turns = request.app[HUB], request.app[TURNS]
    # subscribed at once with the state just read: a change from here on reaches the page
    code = script_language(request).code
    sub = hub.subscribe(view.id, request.match_info["token"] == PUBLIC_TOKEN, hub.state_json(view, code), code)
    sent = sub.latest
    try:
        # every write waits for its turn: a thousand pages opening at once (woken together
        # by the one read of their game), or woken by one move, go a few per pass of the
        # loop (work.Turns), games taking turns
        await turns.turn(view.id)
        resp = web.StreamResponse(headers={"Content-Type": "text/event-stream",
                                           "Cache-Control": "no-store", "X-Accel-Buffering": "no"})
        await resp.prepare(request)
        await resp.write(b": live\n\n")
        while True:
            await sub.changed.wait()  # a new state, or the hub's keep-alive ping
            sub.changed.clear()
            await turns.turn(view.id)
            if sub.latest == CLOSED:
                await resp.write(b"event: closed\ndata: {}\n\n")
                break
            if sub.latest != sent:
                sent = sub.latest
                await resp.write(f"event: update\ndata: {sent}\n\n".encode())
            elif sub.pinged:
                await resp.write(b": still here\n\n")
            sub.pinged = False
    except ConnectionResetError:  # gone as it was written to (the page closed: cancelled, below)
        pass
    finally:  # also when cancelled: the page closed (RUNNER_OPTIONS)
        hub.unsubscribe(sub)
        slots.give_back(client)
    return resp


async def _player_request(request: web.Request):
    """A player's command: the game, the player's id and the JSON body; 403 for a link
    that only watches."""
    view, role = await access(request)
    if not role:
        raise web.HTTPForbidden(text=script_language(request).tr("this link lets you watch the game, not play it"))
    body = await json_body(request)
    if not isinstance(body, dict):
        raise web.HTTPBadRequest(text=script_language(request).tr("the request is not a JSON object"))
    ply = body.get("ply")
    if ply is not None and (not isinstance(ply, int) or isinstance(ply, bool)):
        raise web.HTTPBadRequest(text=script_language(request).tr("ply must be a whole number"))
    player = view.white if role == "w" else view.black
    return view, player.id, body, ply


def _refused(e: ServiceError, lang) -> web.Response:
    status = 429 if isinstance(e, RateLimited) else 409
    return json_answer({"error": lang.say(e.text)}, status=status)


async def move_handler(request: web.Request) -> web.Response:
    view, player_id, body, ply = await _player_request(request)
    text = body.get("text")
    if not isinstance(text, str) or not text.strip():
        raise web.HTTPBadRequest(text=script_language(request).tr("say which move: the text of a move"))
    try:  # the same reader and checks as every other front end; made even if the page leaves
        done = await asyncio.shield(request.app[SERVICE].move(view.id, player_id, text, expected_ply=ply))
    except ServiceError as e:
        return _refused(e, script_language(request))
    return json_answer({"san": done.san, "answer": done.answer,
                        "state": page.state(done.game, script_language(request))})


async def action_handler(request: web.Request) -> web.Response:
    view, player_id, body, ply = await _player_request(request)
    action = body.get("action")
    if action not in ACTIONS:
        raise web.HTTPBadRequest(text=script_language(request).tr(
            "the action is one of {actions}", actions=", ".join(sorted(ACTIONS))))
    try:
        done = await asyncio.shield(getattr(request.app[SERVICE], action)(view.id, player_id,
                                                                          expected_ply=ply))
    except ServiceError as e:
        return _refused(e, script_language(request))
    return json_answer({"state": page.state(done, script_language(request))})


async def record_handler(request: web.Request) -> web.Response:
    view = await game_of(request)
    text = await request.app[SERVICE].record(view.id)
    return web.Response(text=text, content_type="application/x-chess-pgn", charset="utf-8", headers={
        "Content-Disposition": f'attachment; filename="fairypost-{view.id}.pgn"'})


def _lines(lines) -> dict:
    return {"text": lines.text(), "lines": lines.sans()}


async def premoves_handler(request: web.Request) -> web.Response:
    view, role = await access(request)
    if not role:
        raise web.HTTPForbidden(text=script_language(request).tr("this link lets you watch the game, not play it"))
    player = view.white if role == "w" else view.black
    try:
        return json_answer(_lines(await request.app[SERVICE].premoves(view.id, player.id)))
    except ServiceError as e:
        return _refused(e, script_language(request))


async def set_premoves_handler(request: web.Request) -> web.Response:
    view, player_id, body, ply = await _player_request(request)
    text = body.get("text")
    if not isinstance(text, str) or len(text) > MAX_PREMOVES_TEXT:
        raise web.HTTPBadRequest(text=script_language(request).tr(
            "say the conditional moves as text of at most {n} characters", n=MAX_PREMOVES_TEXT))
    service = request.app[SERVICE]
    try:
        if not text.strip():
            await asyncio.shield(service.cancel_premoves(view.id, player_id))
            return json_answer({"text": "", "lines": []})
        return json_answer(_lines(await asyncio.shield(
            service.set_premoves(view.id, player_id, text, expected_ply=ply))))
    except ServiceError as e:
        return _refused(e, script_language(request))


# --- serving ------------------------------------------------------------------------

async def start(service, settings, *, port: int | None = None) -> web.AppRunner:
    """Serve the pages on settings.web_host:port (or web_port, else 8080); the runner
    to clean up when done."""
    secret = tokens.load_secret(settings.web_secret, settings.db_path)
    mailer = Mailer(settings.smtp_url, settings.email_address) \
        if settings.smtp_url and settings.email_address else None
    app = make_app(service, secret, max_streams=settings.web_max_streams, web_url=settings.web_url,
                   trusted_proxies=settings.web_trusted_proxies, mailer=mailer)
    collections = FullCollections()

    async def stop_collecting(_app) -> None:  # the process's collector as it was
        collections.stop()
    app.on_cleanup.append(stop_collecting)
    runner = await serving_runner(app)
    site = web.TCPSite(runner, settings.web_host, port or settings.web_port or 8080)
    await site.start()
    settle_for_serving(collections, runner)
    log.info("game pages on http://%s:%s", settings.web_host, port or settings.web_port or 8080)
    return runner


async def serving_runner(app: web.Application) -> web.AppRunner:
    """The app's runner, set up as served (RUNNER_OPTIONS), a closed connection freed at
    once, aiohttp's own error answers with the safety headers."""
    runner = web.AppRunner(app, **RUNNER_OPTIONS)
    await runner.setup()
    serving_server(runner.server)
    _free_closed_connections(runner.server)
    return runner


def _free_closed_connections(server: web.Server) -> None:
    """asyncio's socket transport (CPython 3.11) keeps a bound method of its own after it is
    closed (``_read_ready_cb``): a cycle, so every closed connection waited for a full
    collection, and one that lived long enough to be frozen (collector.py) for its thaw.
    Cut when aiohttp hears the connection is lost, once asyncio has cleaned up after it."""
    lost = server.connection_lost

    def connection_lost(handler, exc=None) -> None:
        transport = server._connections.get(handler)
        lost(handler, exc)
        if transport is not None:
            asyncio.get_running_loop().call_soon(_cut_cycle, transport)
    server.connection_lost = connection_lost


def _cut_cycle(transport) -> None:
    if getattr(transport, "_read_ready_cb", None) is not None and transport.is_closing():
        transport._read_ready_cb = None


def settle_for_serving(collections: FullCollections | None = None,
                       runner: web.AppRunner | None = None) -> FullCollections:
    """Once listening. What the process made so far (modules, the rules' tables, the
    service) lives as long as it does: taken out of the garbage collector's view, a full
    collection under a flood looks only at what came since (50-80 ms of the loop before,
    bench/webflood.py); and that collection waits for an idle pass of the loop, 3 s at
    most, then freezes what it found alive (collector.py): the collector returned, started.
    And the loop takes in at most work.EVENTS_PER_PASS sockets' news a pass: a thousand
    connections arriving at once are not one long pass."""
    gc.collect()
    gc.freeze()
    collections = collections or FullCollections()
    if runner is not None:  # the thaw waits for few connections (collector.py)
        collections.quiet = lambda: len(runner.server.connections) <= QUIET_CONNECTIONS
    collections.start(asyncio.get_running_loop())  # and work.pace_io
    return collections


class _LeaveNotices:
    """``fairypost web`` alone sends no notices: the moves played on its pages leave them
    in the outbox for the processes that serve the players' platforms (woken by the commit).
    It takes only what is addressed to no one (an open challenge's lobby notice, which no
    page makes) and players of the platform "web", of which there are none."""

    platforms = frozenset({"web"})

    async def notify(self, event) -> None:
        return None


async def serve(settings) -> int:
    """``fairypost web``: the pages alone, until stopped (SIGTERM, or Ctrl-C: the worker
    processes ended, no traceback)."""
    from bot.operations.service import GameService
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):  # caught before anything starts
        loop.add_signal_handler(sig, stop.set)
    service = await GameService.open(settings, notifier=_LeaveNotices())
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
        await stop.wait()
    finally:
        await runner.cleanup()
        await service.close()
    print("fairypost web: stopped", flush=True)
    return 0
