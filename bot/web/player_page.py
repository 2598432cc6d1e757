"""A player's page: their name, their ratings per game, their finished games with results
(a link to each game its viewer may open: their own, or a public one), and the tournaments
they are in with their place and points (a link to the standings for fellow entrants).

    GET  /player/<id>      (signed in)
    GET  /me               the signed-in player's own page
"""

from __future__ import annotations

from aiohttp import web

from bot.domain.errors import NotFound
from language import ENGLISH, Language, language

from .page import ended_text, game_name
from .reach import SERVICE
from .reader import language_of
from .site import html, reader_of, shared, signed_in
from .site_pages import esc

MAX_FINISHED = 50


def add_routes(app: web.Application) -> None:
    app.router.add_get("/player/{id}", shared(player_handler))
    app.router.add_get("/me", shared(me_handler))


async def me_handler(request: web.Request) -> web.Response:
    from .site import see_other
    return see_other(f"/player/{(await signed_in(request)).player_id}")


def _rating(entry, lang: Language = ENGLISH) -> str:
    r = entry.rating
    value = f"{round(r.rating)}" + ("?" if getattr(r, "provisional", False) else "")
    return (f"<tr><td>{esc(game_name(entry.game, lang))}</td><td>{esc(value)}</td>"
            f"<td>{entry.games}</td></tr>")


async def player_handler(request: web.Request) -> web.Response:
    await signed_in(request)
    session, me, lang = await reader_of(request)
    service = request.app[SERVICE]
    text = request.match_info["id"]
    if not (text.isascii() and text.isdigit()) or len(text) > 18:
        raise web.HTTPNotFound(text=language_of(request).tr("no such player"))
    try:
        who = await service.get_player(int(text))
    except NotFound:
        raise web.HTTPNotFound(text=language_of(request).tr("no such player")) from None
    ratings = await service.player_ratings(who.id)
    from .home import last_finished
    rows = []
    for g in await last_finished(service, who.id, MAX_FINISHED):
        result = ended_text(g.game, g.status, g.result, g.reason, lang)
        what = f"{esc(game_name(g.game, lang))}: {esc(g.white.name)} – {esc(g.black.name)}"
        mine = session.player_id in (g.white.id, g.black.id)
        link = f"/play/{g.id}" if mine else f"/g/{g.id}" if await service.is_public(g.id) else None
        what = f'<a href="{link}">{what}</a>' if link else what
        rows.append(f"<li>{what} <span class=\"state\">({esc(result or '')})</span></li>")
    w = {k: esc(t) for k, t in {
        "ratings": lang.tr("Ratings"), "game": lang.tr("Game"), "rating": lang.tr("Rating"),
        "rated": lang.tr("Rated games"), "no_rated": lang.tr("No rated game yet."),
        "finished": lang.tr("Finished games"), "none": lang.tr("None yet.")}.items()}
    body = (f'<section aria-labelledby="ratings"><h2 id="ratings">{w["ratings"]}</h2>' +
            (f'<table><thead><tr><th scope="col">{w["game"]}</th><th scope="col">{w["rating"]}</th>'
             f'<th scope="col">{w["rated"]}</th></tr></thead><tbody>' +
             "".join(_rating(r, lang) for r in ratings) + "</tbody></table>" if ratings
             else f"<p>{w['no_rated']}</p>") +
            f'</section><section aria-labelledby="finished-games"><h2 id="finished-games">{w["finished"]}</h2>' +
            (f'<ul class="games">{"".join(rows)}</ul>' if rows else f"<p>{w['none']}</p>") + "</section>" +
            await tournaments_section(request, who.id, session.player_id, lang) +
            (language_section(request, me, session, lang) if who.id == me.id else ""))
    return html(request, who.name, body, session, me.name, lang=lang)


def language_section(request: web.Request, me, session, lang: Language) -> str:
    """On one's own page: the language one reads, and the form to choose it (or to follow
    the browser again)."""
    from .reader import choice_form
    from .site import csrf_for
    chosen = me.settings.language
    now = (lang.tr("Your language: {name}.", name=language(chosen).name) if chosen else
           lang.tr("You have not chosen a language: the pages follow your browser's."))
    title = esc(lang.tr("Language"))
    form = choice_form(lang, request.path_qs, csrf_for(request, session), form_id="my-language",
                       default=lang.tr("your browser's"), chosen=chosen or "default")
    return (f'<section aria-labelledby="language"><h2 id="language">{title}</h2>'
            f"<p>{esc(now)}</p>{form}</section>")


async def tournaments_section(request: web.Request, player_id: int, viewer_id: int,
                              lang: Language = ENGLISH) -> str:
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
        if standing and t.status != "open":
            points = format(standing.points, "g")
            where = lang.tr("{status}: place {place}, {points} points", status=tournament_status(t.status, lang),
                            place=standing.place, points=points)
        else:
            where = lang.tr("{status}: entered", status=tournament_status(t.status, lang))
        name = esc(t.name)
        if viewer_id in entrants:
            name = f'<a href="/t/{t.id}/{sign_tournament(request.app[SECRET], t.id)}">{name}</a>'
        items.append(f"<li>{name}, {esc(game_name(t.game, lang))} <span class=\"state\">({esc(where)})</span></li>")
    title, none = esc(lang.tr("Tournaments")), esc(lang.tr("None."))
    return (f'<section aria-labelledby="tournaments"><h2 id="tournaments">{title}</h2>' +
            (f'<ul class="games">{"".join(items[:MAX_FINISHED])}</ul>' if items else f"<p>{none}</p>") +
            "</section>")


def tournament_status(status: str, lang: Language = ENGLISH) -> str:
    """A tournament's state as a word of the reader's language (an unknown one as it is)."""
    words = {"open": lang.tr("open"), "running": lang.tr("running"), "paused": lang.tr("paused"),
             "finished": lang.tr("finished")}
    return words.get(status, status)
