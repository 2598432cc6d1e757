"""Tie-breaks as FIDE's Handbook defines them (C.07, the tie-break regulations in force
since 2023), pure: Sonneborn-Berger for round robins; Buchholz Cut 1, Buchholz and the
direct encounter for a Swiss; unplayed rounds scored by C.07's article 16.

Each player's rounds are read from the results (:class:`Result`, round by round):

* a **played game**: the opponent counts with their score *for tie-breaks* (below);
* an **unplayed round** — a forfeit won or lost, a bye of any kind, a round a player was
  not paired in (withdrawn) — counts as a game against a *dummy opponent* with the same
  score as the player at the end (article 16, "the participant's own unplayed rounds");
* a round is **voluntarily unplayed** (VUR) when the player chose not to play it: a forfeit
  lost, a bye of less than a point (asked for), a round they were not paired in. A
  pairing-allocated bye and a forfeit won are not: the player was there to play.
* a player's score *for the tie-breaks of their opponents* counts their last run of VURs
  (the rounds after they left) as draws, ½ each; every other round as scored;
* when a low cut (Buchholz Cut 1) takes the least significant value, a VUR is cut first.

A round robin's rest round (an odd number of players: one sits out each round) is no round
of that player's at all (Berger tables). A game still going, or voided, counts nowhere yet.
docs/tournaments.md says why the 2023 rule and not the older "virtual opponent".
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

ROUND_ROBIN_TIEBREAKS = ("SB",)
SWISS_TIEBREAKS = ("BH-C1", "BH", "DE")
#: Each tie-break's name in full (FIDE's acronyms are the short ones)
TIEBREAK_NAMES = {"SB": "Sonneborn-Berger", "BH-C1": "Buchholz Cut 1", "BH": "Buchholz",
                  "DE": "Direct encounter"}


@dataclass(frozen=True)
class Result:
    """A result of round ``round``: a game (``white_points`` 1, ½ or 0; the black player
    has the rest), ``forfeit`` when it was not played (won or lost without play); or a bye
    (``black`` None) worth ``white_points`` to its player (1: given by the pairing; less:
    asked for)."""

    white: int
    black: int | None
    white_points: float
    round: int = 0
    forfeit: bool = False


@dataclass(frozen=True)
class Round:
    """One round of one player's, as the tie-breaks see it."""

    number: int
    opponent: int | None  # None: no opponent (a bye, an absence)
    points: float
    played: bool           # a game played over the board
    voluntary: bool        # a voluntarily unplayed round (VUR)


@dataclass(frozen=True)
class Standing:
    player: int
    points: float
    tiebreaks: tuple[float, ...]
    games: int


def player_rounds(players: Sequence[int], results: Sequence[Result], *, swiss: bool,
                  rounds: int = 0, unfinished: Collection[tuple[int, int]] = ()) -> dict[int, list[Round]]:
    """Each player's rounds. In a Swiss every round up to ``rounds`` (or the last with a
    result) is one of each player's: one they have no result in and no game going
    (``unfinished``: (player, round)) is an absence."""
    out: dict[int, dict[int, Round]] = {p: {} for p in players}
    for r in results:
        if r.black is None:
            if r.white in out:
                out[r.white][r.round] = Round(r.round, None, r.white_points, False, r.white_points < 1)
            continue
        for me, other, got in ((r.white, r.black, r.white_points), (r.black, r.white, 1 - r.white_points)):
            if me in out:
                out[me][r.round] = Round(r.round, other, got, not r.forfeit, r.forfeit and got == 0)
    if swiss:
        last = max([rounds, *(r.round for r in results)])
        going = set(unfinished)
        for p, mine in out.items():
            for n in range(1, last + 1):
                if n not in mine and (p, n) not in going:
                    mine[n] = Round(n, None, 0.0, False, True)
    return {p: [mine[n] for n in sorted(mine)] for p, mine in out.items()}


