"""The board the page draws itself (bot/web/boardparts.py): the game's two pictures, rendered
once and kept for good under their version, and each position's board.json."""

from __future__ import annotations

import asyncio
import io

from PIL import Image

from bot.web.boardparts import PARTS

from .conftest import new_game, path


async def board_json(client, game_id: int, **query) -> dict:
    r = await client.get(path(game_id, "/board.json"), params={k: str(v) for k, v in query.items()})
    assert r.status == 200, await r.text()
    return await r.json()


async def test_a_position_is_figures_and_marks_on_the_games_pictures(svc, client):
    view = await new_game(svc, "kingqueen", ["e2f3", "f7f1=+C", "d1f1=+C"])
    got = await board_json(client, view.id)
    board = got["board"]
    assert got["ply"] == 3 and got["pieces"]["f1"].startswith("Blue")   # position.json's part
    # the last move (a capture, so a piece in hand) and the pieces in hand with their counts
    assert board["last"] and set(board["last"]) <= set(got["squares"])
    hands = [dict(h) for h in (await svc.position(view.id)).hands]
    assert [sum(h.values()) for h in hands] == [1, 1]      # one piece in each hand
    assert len(board["hands"]) == 2 and board["counts"] == [] and board["empty"] == []
    at_start = (await board_json(client, view.id, ply=0))["board"]
    assert at_start["hands"] == [] and len(at_start["empty"]) == 2
    face = await client.get(board["face"])
    assert face.status == 200 and face.content_type == "image/png"
    assert "immutable" in face.headers["Cache-Control"]
    assert Image.open(io.BytesIO(await face.read())).size == (got["width"], got["height"])
    sheet = await client.get(board["sheet"])
    assert sheet.status == 200 and sheet.content_type == "image/webp"
    assert Image.open(io.BytesIO(await sheet.read())).size == tuple(board["sheetSize"])
    for sx, sy, sw, sh, *_ in board["pieces"] + board["hands"]:
        assert sx + sw <= board["sheetSize"][0] and sy + sh <= board["sheetSize"][1]
    # seen from Black: the other face, the figures elsewhere
    flipped = (await board_json(client, view.id, flip=1))["board"]
    assert flipped["face"] != board["face"] and flipped["sheet"] == board["sheet"]
    assert sorted(flipped["pieces"]) != sorted(board["pieces"])


async def test_a_wall_is_one_figure_and_a_facing_its_own(svc, client):
    wall = (await board_json(client, (await new_game(svc, "ganymede", ["a2b2-b2c2"])).id))["board"]
    spans = [p for p in wall["pieces"] if p[6] != p[7]]      # wider (or taller) than a square
    assert len(spans) == 4 and all(max(p[6], p[7]) == 2 * min(p[6], p[7]) for p in spans)
    view = await new_game(svc, "superchess", ["d1d3(NE)"])
    facing = (await board_json(client, view.id))["board"]
    start = (await board_json(client, view.id, ply=0))["board"]
    # the Cyclops's figure on d3 faces NE: not the one it had unturned on d1
    assert {tuple(p[:4]) for p in facing["pieces"]} != {tuple(p[:4]) for p in start["pieces"]}


async def test_300_requests_for_a_games_pictures_render_each_once(svc, client):
    view = await new_game(svc, "gigachess2")
    board = (await board_json(client, view.id))["board"]
    parts = client.server.app[PARTS]
    before = parts.pictures.renders
    got = await asyncio.gather(*(client.get("/board/gigachess2/face.png?flip=1") for _ in range(300)),
                               *(client.get(board["sheet"]) for _ in range(10)))
    assert {r.status for r in got} == {200}
    assert parts.pictures.renders - before == 1   # the other side's face; the sheet was kept
    # an address of another version (another renderer) is answered, not kept
    old = await client.get(board["face"].split("&v=")[0] + "&v=0123")
    assert old.status == 200 and old.headers["Cache-Control"] == "no-cache"
    assert (await client.get("/board/nosuchgame/face.png")).status == 404
    assert (await client.get("/board/..%2Fetc/pieces.webp")).status == 404


async def test_the_board_names_its_pieces_in_the_readers_language(svc, client):
    """The squares' buttons are named from board.json (and position.json, moves.json): in
    the page's language (its script's ``lang``), and the face (its hand panels headed by
    the sides' names) is a picture of that language, at an address of its own."""
    from language import language
    from tests.language.leaks import english_left
    fr = language("fr")
    view = await new_game(svc, "kingqueen", ["e2f3", "f7f1=+C", "d1f1=+C"])
    english, french = (await board_json(client, view.id)), (await board_json(client, view.id, lang="fr"))
    assert english["pieces"]["f1"].startswith("Blue ")                 # as before
    blue = fr.data("Blue")
    assert french["pieces"]["f1"].endswith(f"({blue})") and french["pieces"]["f1"] != english["pieces"]["f1"]
    names = " ; ".join([*french["pieces"].values(), *(h["name"] for h in french["board"]["inHand"])])
    assert english_left(names, "fr") == [], names  # the pieces' and sides' names: the data's catalog
    assert "&lang=fr&" in french["board"]["face"] and "&lang=en&" in english["board"]["face"]
    face = await client.get(french["board"]["face"])
    assert face.status == 200 and "immutable" in face.headers["Cache-Control"]
    # a language we do not have is English, and no picture is made for it
    renders = client.server.app[PARTS].pictures.renders
    odd = await client.get(english["board"]["face"].replace("&lang=en&", "&lang=../etc&"))
    assert odd.status == 200 and client.server.app[PARTS].pictures.renders == renders
    # a piece's facings, chosen after a move: said in the language too
    view = await new_game(svc, "superchess")
    r = await client.get(path(view.id, "/moves.json"), params={"square": "d1", "lang": "fr"})
    assert r.status == 200, await r.text()
    said = [m["name"] for moves in (await r.json())["targets"].values() for m in moves if "name" in m]
    assert any(n.endswith(", orientation : nord-est") for n in said), said
    assert english_left(" ; ".join(said), "fr", own=[]) == [], said
