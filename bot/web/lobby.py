"""Finding an opponent on the web: the "New game" form and the "Lobby".

    GET  /new                   the form: Game, Days per move, Opponent (a name, or empty for
                                anyone), Colour, Rated, Play the computer with its level; Create
    POST /new                   a challenge through GameService.challenge (the computer's:
                                bot.computer's challenge_computer, its game made at once)
    GET  /lobby                 the open challenges a signed-in player sees: to anyone, to
                                them (Accept, Decline), and their own (Cancel)
    POST /lobby/<id>/<answer>   accept, decline or cancel; an accepted one opens its game

The same challenges are the mail players' (``games``, ``accept N``) and Discord's: one
service, so accepting here starts the game on both players' front ends (the notices as
always). Every refusal is the service's own words, shown over the form; nothing changes.
"""

from __future__ import annotations

from aiohttp import web

import rules
from bot.domain.errors import ServiceError
from language import ENGLISH, Language, T

from .page import game_name
from .reach import SERVICE
from .reader import language_of
from .site import field, form_of, html, reader_of, see_other, shared, signed_in
from .site_pages import esc, hidden_csrf, message

DAYS = (1, 2, 3, 5, 7, 10, 14)
COLOURS = {"random": T("Random"), "white": T("White"), "black": T("Black")}
MAX_NAME = 100
MAX_LOBBY = 100  # others' challenges shown (the oldest first); one's own always are


def add_routes(app: web.Application) -> None:
    app.router.add_get("/new", shared(new_form_handler))
    app.router.add_post("/new", shared(new_game_handler), name="form:new_game")
    app.router.add_get("/lobby", shared(lobby_handler))
    app.router.add_post("/lobby/{id}/{answer}", shared(answer_handler), name="form:answer")


def _options(pairs, chosen) -> str:
    return "".join(f'<option value="{esc(str(v))}"{" selected" if str(v) == str(chosen) else ""}>'
                   f"{esc(t)}</option>" for v, t in pairs)


def new_form(csrf: str, values: dict | None = None, error: str = "", lang: Language = ENGLISH) -> str:
    import ai
    v = {"game": rules.variants()[0], "days": "3", "opponent": "", "colour": "random", "rated": "on",
         "computer": "", "level": "3", **(values or {})}
    games = [(g, game_name(g, lang)) for g in rules.variants()]
    levels = [(n, f"{n}") for n in sorted(ai.LEVELS)]
    colours = [(k, lang.say(t)) for k, t in COLOURS.items()]
    checked = lambda name: " checked" if v.get(name) else ""  # noqa: E731
    w = {k: esc(t) for k, t in {
        "game": lang.tr("Game"), "days": lang.tr("Days per move"), "opponent": lang.tr("Opponent"),
        "hint": lang.tr("a player's name, or empty for anyone (the challenge goes to the Lobby)"),
        "colour": lang.tr("Colour"), "rated": lang.tr("Rated"), "computer": lang.tr("Play the computer"),
        "level": lang.tr("Level"), "create": lang.tr("Create")}.items()}
    return (message(error, alert=True) if error else "") + f"""
<form method="post" action="/new" class="stack">{hidden_csrf(csrf)}
<label for="game">{w["game"]}</label><select id="game" name="game">{_options(games, v["game"])}</select>
<label for="days">{w["days"]}</label>
<select id="days" name="days">{_options([(d, str(d)) for d in DAYS], v["days"])}</select>
<label for="opponent">{w["opponent"]}</label>
<input id="opponent" name="opponent" maxlength="{MAX_NAME}" value="{esc(v["opponent"])}"
 aria-describedby="opponent-hint"><span id="opponent-hint" class="hint">{w["hint"]}</span>
<label for="colour">{w["colour"]}</label>
<select id="colour" name="colour">{_options(colours, v["colour"])}</select>
<label><input type="checkbox" name="rated"{checked("rated")}> {w["rated"]}</label>
<label><input type="checkbox" name="computer"{checked("computer")}> {w["computer"]}</label>
<label for="level">{w["level"]}</label>
<select id="level" name="level">{_options(levels, v["level"])}</select>
<button>{w["create"]}</button></form>"""


async def new_form_handler(request: web.Request) -> web.Response:
    await signed_in(request)
    session, me, lang = await reader_of(request)
    from .site import csrf_for
    return html(request, lang.tr("New game"), new_form(csrf_for(request, session), lang=lang), session,
                me.name, lang=lang)