def scores(rounds: dict[int, list[Round]]) -> dict[int, float]:
    return {p: sum(r.points for r in mine) for p, mine in rounds.items()}


def scores_for_opponents(rounds: dict[int, list[Round]]) -> dict[int, float]:
    """Each player's score as their opponents' tie-breaks count it: the run of voluntarily
    unplayed rounds they ended with (they left) counted as draws."""
    out = {}
    for p, mine in rounds.items():
        cut = len(mine)
        while cut > 0 and mine[cut - 1].voluntary:
            cut -= 1
        out[p] = sum(r.points for r in mine[:cut]) + 0.5 * (len(mine) - cut)
    return out


def _values(rounds: dict[int, list[Round]]) -> dict[int, list[tuple[Round, float]]]:
    """Each player's rounds with the score of the opponent each counts (the real one's for
    tie-breaks, or the dummy's: the player's own)."""
    own, theirs = scores(rounds), scores_for_opponents(rounds)
    return {p: [(r, theirs[r.opponent] if r.played and r.opponent is not None else own[p]) for r in mine]
            for p, mine in rounds.items()}


def buchholz(rounds: dict[int, list[Round]], *, cut: int = 0) -> dict[int, float]:
    """The sum of the opponents' scores; ``cut``: that many least significant values left
    out, the voluntarily unplayed rounds' first."""
    out = {}
    for p, values in _values(rounds).items():
        ordered = sorted(values, key=lambda rv: (not rv[0].voluntary, rv[1]))
        out[p] = sum(v for _, v in ordered[cut:])
    return out


def sonneborn_berger(rounds: dict[int, list[Round]]) -> dict[int, float]:
    """For each round the opponent's score times the points scored against them."""
    return {p: sum(r.points * v for r, v in values) for p, values in _values(rounds).items()}


def direct_encounter(rounds: dict[int, list[Round]], tied: Collection[int]) -> dict[int, float]:
    """Among ``tied`` players (equal on points and the tie-breaks before this one): the
    points each scored in the games played between them, if every two of them met; 0 for
    all otherwise (it then separates no one). Forfeits are not encounters."""
    group = set(tied)
    if len(group) < 2:
        return {p: 0.0 for p in group}
    met = {frozenset((p, r.opponent)) for p in group for r in rounds[p]
           if r.played and r.opponent in group}
    if len(met) < len(group) * (len(group) - 1) // 2:
        return {p: 0.0 for p in group}
    return {p: sum(r.points for r in rounds[p] if r.played and r.opponent in group) for p in group}


def standings(players: Sequence[int], results: Sequence[Result], fmt: str, *, rounds: int = 0,
              unfinished: Collection[tuple[int, int]] = ()) -> list[Standing]:
    """The table, best first: points, then the format's tie-breaks (round robin:
    Sonneborn-Berger; Swiss: Buchholz Cut 1, Buchholz, the direct encounter), then the seed
    order (``players``' order)."""
    if fmt not in ("round-robin", "swiss"):
        raise ValueError(f"no format {fmt!r}")
    swiss = fmt == "swiss"
    mine = player_rounds(players, results, swiss=swiss, rounds=rounds, unfinished=unfinished)
    points = scores(mine)
    games = {p: sum(r.played for r in mine[p]) for p in players}
    if not swiss:
        sb = sonneborn_berger(mine)
        breaks = {p: (sb[p],) for p in players}
    else:
        cut1, bh = buchholz(mine, cut=1), buchholz(mine)
        before = {p: (points[p], cut1[p], bh[p]) for p in players}
        de: dict[int, float] = {}
        for key in set(before.values()):
            de.update(direct_encounter(mine, [p for p in players if before[p] == key]))
        breaks = {p: (cut1[p], bh[p], de[p]) for p in players}
    seed = {p: i for i, p in enumerate(players)}
    rows = [Standing(p, points[p], breaks[p], games[p]) for p in players]
    rows.sort(key=lambda r: (-r.points, tuple(-t for t in r.tiebreaks), seed[r.player]))
    return rows
