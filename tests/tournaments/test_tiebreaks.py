"""Tie-breaks as FIDE's Handbook C.07 (2023) defines them (bot/tournaments/tiebreaks.py),
checked against FIDE's own published exercise with byes, forfeits and a withdrawal, and
against small tables worked by hand: Sonneborn-Berger, Buchholz, Buchholz Cut 1, the direct
encounter; forfeits and byes as article 16 scores them."""

from __future__ import annotations

import itertools

import pytest

from bot.tournaments.tiebreaks import (
    Result,
    buchholz,
    direct_encounter,
    player_rounds,
    scores,
    scores_for_opponents,
    sonneborn_berger,
    standings,
)

# FIDE Technical Efficiency Commission, "Tie-break exercise" for the 2023 regulations
# (tec.fide.com, published 2024-03-18): a 16-player, 5-round Swiss. Typed in from the copy
# in the public test data of the tiebreak library github.com/marceljuenemann/tiebreak
# (src/__tests__/testcases/fide-exercise-2023.csv, whose README names the FIDE page), its
# answers from that library's tests (src/__tests__/tiebreak.test.ts, "FIDE exercise 1-8").
# Each cell: + win, = draw, - loss; W/B the colour, F a forfeit (no game), BYE a bye
# (+BYE: the pairing's full-point bye; =BYE: a half-point bye asked for), -- not paired.
FIDE_EXERCISE = """
1,+W9,=B13,=W2,+B15,=W4
2,+B10,+W7,=B1,+W16,=B3
3,=W11,+B6,+W8,=B4,=W2
4,+B12,=BYE,+W13,=W3,=B1
5,-W13,-B15,+W11,=B7,+W10
6,-B14,-W3,+BYE,+W10,+B8
7,+W15,-B2,-B16,=W5,-B11
8,=B16,+W14,-B3,+W13,-W6
9,-B1,-W10,=BYE,-F11,+BYE
10,-W2,+B9,-W15,-B6,-B5
11,=B3,-W16,-B5,+F9,+W7
12,-W4,+BYE,+F14,--,--
13,+B5,=W1,-B4,-B8,-W14
14,+W6,-B8,-F12,--,+B13
15,-B7,+W5,+B10,-W1,-B16
16,=W8,+B11,+W7,-B2,+W15
"""
# FIDE's answers: Buchholz (exercises 1-4) and Buchholz Cut 1 (exercises 5-8)
FIDE_BUCHHOLZ = {2: 13, 1: 12.5, 3: 15.5, 5: 8.5, 8: 13.5, 11: 13.5, 16: 12.5, 4: 15.0}
FIDE_BUCHHOLZ_CUT_1 = {5: 7.5, 8: 12, 11: 12, 7: 12.5, 9: 7.5, 13: 12, 1: 11, 3: 13, 4: 11.5, 16: 11,
                       12: 9.5, 14: 9, 15: 11}


def crosstable(text: str) -> list[Result]:
    """The results of a crosstable typed as above (each game once)."""
    points = {"+": 1.0, "=": 0.5, "-": 0.0}
    out, seen = [], set()
    for line in text.strip().splitlines():
        player, *cells = line.split(",")
        me = int(player)
        for number, cell in enumerate(cells, 1):
            if cell == "--":
                continue
            got = points[cell[0]]
            if cell[1:] == "BYE":
                out.append(Result(me, None, got, number))
                continue
            how, other = cell[1], int(cell[2:])
            if (number, frozenset((me, other))) in seen:
                continue
            seen.add((number, frozenset((me, other))))
            if how == "B":
                out.append(Result(other, me, 1 - got, number))
            else:  # W, or F: a forfeit, written from this player's side
                out.append(Result(me, other, got, number, forfeit=how == "F"))
    return out


@pytest.fixture
def exercise():
    return player_rounds(range(1, 17), crosstable(FIDE_EXERCISE), swiss=True, rounds=5)


def test_fides_exercise_buchholz(exercise):
    got = buchholz(exercise)
    assert {p: got[p] for p in FIDE_BUCHHOLZ} == FIDE_BUCHHOLZ