async def new_game_handler(request: web.Request) -> web.Response:
    from bot.computer.player import challenge_computer

    from .site import csrf_for
    await signed_in(request)
    session, me, lang = await reader_of(request)
    data = await form_of(request, session)
    service = request.app[SERVICE]
    values = {k: field(data, k, MAX_NAME if k == "opponent" else 20, lang)
              for k in ("game", "days", "opponent", "colour", "rated", "computer", "level")}

    def refused(text) -> web.Response:
        return html(request, lang.tr("New game"), new_form(csrf_for(request, session), values, lang.say(text), lang),
                    session, me.name, status=400, lang=lang)
    if values["game"] not in rules.variants():
        return refused(T("choose a game from the list"))
    if values["days"] not in {str(d) for d in DAYS}:
        return refused(T("days per move: one of {days}", days=", ".join(map(str, DAYS))))
    if values["colour"] not in COLOURS:
        return refused(T("colour: {choices}", choices="random, white, black"))
    options = {"days": int(values["days"]), "colour": values["colour"]}
    try:
        if values["computer"]:
            if not (values["level"].isascii() and values["level"].isdigit()):  # "²" is a digit to isdigit
                return refused(T("the computer's level is a number"))
            _, c = await challenge_computer(service, me.id, values["game"], int(values["level"]),
                                            **options)
            return see_other(f"/play/{c.game_id}" if c.game_id else "/")
        opponent_id = None
        name = values["opponent"].strip()
        if name:
            found = [p for p in await service.players_named(name) if p.id != me.id]
            if not found:
                return refused(T("nobody here is called {name}", name=name))
            if len(found) > 1:
                return refused(T("several players are called {name}: ask them for a challenge instead", name=name))
            opponent_id = found[0].id
        await service.challenge(me.id, values["game"], opponent_id=opponent_id,
                                rated=bool(values["rated"]), **options)
    except ServiceError as e:
        return refused(e.text)
    return see_other("/lobby")


def _challenge_item(c, me_id: int, csrf: str, lang: Language = ENGLISH) -> str:
    def button(answer: str, label: str, aria: str) -> str:
        return (f'<form method="post" action="/lobby/{c.id}/{answer}" class="inline">'
                f'{hidden_csrf(csrf)}<button aria-label="{esc(aria)}">{esc(label)}'
                f"</button></form>")
    tr = lang.tr
    days = lang.trn("{n} day per move", "{n} days per move", c.days) if c.days else tr("no clock")
    colour = {"white": tr("plays White"), "black": tr("plays Black")}.get(c.colour) or tr("colour at random")
    kind = tr("rated") if c.rated else tr("casual")
    if c.opponent is not None:
        text = tr("#{id} {game}, {days}, {kind}: {challenger} ({colour}) to {opponent}", id=c.id,
                  game=esc(game_name(c.game, lang)), days=esc(days), kind=esc(kind),
                  challenger=esc(c.challenger.name), colour=esc(colour), opponent=esc(c.opponent.name))
    else:
        text = tr("#{id} {game}, {days}, {kind}: {challenger} ({colour})", id=c.id,
                  game=esc(game_name(c.game, lang)), days=esc(days), kind=esc(kind),
                  challenger=esc(c.challenger.name), colour=esc(colour))
    if c.challenger.id == me_id:
        buttons = button("cancel", tr("Cancel"), tr("Cancel challenge {id}", id=c.id))
    elif c.opponent is None or c.opponent.id == me_id:
        buttons = button("accept", tr("Accept"), tr("Accept challenge {id}", id=c.id)) + (
            button("decline", tr("Decline"), tr("Decline challenge {id}", id=c.id)) if c.opponent else "")
    else:
        buttons = ""
    return f'<li data-challenge="{c.id}">{text} {buttons}</li>'


async def lobby_challenges(service, me_id: int) -> tuple[list, int]:
    """The player's own open challenges and the oldest ``MAX_LOBBY`` of the others they may
    see (the service's lobby_challenges: 1,000 open challenges read whole were 104 ms of the
    event loop); and how many more of those."""
    return await service.lobby_challenges(me_id, MAX_LOBBY)


async def lobby_handler(request: web.Request) -> web.Response:
    return await lobby_page(request, await signed_in(request))


async def lobby_page(request: web.Request, session, note=None, status: int = 200) -> web.Response:
    """The lobby; ``note``: why an answer was refused (the service's words)."""
    from .site import csrf_for
    service = request.app[SERVICE]
    _, me, lang = await reader_of(request)
    csrf = csrf_for(request, session)
    shown, more = await lobby_challenges(service, me.id)
    items = "".join(_challenge_item(c, me.id, csrf, lang) for c in shown)
    none = esc(lang.tr("No open challenges."))
    beyond = esc(lang.trn("… and {n} more: take one of these first, or make your own.",
                          "… and {n} more: take one of these first, or make your own.", more))
    new = esc(lang.tr("New game"))
    body = ((message(lang.say(note), alert=True) if note else "") +
            (f'<ul class="challenges">{items}</ul>' if items else f"<p>{none}</p>") +
            (f"<p>{beyond}</p>" if more > 0 else "") +
            f'<p><a href="/new">{new}</a></p>')
    return html(request, lang.tr("Lobby"), body, session, me.name, status=status, lang=lang)


async def answer_handler(request: web.Request) -> web.Response:
    session = await signed_in(request)
    await form_of(request, session)
    text, answer = request.match_info["id"], request.match_info["answer"]
    if not (text.isascii() and text.isdigit()) or len(text) > 18 or \
            answer not in ("accept", "decline", "cancel"):
        raise web.HTTPNotFound(text=language_of(request).tr("no such challenge"))
    service = request.app[SERVICE]
    try:
        if answer == "accept":
            view = await service.accept_challenge(int(text), session.player_id)
            return see_other(f"/play/{view.id}")
        await getattr(service, f"{answer}_challenge")(int(text), session.player_id)
    except ServiceError as e:
        return await lobby_page(request, session, e.text, status=409)
    return see_other("/lobby")
