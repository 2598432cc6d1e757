"""The words of tournaments (bot/tournaments/): a one-line summary, and the standings with
the games and their results, in any markup (PLAIN, DISCORD, HTML) and in the markup's
reader's language (``m.in_language(code)``). The end's notice is with the other notices
(text.py)."""

from __future__ import annotations

import re

from .text import PLAIN, Markup, game_name, points_text

#: the English names (kept for old callers); ``format_name`` and ``status_name`` say them
#: in the reader's language
FORMAT_NAMES = {"round-robin": "round robin", "swiss": "Swiss"}
STATUS_NAMES = {"open": "open for entries", "running": "under way", "paused": "paused",
                "finished": "over"}
#: who decided a result no person decided (bot/tournaments/withdrawals.py stores it)
BY_THE_RULES = "the rules"
_LOST_ON_TIME = re.compile(r"(\d+) games lost on time")


def format_name(t, m: Markup = PLAIN) -> str:
    """"round robin", "Swiss", "round robin (double)" in the reader's language."""
    kind = m.tr("round robin") if t.format == "round-robin" else m.tr("Swiss")
    return m.tr("{format} (double)", format=kind) if t.double else kind


def status_name(t, m: Markup = PLAIN) -> str:
    """The event's state in words: "starting" while the games of its start are being made."""
    if t.starting:
        return m.tr("starting")
    return {"open": m.tr("open for entries"), "running": m.tr("under way"), "paused": m.tr("paused"),
            "finished": m.tr("over")}[t.status]


def game_title(game: str, m: Markup = PLAIN) -> str:
    """The event's game, its name from its data file in the reader's language."""
    return m.data(game_name(game))


def clock_text(days: int | None, m: Markup = PLAIN) -> str:
    """"3 days per move" (or "no clock") in the reader's language."""
    if days is None:
        return m.tr("no clock")
    return m.trn("{n} day per move", "{n} days per move", days)


def players_text(n: int, m: Markup = PLAIN) -> str:
    return m.trn("{n} player", "{n} players", n)


def tournament_line(t, m: Markup = PLAIN) -> str:
    """One line for a list of tournaments."""
    parts = [f"#{t.id} {m.bold(t.name)}", m.escape(game_title(t.game, m)), format_name(t, m)]
    if t.format == "swiss":
        parts[-1] += ", " + m.trn("{n} round", "{n} rounds", t.rounds)
    parts += [clock_text(t.days, m), m.tr("rated") if t.rated else m.tr("casual"),
              players_text(len(t.entrants), m), status_name(t, m)]
    return " · ".join(parts)


def result_text(p, m: Markup = PLAIN) -> str:
    """A pairing's result as the tables show it: 1-0, a bye and its points, "playing"."""
    if p.black is None:
        return m.tr("bye ({points})", points=points_text(p.bye_points or 0))
    if p.result is None:
        return m.tr("playing")
    if p.result == "cancelled":
        return m.tr("cancelled")
    return p.result  # one of the results the event knows (1-0, +/-): no markup to escape


def decision_note(p, m: Markup = PLAIN) -> str | None:
    """A decided result's note, "decided by NAME: REASON", in the reader's language, escaped:
    the reasons the bot writes itself (a withdrawal, a player taken out, timeouts) are said
    in the reader's language, a director's reason as they typed it. None: not decided."""
    by, reason = getattr(p, "decided_by", None), getattr(p, "decided_reason", None)
    if by is None or reason is None:
        decided = getattr(p, "decided", None)
        return m.escape(decided) if decided else None
    who = m.tr("the rules") if by == BY_THE_RULES else m.escape(by)
    lost = _LOST_ON_TIME.fullmatch(reason)
    if reason == f"{by} withdrew":
        why = m.tr("{name} withdrew", name=m.escape(by))
    elif reason.startswith("taken out by ") and reason.removeprefix("taken out by ") == by:
        why = m.tr("taken out by {name}", name=m.escape(by))
    elif by == BY_THE_RULES and lost:
        n = int(lost.group(1))
        why = m.trn("{n} game lost on time", "{n} games lost on time", n)
    else:
        why = m.escape(reason)
    return m.tr("decided by {who}: {reason}", who=who, reason=why)


def tournament_text(t, m: Markup = PLAIN) -> str:
    """The standings (with the tie-breaks) and every game with its result."""
    return standings_text(t, m, games=True)


def standings_text(t, m: Markup = PLAIN, *, games: bool = False) -> str:
    """The event's line and its standings (with the tie-breaks); ``games``: every game with
    its result too."""
    name = m.escape
    lines = [tournament_line(t, m)]
    if t.status == "running" and t.format == "swiss":
        lines.append(m.tr("Round {round} of {rounds}.", round=t.round, rounds=t.rounds))
    if not t.standings:
        lines.append(m.tr("No players yet."))
        return m.lines(lines)
    lines.append(m.tr("Standings (points · {tiebreaks}):", tiebreaks=" · ".join(t.tiebreak_names)))
    rows = []
    for s in t.standings:
        breaks = " · ".join(points_text(v) if v * 2 == int(v * 2) else f"{v:g}" for v in s.tiebreaks)
        who = m.tr("{name} (withdrawn)", name=name(s.player.name)) if s.withdrawn else name(s.player.name)
        rows.append(f"{s.place}. {who} · {points_text(s.points)} · {breaks}")
    lines.append(m.list(rows))
    if games and t.pairings:
        lines.append(m.tr("Games:"))
        rows = []
        for p in t.pairings:
            black = name(p.black.name) if p.black is not None else "—"
            row = m.tr("round {round}: {white} – {black}", round=p.round, white=name(p.white.name), black=black)
            row += " · " + result_text(p, m)
            # a result decided by a director or a rule: marked, with who and why
            note = decision_note(p, m)
            if note:
                row += f" ({note})"
            if p.game_id is not None:
                row += " · " + m.tr("game #{id}", id=p.game_id)
            rows.append(row)
        lines.append(m.list(rows))
    return m.lines(lines)
