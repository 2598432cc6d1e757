"""A tournament's web page: its standings and crosstable (an HTML table, and the picture
drawn like the boards), and its rounds with a link to each game's page.

Routes (``<base>`` is ``/t/<id>/<token>``, the token an HMAC of the event's id: a forged
one gets 404 and nothing of the event):

    GET <base>                   the page
    GET <base>/crosstable.png    ?v=VERSION   the picture; with the current version it is
                                 kept for good (the address changes with the event), an
                                 old version: 409
    GET <base>/version.json      {"version": ...}: the page's script looks every
                                 ``POLL_SECONDS`` and reloads the page when it changed

The version is a digest of what the page shows (the status, round, standings, games and
results), so it changes when a game ends or a round starts, in this process or another
(the service's listeners hear both). Views are read once per change, however many pages
look. The game links are the games' public pages where they are public, else their
signed links to watch: the event's link gives its holder its games to watch.
"""

from __future__ import annotations

import hashlib
import json
from html import escape

from aiohttp import web

from bot.domain.errors import NotFound
from bot.tournaments.crosstable import crosstable_of
from bot.words.text import days_text, game_name
from bot.words.tournament_text import FORMAT_NAMES, status_name
from render.crosstable import PLAYING, cells, crosstable_layout, crosstable_png, tiebreak_text
from render.crosstable import points_text as points

from ..identity import page_tokens as tokens
from .work import Busy

POLL_SECONDS = 20
PUBLIC_TOKEN = "public"

TVIEWS = web.AppKey("tournament_views", object)


class TournamentViews:
    """Each tournament's view and version, read once per change of the database."""

    def __init__(self, service):
        self.service = service
        self._kept: dict[int, tuple[object, str, frozenset[int]]] = {}
        self.reads = 0

    def forget(self) -> None:
        self._kept.clear()

    async def get(self, tournament_id: int):
        """(view, version, the ids of its games that are public)."""
        if tournament_id not in self._kept:
            view = await self.service.tournament(tournament_id)
            public = frozenset([gid for gid in {p.game_id for p in view.pairings if p.game_id is not None}
                                if await self.service.is_public(gid)])
            self.reads += 1
            self._kept[tournament_id] = (view, version_of(view, public), public)
        return self._kept[tournament_id]


def version_of(view, public: frozenset[int] = frozenset()) -> str:
    """A digest of everything the page shows (the games' links too: public or not)."""
    shown = (view.name, view.status, view.round, view.rounds, [e.id for e in view.entrants],
             [(s.player.id, s.player.name, s.points, s.tiebreaks, s.withdrawn, round(s.rating or 0))
              for s in view.standings],
             [(p.round, p.board, p.white.id, p.black and p.black.id, p.game_id, p.result, p.reason)
              for p in view.pairings], sorted(public))
    return hashlib.sha256(repr(shown).encode()).hexdigest()[:16]


def add_routes(app: web.Application, service, secret: bytes, *, workers, pictures) -> None:
    """The tournament pages on ``app`` (server.make_app); ``workers`` and ``pictures``: the
    app's keys of its render workers and picture cache."""
    app[TVIEWS] = TournamentViews(service)

    def changed() -> None:
        app[TVIEWS].forget()

    async def listen(app: web.Application):
        service.add_listener(changed)
        yield
        service.remove_listener(changed)

    async def picture(request: web.Request) -> web.Response:
        view, version, _ = await _tournament(request, secret)
        asked = request.query.get("v")
        if asked is not None and asked != version:
            raise web.HTTPConflict(text="the tournament has changed since: look again")
        table = crosstable_of(view)

        async def paint():
            return await request.app[workers].run(request.remote or "?", ("tournament", view.id),
                                                  crosstable_png, table)
        try:
            png = await request.app[pictures].get(("tournament", view.id, version), paint)
        except Busy as e:
            raise web.HTTPTooManyRequests(text=str(e), headers={"Retry-After": "2"}) from None
        cache = "private, max-age=31536000, immutable" if asked is not None else "no-store"
        return web.Response(body=png, content_type="image/png", headers={"Cache-Control": cache})

    async def page(request: web.Request) -> web.Response:
        view, version, public = await _tournament(request, secret)

        def game_href(game_id: int) -> str:
            if game_id in public:
                return f"/g/{game_id}/{PUBLIC_TOKEN}"
            return tokens.game_url("", secret, game_id)

        static = request.app.router["static"]
        base = f"/t/{view.id}/{request.match_info['token']}"
        html = render_page(view, version, base, game_href, script=str(static.url_for(filename="tournament.js")),
                           style=str(static.url_for(filename="tournament.css")),
                           icon=str(static.url_for(filename="favicon.svg")), poll=POLL_SECONDS)
        return web.Response(text=html, content_type="text/html")

    async def version(request: web.Request) -> web.Response:
        _, version, _ = await _tournament(request, secret)
        return web.Response(text=json.dumps({"version": version}), content_type="application/json",
                            headers={"Cache-Control": "no-store"})

    app.cleanup_ctx.append(listen)
    app.router.add_get("/t/{id}/{token}", page)
    app.router.add_get("/t/{id}/{token}/crosstable.png", picture)
    app.router.add_get("/t/{id}/{token}/version.json", version)


