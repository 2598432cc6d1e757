"""Conditional moves, move confirmation and the next game, on Discord (issue 23).

``/premove game: lines:`` leaves lines (``Nf6 e5; Nc6 d4 Nf6 Bg5``: their move, your
answer, ...), ``/premove game:`` shows them, with a Cancel button (``/premove cancel:True``
does the same). Every answer is private: the opponent never sees the lines.

With the ``confirm_moves`` setting (``/settings confirm_moves:``), a move is first asked
about, "Play **Nf3** in game #12?", with a Confirm button carrying the game, the ply it
was read at and the move's LAN; the move is played only if the game is still there.
After a move, a "Next game" button shows the player's most urgent game where it is
their move, with its board.
"""

from __future__ import annotations

import asyncio
import logging

import discord
from discord import app_commands, ui
from discord.app_commands import locale_str

from bot.domain.errors import ServiceError
from bot.operations import premoves as pm
from bot.words.text import DISCORD, Markup
from language import ENGLISH, Language, T
from rules.errors import RulesError

from . import format, suggest
from .core import fairy_of, lookup_game
from .replies import defer, note_game, send
from .shared import reader_of
from .views import ConfirmMove, NextGame, _Button, asked_first, send_played  # noqa: F401 - commands use them here

log = logging.getLogger("bot.discord_bot")

LINES_OPTION = locale_str("like Nf6 e5; Nc6 d4 Nf6 Bg5 (their move, your answer, ...; lines apart with ;)")


# --- /premove ------------------------------------------------------------------------------

async def premove(interaction: discord.Interaction, lines: str | None, cancel: bool,
                  game: int | None) -> None:
    """/premove (its options: commands.premove): set, show or cancel the player's lines."""
    fairy = fairy_of(interaction)
    me, m = await fairy.me(interaction)
    gid = await fairy.resolve_game(interaction, me, game)
    if cancel and lines:
        raise ServiceError(T("give lines or cancel, not both"))
    if cancel:
        n = await fairy.service.cancel_premoves(gid, me.id)
        await send(interaction, _dropped_text(gid, n, m=m))
        return
    await defer(interaction)  # the engine reads every move of every line
    if lines:
        found = await fairy.service.set_premoves(gid, me.id, lines)
        head = m.tr("Game #{game}: if your opponent plays the first move of a line, its answer is played at once.",
                    game=gid)
    else:
        found = await fairy.service.premoves(gid, me.id)
        head = m.tr("Your conditional lines in game #{game}:", game=gid)
    if not found.count:
        await send(interaction, m.tr("You have no conditional lines in game #{game}. Leave some with {example} "
                                     "while your opponent is to move.", game=gid,
                                     example=m.code("/premove lines: Nf6 e5; Nc6 d4")))
        return
    await send(interaction, head + "\n" + lines_text(found), view=cancel_view(gid, m=m))


async def lines_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """What is typed, completed by the legal moves for the move being typed (its line's
    next: the opponent's, then yours, ...), at most 25."""
    try:
        looked = await lookup_game(interaction)
        if looked is None:
            return []
        fairy, me, gv = looked
        if gv.status != "active" or gv.side_of(me.id) in (None, gv.turn):
            return []  # no lines to leave here: the command's refusal says why
        m = reader_of(interaction)
        found = await asyncio.to_thread(suggest_lines, await fairy.position(gv), current or "", lang=m.lang)
        return [app_commands.Choice(name=n, value=v) for n, v in found]
    except Exception:  # autocomplete must never fail loudly
        log.exception("premove autocomplete failed")
        return []


def suggest_lines(pos, typed: str, limit: int = 25, *, lang: Language = ENGLISH) -> list[tuple[str, str]]:
    """(name, value) pairs: ``typed`` with its last word completed (or a word added, after
    a space or a ;) by the legal moves there. Nothing once a move before it is not legal,
    or the text is past Discord's 100 characters of a choice."""
    if len(typed) > 100:  # no suggestion fits: nothing read (a 6,000-character line of moves is
        return []         # thousands of moves played)
    last_line = typed.rpartition(";")[2]
    words = last_line.split()
    adding = not words or last_line[-1:].isspace()
    typing = "" if adding else words[-1]
    before = pm.split_lines(" ".join(words if adding else words[:-1]))
    p = pos
    try:
        for token in before[0] if before else ():
            p = p.play(p.parse(token))
    except RulesError:
        return []
    whose = lang.tr("their move") if (len(before[0]) if before else 0) % 2 == 0 else lang.tr("your answer")
    typed_move = pm.split_lines(typing)  # empty for a move number alone ("2."): kept
    stem = typed[:len(typed) - len(typing)] if typed_move else (typed + " " if typing else typed)
    out = []
    for _label, san in suggest.suggest_moves(p, typed_move[0][0] if typed_move else "", limit):
        value = stem + san
        if len(value) <= 100:
            name = f"{value} · {whose}"
            out.append((name if len(name) <= 100 else "…" + name[-99:], value))
    return out


def lines_text(found) -> str:
    rows = [" ".join(format.safe(m) for m in line) for line in found.sans()]
    text = "\n".join(f"· {r}" for r in rows)
    return text if len(text) <= 1800 else text[:1800] + " …"


def _dropped_text(gid: int, n: int, *, m: Markup = DISCORD) -> str:
    if not n:
        return m.tr("You had no conditional lines in game #{game}.", game=gid)
    return m.trn("Your {n} conditional line in game #{game} is cancelled.",
                 "Your {n} conditional lines in game #{game} are cancelled.", n, game=gid)


class CancelPremoves(_Button, template=r"fp:premove-cancel:(\d+)"):
    action, caption, style = "premove-cancel", T("Cancel these lines"), discord.ButtonStyle.danger

    async def run(self, interaction, fairy):
        (gid,) = self.ids
        note_game(interaction, gid)
        me, m = await fairy.me(interaction)
        n = await fairy.service.cancel_premoves(gid, me.id)
        await interaction.response.edit_message(content=_dropped_text(gid, n, m=m), view=None)


def cancel_view(game_id: int, *, m: Markup = DISCORD) -> ui.View:
    v = ui.View(timeout=None)
    v.add_item(CancelPremoves(game_id, m=m))
    return v


DYNAMIC = (CancelPremoves, NextGame, ConfirmMove)