def test_fides_exercise_buchholz_cut_1(exercise):
    got = buchholz(exercise, cut=1)
    assert {p: got[p] for p in FIDE_BUCHHOLZ_CUT_1} == FIDE_BUCHHOLZ_CUT_1


def test_fides_exercise_byes_forfeits_and_the_withdrawal(exercise):
    own, theirs = scores(exercise), scores_for_opponents(exercise)
    # 12 lost round 1, had the pairing's bye, won by forfeit, then left: 2 points, and
    # the two rounds after leaving count as draws for their opponents' tie-breaks
    assert own[12] == 2 and theirs[12] == 3
    # 14 was absent in round 4 but played round 5: no adjustment (not a withdrawal)
    assert own[14] == theirs[14] == 2
    # 9: a half-point bye asked for (voluntary), a forfeit lost (voluntary), the pairing's
    # bye last (not voluntary): the score stands for the opponents
    assert own[9] == theirs[9] == 1.5
    # 4's own half-point bye is a game against a dummy with 4's own score, 3½
    assert [r.voluntary for r in exercise[4]] == [False, True, False, False, False]
    # and Cut 1 takes that voluntary bye first (3½), not the lowest value (1½)
    assert buchholz(exercise)[4] - buchholz(exercise, cut=1)[4] == 3.5


def test_the_older_rule_would_differ_there():
    """What the 2023 rule changes on FIDE's exercise: counting every score as it stands
    (no dummy opponent, no withdrawal adjustment), 11's Buchholz is 12.5, not FIDE's 13.5."""
    rounds = player_rounds(range(1, 17), crosstable(FIDE_EXERCISE), swiss=True, rounds=5)
    own = scores(rounds)
    naive = sum(own[r.opponent] for r in rounds[11] if r.opponent is not None)
    assert naive == 12.5 and buchholz(rounds)[11] == 13.5


# A round robin of four: A beat B and D, drew C; C beat B; D beat C; B beat D.
#         A    B    C    D   | pts | SB
#   A     -    1    ½    1   | 2½  | 1 + ½·1½ + 1          = 2.75
#   B     0    -    0    1   | 1   | D's 1                 = 1
#   C     ½    1    -    0   | 1½  | ½·2½ + B's 1          = 2.25
#   D     0    0    1    -   | 1   | C's 1½                = 1.5
A, B, C, D = 1, 2, 3, 4
RR = [Result(A, B, 1, 1), Result(D, C, 1, 1), Result(C, A, 0.5, 2), Result(B, D, 1, 2), Result(A, D, 1, 3),
      Result(C, B, 1, 3)]


def test_sonneborn_berger_by_hand():
    rounds = player_rounds([A, B, C, D], RR, swiss=False)
    assert sonneborn_berger(rounds) == {A: 2.75, B: 1.0, C: 2.25, D: 1.5}
    table = standings([A, B, C, D], RR, "round-robin")
    # B and D have 1 each: D's Sonneborn-Berger puts D above the higher seed B
    assert [(s.player, s.points, s.tiebreaks) for s in table] == [
        (A, 2.5, (2.75,)), (C, 1.5, (2.25,)), (D, 1.0, (1.5,)), (B, 1.0, (1.0,))]


def test_a_forfeit_in_a_round_robin_counts_against_a_dummy_of_ones_own_score():
    # as RR, but B's win over D was a forfeit (D never played): B's SB for it is B's own 1
    forfeit = [r if (r.white, r.black) != (B, D) else Result(B, D, 1, 2, forfeit=True) for r in RR]
    rounds = player_rounds([A, B, C, D], forfeit, swiss=False)
    assert sonneborn_berger(rounds) == {A: 2.75, B: 1.0, C: 2.25, D: 1.5}
    # D's loss by forfeit: a voluntarily unplayed round (D's last is a played game: no adjustment)
    assert [r.voluntary for r in rounds[D]] == [False, True, False]
    # a rest round in a round robin of three is no round of its player's
    three = [Result(A, B, 1, 1), Result(C, A, 0, 2), Result(B, C, 0.5, 3)]
    assert {p: len(r) for p, r in player_rounds([A, B, C], three, swiss=False).items()} == {A: 2, B: 2, C: 2}


