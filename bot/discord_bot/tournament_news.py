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
from bot.words.tournament_text import standings_text

from . import format, images
from .replies import NO_PINGS
from .tournament_join import MESSAGE_CHARS, refresh_announcement

log = logging.getLogger("bot.discord_bot")


async def post_news(fairy, event: ev.TournamentNews) -> None:
    place = await fairy.links.tournament_place(event.tournament_id)
    if place is None:
        return
    t = await fairy.service.tournament(event.tournament_id)
    if event.what in ("started", "round"):
        lines = await _round_lines(fairy, t, int(place.channel_id), None if event.what == "started" else event.round)
        head = ("🏁 The tournament has begun: every game at once." if event.what == "started"
                else f"🏁 Round {event.round} of {t.rounds} has begun.")
        texts = [head, *lines]
    elif event.what == "result":
        g = await fairy.service.game(event.game_id)
        texts = [f"Round {event.round} · game #{g.id}: {g.result} · "
                 f"{result_text(g.game, g.white, g.black, g.result, g.reason, DISCORD)}."]
    elif event.what == "decided":  # a director's result: who decided it, and why
        p = next((p for p in t.pairings if p.game_id == event.game_id), None)
        if p is None or p.decided is None:
            return
        texts = [f"Round {event.round} · game #{p.game_id}: {p.result} · {format.safe(p.decided)}."]
    elif event.what == "over":
        texts = ["🏆 The tournament is over.", standings_text(t, DISCORD)]
    else:
        return
    news = await fairy.channel(int(place.news_id))
    chunks = _chunks(texts)
    for i, chunk in enumerate(chunks):
        last = i == len(chunks) - 1
        # the final standings carry the crosstable, drawn like the boards
        picture = await images.crosstable_file(t) if last and event.what == "over" else None
        await news.send(content=chunk, allowed_mentions=NO_PINGS, **({"file": picture} if picture else {}))
    if event.what == "started" or (event.what == "round" and event.round == 1):
        await refresh_announcement(fairy, t)


async def _round_lines(fairy, t, channel_id: int, number: int | None) -> list[str]:
    """One line a pairing of round ``number`` (None: every round), each game's thread opened
    (once) in the announcement's channel."""
    channel = None
    lines = []
    for p in t.pairings:
        if number is not None and p.round != number:
            continue
        white = format.bold(p.white.name)
        if p.black is None:
            lines.append(f"round {p.round}: {white} has a bye")
            continue
        row = await fairy.links.thread_of(p.game_id)
        if row is None:
            channel = channel or await fairy.channel(channel_id)
            thread = await fairy.open_thread(await fairy.service.game(p.game_id), channel)
            where = thread.mention
        else:
            where = f"<#{row.thread_id}>"
        lines.append(f"round {p.round}: {white} – {format.bold(p.black.name)} · game #{p.game_id} {where}")
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
