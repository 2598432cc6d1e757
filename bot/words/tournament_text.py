"""The words of tournaments (bot/tournaments/): a one-line summary, and the standings with
the games and their results, in any markup (PLAIN, DISCORD, HTML). The end's notice is
with the other notices (text.py)."""

from __future__ import annotations

from .text import Markup, days_text, game_name, points_text

FORMAT_NAMES = {"round-robin": "round robin", "swiss": "Swiss"}
STATUS_NAMES = {"open": "open for entries", "running": "under way", "paused": "paused",
                "finished": "over"}


def tournament_line(t, m: Markup) -> str:
    """One line for a list of tournaments."""
    kind = FORMAT_NAMES[t.format] + (" (double)" if t.double else "")
    rounds = f", {t.rounds} rounds" if t.format == "swiss" else ""
    return (f"#{t.id} {m.bold(t.name)} · {game_name(t.game)} · {kind}{rounds} · "
            f"{days_text(t.days)} · {'rated' if t.rated else 'casual'} · {len(t.entrants)} "
            f"player{'' if len(t.entrants) == 1 else 's'} · {status_name(t)}")


def status_name(t) -> str:
    """The event's state in words: "starting" while the games of its start are being made."""
    return "starting" if t.starting else STATUS_NAMES[t.status]


def _result_of(p) -> str:
    if p.black is None:
        return f"bye ({points_text(p.bye_points or 0)})"
    return p.result if p.result is not None else "playing"


def tournament_text(t, m: Markup) -> str:
    """The standings (with the tie-breaks) and every game with its result."""
    return standings_text(t, m, games=True)


def standings_text(t, m: Markup, *, games: bool = False) -> str:
    """The event's line and its standings (with the tie-breaks); ``games``: every game with
    its result too."""
    name = m.escape
    lines = [tournament_line(t, m)]
    if t.status == "running" and t.format == "swiss":
        lines.append(f"Round {t.round} of {t.rounds}.")
    if not t.standings:
        lines.append("No players yet.")
        return m.lines(lines)
    tb = " · ".join(t.tiebreak_names)
    lines.append(f"Standings (points · {tb}):")
    rows = []
    for s in t.standings:
        breaks = " · ".join(points_text(v) if v * 2 == int(v * 2) else f"{v:g}" for v in s.tiebreaks)
        out = " (withdrawn)" if s.withdrawn else ""
        rows.append(f"{s.place}. {name(s.player.name)}{out} · {points_text(s.points)} · {breaks}")
    lines.append(m.list(rows))
    if games and t.pairings:
        lines.append("Games:")
        rows = []
        for p in t.pairings:
            black = name(p.black.name) if p.black is not None else "—"
            game = f" · game #{p.game_id}" if p.game_id is not None else ""
            # a result decided by a director or a rule: marked, with who and why
            decided = f" ({name(p.decided)})" if getattr(p, "decided", None) else ""
            rows.append(f"round {p.round}: {name(p.white.name)} – {black} · {_result_of(p)}{decided}{game}")
        lines.append(m.list(rows))
    return m.lines(lines)