async def _tournament(request: web.Request, secret: bytes):
    """The event the signed path names, its version and its public games; 404 (the same for a forged token
    and an event that does not exist) otherwise."""
    text, token = request.match_info["id"], request.match_info["token"]
    if not (text.isascii() and text.isdigit()) or len(text) > 18 \
            or not tokens.verify_tournament(secret, int(text), token):
        raise web.HTTPNotFound(text="no such tournament")
    try:
        return await request.app[TVIEWS].get(int(text))
    except NotFound:
        raise web.HTTPNotFound(text="no such tournament") from None


# --- the page ---------------------------------------------------------------------------

RESULT_WORDS = {"1": "won", "½": "drew", "0": "lost", "\u00d7": "aborted", PLAYING: "playing"}


def _summary(view) -> str:
    kind = FORMAT_NAMES[view.format] + (" (double)" if view.double else "")
    parts = [game_name(view.game), kind, days_text(view.days), "rated" if view.rated else "casual",
             f"{len(view.entrants)} player{'' if len(view.entrants) == 1 else 's'}", status_name(view)]
    if view.format == "swiss" and view.round:
        parts.append(f"round {view.round} of {view.rounds}")
    return " · ".join(parts)


def _result_cell(tokens_: tuple[str, ...], games: list, game_href) -> str:
    """A crosstable cell: each game's result linked to its page, said in words to a screen
    reader ("won", "playing")."""
    out = []
    for token, g in zip(tokens_, games, strict=False):
        shown = "…" if token == PLAYING else escape(token)
        label = RESULT_WORDS.get(token, token)
        out.append(f'<a href="{escape(game_href(g))}" aria-label="{label}, game {g}">{shown}</a>'
                   if g is not None else shown)
    return " ".join(out)


