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

import asyncio
import hashlib
import json
from collections import OrderedDict
from dataclasses import dataclass
from datetime import UTC
from html import escape

from aiohttp import web

from bot.domain.errors import NotFound
from bot.tournaments.crosstable import crosstable_of
from bot.tournaments.tables import TournamentTables
from bot.tournaments.tiebreaks import TIEBREAK_NAMES
from bot.words.text import HTML
from bot.words.tournament_text import clock_text, decision_note, format_name, game_title, players_text, status_name
from language import ENGLISH, Language, language, supported
from render.crosstable import PLAYING, cells, crosstable_layout, crosstable_png, tiebreak_text
from render.crosstable import points_text as points

from ..identity import page_tokens as tokens
from .reach import refusal
from .reader import VARY, choice_form, language_of
from .site import csrf_for, reader_of
from .work import Busy, shared

POLL_SECONDS = 20
PUBLIC_TOKEN = "public"

TVIEWS = web.AppKey("tournament_views", object)


class TournamentViews:
    """Each tournament's view, and its pages, kept by the event's version.

    The version is the event's own counter, bumped by every change its page shows
    (tables.py's ``bump``: a join, a round, a game's end), with a digest of the set of its
    games that are public (their links change). It is read again, one short statement, only
    after the database changed (the service's listeners hear this process and the others);
    the view is read again only when the version moved, and each page is built once per
    version, in a thread (a 500-player event's page is some milliseconds of string work)."""

    PAGES_KEPT = 64

    def __init__(self, service):
        self.service = service
        self._kept: dict[int, tuple[object, str, frozenset[int]]] = {}
        self._stamps: dict[int, tuple[str, frozenset[int]]] = {}
        self._pages: OrderedDict[tuple, str] = OrderedDict()
        self._building: dict[tuple, asyncio.Task] = {}
        self.reads = 0   # views read (tests and the bench read it)
        self.builds = 0  # pages built

    def forget(self) -> None:
        """The database changed: each event's version is read again at its next look."""
        self._stamps.clear()

    async def _stamp(self, tournament_id: int) -> tuple[str, frozenset[int]]:
        if tournament_id not in self._stamps:
            async with self.service.store.read() as tx:
                tables = TournamentTables(tx)
                version = await tables.version(tournament_id)
                if version is None:
                    raise NotFound(f"there is no tournament #{tournament_id}")
                public = await tables.public_games(tournament_id)
            digest = hashlib.sha256(repr(sorted(public)).encode()).hexdigest()[:8]
            self._stamps[tournament_id] = (f"{version}-{digest}", public)
        return self._stamps[tournament_id]

    async def get(self, tournament_id: int):
        """(view, version, the ids of its games that are public)."""
        stamp, public = await self._stamp(tournament_id)
        kept = self._kept.get(tournament_id)
        if kept is None or kept[1] != stamp:
            view = await self.service.tournament(tournament_id)
            self.reads += 1
            self._kept[tournament_id] = kept = (view, stamp, public)
        return kept

    async def page(self, key: tuple, build) -> str:
        """The page for ``key`` (its version among it), built once (``build`` in a thread)."""
        if key in self._pages:
            self._pages.move_to_end(key)
            return self._pages[key]
        html = await shared(self._building, key, lambda: asyncio.to_thread(build))
        if key not in self._pages:
            self.builds += 1
            self._pages[key] = html
            while len(self._pages) > self.PAGES_KEPT:
                self._pages.popitem(last=False)
        return html


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
            raise web.HTTPConflict(text=language_of(request).tr("the tournament has changed since: look again"))
        table = crosstable_of(view)
        code = supported(request.query.get("lang")) or "en"  # the address's own: kept for good

        async def paint():
            return await request.app[workers].run(request.remote or "?", ("tournament", view.id),
                                                  crosstable_picture, table, code)
        try:
            png = await request.app[pictures].get(("tournament", view.id, version, code), paint)
        except Busy as e:
            raise web.HTTPTooManyRequests(text=refusal(request, e), headers={"Retry-After": "2"}) from None
        cache = "private, max-age=31536000, immutable" if asked is not None else "no-store"
        return web.Response(body=png, content_type="image/png", headers={"Cache-Control": cache})

    async def page(request: web.Request) -> web.Response:
        view, version, public = await _tournament(request, secret)
        where = _where(request, view)

        def game_href(game_id: int) -> str:
            if game_id in public:
                return f"/g/{game_id}/{PUBLIC_TOKEN}"
            return tokens.game_url("", secret, game_id)

        static = request.app.router["static"]
        base = f"/t/{view.id}/{request.match_info['token']}"
        assets = (str(static.url_for(filename="tournament.js")), str(static.url_for(filename="tournament.css")),
                  str(static.url_for(filename="favicon.svg")))
        now = int(service.clock.now().timestamp())  # the service's clock: the deadlines' own

        # the signed-in player's language (their setting), else this browser's choice or its own
        session, _, lang = await reader_of(request)

        def build() -> str:
            return render_page(view, version, base, game_href, script=assets[0], style=assets[1],
                               icon=assets[2], poll=POLL_SECONDS, where=where, now=now, lang=lang,
                               choice=CHOICE)
        # the page is kept by the version: "days left" is counted when it was built (a change
        # of the day rebuilds it: the hour is in the key), and by its reader's language; the
        # footer's form (its CSRF token is the reader's own) is put in after
        key = (view.id, version, base, where, assets, now // 3600, lang.code)
        html = (await request.app[TVIEWS].page(key, build)).replace(
            CHOICE, choice_form(lang, request.path_qs, csrf_for(request, session)), 1)
        return web.Response(text=html, content_type="text/html",
                            headers={"Vary": VARY, "Content-Language": lang.code})

    async def version(request: web.Request) -> web.Response:
        _, version, _ = await _tournament(request, secret)
        return web.Response(text=json.dumps({"version": version}), content_type="application/json",
                            headers={"Cache-Control": "no-store"})

    app.cleanup_ctx.append(listen)
    app.router.add_get("/t/{id}/{token}", page)
    app.router.add_get("/t/{id}/{token}/crosstable.png", picture)
    app.router.add_get("/t/{id}/{token}/version.json", version)


def crosstable_picture(table, code: str = "en") -> bytes:
    """The crosstable's PNG, its headings in the language ``code`` (in a worker process)."""
    return crosstable_png(table, language(code))


#: where the footer's language form goes in a kept page (each reader's own: its CSRF token)
CHOICE = "<!--language choice-->"


def reader_language(request: web.Request) -> Language:
    """The language of an answer that is not the page (an error): the ``lang`` cookie, else
    the browser's Accept-Language, else English (reader.py)."""
    return language_of(request)


async def _tournament(request: web.Request, secret: bytes):
    """The event the signed path names, its version and its public games; 404 (the same for a forged token
    and an event that does not exist) otherwise."""
    text, token = request.match_info["id"], request.match_info["token"]
    if not (text.isascii() and text.isdigit()) or len(text) > 18 \
            or not tokens.verify_tournament(secret, int(text), token):
        raise web.HTTPNotFound(text=language_of(request).tr("no such tournament"))
    try:
        return await request.app[TVIEWS].get(int(text))
    except NotFound:
        raise web.HTTPNotFound(text=language_of(request).tr("no such tournament")) from None


# --- the page ---------------------------------------------------------------------------

RESULT_WORDS = {"1": "won", "½": "drew", "0": "lost", "\u00d7": "aborted", PLAYING: "playing"}


def _labels(lang: Language) -> dict[str, str]:
    """The page's headings, labels and notes in the reader's language, escaped for HTML."""
    tr = lang.tr
    return {k: escape(v) for k, v in {
        "Player": tr("Player"),
        "Rating": tr("Rating"),
        "points": tr("points"),
        "Pts": tr("Pts"),
        "no game against oneself": tr("no game against oneself"),
        "No players yet.": tr("No players yet."),
        "Progress": tr("Progress"),
        "Round": tr("Round"),
        "Games finished": tr("Games finished"),
        "Deadline": tr("Deadline"),
        "No games yet: the event has not started.": tr("No games yet: the event has not started."),
        "Rounds": tr("Rounds"),
        "The crosstable as a picture, to share.": tr("The crosstable as a picture, to share."),
        "This link no longer opens the event.": tr("This link no longer opens the event."),
        "This page follows the event: it shows new results as games end.":
            tr("This page follows the event: it shows new results as games end."),
        "Standings": tr("Standings"),
        "Rounds and games": tr("Rounds and games"),
    }.items()}


def _tiebreak_title(name: str, lang: Language) -> str:
    """A tie-break's name in full (the inventors' names stay as they are)."""
    said = {"BH-C1": lang.tr("Buchholz Cut 1"), "DE": lang.tr("Direct encounter")}
    return said.get(name) or TIEBREAK_NAMES.get(name, name)


def _result_word(token: str, lang: Language) -> str:
    """A crosstable cell's result in words, for a screen reader."""
    words = {"1": lang.tr("won"), "½": lang.tr("drew"), "0": lang.tr("lost"), "\u00d7": lang.tr("aborted"),
             PLAYING: lang.tr("playing")}
    return words.get(token, token)


def _summary(view, lang: Language = ENGLISH) -> str:
    """The event in one line (plain text: the page escapes it)."""
    m = HTML.in_language(lang)
    parts = [game_title(view.game, m), format_name(view, m), clock_text(view.days, m),
             lang.tr("rated") if view.rated else lang.tr("casual"), players_text(len(view.entrants), m),
             status_name(view, m)]
    if view.format == "swiss" and view.round:
        parts.append(lang.tr("round {round} of {rounds}", round=view.round, rounds=view.rounds))
    return " · ".join(parts)


def _result_cell(tokens_: tuple[str, ...], games: list, game_href, lang: Language = ENGLISH) -> str:
    """A crosstable cell: each game's result linked to its page, said in words to a screen
    reader ("won", "playing")."""
    out = []
    for token, g in zip(tokens_, games, strict=False):
        shown = "…" if token == PLAYING else escape(token)
        label = escape(lang.tr("{result}, game {game}", result=_result_word(token, lang), game=g))
        out.append(f'<a href="{escape(game_href(g))}" aria-label="{label}">{shown}</a>'
                   if g is not None else shown)
    return " ".join(out)


#: Standings rows a page shows; the games of a round a page lists; above this many players
#: the crosstable picture is not drawn on the page (the table says it all); above this many
#: cells the crosstable's cells are written short (no link, no words for a screen reader but
#: the column's): together they keep a 500-player Swiss's page under 100 KB
PAGE_PLAYERS = 50
PAGE_GAMES = 100
PICTURE_PLAYERS = 40
SHORT_CELLS = 400


@dataclass(frozen=True)
class Where:
    """Which part of a big event's page is asked for (``?page=`` of the standings,
    ``?round=`` whose games are listed, ``?games=`` the page of that round's games)."""

    page: int = 1
    round: int | None = None
    games: int = 1


def _number(request: web.Request, name: str, top: int) -> int | None:
    text = request.query.get(name)
    if text is None:
        return None
    if not (text.isascii() and text.isdigit()) or len(text) > 6 or not 1 <= int(text) <= top:
        said = reader_language(request).tr("{name} must be a whole number from 1 to {top}, not {value}",
                                           name=name, top=top, value=repr(text[:20]))
        raise web.HTTPBadRequest(text=said)
    return int(text)


def _where(request: web.Request, view) -> Where:
    """The part of the page asked for; a value out of range is refused with what was wrong."""
    pages = max(1, -(-len(view.standings) // PAGE_PLAYERS))
    rounds = max([p.round for p in view.pairings], default=0)
    number = _number(request, "round", max(rounds, 1))
    if number is not None and not rounds:
        raise web.HTTPBadRequest(text=reader_language(request).tr("the event has no rounds yet"))
    chosen = number or rounds or None
    games = sum(1 for p in view.pairings if p.round == chosen)
    return Where(_number(request, "page", pages) or 1, chosen,
                 _number(request, "games", max(1, -(-games // PAGE_GAMES))) or 1)


def _pager(base: str, where: Where, name: str, current: int, count: int, label: str) -> str:
    if count <= 1:
        return ""
    links = []
    for n in range(1, count + 1):
        query = {"page": where.page, "round": where.round, "games": where.games, name: n}
        href = base + "?" + "&amp;".join(f"{k}={v}" for k, v in query.items() if v is not None)
        links.append(f'<a href="{href}" aria-current="page">{n}</a>' if n == current else f'<a href="{href}">{n}</a>')
    return f'<nav class="pager" aria-label="{escape(label)}">{label}: {" ".join(links)}</nav>'


def _crosstable(view, game_href, where: Where, base: str, lang: Language = ENGLISH) -> str:
    tr, L = lang.tr, _labels(lang)  # noqa: N806 - the page's labels, escaped
    table = crosstable_of(view)
    by_cell = cells(table)
    n = len(view.standings)
    rr = view.format == "round-robin"
    columns = range(n) if rr else range(1, view.rounds + 1)
    short = n * len(columns) > SHORT_CELLS
    shown = range((where.page - 1) * PAGE_PLAYERS, min(n, where.page * PAGE_PLAYERS))
    # the game ids behind each cell, in the order its tokens are (by round)
    place = {s.player.id: i for i, s in enumerate(view.standings)}
    ids: dict[tuple[int, int], list] = {}
    if not short:
        for p in sorted(view.pairings, key=lambda p: p.round):
            w = place.get(p.white.id)
            b = None if p.black is None else place.get(p.black.id)
            if w is None:
                continue
            if rr:
                if b is not None:
                    ids.setdefault((w, b), []).append(p.game_id)
                    ids.setdefault((b, w), []).append(p.game_id)
            else:
                ids.setdefault((w, p.round), []).append(p.game_id)
                if b is not None:
                    ids.setdefault((b, p.round), []).append(p.game_id)
    heads = ['<th scope="col">#</th>', f'<th scope="col">{L["Player"]}</th>',
             f'<th scope="col">{L["Rating"]}</th>']
    titles = [tr("against number {n}", n=c + 1) if rr else tr("round {n}", n=c) for c in columns]
    heads += [f'<th scope="col"><abbr title="{escape(title)}">{c + 1 if rr else f"R{c}"}</abbr></th>'
              for c, title in zip(columns, titles, strict=True)]
    heads += [f'<th scope="col"><abbr title="{L["points"]}">{L["Pts"]}</abbr></th>']
    heads += [f'<th scope="col"><abbr title="{escape(_tiebreak_title(name, lang))}">{escape(name)}</abbr></th>'
              for name in view.tiebreak_names]
    rows = []
    for i in shown:
        s = view.standings[i]
        who = escape(s.player.name)
        who = tr("{name} (withdrawn)", name=who) if s.withdrawn else who
        cells_html = [f'<td class="num">{i + 1}</td>',
                      f'<th scope="row">{who}</th>',
                      f'<td class="num">{"" if s.rating is None else f"{s.rating:.0f}"}</td>']
        for c in columns:
            if rr and c == i:
                cells_html.append('<td class="self"></td>' if short else
                                  f'<td class="self"><span class="vh">{L["no game against oneself"]}'
                                  '</span></td>')
                continue
            tk = by_cell.get((i, c), ())
            if not tk:
                cells_html.append("<td></td>")
            elif short:
                cells_html.append(f"<td>{escape(' '.join(tk))}</td>")
            elif rr:
                cells_html.append(f"<td>{_result_cell(tk, ids.get((i, c), []), game_href, lang)}</td>")
            elif tk[0] == "bye":
                bye = escape(tr("bye {points}", points=tk[1]))
                cells_html.append(f"<td>{bye}</td>")
            else:
                colour = "white" if tk[0] == "w" else "black"
                said = tr("white against number") if tk[0] == "w" else tr("black against number")
                cells_html.append(
                    f'<td><span class="side {colour}" aria-hidden="true"></span><span class="vh">{escape(said)} '
                    f'</span>{tk[1]} '
                    f"{_result_cell(tk[2:], ids.get((i, c), [])[:1], game_href, lang)}</td>")
        cells_html.append(f'<td class="num pts">{points(s.points)}</td>')
        cells_html += [f'<td class="num">{tiebreak_text(v)}</td>' for v in s.tiebreaks]
        rows.append(f"<tr>{''.join(cells_html)}</tr>")
    if not rows:
        return f'<p>{L["No players yet."]}</p>'
    caption = (tr("Crosstable: each row's results against the numbered players") if rr else
               tr("Standings: each round's colour, opponent's number and result"))
    if short:
        caption += " " + tr("(w/b: the colour, then the opponent's number and the result; the games are listed "
                            "by round)")
    pages = -(-n // PAGE_PLAYERS)
    return (f'<div class="scroll"><table id="crosstable"><caption>{escape(caption)}</caption>'
            f"<thead><tr>{''.join(heads)}</tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
            + _pager(base, where, "page", where.page, pages, tr("Standings pages")))


def _result_text(p, lang: Language = ENGLISH) -> str:
    """A game's result on the page (HTML): a decided one with who decided it and why, else
    how the game ended."""
    if p.black is None:
        return escape(lang.tr("bye ({points})", points=points(p.bye_points or 0)))
    if p.result is None:
        return escape(lang.tr("playing"))
    if p.result == "cancelled":
        shown = escape(lang.tr("cancelled"))
    else:
        shown = escape(p.result.replace("1/2", "½"))
    why = decision_note(p, HTML.in_language(lang)) or (escape(p.reason) if p.reason else None)
    return shown + (f" ({why})" if why else "")


def _progress(view, now: float, lang: Language = ENGLISH) -> str:
    L = _labels(lang)  # noqa: N806
    """Each round's games finished of its games; the running round's deadline and days left."""
    if not view.pairings:
        return ""
    rows = []
    for r in sorted({p.round for p in view.pairings}):
        games = [p for p in view.pairings if p.round == r and p.black is not None]
        done = sum(p.result is not None for p in games)
        left = ""
        if r == view.round and view.round_deadline is not None and view.status == "running":
            seconds = view.round_deadline.timestamp() - now
            days = max(0, int(-(-seconds // 86400)))
            # the deadline in the reader's way of writing dates (Babel); English as it always was
            when = (f"{view.round_deadline:%Y-%m-%d %H:%M} UTC" if lang.code == "en"
                    else f"{lang.moment(view.round_deadline, UTC)} UTC")
            left = escape(lang.trn("{when} ({n} day left)", "{when} ({n} days left)", days, when=when)
                          if seconds > 0 else lang.tr("{when} (passed)", when=when))
        finished = escape(lang.tr("{done} of {total}", done=done, total=len(games)))
        rows.append(f'<tr><th scope="row">{r}</th><td class="num">{finished}</td><td>{left}</td></tr>')
    return (f'<section aria-labelledby="progress"><h2 id="progress">{L["Progress"]}</h2>'
            f'<table id="progress-table"><thead><tr><th scope="col">{L["Round"]}</th>'
            f'<th scope="col">{L["Games finished"]}</th>'
            f'<th scope="col">{L["Deadline"]}</th></tr></thead><tbody>{"".join(rows)}</tbody>'
            '</table></section>')


def _rounds(view, game_href, where: Where, base: str, lang: Language = ENGLISH) -> str:
    L = _labels(lang)  # noqa: N806
    if not view.pairings:
        return f"<p>{L['No games yet: the event has not started.']}</p>"
    numbers = sorted({p.round for p in view.pairings})
    if len(view.pairings) <= PAGE_GAMES:  # a small event: every round's games at once
        return "".join(_round_list(view, r, [p for p in view.pairings if p.round == r], game_href, 1, lang)
                       for r in numbers)
    r = where.round if where.round in numbers else numbers[-1]
    games = [p for p in view.pairings if p.round == r]
    pages = -(-len(games) // PAGE_GAMES)
    others = ""
    if len(numbers) > 1:
        links = [f'<a href="{base}?page={where.page}&amp;round={n}">{n}</a>' if n != r else f"<strong>{n}</strong>"
                 for n in numbers]
        rounds = L["Rounds"]
        others = f'<nav class="pager" aria-label="{rounds}">{rounds}: {" ".join(links)}</nav>'
    start = (where.games - 1) * PAGE_GAMES
    return (others + _round_list(view, r, games[start: start + PAGE_GAMES], game_href, start + 1, lang)
            + _pager(base, Where(where.page, r, where.games), "games", where.games, pages,
                     lang.tr("Games of round {round}", round=r)))


def _round_list(view, r: int, games: list, game_href, start: int, lang: Language = ENGLISH) -> str:
    def game_word(game_id: int) -> str:
        return lang.tr("game #{id}", id=game_id)
    heading = escape(lang.tr("Round {round}", round=r))
    items = []
    for p in games:
        black = "" if p.black is None else f" – {escape(p.black.name)}"
        link = "" if p.game_id is None else \
            f' · <a href="{escape(game_href(p.game_id))}">{escape(game_word(p.game_id))}</a>'
        items.append(f"<li>{escape(p.white.name)}{black}: {_result_text(p, lang)}{link}</li>")
    first = "" if start == 1 else f' start="{start}"'
    return (f'<section aria-labelledby="round-{r}"><h3 id="round-{r}">{heading}</h3>'
            f'<ol{first}>{"".join(items)}</ol></section>')


def render_page(view, version: str, base: str, game_href, *, script: str, style: str, icon: str,
                poll: int = POLL_SECONDS, where: Where = Where(), now: float = 0.0, lang: Language = ENGLISH,
                choice: str = "") -> str:
    """The whole page (the part ``where`` says of a big event's); ``base``: its own path
    (``/t/<id>/<token>``); ``game_href(game_id)``: the address of a game's page; ``now``:
    the time the days left are counted from; ``choice``: the footer's language form (HTML)."""
    tr, L = lang.tr, _labels(lang)  # noqa: N806
    title = tr("{name} · {game} tournament #{id}", name=view.name, game=game_title(view.game, HTML.in_language(lang)),
               id=view.id)
    figure = ""
    if len(view.standings) <= PICTURE_PLAYERS:
        lay = crosstable_layout(crosstable_of(view), lang)
        alt = tr("The crosstable as a picture; the table above says the same.")
        figure = (f'<figure><img src="{escape(base)}/crosstable.png?v={escape(version)}&amp;lang={lang.code}" '
                  f'width="{lay.width}" '
                  f'height="{lay.height}"\nalt="{escape(alt)}">\n'
                  f"<figcaption>{L['The crosstable as a picture, to share.']}</figcaption></figure>")
    return f"""<!doctype html>
<html lang="{lang.code}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title>
<link rel="icon" href="{escape(icon)}" type="image/svg+xml">
<link rel="stylesheet" href="{escape(style)}">
</head><body data-base="{escape(base)}" data-version="{escape(version)}" data-poll="{poll}"
data-gone="{L["This link no longer opens the event."]}">
<header><h1>{escape(view.name)}</h1><p>{escape(_summary(view, lang))}</p>
<p id="live" role="status" aria-live="polite">\
{L["This page follows the event: it shows new results as games end."]}</p></header>
<main>
{_progress(view, now, lang)}
<section aria-labelledby="standings"><h2 id="standings">{L["Standings"]}</h2>
{_crosstable(view, game_href, where, escape(base), lang)}
{figure}</section>
<section aria-labelledby="rounds"><h2 id="rounds">{L["Rounds and games"]}</h2>
{_rounds(view, game_href, where, escape(base), lang)}</section>
</main>
<footer>{choice}</footer>
<script src="{escape(script)}"></script>
</body></html>
"""
