"""The pieces in hand (the drop games): the hands after a drop or a capture.

The same few hands come back again and again in a search, so each is made once per game
(one object per value) and each change of one is looked up, not worked out again.
"""
from __future__ import annotations

from collections.abc import Sequence

from .game import Game, Hands
from .pieces import DROP, WHITE, Move, PieceKind

# game -> {id(hands): (hands, per side moving {what changes them: hands after})}
_HANDS: dict[Game, dict[int, tuple[Hands, tuple[dict[object, Hands], dict[object, Hands]]]]] = {}
_HANDS_MADE: dict[Game, dict[Hands, Hands]] = {}   # game -> {hands: the one object of that value}


def new_hands(game: Game, hands: Hands, side: int, m: Move, captured: Sequence[PieceKind]) -> Hands:
    """The hands after side's drop or capture m (captured: the kinds it takes). Looked up
    by the hands' identity and the side, then by the one kind taken or dropped: no tuple
    of tuples hashed."""
    made = _HANDS.get(game)
    if made is None:
        made = _HANDS[game] = {}
    got = made.get(id(hands))
    if got is None or got[0] is not hands:   # held in the entry: its id stays its own
        if len(made) > 100_000:   # a bound for a long-running process
            made.clear()
        got = made[id(hands)] = (hands, ({}, {}))
    drop = m.kind == DROP
    key: object   # what changes them: the one kind taken, the kind dropped, or both with more
    if not drop and len(captured) == 1:
        key = captured[0]
    elif drop and not captured:
        key = (m.new,)
    else:
        key = (m.new if drop else None, tuple(captured))
    transitions = got[1][side]
    after = transitions.get(key)
    if after is None:
        after = _hands_after(game, hands, side, m, captured)
        values = _HANDS_MADE.get(game)
        if values is None or len(values) > 100_000:
            values = _HANDS_MADE[game] = {}
        after = transitions[key] = values.setdefault(after, after)
    return after


def _hands_after(game: Game, hands: Hands, us: int, m: Move, captured: Sequence[PieceKind]) -> Hands:
    order = game.drop_order
    mine = dict(hands[us])
    if m.kind == DROP:
        assert m.new is not None, "a drop puts a piece"
        mine[m.new.key] -= 1
        if not mine[m.new.key]:
            del mine[m.new.key]
    for q in captured:
        base = q.type.code
        mine[base] = mine.get(base, 0) + 1
    packed = tuple(sorted(mine.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order else 99))
    return (packed, hands[1]) if us == WHITE else (hands[0], packed)
