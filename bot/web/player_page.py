"""A player's page: their name, their ratings per game, their finished games with results
(a link to each game its viewer may open: their own, or a public one), and the tournaments
they are in with their place and points (a link to the standings for fellow entrants).

    GET  /player/<id>      (signed in)
    GET  /me               the signed-in player's own page
"""

from __future__ import annotations

from aiohttp import web

from bot.domain.errors import NotFound
from render import result_text

from .page import game_name
from .reach import SERVICE
from .site import html, shared, signed_in
from .site_pages import esc

MAX_FINISHED = 50


def add_routes(app: web.Application) -> None:
    app.router.add_get("/player/{id}", shared(player_handler))
    app.router.add_get("/me", shared(me_handler))


async def me_handler(request: web.Request) -> web.Response:
    from .site import see_other
    return see_other(f"/player/{(await signed_in(request)).player_id}")


def _rating(entry) -> str:
    r = entry.rating
    value = f"{round(r.rating)}" + ("?" if getattr(r, "provisional", False) else "")
    return (f"<tr><td>{esc(game_name(entry.game))}</td><td>{esc(value)}</td>"
            f"<td>{entry.games}</td></tr>")


async def player_handler(request: web.Request) -> web.Response:
    session = await signed_in(request)
    service = request.app[SERVICE]
    text = request.match_info["id"]
    if not (text.isascii() and text.isdigit()) or len(text) > 18:
        raise web.HTTPNotFound(text="no such player")
    try:
        who = await service.get_player(int(text))
    except NotFound:
        raise web.HTTPNotFound(text="no such player") from None
    me = await service.get_player(session.player_id)
    ratings = await service.player_ratings(who.id)
    from .home import last_finished
    rows = []
    for g in await last_finished(service, who.id, MAX_FINISHED):
        result = result_text(g.game, g.result, g.reason) if g.result else str(g.status)
        what = f"{esc(game_name(g.game))}: {esc(g.white.name)} – {esc(g.black.name)}"
        mine = session.player_id in (g.white.id, g.black.id)
        link = f"/play/{g.id}" if mine else f"/g/{g.id}" if await service.is_public(g.id) else None
        what = f'<a href="{link}">{what}</a>' if link else what
        rows.append(f"<li>{what} <span class=\"state\">({esc(result or '')})</span></li>")
    body = ('<section aria-labelledby="ratings"><h2 id="ratings">Ratings</h2>' +
            ('<table><thead><tr><th scope="col">Game</th><th scope="col">Rating</th>'
             '<th scope="col">Rated games</th></tr></thead><tbody>' +
             "".join(map(_rating, ratings)) + "</tbody></table>" if ratings else "<p>No rated game yet.</p>") +
            '</section><section aria-labelledby="finished-games"><h2 id="finished-games">Finished games</h2>' +
            (f'<ul class="games">{"".join(rows)}</ul>' if rows else "<p>None yet.</p>") + "</section>" +
            await tournaments_section(request, who.id, session.player_id))
    return html(request, who.name, body, session, me.name)


async def tournaments_section(request: web.Request, player_id: int, viewer_id: int) -> str:
    """The events the player is in, with their place and points; a link to each event's
    page (its whole standings) for its own entrants."""
    from ..identity.page_tokens import sign_tournament
    from .reach import SECRET
    items = []
    for t in await request.app[SERVICE].list_tournaments():
        entrants = {p.id for p in t.entrants}
        if player_id not in entrants:
            continue
        standing = next((s for s in t.standings if s.player.id == player_id), None)
        where = (f"place {standing.place}, {standing.points:g} points" if standing and t.status != "open"
                 else "entered")
        name = esc(t.name)
        if viewer_id in entrants:
            name = f'<a href="/t/{t.id}/{sign_tournament(request.app[SECRET], t.id)}">{name}</a>'
        items.append(f"<li>{name}, {esc(game_name(t.game))} <span class=\"state\">({esc(t.status)}: "
                     f"{esc(where)})</span></li>")
    return ('<section aria-labelledby="tournaments"><h2 id="tournaments">Tournaments</h2>' +
            (f'<ul class="games">{"".join(items[:MAX_FINISHED])}</ul>' if items else "<p>None.</p>") +
            "</section>")
