"""A tournament's news on its server (the service's ``TournamentNews``): posted in the
thread opened under the event's announcement when it was made (``/tournament create``).
A round's start opens a thread for each of its games in the announcement's channel (as an
accepted challenge does), before the players' own notices, which then link to it; then the
pairings are posted, and the announcement's Join button goes. Each result (one a director
decided with who decided it and why), and the final standings, follow. An event not
announced on Discord (made on the command line) has no such place: its players get their
own notices only. Raising means "try later" (the outbox's retry): a game whose thread is
open is not opened again."""

from __future__ import annotations

import logging

from bot.delivery import events as ev
from bot.words.text import DISCORD, result_text
from bot.words.tournament_text import decision_note, standings_text

from . import images
from .replies import NO_PINGS
from .tournament_join import MESSAGE_CHARS, refresh_announcement, server_markup

log = logging.getLogger("bot.discord_bot")


async def post_news(fairy, event: ev.TournamentNews) -> None:
    place = await fairy.links.tournament_place(event.tournament_id)
    if place is None:
        return
    t = await fairy.service.tournament(event.tournament_id)
    if event.what not in ("started", "round", "result", "decided", "over"):
        return
    news = await fairy.channel(int(place.news_id))
    m = server_markup(getattr(news, "guild", None))  # the server's members read it: in its language
    if event.what in ("started", "round"):
        lines = await _round_lines(fairy, t, int(place.channel_id), None if event.what == "started" else event.round, m)
        head = ("🏁 " + m.tr("The tournament has begun: every game at once.") if event.what == "started"
                else "🏁 " + m.tr("Round {round} of {rounds} has begun.", round=event.round, rounds=t.rounds))
        texts = [head, *lines]
    elif event.what == "result":
        g = await fairy.service.game(event.game_id)
        said = result_text(g.game, g.white, g.black, g.result, g.reason, m)
        texts = [m.tr("Round {round} · game #{game}: {result} · {said}.", round=event.round, game=g.id,
                      result=g.result, said=said)]
    elif event.what == "decided":  # a director's result: who decided it, and why
        p = next((p for p in t.pairings if p.game_id == event.game_id), None)
        if p is None or p.decided is None:
            return
        texts = [m.tr("Round {round} · game #{game}: {result} · {said}.", round=event.round, game=p.game_id,
                      result=p.result or "", said=decision_note(p, m))]
    else:
        texts = ["🏆 " + m.tr("The tournament is over."), standings_text(t, m)]
    chunks = _chunks(texts)
    for i, chunk in enumerate(chunks):
        last = i == len(chunks) - 1
        # the final standings carry the crosstable, drawn like the boards
        picture = await images.crosstable_file(t) if last and event.what == "over" else None
        await news.send(content=chunk, allowed_mentions=NO_PINGS, **({"file": picture} if picture else {}))
    if event.what == "started" or (event.what == "round" and event.round == 1):
        await refresh_announcement(fairy, t)


async def _round_lines(fairy, t, channel_id: int, number: int | None, m=DISCORD) -> list[str]:
    """One line a pairing of round ``number`` (None: every round), each game's thread opened
    (once) in the announcement's channel."""
    channel = None
    lines = []
    for p in t.pairings:
        if number is not None and p.round != number:
            continue
        white = m.bold(p.white.name)
        if p.black is None:
            lines.append(m.tr("round {round}: {white} has a bye", round=p.round, white=white))
            continue
        row = await fairy.links.thread_of(p.game_id)
        if row is None:
            channel = channel or await fairy.channel(channel_id)
            thread = await fairy.open_thread(await fairy.service.game(p.game_id), channel)
            where = thread.mention
        else:
            where = f"<#{row.thread_id}>"
        lines.append(m.tr("round {round}: {white} – {black}", round=p.round, white=white, black=m.bold(p.black.name))
                     + " · " + m.tr("game #{id}", id=p.game_id) + f" {where}")
    return lines


def _chunks(lines: list[str]) -> list[str]:
    """The lines as few messages as Discord's length allows."""
    out: list[str] = []
    for line in lines:
        line = line[:MESSAGE_CHARS]
        if out and len(out[-1]) + 1 + len(line) <= MESSAGE_CHARS:
            out[-1] += "\n" + line
        else:
            out.append(line)
    return out
