"""The board the page draws itself: its game's parts downloaded once, then a few KB a position.

Routes (added to the app by ``add_routes``):

    GET  /board/<game>/face.png     ?flip=0|1&lang=CODE&v=VERSION   the empty board (render.parts.face_image;
                                                          its hand panels headed in the language CODE)
    GET  /board/<game>/pieces.webp  ?v=VERSION            every figure of the game (a sprite sheet,
                                                          lossless WebP: half a PNG's bytes)
    GET  <base>/board.json          ?ply&line&flip   position.json's answer, and under "board"
                                    where the page puts the figures, hand counts and marks,
                                    the pieces in hand (a button each: figures.hand_pieces),
                                    each placeable piece's name and figure,
                                    the two pictures' addresses and the marks' colours and sizes

The two pictures hold nothing of any game played (only the game's rules), so they need no
token; each is rendered once per process (in a worker) and its address carries a hash of
its bytes: with that version it is kept a year, and a new renderer makes new addresses.
"""

from __future__ import annotations

import hashlib

from aiohttp import web

from language import supported

from .reach import WORKERS, client_of, flip_of, game_of, json_answer, ply_and_line, refusal, work_for
from .reader import language_of, script_language
from .work import Busy, Pictures

PARTS = web.AppKey("board_parts", object)
SHARED_LANE = "board parts"   # the pictures are rendered in one queue: a few per game, ever


class Parts:
    """The rendered pictures (by key) and their versions."""

    def __init__(self, square: int):
        self.square = square
        self.pictures = Pictures(budget=32 << 20)
        self.versions: dict[tuple, str] = {}


def add_routes(app: web.Application, square: int) -> None:
    app[PARTS] = Parts(square)
    app.router.add_get("/board/{game}/face.png", face_handler)
    app.router.add_get("/board/{game}/pieces.webp", sheet_handler)
    app.router.add_get("/g/{id}/{token}/board.json", board_json_handler)


# --- in the worker processes ------------------------------------------------------

def face_png(game: str, flip: bool, code: str, square: int) -> bytes:
    from language import language
    from render import parts
    return _small_png(parts.face_image(game, flip, square, language(code)))


def sheet_webp(game: str, square: int) -> bytes:
    import io

    from render import parts
    buf = io.BytesIO()
    parts.sprite_sheet(game, square)[0].save(buf, "WEBP", lossless=True, quality=100, method=4)
    return buf.getvalue()


def _small_png(img) -> bytes:
    import io
    buf = io.BytesIO()
    img.save(buf, "PNG", optimize=True)   # made once per game and kept: worth the time
    return buf.getvalue()


def board_json(game: str, start_vfen: str, before: tuple[str, ...], line: tuple[str, ...],
               flip: bool, square: int, code: str = "en") -> dict:
    """work.position_json of the position, with render.parts' placing of it; names in the
    language ``code``."""
    from language import language
    from render import parts

    from .figures import hand_pieces, letter_figures
    from .work import _worker_positions, position_json
    lang = language(code)
    got = position_json(game, start_vfen, before, line, flip, square, code)
    pos = _worker_positions.get(game, start_vfen, before + line)
    index = parts.sheet_index(game, square)
    got["board"] = {**parts.position_parts(pos, flip, square),
                    "sheetSize": [max(x + w for x, _, w, _ in index.values()),
                                  max(y + h for _, y, _, h in index.values())],
                    "style": parts.mark_style(square),
                    "inHand": hand_pieces(pos, flip, square, lang),
                    "placing": letter_figures(pos, {d["piece"] for d in got["placements"]},
                                              flip, square, lang)}
    return got


# --- handlers ---------------------------------------------------------------------

def _known(request: web.Request) -> str:
    import rules
    game = request.match_info["game"]
    if game not in rules.variants():
        raise web.HTTPNotFound(text=language_of(request).tr("no such game"))
    return game


async def _picture(request: web.Request, key: tuple) -> tuple[bytes, str]:
    """The picture ``key`` names (("face", game, flip, language) or ("sheet", game)) and its version."""
    parts = request.app[PARTS]
    fn, args = (face_png, key[1:]) if key[0] == "face" else (sheet_webp, key[1:])

    async def paint():
        return await request.app[WORKERS].run(client_of(request), SHARED_LANE, fn, *args,
                                               parts.square)
    try:
        png = await parts.pictures.get(key, paint)
    except Busy as e:
        raise web.HTTPTooManyRequests(text=refusal(request, e), headers={"Retry-After": "2"}) from None
    version = parts.versions.get(key)
    if version is None:
        version = parts.versions[key] = hashlib.sha256(png).hexdigest()[:16]
    return png, version


def _picture_response(body: bytes, version: str, request: web.Request, kind: str) -> web.Response:
    # the address with this picture's version shows it for good; any other: look again
    cache = ("public, max-age=31536000, immutable" if request.query.get("v") == version
             else "no-cache")
    return web.Response(body=body, content_type=kind, headers={"Cache-Control": cache})


def _face_language(request: web.Request) -> str:
    """The language of a face's words: its address's own (``lang``), never the asker's (a
    picture kept for good by its address says the same to everyone)."""
    return supported(request.query.get("lang")) or "en"


async def face_handler(request: web.Request) -> web.Response:
    png, version = await _picture(request, ("face", _known(request), flip_of(request), _face_language(request)))
    return _picture_response(png, version, request, "image/png")


async def sheet_handler(request: web.Request) -> web.Response:
    webp, version = await _picture(request, ("sheet", _known(request)))
    return _picture_response(webp, version, request, "image/webp")


async def board_json_handler(request: web.Request) -> web.Response:
    view = await game_of(request)
    ply, line = ply_and_line(request, view)
    flip = flip_of(request)
    code = script_language(request).code
    got = await work_for(request, board_json, view.game, view.start_vfen,
                      tuple(m.lan for m in view.moves[:ply]), line, flip,
                      request.app[PARTS].square, code)
    _, face = await _picture(request, ("face", view.game, flip, code))
    _, sheet = await _picture(request, ("sheet", view.game))
    got["board"]["face"] = f"/board/{view.game}/face.png?flip={int(flip)}&lang={code}&v={face}"
    got["board"]["sheet"] = f"/board/{view.game}/pieces.webp?v={sheet}"
    response = json_answer({"ply": ply, **got})
    response.enable_compression()   # the squares' boxes and the figures' places repeat: ~1/5
    return response
