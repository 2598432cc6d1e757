"""Pairing for tournaments, pure (no I/O): round robins by the Berger tables, Swiss rounds
by the Dutch system's rules.

Players are named by ``int`` ids; their seed order (strongest first, the pairing numbers
1, 2, ...) is the order of the list given. A pairing is ``(white, black)``; a bye is
``(player, None)``.

The Swiss pairing keeps the Dutch system's absolute rules — no two players meet twice, a
player has at most one bye, and no colour three times running nor a colour difference
beyond ±2 — and its order of preference: players of one score group meet (the top half
against the bottom half: 1 v 5, 2 v 6 ... in a group of eight), an odd one out floats
down to the next group, colours go as each player's preference asks (the stronger
preference first, then the higher ranked). It is a backtracking search over the players
in score order, trying partners in that order of preference, so the first pairing found
is the Dutch one where the rules allow it, and some legal pairing where they do not. If
no pairing keeps the colour rules (it happens late in small events), colours are relaxed
before the pairing is refused (``SwissRound.colours_relaxed`` says so); a pairing that
would repeat a game or give a second bye is never made (:class:`PairingImpossible`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

WHITE, BLACK = "w", "b"

Pair = tuple[int, int | None]


class PairingImpossible(Exception):
    """No pairing keeps the absolute rules (no game twice, one bye each)."""


# ---------------------------------------------------------------- round robin (Berger)

def berger_rounds(count: int) -> list[list[tuple[int, int]]]:
    """The Berger tables (FIDE Handbook C.05) for ``count`` pairing numbers (1-based): a
    list of rounds, each a list of ``(white, black)`` numbers. An odd count plays as the
    next even one, the highest number being the bye."""
    if count < 2:
        return []
    n = count + count % 2
    half, ring = n // 2, n - 1
    board = [(i + 1, n - i) for i in range(half)]  # round 1: 1-n, 2-(n-1), ...
    rounds = []
    for _ in range(n - 1):
        rounds.append(list(board))
        # the next round: every number but n moves on by n/2 (mod n-1); n changes colour
        step = lambda k: k if k == n else (k - 1 + half) % ring + 1  # noqa: E731
        board = [(step(w), step(b)) for w, b in board]
        board = [(b, w) if n in (w, b) else (w, b) for w, b in board]
        # the pair with n stays on board 1
        board.sort(key=lambda p: 0 if n in p else 1)
    return rounds


def round_robin(players: Sequence[int], *, double: bool = False) -> list[list[Pair]]:
    """Every round of an all-play-all among ``players`` (in seed order): once, or twice
    (``double``) with the second cycle's colours swapped. With an odd number, one player
    sits out each round: ``(player, None)``."""
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    count = len(players)
    rounds: list[list[Pair]] = []
    for table in berger_rounds(count):
        pairs: list[Pair] = []
        for w, b in table:
            if w > count:
                pairs.append((players[b - 1], None))
            elif b > count:
                pairs.append((players[w - 1], None))
            else:
                pairs.append((players[w - 1], players[b - 1]))
        rounds.append(pairs)
    if double:
        rounds += [[(b, w) if b is not None else (w, None) for w, b in r] for r in rounds]
    return rounds


# ---------------------------------------------------------------- Swiss (Dutch)

@dataclass(frozen=True)
class SwissPlayer:
    """What the pairing of a Swiss round needs of a player so far."""

    id: int
    score: float = 0.0
    colours: tuple[str, ...] = ()  # the colours played, in order (byes left out)
    opponents: frozenset[int] = frozenset()
    had_bye: bool = False

    @property
    def colour_difference(self) -> int:
        return self.colours.count(WHITE) - self.colours.count(BLACK)

    def preference(self) -> tuple[str | None, int]:
        """The colour this player should have and how strongly: 3 absolute (a difference of
        two, or the same colour twice running), 2 strong (a difference of one), 1 mild
        (the other colour than last time), 0 none (no game yet)."""
        return self._preference

    @cached_property
    def _preference(self) -> tuple[str | None, int]:
        # worked out once per player: the search asks it of every pair it weighs
        cd = self.colour_difference
        if cd <= -2 or self.colours[-2:] == (BLACK, BLACK):
            return WHITE, 3
        if cd >= 2 or self.colours[-2:] == (WHITE, WHITE):
            return BLACK, 3
        if cd == -1:
            return WHITE, 2
        if cd == 1:
            return BLACK, 2
        if self.colours:
            return (WHITE if self.colours[-1] == BLACK else BLACK), 1
        return None, 0

    def may_have(self, colour: str) -> bool:
        """Whether playing ``colour`` next keeps the colour rules (no three running, a
        difference within ±2)."""
        return colour in self._allowed

    @cached_property
    def _allowed(self) -> frozenset[str]:
        want, strength = self._preference
        return frozenset((WHITE, BLACK)) if strength < 3 else frozenset((want,))


@dataclass
class SwissRound:
    pairs: list[Pair]
    colours_relaxed: bool = False


@dataclass
class _Search:
    players: list[SwissPlayer]       # in ranking order (score, then seed)
    rank: dict[int, int]             # id -> position in ``players``
    keep_colours: bool
    budget: int
    nodes: int = 0
    pairs: list[tuple[int, int]] = field(default_factory=list)


def _colours_for(a: SwissPlayer, b: SwissPlayer, rank: dict[int, int], board: int) -> tuple[int, int] | None:
    """(white, black) for a pair by the Dutch rules, or None if no colours keep the rules."""
    wa, sa = a.preference()
    wb, sb = b.preference()
    legal = [(w, k) for w, k in ((a, b), (b, a)) if w.may_have(WHITE) and k.may_have(BLACK)]
    if not legal:
        return None
    if len(legal) == 1:
        return legal[0][0].id, legal[0][1].id
    if wa is None and wb is None:  # the first round: board 1's higher ranked white, alternating
        top, low = (a, b) if rank[a.id] < rank[b.id] else (b, a)
        return (top.id, low.id) if board % 2 == 0 else (low.id, top.id)
    if wa != wb:  # both can have what they want
        return (a.id, b.id) if wa == WHITE or wb == BLACK else (b.id, a.id)
    # the same colour wanted: the stronger preference has it, else the higher ranked
    first, other = (a, b) if (sa, -rank[a.id]) > (sb, -rank[b.id]) else (b, a)
    return (first.id, other.id) if wa == WHITE else (other.id, first.id)


def _compatible(a: SwissPlayer, b: SwissPlayer, keep_colours: bool) -> bool:
    if b.id in a.opponents:
        return False
    if not keep_colours:
        return True
    # both may have either colour, or between them one may have White and the other Black
    x, y = a._allowed, b._allowed
    return len(x) == 2 or len(y) == 2 or x != y


def _candidates(s: _Search, top: SwissPlayer, rest: list[SwissPlayer]) -> list[SwissPlayer]:
    """Partners for ``top`` in the Dutch order of preference: its own score group first,
    the player half the group below it first (S1 against S2), then the nearest scores."""
    group = [p for p in rest if p.score == top.score]
    # top heads its group (m players with it): its S2 partner is the group's (m // 2)-th
    # after it, index m // 2 - 1 in ``group``, which leaves top out
    ideal = (len(group) + 1) // 2 - 1
    position = {p.id: i for i, p in enumerate(group)}
    want, _ = top.preference()

    def key(p: SwissPlayer):
        in_group = p.id in position
        distance = abs(position[p.id] - ideal) if in_group else 0
        pref, _ = p.preference()
        clash = 1 if want is not None and pref == want else 0
        return (abs(top.score - p.score), distance, clash, s.rank[p.id])

    return sorted((p for p in rest if _compatible(top, p, s.keep_colours)), key=key)


def _pair_all(s: _Search, rest: list[SwissPlayer]) -> bool:
    if not rest:
        return True
    s.nodes += 1
    if s.nodes > s.budget:
        return False
    top, others = rest[0], rest[1:]
    for partner in _candidates(s, top, others):
        left = [p for p in others if p.id != partner.id]
        if not _may_pair(s, left):
            continue
        s.pairs.append((top.id, partner.id))
        if _pair_all(s, left):
            return True
        s.pairs.pop()
    return False


def _may_pair(s: _Search, rest: list[SwissPlayer]) -> bool:
    """A quick necessary condition for ``rest`` to be paired (so that a choice that dooms
    the last boards is undone at once, not after a search of everything between): each has
    someone left to meet, and those who must have White are no more than those who may
    have Black (and the other way round)."""
    if s.keep_colours:
        must_white = sum(1 for p in rest if not p.may_have(BLACK))
        must_black = sum(1 for p in rest if not p.may_have(WHITE))
        free = len(rest) - must_white - must_black
        if must_white > must_black + free or must_black > must_white + free:
            return False
    return all(any(_compatible(p, q, s.keep_colours) for q in rest if q is not p) for p in rest)


def pair_swiss(players: Sequence[SwissPlayer], *, budget: int = 200_000) -> SwissRound:
    """The next Swiss round for ``players`` (in seed order, the strongest first). Raises
    :class:`PairingImpossible` if no pairing keeps the absolute rules."""
    if len({p.id for p in players}) != len(players):
        raise ValueError("a player is listed twice")
    seed = {p.id: i for i, p in enumerate(players)}
    ranked = sorted(players, key=lambda p: (-p.score, seed[p.id]))
    rank = {p.id: i for i, p in enumerate(ranked)}
    # the bye: to the lowest ranked (lowest score, then the highest seed number) who has
    # not had one, such that the others can be paired
    bye_options: list[SwissPlayer | None] = [None]
    if len(ranked) % 2 == 1:
        bye_options = [p for p in reversed(ranked) if not p.had_bye]
        if not bye_options:
            raise PairingImpossible("every player has had a bye")
    for keep_colours in (True, False):
        for bye in bye_options:
            field_ = [p for p in ranked if bye is None or p.id != bye.id]
            s = _Search(field_, rank, keep_colours, budget)
            if _pair_all(s, field_):
                by_id = {p.id: p for p in players}
                pairs: list[Pair] = []
                for board, (a, b) in enumerate(s.pairs):
                    colours = _colours_for(by_id[a], by_id[b], rank, board)
                    if colours is None:  # colours relaxed: the higher ranked's preference
                        want, _ = by_id[a].preference()
                        colours = (b, a) if want == BLACK else (a, b)
                    pairs.append(colours)
                if bye is not None:
                    pairs.append((bye.id, None))
                return SwissRound(pairs, colours_relaxed=not keep_colours)
    raise PairingImpossible("no pairing avoids a repeated game")