# A Swiss of five, two rounds: R1 1-4 1-0, 2-5 ½, 3 the pairing's bye; R2 1-3 1-0, 2-4 1-0,
# 5 the pairing's bye. Scores 1: 2, 2: 1½, 3: 1, 4: 0, 5: 1½ (no one left: no adjustment).
#   Buchholz (a bye: a dummy with the player's own score)
#     1: 4's 0 + 3's 1 = 1; 2: 5's 1½ + 4's 0 = 1½; 3: own 1 + 1's 2 = 3;
#     4: 1's 2 + 2's 1½ = 3½; 5: 2's 1½ + own 1½ = 3
#   Cut 1 (the lowest left out): 1: 1, 2: 1½, 3: 2, 4: 2, 5: 1½
SWISS = [Result(1, 4, 1, 1), Result(2, 5, 0.5, 1), Result(3, None, 1, 1), Result(1, 3, 1, 2), Result(2, 4, 1, 2),
         Result(5, None, 1, 2)]


def test_buchholz_and_cut_1_by_hand():
    rounds = player_rounds(range(1, 6), SWISS, swiss=True)
    assert buchholz(rounds) == {1: 1, 2: 1.5, 3: 3, 4: 3.5, 5: 3}
    assert buchholz(rounds, cut=1) == {1: 1, 2: 1.5, 3: 2, 4: 2, 5: 1.5}
    table = standings(list(range(1, 6)), SWISS, "swiss")
    # 2 and 5 tie on points and Cut 1; Buchholz puts 5 first
    assert [(s.player, s.tiebreaks[:2]) for s in table] == [
        (1, (1, 1)), (5, (1.5, 3)), (2, (1.5, 1.5)), (3, (2, 3)), (4, (2, 3.5))]


def test_the_direct_encounter():
    # three players who all met: X beat Y, Y beat Z, X and Z drew
    x, y, z = 1, 2, 3
    games = [Result(x, y, 1, 1), Result(y, z, 1, 2), Result(z, x, 0.5, 3)]
    rounds = player_rounds([x, y, z], games, swiss=True)
    assert direct_encounter(rounds, [x, y, z]) == {x: 1.5, y: 1, z: 0.5}
    assert direct_encounter(rounds, [y, z]) == {y: 1, z: 0}
    # not all of them met: it separates no one
    assert direct_encounter(player_rounds([x, y, z], games[:2], swiss=True), [x, y, z]) == {x: 0, y: 0, z: 0}
    # a forfeit is no encounter
    forfeit = [Result(x, y, 1, 1, forfeit=True)]
    assert direct_encounter(player_rounds([x, y], forfeit, swiss=True), [x, y]) == {x: 0, y: 0}


def test_the_direct_encounter_breaks_a_tie_left_by_buchholz():
    # four players, each beat one and lost to one among two pairs with equal opponents:
    # 1 and 2 end level on points, Cut 1 and Buchholz; 2 beat 1
    games = [Result(1, 3, 1, 1), Result(2, 4, 1, 1), Result(2, 1, 1, 2), Result(4, 3, 1, 2),
             Result(1, 4, 1, 3), Result(3, 2, 1, 3)]
    table = standings([1, 2, 3, 4], games, "swiss")
    top = {s.player: s for s in table[:2]}
    assert set(top) == {1, 2} and top[1].tiebreaks[:2] == top[2].tiebreaks[:2]
    assert [s.player for s in table[:2]] == [2, 1] and top[2].tiebreaks[2] == 1


def test_a_game_still_going_is_no_absence():
    rounds = player_rounds([1, 2, 3, 4], [Result(1, 2, 1, 1)], swiss=True, rounds=1, unfinished={(3, 1), (4, 1)})
    assert rounds[3] == [] and rounds[4] == []
    every = player_rounds([1, 2, 3, 4], [Result(1, 2, 1, 1)], swiss=True, rounds=1)
    assert every[3][0].voluntary  # no game and no result: not paired, an absence


def test_every_pair_once_makes_no_absence():
    games = [Result(w, b, 0.5, n) for n, (w, b) in enumerate(itertools.combinations(range(1, 5), 2), 1)]
    rounds = player_rounds(range(1, 5), games, swiss=False)
    assert all(len(r) == 3 and all(x.played for x in r) for r in rounds.values())