def _crosstable(view, game_href) -> str:
    table = crosstable_of(view)
    by_cell = cells(table)
    # the game ids behind each cell, in the order its tokens are (by round)
    place = {s.player.id: i for i, s in enumerate(view.standings)}
    ids: dict[tuple[int, int], list] = {}
    for p in sorted(view.pairings, key=lambda p: p.round):
        w = place.get(p.white.id)
        b = None if p.black is None else place.get(p.black.id)
        if w is None:
            continue
        if view.format == "round-robin":
            if b is not None:
                ids.setdefault((w, b), []).append(p.game_id)
                ids.setdefault((b, w), []).append(p.game_id)
        else:
            ids.setdefault((w, p.round), []).append(p.game_id)
            if b is not None:
                ids.setdefault((b, p.round), []).append(p.game_id)
    n = len(view.standings)
    rr = view.format == "round-robin"
    heads = ['<th scope="col">#</th>', '<th scope="col">Player</th>', '<th scope="col">Rating</th>']
    columns = range(n) if rr else range(1, view.rounds + 1)
    heads += [f'<th scope="col"><abbr title="against number {c + 1}">{c + 1}</abbr></th>' if rr
              else f'<th scope="col"><abbr title="round {c}">R{c}</abbr></th>' for c in columns]
    heads += ['<th scope="col"><abbr title="points">Pts</abbr></th>']
    heads += [f'<th scope="col">{escape(name)}</th>' for name in view.tiebreak_names]
    rows = []
    for i, s in enumerate(view.standings):
        out = " (withdrawn)" if s.withdrawn else ""
        cells_html = [f'<td class="num">{i + 1}</td>',
                      f'<th scope="row">{escape(s.player.name)}{out}</th>',
                      f'<td class="num">{"" if s.rating is None else f"{s.rating:.0f}"}</td>']
        for c in columns:
            if rr and c == i:
                cells_html.append('<td class="self"><span class="vh">no game against oneself</span></td>')
                continue
            tk = by_cell.get((i, c), ())
            if not tk:
                cells_html.append("<td></td>")
            elif rr:
                cells_html.append(f"<td>{_result_cell(tk, ids.get((i, c), []), game_href)}</td>")
            elif tk[0] == "bye":
                cells_html.append(f"<td>bye {escape(tk[1])}</td>")
            else:
                colour = "white" if tk[0] == "w" else "black"
                cells_html.append(
                    f'<td><span class="side {colour}" aria-hidden="true"></span><span class="vh">{colour} '
                    f'against number </span>{tk[1]} '
                    f"{_result_cell(tk[2:], ids.get((i, c), [])[:1], game_href)}</td>")
        cells_html.append(f'<td class="num pts">{points(s.points)}</td>')
        cells_html += [f'<td class="num">{tiebreak_text(v)}</td>' for v in s.tiebreaks]
        rows.append(f"<tr>{''.join(cells_html)}</tr>")
    if not rows:
        return '<p>No players yet.</p>'
    caption = ("Crosstable: each row's results against the numbered players" if rr else
               "Standings: each round's colour, opponent's number and result")
    return (f'<div class="scroll"><table id="crosstable"><caption>{caption}</caption>'
            f"<thead><tr>{''.join(heads)}</tr></thead><tbody>{''.join(rows)}</tbody></table></div>")


def _result_text(p) -> str:
    if p.black is None:
        return f"bye ({points(p.bye_points or 0)})"
    if p.result is None:
        return "playing"
    return p.result.replace("1/2", "½") + (f" ({escape(p.reason)})" if p.reason else "")


def _rounds(view, game_href) -> str:
    if not view.pairings:
        return "<p>No games yet: the event has not started.</p>"
    parts = []
    for r in sorted({p.round for p in view.pairings}):
        items = []
        for p in (p for p in view.pairings if p.round == r):
            black = "" if p.black is None else f" – {escape(p.black.name)}"
            link = "" if p.game_id is None else \
                f' · <a href="{escape(game_href(p.game_id))}">game #{p.game_id}</a>'
            items.append(f"<li>{escape(p.white.name)}{black}: {_result_text(p)}{link}</li>")
        parts.append(f'<section aria-labelledby="round-{r}"><h3 id="round-{r}">Round {r}</h3>'
                     f"<ol>{''.join(items)}</ol></section>")
    return "".join(parts)


def render_page(view, version: str, base: str, game_href, *, script: str, style: str, icon: str,
                poll: int = POLL_SECONDS) -> str:
    """The whole page; ``base``: its own path (``/t/<id>/<token>``); ``game_href(game_id)``:
    the address of a game's page."""
    lay = crosstable_layout(crosstable_of(view))
    title = f"{view.name} · {game_name(view.game)} tournament #{view.id}"
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title>
<link rel="icon" href="{escape(icon)}" type="image/svg+xml">
<link rel="stylesheet" href="{escape(style)}">
</head><body data-base="{escape(base)}" data-version="{escape(version)}" data-poll="{poll}">
<header><h1>{escape(view.name)}</h1><p>{escape(_summary(view))}</p>
<p id="live" role="status" aria-live="polite">\
This page follows the event: it shows new results as games end.</p></header>
<main>
<section aria-labelledby="standings"><h2 id="standings">Standings</h2>
{_crosstable(view, game_href)}
<figure><img src="{escape(base)}/crosstable.png?v={escape(version)}" width="{lay.width}" height="{lay.height}"
alt="The crosstable as a picture; the table above says the same.">
<figcaption>The crosstable as a picture, to share.</figcaption></figure></section>
<section aria-labelledby="rounds"><h2 id="rounds">Rounds and games</h2>
{_rounds(view, game_href)}</section>
</main>
<script src="{escape(script)}"></script>
</body></html>
"""
