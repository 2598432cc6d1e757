"""Pairing, pure: the Berger tables against FIDE's, Swiss rounds by the Dutch rules (score
groups, colours, byes, no game twice, over many random events), and a 500-player round's
time. The tie-breaks are tested in test_tiebreaks.py."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.tournaments.pairing import (
    BLACK,
    WHITE,
    PairingImpossible,
    SwissPlayer,
    berger_rounds,
    pair_swiss,
    round_robin,
)

# FIDE Handbook C.05, Annex 1: the Berger tables for 5 or 6 players
FIDE_BERGER_6 = [
    [(1, 6), (2, 5), (3, 4)],
    [(6, 4), (5, 3), (1, 2)],
    [(2, 6), (3, 1), (4, 5)],
    [(6, 5), (1, 4), (2, 3)],
    [(3, 6), (4, 2), (5, 1)],
]


def test_berger_tables_are_fides():
    assert berger_rounds(6) == FIDE_BERGER_6
    assert berger_rounds(4) == [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]


@pytest.mark.parametrize("count", range(2, 13))
@pytest.mark.parametrize("double", [False, True])
def test_round_robin_everyone_meets_everyone(count, double):
    players = [100 + i for i in range(count)]
    rounds = round_robin(players, double=double)
    cycle = count - 1 + count % 2
    assert len(rounds) == cycle * (2 if double else 1)
    met: dict[frozenset, list[tuple[int, int]]] = {}
    byes = {p: 0 for p in players}
    for r in rounds:
        seen = [p for pair in r for p in pair if p is not None]
        assert sorted(seen) == players  # each plays (or sits out) once a round
        for w, b in r:
            if b is None:
                byes[w] += 1
            else:
                met.setdefault(frozenset((w, b)), []).append((w, b))
    assert set(met) == {frozenset(p) for p in itertools.combinations(players, 2)}
    for games in met.values():
        if double:  # twice, with colours swapped
            assert len(games) == 2 and games[0] == games[1][::-1]
        else:
            assert len(games) == 1
    assert set(byes.values()) == ({(2 if double else 1)} if count % 2 else {0})
    # colours: in one cycle nobody's whites and blacks differ by more than one
    for p in players:
        first = rounds[:cycle]
        whites = sum(1 for r in first for w, b in r if w == p and b is not None)
        blacks = sum(1 for r in first for w, b in r if b == p)
        assert abs(whites - blacks) <= 1


def test_round_robin_refuses_a_player_twice():
    with pytest.raises(ValueError):
        round_robin([1, 2, 2])


def test_first_swiss_round_is_top_half_against_bottom_half():
    r = pair_swiss([SwissPlayer(i) for i in range(1, 9)])
    assert r.pairs == [(1, 5), (6, 2), (3, 7), (8, 4)]
    assert not r.colours_relaxed


def test_second_round_pairs_score_groups_and_grants_colours():
    # round 1 as above, the higher seed won every game
    history = {1: (WHITE, 5, 1), 5: (BLACK, 1, 0), 6: (WHITE, 2, 0), 2: (BLACK, 6, 1),
               3: (WHITE, 7, 1), 7: (BLACK, 3, 0), 8: (WHITE, 4, 0), 4: (BLACK, 8, 1)}
    players = [SwissPlayer(i, score=history[i][2], colours=(history[i][0],),
                           opponents=frozenset({history[i][1]})) for i in range(1, 9)]
    r = pair_swiss(players)
    # winners {1,2,3,4}: 1-3, 2-4; losers {5,6,7,8}: 5-7, 6-8. Both of a pair want the same
    # colour (after one game), so the higher ranked has it.
    assert r.pairs == [(3, 1), (2, 4), (5, 7), (8, 6)]


def test_the_bye_goes_to_the_lowest_ranked_who_has_not_had_one():
    r = pair_swiss([SwissPlayer(i) for i in range(1, 6)])
    assert (5, None) in r.pairs
    players = [SwissPlayer(1, 1.0, (WHITE,), frozenset({3})), SwissPlayer(2, 0.0, (WHITE,), frozenset({4})),
               SwissPlayer(3, 0.0, (BLACK,), frozenset({1})), SwissPlayer(4, 1.0, (BLACK,), frozenset({2})),
               SwissPlayer(5, 1.0, (), frozenset(), had_bye=True)]
    r = pair_swiss(players)
    assert (3, None) in r.pairs  # lowest score, then the highest seed number: 3 (not 5)


def test_no_second_bye_and_no_repeat():
    players = [SwissPlayer(1, 1.0, (WHITE,), frozenset({2}), had_bye=False),
               SwissPlayer(2, 0.0, (BLACK,), frozenset({1}), had_bye=False),
               SwissPlayer(3, 1.0, (), frozenset(), had_bye=True)]
    r = pair_swiss(players)
    # 1 and 2 have met; 3 had the bye: 3 meets one of them and the other sits out
    assert frozenset({1, 2}) not in {frozenset(p) for p in r.pairs if p[1] is not None}
    assert (3, None) not in r.pairs
    two = [SwissPlayer(1, 1.0, (WHITE,), frozenset({2})), SwissPlayer(2, 0.0, (BLACK,), frozenset({1}))]
    with pytest.raises(PairingImpossible):
        pair_swiss(two)


def test_colour_rules_hold_when_both_want_white_absolutely():
    a = SwissPlayer(1, 2.0, (BLACK, BLACK), frozenset({8, 9}))
    b = SwissPlayer(2, 2.0, (BLACK, BLACK), frozenset({10, 11}))
    c = SwissPlayer(3, 2.0, (WHITE, WHITE), frozenset({12, 13}))
    d = SwissPlayer(4, 2.0, (WHITE, WHITE), frozenset({14, 15}))
    r = pair_swiss([a, b, c, d])
    # 1 and 2 cannot meet (both must be White): each meets one who must be Black
    assert sorted(r.pairs) == [(1, 3), (2, 4)] or sorted(r.pairs) == [(1, 4), (2, 3)]
    assert not r.colours_relaxed


def _check_colours(colours: tuple[str, ...]) -> None:
    for i in range(len(colours) - 2):
        assert len(set(colours[i:i + 3])) > 1, colours
    assert abs(colours.count(WHITE) - colours.count(BLACK)) <= 2, colours


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=2, max_value=16), st.data())
def test_swiss_events_never_repeat_a_game_nor_give_two_byes(count, data):
    rounds = max(1, (count - 1) // 2) if count % 2 else count // 2
    rounds = data.draw(st.integers(min_value=1, max_value=rounds), label="rounds")
    state = {i: SwissPlayer(i) for i in range(1, count + 1)}
    met: set[frozenset] = set()
    relaxed = False
    for _ in range(rounds):
        r = pair_swiss(list(state.values()))
        relaxed |= r.colours_relaxed
        seen = sorted(p for pair in r.pairs for p in pair if p is not None)
        assert seen == list(range(1, count + 1))
        for w, b in r.pairs:
            if b is None:
                assert not state[w].had_bye
                s = state[w]
                state[w] = SwissPlayer(w, s.score + 1, s.colours, s.opponents, True)
                continue
            assert frozenset((w, b)) not in met
            met.add(frozenset((w, b)))
            got = data.draw(st.sampled_from([1.0, 0.5, 0.0]), label="result")
            sw, sb = state[w], state[b]
            state[w] = SwissPlayer(w, sw.score + got, sw.colours + (WHITE,), sw.opponents | {b}, sw.had_bye)
            state[b] = SwissPlayer(b, sb.score + 1 - got, sb.colours + (BLACK,), sb.opponents | {w}, sb.had_bye)
    if not relaxed:
        for s in state.values():
            _check_colours(s.colours)


def test_a_hundred_player_swiss_pairs_every_round():
    state = {i: SwissPlayer(i) for i in range(1, 101)}
    for n in range(7):
        r = pair_swiss(list(state.values()))
        assert not r.colours_relaxed
        for w, b in r.pairs:
            got = 1.0 if (w + b + n) % 3 else 0.5  # deterministic, mixed results
            sw, sb = state[w], state[b]
            state[w] = SwissPlayer(w, sw.score + got, sw.colours + (WHITE,), sw.opponents | {b})
            state[b] = SwissPlayer(b, sb.score + 1 - got, sb.colours + (BLACK,), sb.opponents | {w})
    for s in state.values():
        assert len(s.opponents) == 7
        _check_colours(s.colours)


def test_a_500_player_swiss_round_pairs_within_2_seconds():
    """Issue 43 item 5: pairing a 500-player round takes under 2 s. Every round of a 9-round
    event is paired (the late ones, with fewer partners left, are the slow ones) and each is
    timed in this process's CPU time (not the wall: other processes' load does not count);
    the bound is the issue's, about ten times what one round takes on a quiet core
    (bench/RESULTS.md, "python -m bench tournament", measures it against an anchor)."""
    import time
    state = {i: SwissPlayer(i) for i in range(1, 501)}
    worst = 0.0
    for n in range(9):
        began = time.process_time()
        r = pair_swiss(list(state.values()))
        worst = max(worst, time.process_time() - began)
        assert len(r.pairs) == 250 and not r.colours_relaxed
        for w, b in r.pairs:
            assert b is not None
            got = 1.0 if (w * 7 + b + n) % 3 else 0.5
            sw, sb = state[w], state[b]
            state[w] = SwissPlayer(w, sw.score + got, sw.colours + (WHITE,), sw.opponents | {b})
            state[b] = SwissPlayer(b, sb.score + 1 - got, sb.colours + (BLACK,), sb.opponents | {w})
    assert worst < 2.0, f"a round took {worst:.2f} s of CPU"
    assert all(len(s.opponents) == 9 for s in state.values())
